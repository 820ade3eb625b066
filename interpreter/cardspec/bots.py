"""Bots that cannot cheat: a bot is given a seat's ``view`` and the legal actions, never the state.

``Bot.act(view, legal)`` returns one of ``legal`` (text forms). ``RandomBot``
chooses uniformly with its own seeded RNG.
"""
from __future__ import annotations

import random


class Bot:
    """Base class: ``act(view: dict, legal: list[str]) -> str``."""

    name = "bot"

    def act(self, view: dict, legal: list) -> str:  # pragma: no cover - abstract
        raise NotImplementedError


class RandomBot(Bot):
    """Uniformly random legal actions."""

    name = "random"

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def act(self, view, legal):
        return legal[self.rng.randrange(len(legal))]


BOTS = {"random": RandomBot}


def make_bot(name: str, seed=None) -> Bot:
    """A bot by name (``random``). Raises ``ValueError`` naming the known bots."""
    try:
        return BOTS[name](seed=seed)
    except KeyError:
        raise ValueError(f"unknown bot '{name}'; bots: {', '.join(sorted(BOTS))}") from None
