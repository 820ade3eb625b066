"""The repetition rule's position key (``Game.pos_key``, engine/compile/generate.py ``position_key_fn``): the
tuple ``State.position_key`` gives, written out per game. Two positions count as the same under it exactly
when they do under ``position_key``, and the ``repetition`` effect uses it, not the general method."""
from __future__ import annotations

import random

import pytest

import cardspec
from cardspec.engine import State
from cardspec.engine.slots import TURN


def _positions(game, seeds=range(6), steps=80):
    """Positions on random lines of ``game``, plus copies with each hand reordered and the turn count moved
    (neither is part of the position: equal keys) — so equal and different positions both occur."""
    rng = random.Random(7)
    out = []
    for seed in seeds:
        s = game.new_state(seed=seed)
        s.events = None
        for _ in range(steps):
            if s.terminal:
                break
            out.append(s)
            c = s.clone()
            for hands in (c.z[zn.index] for zn in game.zones if zn.per_seat):
                for h in hands:
                    rng.shuffle(h)
            c.v[TURN] += 3
            out.append(c)
            legal = game.steps[s.pc].legal(s)
            s = s.clone()
            s.apply_move(legal[int(rng.random() * len(legal))])
        out.append(s)   # (the end of the line: terminal, or after `steps` actions)
    return out


@pytest.mark.parametrize("name,players,options", [
    ("svoyi-koziri", 2, None), ("svoyi-koziri", 2, {"pick_up": "some"}), ("hearts", 4, None),
    ("burraco", 4, None), ("oh-hell", 3, None), ("red-dog", 3, None), ("eleusis-prophets", 4, None),
    ("cribbage", 2, None)])
def test_written_out_key_is_the_position_key(name, players, options):
    """Over seeded positions (every zone kind: per seat, in order, top card + rest; cards in flight; the turns
    step's counters), ``game.pos_key(s)`` is ``s.position_key()``: equal, with the same types throughout
    (``repr``), so it makes exactly the same same/different decisions: the classes of equal keys agree."""
    game = cardspec.load(name, players, options)
    states = _positions(game)
    old_class, new_class = {}, {}
    for s in states:
        old, new = s.position_key(), game.pos_key(s)
        assert new == old and repr(new) == repr(old) and hash(new) == hash(old)
        assert old_class.setdefault(old, len(old_class)) == new_class.setdefault(new, len(new_class))
    assert len(old_class) == len(new_class) < len(states)   # equal positions were seen (the reordered copies)


def test_key_of_a_state_whose_lists_have_other_lengths():
    """The written-out key falls back to the general form for a per-seat zone without one hand per seat and
    for counters without one list per counter (no state the engine makes has either: the key stays
    ``position_key``'s whatever the lists hold)."""
    game = cardspec.load("svoyi-koziri", 2)
    s = game.new_state(seed=3)
    zi = next(zn.index for zn in game.zones if zn.per_seat)
    s.z[zi] = s.z[zi] + [[5, 1, 3]]
    assert game.pos_key(s) == s.position_key()
    s.c = s.c + [[4, 2]]
    assert game.pos_key(s) == s.position_key()
    s.c = []
    assert game.pos_key(s) == s.position_key()


def test_repetition_uses_the_written_out_key(monkeypatch):
    """The ``repetition`` effect keys positions with ``game.pos_key``, never the general
    ``State.position_key`` (this fails when the fast path is switched off), and a match still ends by
    repetition as before (the seeded digests check the exact play)."""
    game = cardspec.load("svoyi-koziri", 2, {"repetition": 2})
    calls = {"general": 0, "fast": 0}
    general = State.position_key
    fast = game.pos_key

    def counted_general(self):
        calls["general"] += 1
        return general(self)

    def counted_fast(s):
        calls["fast"] += 1
        return fast(s)

    monkeypatch.setattr(State, "position_key", counted_general)
    monkeypatch.setitem(game.__dict__, "pos_key", counted_fast)   # (a compiled Game refuses setattr)
    rng = random.Random(11)
    reps = 0
    for seed in range(30):
        s = game.new_state(seed=seed)
        while not s.terminal:
            legal = s.legal_actions()
            s.apply(legal[int(rng.random() * len(legal))])
        reps += any(e.get("type") == "repetition" for e in s.events)
    assert calls["fast"] > 0 and calls["general"] == 0
    assert reps > 0   # some random matches ended by repetition (a position's second time)
