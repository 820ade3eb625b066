"""The quiet random-playout loop (``record=False``) plays the same game as the logged one.

The trick step generates two random-playout loops from the ruleset's expressions (docs/performance.md):
one writing the event log, and one for ``record=False`` (simulations, searches) that plays each trick as
one unrolled block. Both must make the same moves from the same random numbers, whatever the ruleset,
the player count or where in a trick the playout starts.
"""
from __future__ import annotations

import random

import pytest

from cardspec import load
from cardspec.engine import State
from cardspec.rules import builtin_names, read_ruleset


def _cases():
    """Every built-in ruleset with a trick step (the step with two generated loops), at its min and max players."""
    out = []
    for name in builtin_names():
        lo, hi = read_ruleset(name).players
        if not any(type(step).__name__ == "Tricks" for step in load(name, lo).steps):
            continue
        for n in sorted({lo, hi}):
            out.append((name, n))
    return out


def _snapshot(s: State):
    zones = [[sorted(h) for h in z] if per else list(z) for per, z in zip(s.game.per_seat, s.z)]
    return s.terminal, s.pc, zones, [list(c) for c in s.c], list(s.v), s.scores()


@pytest.mark.parametrize("name,n", _cases())
def test_quiet_loop_plays_the_logged_loops_game(name, n):
    """Same seed, same random numbers: the quiet playout ends in the same position as the logged one."""
    game = load(name, n)
    for seed in range(6):
        a = game.new_state(seed=seed, record=True)
        b = game.new_state(seed=seed, record=False)
        a.random_playout(random.Random(seed))
        b.random_playout(random.Random(seed))
        assert _snapshot(a) == _snapshot(b)


@pytest.mark.parametrize("name,n", _cases())
def test_quiet_loop_from_inside_a_trick(name, n):
    """A playout started part-way through a trick (a search's playout) finishes it, then plays on, the same way."""
    game = load(name, n)
    for seed in range(6):
        base = game.new_state(seed=seed, record=True)
        rng = random.Random(100 + seed)
        # A random number of API moves first: the playout starts at any point of any step.
        for _ in range(rng.randrange(0, 40)):
            if base.terminal:
                break
            legal = base.legal_actions()
            base.apply(legal[rng.randrange(len(legal))])
        a = base.clone()
        b = base.clone()
        b.events = None
        a.random_playout(random.Random(seed))
        b.random_playout(random.Random(seed))
        assert _snapshot(a) == _snapshot(b)
