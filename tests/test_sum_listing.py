"""A capture by sum lists only the card sets of its sum, the same list as before (issue 37 item 4).

A last ``cards:`` parameter without ``candidates:`` whose ``legal:`` begins with
``sum(c.T for c in PARAM) == EXPR`` (a capture of table cards adding up to the card played) is listed
by ``cards._sum_combos``: the sets of that sum only, in ``_combos``' order, the listing's count
(``MAX_LISTED``) moved as before. ``sum_ways`` counts subsets through one integer's fields. Both are
compared with the plain ways here: over random pools, and over seeded positions of a ruleset with the
pruned listing switched off (``actions.SUM_PRUNED``).

Also here: the rewrites of generated source in engine/peephole.py (a counter over every seat, the pile
sizes of every seat, a table's least or largest value over a zone), each checked against the plain
source's value and found in a ruleset's generated code, and ``runs``/``tail_run`` against the plain walks.
"""
from __future__ import annotations

import itertools
import random

import pytest

import cardspec
from cardspec.engine.steps.base import ListingTooLarge
from cardspec.engine.steps.turns import actions as actions_mod
from cardspec.engine.steps.turns.cards import _combos, _sum_combos
from cardspec.lang.combinatorics import sum_ways


def test_sum_combos_is_combos_filtered_by_the_sum():
    rng = random.Random(3)
    for _ in range(5000):
        faces = rng.randint(1, 30)
        table = tuple(rng.randint(0, rng.choice([1, 3, 10])) for _ in range(faces))
        order = list(range(faces))
        rng.shuffle(order)
        key = order.__getitem__
        pool = [rng.randrange(faces) for _ in range(rng.randint(0, 12))]
        if rng.random() < 0.7:   # (else identical faces, possibly)
            pool = list(dict.fromkeys(pool))
        kmin = rng.randint(-1, 4)
        kmax = rng.randint(kmin - 1, 13)
        total = rng.randint(-1, 25)
        calls = []

        def target():
            calls.append(1)
            return total

        full = _combos(pool, kmin, kmax, key)
        room = rng.choice([10 ** 9, len(full), len(full) - 1, 0])
        got = _sum_combos(pool, kmin, kmax, key, table, target, room)
        if len(full) > room:   # the cap is passed inside the loop: every set, counted one by one
            assert got == (full, 0, 1)
            assert not calls
        else:
            assert got == ([t for t in full if sum(table[c] for c in t) == total], len(full), 0)
            assert len(calls) == (1 if full else 0)


def test_sum_combos_refuses_a_listing_over_the_cap_as_combos_does():
    pool = list(range(40))
    with pytest.raises(ListingTooLarge) as plain:
        _combos(pool, 1, 40, int)
    with pytest.raises(ListingTooLarge) as summed:
        _sum_combos(pool, 1, 40, int, tuple(range(40)), lambda: 7, 10 ** 9)
    assert str(plain.value) == str(summed.value)


def test_sum_ways_counts_the_subsets():
    rng = random.Random(1)
    for _ in range(3000):
        values = [rng.randint(0, rng.choice([1, 3, 10, 15, 40])) for _ in range(rng.randint(0, 12))]
        if rng.random() < 0.1:
            values = [-v for v in values]
        for total in (rng.randint(-1, 30), rng.randint(0, 15), rng.randint(0, 150)):   # (the kept product too)
            want = sum(1 for k in range(len(values) + 1) for t in itertools.combinations(values, k)
                       if sum(t) == total)
            assert sum_ways(values, total) == want, (values, total)


def _legal_lists(game, seed, limit=300):
    """The legal actions at each decision of a seeded random match (texts, in order)."""
    rng = random.Random(seed)
    s = game.new_state(rng=random.Random(seed))
    out = []
    while not s.terminal and len(out) < limit:
        legal = s.legal_actions()
        out.append(legal)
        s.apply(legal[int(rng.random() * len(legal))])
    return out


def test_a_capture_by_sum_lists_the_same_actions_as_every_set_checked(monkeypatch):
    made = []

    def counted(*args):
        made.append(1)
        return _sum_combos(*args)

    monkeypatch.setattr(actions_mod, "_sum_combos", counted)
    pruned = cardspec.load("scopa")
    monkeypatch.setattr(actions_mod, "SUM_PRUNED", False)
    plain = cardspec.load("scopa")
    decisions = 0
    for seed in range(6):
        a, b = _legal_lists(pruned, seed), _legal_lists(plain, seed)
        assert a == b
        decisions += len(a)
    assert decisions > 1000
    assert len(made) > decisions   # (once per card in hand: the pruned listing was the one used)


def test_a_counter_over_every_seat_is_read_as_its_list():
    from cardspec.engine.peephole import seat_counters

    class S:
        c = [[3, 9, 4], [0, 0, 0]]

    loop = "[(s.c[0][_l1_s] if 0 <= _l1_s < len(s.c[0]) else -1) for _l1_s in (0, 1, 2)]"
    some = "[(s.c[0][_l1_s] if 0 <= _l1_s < len(s.c[0]) else -1) for _l1_s in (0, 2)]"
    src = f"max({loop}, default=0) + sum({some})"
    out = seat_counters(src, 3)
    assert out == f"max(s.c[0][:], default=0) + sum({some})"
    assert eval(out, {"s": S}) == eval(src, {"s": S}) == 16
    assert seat_counters(src, 4) == src   # (not every seat of four)
    plain = "[s.c[0][_l1_s] for _l1_s in (0, 1, 2)]"   # (a seat loop the checker knows in range)
    src = f"_max_l({plain}) + sum({some})"
    out = seat_counters(src, 3)
    assert out == f"_max_l(s.c[0][:]) + sum({some})" and eval(out, {"s": S, "_max_l": max}) == 16
    assert seat_counters("[s.c[0][_l1_s] for _l1_s in (0, 2)]", 3) == "[s.c[0][_l1_s] for _l1_s in (0, 2)]"


def test_the_match_end_of_a_counter_game_reads_the_counter_list():
    """Would fail if the rewrite were switched off: cribbage's end (max(score[s] for s in seats) >= target)."""
    from cardspec.engine import compiler
    made = []
    check = compiler.check_generated

    def kept(src, fname, filename="<ruleset>"):
        made.append(src)
        return check(src, fname, filename)

    compiler.check_generated = kept
    try:
        cardspec.load("cribbage")
    finally:
        compiler.check_generated = check
    assert any("_max_l(s.c[0][:])" in s for s in made)
    assert not any("for _l1_s in (0, 1)]" in s for s in made)


def test_the_pile_sizes_of_every_seat_are_read_as_one_map():
    from cardspec.engine.peephole import seat_piles

    class S:
        z = [[[1, 2], [], [5]], [7]]

    loop = "[len((s.z[0][_l1_p] if 0 <= _l1_p < 3 else _NO_ZONE)) for _l1_p in (0, 1, 2)]"
    some = "[len((s.z[0][_l1_p] if 0 <= _l1_p < 3 else _NO_ZONE)) for _l1_p in (1, 2)]"
    src = f"sum({loop}) * 10 + sum({some})"
    out = seat_piles(src, 3)
    assert out == f"sum(list(map(len, s.z[0]))) * 10 + sum({some})"
    assert eval(out, {"s": S, "_NO_ZONE": ()}) == eval(src, {"s": S, "_NO_ZONE": ()}) == 31
    assert seat_piles(src, 2) == src
    plain = "[len(s.z[0][_l1_p]) for _l1_p in (0, 1, 2)]"   # (a seat loop the checker knows in range)
    assert seat_piles(f"sum({plain})", 3) == "sum(list(map(len, s.z[0])))"
    assert eval(seat_piles(f"sum({plain})", 3), {"s": S}) == eval(f"sum({plain})", {"s": S}) == 3
    assert seat_piles("[len(s.z[0][_l1_p]) for _l1_p in (0, 1)]", 3) == "[len(s.z[0][_l1_p]) for _l1_p in (0, 1)]"


def test_a_count_of_every_seats_hand_is_generated_as_one_map():
    """Would fail if the rewrite were switched off (scopa's hands_empty: sum(count(hand[p]) for p in seats))."""
    from cardspec.engine import compiler
    made = []
    check = compiler.check_generated

    def kept(src, fname, filename="<ruleset>"):
        made.append(src)
        return check(src, fname, filename)

    compiler.check_generated = kept
    try:
        cardspec.load("scopa")
    finally:
        compiler.check_generated = check
    assert any("sum(list(map(len, s.z[0])))" in s for s in made)


def test_a_least_table_value_over_a_zone_is_read_through_map():
    from cardspec.engine.peephole import table_extremes
    src = "min([POINTS[_l1_c] for _l1_c in (s.z[0][p_p] if 0 <= p_p < 2 else _NO_ZONE)], default=0)"
    out = table_extremes(src)
    assert out == "min(map(POINTS.__getitem__, (s.z[0][p_p] if 0 <= p_p < 2 else _NO_ZONE)), default=0)"

    class S:
        z = [[[3, 1], []]]

    env = {"POINTS": (5, 7, 2, 9), "_NO_ZONE": (), "s": S}
    for p in (0, 1, 5):
        assert eval(out, dict(env, p_p=p)) == eval(src, dict(env, p_p=p))
    kept = "min([POINTS[_l1_c] for _l1_c in s.z[1] if _l1_c > 2], default=0)"   # (a condition: unchanged)
    assert table_extremes(kept) == kept
    from cardspec.lang.runtime import runtime_helpers
    helpers = runtime_helpers()
    listed = "_min_l([POINTS[_l1_c] for _l1_c in (s.z[0][p_p] if 0 <= p_p < 2 else _NO_ZONE)]) + 1"
    out = table_extremes(listed)   # (the form a default of 0 compiles to: the list made in C)
    assert out == "_min_l(list(map(POINTS.__getitem__, (s.z[0][p_p] if 0 <= p_p < 2 else _NO_ZONE)))) + 1"
    for p in (0, 1, 5):
        assert eval(out, dict(env, **helpers, p_p=p)) == eval(listed, dict(env, **helpers, p_p=p))
    assert table_extremes("_min_l([POINTS[_l1_c] for _l1_c in s.z[1]], default=0)") == \
        "_min_l([POINTS[_l1_c] for _l1_c in s.z[1]], default=0)"   # (no such call: left alone)


def _runs_plain(values, shortest):
    mult = {}
    for v in values:
        mult[v] = mult.get(v, 0) + 1
    total, keys, i = 0, sorted(mult), 0
    while i < len(keys):
        j, ways = i, mult[keys[i]]
        while j + 1 < len(keys) and keys[j + 1] == keys[j] + 1:
            j += 1
            ways *= mult[keys[j]]
        if j - i + 1 >= max(shortest, 1):
            total += (j - i + 1) * ways
        i = j + 1
    return total


def _tail_run_plain(values):
    best, seen, lo, hi = 0, set(), 0, 0
    for k, v in enumerate(reversed(values), 1):
        if v in seen:
            break
        seen.add(v)
        lo, hi = (v, v) if k == 1 else (min(lo, v), max(hi, v))
        if hi - lo + 1 == k:
            best = k
    return best


def test_runs_and_tail_run_count_as_the_plain_walks():
    from cardspec.lang.combinatorics import runs, tail_run
    rng = random.Random(5)
    for _ in range(5000):
        values = [rng.randint(-3, rng.choice([5, 13, 40])) for _ in range(rng.randint(0, 14))]
        shortest = rng.randint(-1, 5)
        assert runs(values, shortest) == runs(tuple(values), shortest) == _runs_plain(values, shortest)
        assert tail_run(values) == _tail_run_plain(values)
