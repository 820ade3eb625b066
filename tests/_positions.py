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
    from cardspec.authoring.scenario import replay
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


def brute(s, key=None, line=frozenset(), seen=None):
    """Minimax value of ``s`` for the side to move (+1 win, 0 draw, -1 loss) by full enumeration, written
    apart from the solver: a position recurring on the line is a draw. ``key(state)`` names a position
    (default ``position_key()``); ``seen``, if given, collects the key of every position visited."""
    from cardspec.players.solve import DRAW, WIN, terminal_value
    key = key or (lambda st: st.position_key())
    me = s.to_act
    here = key(s)
    if seen is not None:
        seen.add(here)
    best = -2
    for m in s.game.steps[s.pc].legal(s):
        c = s.clone()
        c.apply_move(m)
        if c.terminal:
            v = terminal_value(c, me)
        elif key(c) in line | {here}:
            v = DRAW
        else:
            v = brute(c, key, line | {here}, seen)
            if c.to_act != me:
                v = -v
        best = max(best, v)
        if best == WIN:
            break
    return best
