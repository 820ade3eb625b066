"""Positions shared by tests: real positions reached by random legal actions (determinization tests),
and small Svoyi Koziri endings (solver tests)."""
from __future__ import annotations

import random


def random_position(game, seed: int, steps: int):
    """The State after ``steps`` random legal actions from ``game.new_state(seed=seed)`` (None when the match ended)."""
    rng = random.Random(seed)
    s = game.new_state(seed=seed)
    for _ in range(steps):
        if s.terminal:
            return None
        s.apply(rng.choice(s.legal_actions()))
    return None if s.terminal else s


def svoyi_ending(tmp_path, k: int, seed: int, cards: int = 24, pick_up: str | None = None):
    """A Svoyi Koziri ending (../shared/rules/svoyi-koziri.md) with ``k`` cards per hand from a ``seed``-shuffled
    ``cards``-card deck, the rest in the stock, after the suit choices; played through a scenario file."""
    import yaml
    from cardspec.scenario import replay
    rng = random.Random(seed)
    ranks = {24: "9TJQKA", 32: "789TJQKA"}[cards]
    deck = [r + s for s in "SHDC" for r in ranks]
    rng.shuffle(deck)
    options = {"cards": cards} if pick_up is None else {"cards": cards, "pick_up": pick_up}
    data = {"ruleset": "svoyi-koziri", "players": 2, "dealer": 1, "seed": 1, "options": options,
            "deal": {"hands": {0: deck[:k], 1: deck[k:2 * k]}, "stock": deck[2 * k:]},
            "actions": ["1: own hearts diamonds", "1: trump diamonds", "0: trump spades"]}
    path = tmp_path / (f"p{k}-{seed}.yaml" if pick_up is None else f"p{k}-{seed}-{pick_up}.yaml")
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    rep = replay(str(path))
    assert rep.ok, rep.failures
    return rep.state
