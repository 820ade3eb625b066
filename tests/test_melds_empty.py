"""A lay-off refused before its candidates are made (issue 37, item 2: a differential test).

A ``cards`` parameter whose ``candidates:`` is an ``extensions(meld, hand, wild, k)`` call first asks
``no_extension(meld, hand, wild)`` (the builtin records it, ``choices.empty_tests``; turns/search.py
``_witness``): True only when the value would hold no card set, so the search answers "no lay-off"
without evaluating ``k`` or making the ``Extensions``. Held here to the value's own answer
(``none_holding(())``) and to the listing from scratch (``extensions_reference`` empty) over random hands
and melds and over the positions of seeded random play; and the random moves of seeded matches with the
test switched off are the same moves, drawn with the same random numbers. Rules:
../shared/rules/burraco.md ("Melds", "Laying off").
"""
from __future__ import annotations

import random

import pytest

import _melds_reference as R

from cardspec.engine import Game
from cardspec.engine.melds import Extensions, _listing as L, _search


def _tables(g):
    ns = g.ns
    return ns["RANK"], ns["SUIT"], ns["SORT_KEY"]


def _wild_sets(g):
    RANK = g.ns["RANK"]
    both = tuple(sorted({c for c in g.deck.cards if RANK[c] in (0, 2)}))
    return both, tuple(c for c in both if RANK[c] == 2), ()


def _agree(meld, hand, wild, RANK, SUIT, SK):
    """``no_extension``'s answer, checked: True only when every limit's value holds no card set."""
    empty = _search.no_extension(meld, hand, wild, RANK, SUIT)
    if empty:
        for k in (0, 1, 2, 13):
            assert Extensions(meld, hand, wild, k, RANK, SUIT, SK).none_holding(()), (meld, hand, wild, k)
            assert R.extensions_reference(meld, hand, wild, k, RANK, SUIT, SK) == [], (meld, hand, wild, k)
    return empty


@pytest.mark.parametrize("seed", [1, 2])
def test_no_extension_only_when_no_lay_off_random(seed):
    """Random hands (with and without wild cards) and random melds, valid or not (sets, sequences, mixed
    cards, wild cards only): the quick test says "none" only when no lay-off exists, and says it often."""
    g = Game("burraco", 4)
    RANK, SUIT, SK = _tables(g)
    deck = list(g.deck.cards)
    rng = random.Random(seed)
    said = 0
    for _ in range(1500):
        wild = rng.choice(_wild_sets(g))
        suits = rng.sample(range(4), rng.choice([1, 2, 4]))
        pool = [c for c in deck if SUIT[c] in suits] + [c for c in deck if RANK[c] in (0, 2)]
        hand = [rng.choice(pool) for _ in range(rng.randint(0, 14))]
        shape = rng.random()
        if shape < 0.35:   # a set, a wild perhaps
            r = rng.choice([r for r in set(RANK[c] for c in deck) if r >= 1])
            meld = [c for c in deck if RANK[c] == r][:rng.randint(2, 5)]
        elif shape < 0.7:   # a sequence of one suit
            su, lo = rng.randrange(4), rng.randint(1, 10)
            meld = [c for c in deck if SUIT[c] == su and lo <= RANK[c] <= lo + rng.randint(2, 4)]
        else:
            meld = [rng.choice(deck) for _ in range(rng.randint(1, 5))]
        if rng.random() < 0.3 and wild:
            meld = meld + [rng.choice(wild)]
        said += _agree(tuple(meld), tuple(hand), wild, RANK, SUIT, SK)
    assert said > 200


@pytest.mark.parametrize("name", ["burraco", "burraco-fibur"])
def test_no_extension_only_when_no_lay_off_in_play(name):
    """At every position of a seeded random match, for every seat's hand and every table meld, with
    jokers and 2s wild, 2s only, or none."""
    g = Game(name, 4)
    RANK, SUIT, SK = _tables(g)
    hand_z, table_z = g.zone["hand"].index, g.zone["table"].index
    s = g.new_state(record=False, rng=random.Random(5))
    rng = random.Random(6)
    said = asked = 0
    for _ in range(500):
        if s.terminal:
            break
        melds = [m for t in s.z[table_z] for m in t]
        for hand in s.z[hand_z]:
            for meld in melds:
                for wild in _wild_sets(g):
                    said += _agree(meld, tuple(hand), wild, RANK, SUIT, SK)
                    asked += 1
        s.apply_move(s.random_move(rng))
    assert asked > 2000 and said > asked // 10


def _lay_off_param(g):
    step = next(st for st in g.steps if hasattr(st, "actions") and any(a.text == "lay off" for a in st.actions))
    return next(a for a in step.actions if a.text == "lay off").params[1]


def _moves(g, seed, n):
    s = g.new_state(record=False, rng=random.Random(seed))
    rng = random.Random(seed + 1)
    out = []
    while not s.terminal and len(out) < n:
        m = s.random_move(rng)
        out.append(m)
        s.apply_move(m)
    return out, rng.random()


@pytest.mark.parametrize("name", ["burraco", "burraco-fibur"])
def test_random_moves_equal_with_the_quick_test_off(name, monkeypatch):
    """The same random moves with the rng in the same place afterwards, with the quick test and without
    it (``P.empty`` off: every lay-off's candidates made and asked); and the quick test answers in play."""
    g = Game(name, 4)
    P = _lay_off_param(g)
    assert P.empty is not None   # the loaded lay-off parameter carries the test
    hits = []
    real = _search.no_extension
    test_fn = P.empty

    def counted(*args):
        r = test_fn(*args)
        hits.append(r)
        return r
    P.empty = counted
    try:
        with_test = [_moves(g, seed, 600) for seed in (3, 4)]
        P.empty = None
        without = [_moves(g, seed, 600) for seed in (3, 4)]
    finally:
        P.empty = test_fn
    assert with_test == without
    assert sum(hits) > 100 and len(hits) > sum(hits)
    assert _search.no_extension is real
