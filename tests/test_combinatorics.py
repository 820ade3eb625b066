"""Counting functions over lists of numbers (docs/dsl.md, "Counting combinations";
interpreter/cardspec/lang/combinatorics.py): ``sum_ways``, ``pairs``, ``runs``, ``tail_same``, ``tail_run``.

Expected values come from the rules they serve, counted by hand: docs/rules/cribbage.md, "Scoring (the
show)" (fifteens, pairs, double and triple runs, the 29 hand) and "Play (the pegging)" (pairs and runs at
the end of the count), and a plain brute force over every subset / every tail for random lists.
"""
from __future__ import annotations

import itertools
import random

import pytest

import cardspec
from cardspec.lang import DslError, compile_expr
from cardspec.lang.combinatorics import pairs, runs, sum_ways, tail_run, tail_same

GAME = cardspec.load("black-lady", players=4)
STATE = GAME.new_state(seed=1)


def ev(text):
    code = compile_expr(text, GAME.env, {})
    return GAME.comp.function(code.src, ())(STATE), code.type


@pytest.mark.parametrize("text,value", [
    # cribbage.md, Worked examples: the 29 hand 5C 5D 5H JS + 5S: 8 fifteens, 6 pairs
    ("sum_ways([5, 5, 5, 10, 5], 15)", 8),
    ("pairs([5, 5, 5, 11, 5])", 6),
    # the double run 4S 4H 5C 6D + 9S: fifteens 9+6, 4+5+6 twice; one pair; runs 4-5-6 twice = 6
    ("sum_ways([4, 4, 5, 6, 9], 15)", 3),
    ("pairs([4, 4, 5, 6, 9])", 1),
    ("runs([4, 4, 5, 6, 9], 3)", 6),
    # the triple run 7C 7D 7H 8S + 9C: runs 7-8-9 three times = 9; a pair royal = 3 pairs
    ("runs([7, 7, 7, 8, 9], 3)", 9),
    ("pairs([7, 7, 7, 8, 9])", 3),
    # "shorter runs inside it do not score": 3-4-5-6 is one run of 4, not two of 3
    ("runs([3, 4, 5, 6, 12], 3)", 4),
    ("runs([1, 2, 12, 13, 5], 3)", 0),     # the ace is low: Q-K-A is no run
    ("runs([5, 5, 6, 6, 7], 3)", 12),      # a double double run: 4 runs of three
    # the pegging: the pile 7, 9, 8 (a run out of order); 5, 5, 5 (a pair royal)
    ("tail_run([13, 7, 9, 8])", 3),
    ("tail_run([10, 7, 9, 8])", 4),       # 7-8-9-10: the whole pile
    ("tail_run([7, 9, 9, 8])", 2),
    ("tail_same([9, 5, 5, 5])", 3),
    ("tail_same([5, 9, 5])", 1),
    ("tail_same([])", 0),
    ("tail_run([])", 0),
    # comprehension arguments: a card table of the deck (Black Lady's points: hearts 1, QS 13)
    ("sum_ways(c.points for c in [2H, 3H, QS, 5C], 14)", 4),   # QS with either heart, each with or without the 5C (0)
    ("pairs(c.rank for c in [2H, 2S, 2C, 9D])", 3),
    ("runs(c.rank for c in [2H, 3S, 4C, 4D] where c.rank != 9, 3)", 6),
    ("sum_ways([], 0)", 1),
    ("sum_ways([-2, 2, 5], 0)", 2),        # negative items: {} and {-2, 2}
])
def test_values(text, value):
    assert ev(text) == (value, "int")


def _brute_runs(vals, shortest):
    """Cribbage's runs, counted the long way: every subset that is a run of length L >= shortest and is
    not inside a longer run counts L (docs/rules/cribbage.md, the show: "Shorter runs inside it do not score")."""
    idx = range(len(vals))
    best = 0
    for L in range(len(vals), shortest - 1, -1):
        found = [c for c in itertools.combinations(idx, L)
                 if len({vals[i] for i in c}) == L and max(vals[i] for i in c) - min(vals[i] for i in c) == L - 1]
        if found:
            # only the longest stretch scores when it is the only stretch (small lists below: one stretch)
            return L * len(found)
    return best


def test_against_brute_force():
    rng = random.Random(7)
    for _ in range(2000):
        n = rng.randint(0, 7)
        vals = [rng.randint(1, 13) for _ in range(n)]
        total = rng.randint(0, 40)
        ways = sum(1 for k in range(n + 1) for c in itertools.combinations(vals, k) if sum(c) == total)
        assert sum_ways(vals, total) == ways
        assert pairs(vals) == sum(1 for a, b in itertools.combinations(vals, 2) if a == b)
        same = 0
        while same < n and vals[n - 1 - same] == vals[-1]:
            same += 1
        assert tail_same(vals) == same
        tr = max([k for k in range(1, n + 1) if len(set(vals[-k:])) == k
                  and max(vals[-k:]) - min(vals[-k:]) == k - 1] or [0])
        assert tail_run(vals) == tr
        stretches = sorted(set(vals))
        groups = sum(1 for i, v in enumerate(stretches) if i == 0 or stretches[i - 1] != v - 1)
        long_groups = [g for g in _groups(stretches) if len(g) >= 3]
        if len(long_groups) <= 1:
            assert runs(vals, 3) == _brute_runs(vals, 3), vals
        assert groups >= len(long_groups)


def _groups(sorted_distinct):
    out, cur = [], []
    for v in sorted_distinct:
        if cur and v != cur[-1] + 1:
            out.append(cur)
            cur = []
        cur.append(v)
    return out + ([cur] if cur else [])


def test_two_stretches_both_count():
    """Two separate runs each count (a list longer than a cribbage hand): 1-2-3 and 7-8-9."""
    assert runs([1, 2, 3, 7, 8, 9, 9], 3) == 3 + 6


@pytest.mark.parametrize("text,message", [
    ("sum_ways([QS], 15)", "needs a list of numbers"),
    ("pairs(c in hand[0] where c.rank == 2)", "needs numbers"),
    ("runs([1, 2, 3])", "'runs' takes 2 argument(s)"),
    ("tail_run(3)", "needs a list of numbers"),
])
def test_load_time_errors(text, message):
    with pytest.raises(DslError) as info:
        ev(text)
    assert message in info.value.message


def test_cost_bound_known_at_load():
    """docs/dsl.md, Bounds: sum_ways over numbers of unknown size may try 2**N subsets of a 52-card list:
    refused at load; over card values (a table of the deck, at most 13 here) it is a few thousand steps."""
    from cardspec.lang.bounds import COST_BUDGET
    ok = compile_expr("sum_ways(c.rank for c in hand[0], 15)", GAME.env, {})
    assert ok.cost < COST_BUDGET
    with pytest.raises(DslError):
        compile_expr("sum_ways([score[0] * score[1] for s in seats], 15)", GAME.env, {})
