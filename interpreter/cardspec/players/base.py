"""Bots that cannot cheat: a bot is given a seat's ``view`` and the legal actions, never the state.

``Bot.act(view, legal)`` returns one of ``legal`` (text forms). The only driver
is ``take_turn(state, bot)``: it builds ``state.view(seat)`` (with the seat's
filtered ``log`` when the bot sets ``wants_log``) and applies the answer
through the checked public ``State.apply``. Every ``act`` of every subclass is
wrapped so that anything but a plain view dict (a ``State`` above all) raises
``TypeError``: no bot API accepts a State.

Bots: ``random`` (``RandomBot``), ``ismcts`` (``cardspec.players.ismcts.ISMCTSBot``),
``policy`` (a policy written in the ruleset, ``cardspec.players.policy``), ``meld``,
``solver`` and ``induction``. Specs for ``make_bot``: ``random``, ``ismcts``,
``ismcts:500`` (iterations per decision), ``ismcts:0.2s`` (seconds per decision),
``policy:NAME``, ``meld``, ``solver``, ``solver:12`` (the most cards in play it
solves), ``induction``; each kind's module parses its own spec (its ``make``).
"""
from __future__ import annotations

import functools
import importlib
import random


def _guard(act):
    @functools.wraps(act)
    def checked(self, view, legal):
        if type(view) is not dict:
            raise TypeError(f"{type(self).__name__}.act takes a seat's view (a dict from State.view), "
                            f"not {type(view).__name__}: bots never hold the state")
        if not isinstance(legal, (list, tuple)) or not all(isinstance(a, str) for a in legal):
            raise TypeError(f"{type(self).__name__}.act takes the legal actions as a list of text forms")
        return act(self, view, legal)
    checked._guarded = True
    return checked


class Bot:
    """Base class: ``act(view: dict, legal: list[str]) -> str`` (one of ``legal``).

    ``wants_log``: when True the driver adds ``view["log"]`` (``State.log(seat)``).
    """

    name = "bot"
    wants_log = False

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        act = cls.__dict__.get("act")
        if act is not None and not getattr(act, "_guarded", False):
            cls.act = _guard(act)

    def act(self, view: dict, legal: list) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def _check_view(self, view):
        """Kept for subclasses that call it explicitly; the guard already ran."""
        return view


class RandomBot(Bot):
    """Uniformly random legal actions.

    Simulations may play a RandomBot seat through the engine's internal fast path
    (``State.random_move``) instead: it ignores the view anyway, so the result is
    the same kind of play without building views.
    """

    name = "random"

    def __init__(self, seed=None, game=None):
        self.rng = random.Random(seed)

    def act(self, view, legal):
        return legal[self.rng.randrange(len(legal))]


def take_turn(state, bot: Bot, seat: int | None = None) -> str:
    """Ask ``bot`` for the seat to act's decision and apply it. Returns the action's text.

    The bot sees ``state.view(seat)`` (plus ``log`` if it wants it) and the legal actions; an
    answer that is not legal raises ``IllegalAction`` and leaves the state unchanged.
    """
    seat = state.to_act if seat is None else seat
    view = state.view(seat, log=True) if bot.wants_log else state.view(seat)
    action = bot.act(view, view["legal_actions"])
    state.apply(action, seat)
    return action


#: Bot kinds for ``make_bot``: name -> the module (in this package) whose ``make(arg, seed, game, policy)``
#: builds one. A module is imported when its kind is first asked for: this module imports none of them,
#: and a program that plays only random bots never loads the search code.
BOT_KINDS = {
    "random": None,            # RandomBot, below
    "ismcts": ".ismcts",
    "policy": ".policy",
    "meld": ".meld",
    "solver": ".solve",
    "induction": ".induction",
}
BOTS = tuple(BOT_KINDS)


def make_bot(spec: str, seed=None, game=None, policy: str | None = None) -> Bot:
    """A bot from its spec (see the module doc). ``game`` (the rules) is needed by ``ismcts`` and ``policy``.

    Raises ``ValueError`` naming the known bots, or for a bad parameter / unknown policy.
    """
    name, _, arg = str(spec).strip().partition(":")
    name = name.strip().lower()
    if name not in BOT_KINDS:
        raise ValueError(f"unknown bot '{spec}'; bots: {', '.join(BOTS)}")
    if BOT_KINDS[name] is None:
        return RandomBot(seed=seed)
    return importlib.import_module(BOT_KINDS[name], __package__).make(arg, seed, game, policy)
