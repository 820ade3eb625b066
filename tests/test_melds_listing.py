"""The fast meld listings equal the listing made from scratch (issue 37, item 2: a differential test).

``melds_in`` and ``extensions`` list every set and sequence a hand can make (every lay-off on a meld);
two things make them faster than their first writing, and both must list exactly the same card sets in
the same order (no legal action lost, none invented): ``_runs`` skips the windows of places that can give
nothing (``_runs_reference`` tries them all), and a listing is worked out from the listing of a close
hand kept from a previous decision (``_kept``). Held here to ``melds_in_reference`` /
``extensions_reference`` (the first writing, nothing kept) over random hands and over the positions of
seeded random play of the built-ins holding melds (both Burraco rulesets, and Gin Rummy's hands read as
meld hands without wild cards). Rules: ../shared/rules/burraco.md ("Melds").
"""
from __future__ import annotations

import random

import pytest

import _melds_reference as R

from cardspec.engine import Game
from cardspec.engine.melds import _kept, _listing as L
from cardspec.engine.melds import Extensions, MeldsIn


def _tables(g):
    ns = g.ns
    return ns["RANK"], ns["SUIT"], ns["SORT_KEY"]


@pytest.mark.parametrize("seed", [1, 2])
def test_runs_equal_the_reference_walk(seed):
    """Every window walk of ``_runs`` gives the list ``_runs_reference`` gives, in the same order, for random
    hands (one to four suits, jokers and 2s wild or 2s only), required cards (a meld's) and limits."""
    g = Game("burraco", 4)
    RANK, SUIT, _ = _tables(g)
    deck = list(g.deck.cards)
    wild_all = tuple(sorted({c for c in deck if RANK[c] in (0, 2)}))
    rng = random.Random(seed)
    for _ in range(800):
        suits = rng.sample(range(4), rng.choice([1, 1, 2, 4]))
        wild = wild_all if rng.random() < 0.7 else tuple(c for c in wild_all if RANK[c] == 2)
        pool = [c for c in deck if SUIT[c] in suits] + [c for c in deck if RANK[c] in (0, 2)]
        hand = [rng.choice(pool) for _ in range(rng.randint(0, 16))]
        req = [rng.choice(pool) for _ in range(rng.randint(0, 5))]
        maxw = rng.choice([0, 1, 2, 3, 13])
        nat, wl = L._split(hand, wild)
        rn, rw = L._split(req, wild)
        for args in ((nat, wl, maxw, RANK, SUIT, range(4)), (nat, wl, maxw, RANK, SUIT, (), rn, rw)):
            assert L._runs(*args) == R._runs_reference(*args), (hand, req, maxw)


def _positions(g, seed, moves):
    """The states of a seeded random match of ``g`` (record off), one after each of up to ``moves`` moves."""
    s = g.new_state(record=False, rng=random.Random(seed))
    rng = random.Random(seed + 1000)
    for _ in range(moves):
        if s.terminal:
            return
        yield s
        s.apply_move(s.random_move(rng))


def _compare(g, wild, limits, seed, moves):
    """Every seat's ``melds_in`` and every table meld's ``extensions`` (the listing, kept between positions as
    in play) against the reference, at each position; returns how many listings were compared."""
    RANK, SUIT, SK = _tables(g)
    hand_z = g.zone["hand"].index
    table_z = g.zone["table"].index if "table" in g.zone else None
    _kept.clear()
    n = 0
    for s in _positions(g, seed, moves):
        tables = [m for t in s.z[table_z] for m in t] if table_z is not None else []
        for seat, hand in enumerate(s.z[hand_z]):
            hand = tuple(hand)
            for k in limits:
                got = list(MeldsIn(hand, wild, k, RANK, SUIT, SK))
                assert got == R.melds_in_reference(hand, wild, k, RANK, SUIT, SK), (seed, seat, k)
                n += 1
                for meld in tables:
                    got = list(Extensions(meld, hand, wild, k, RANK, SUIT, SK))
                    assert got == R.extensions_reference(meld, hand, wild, k, RANK, SUIT, SK), (seed, seat, meld, k)
                    n += 1
    return n


@pytest.mark.parametrize("name", ["burraco", "burraco-fibur"])
@pytest.mark.parametrize("seed", [0, 1])
def test_kept_listings_equal_the_reference_in_play(name, seed):
    """burraco.md, Melds: at every position of a seeded random match, each seat's melds and lay-offs (wild
    limits 0, 1 and 13), listed as play goes on (from kept listings of close hands), are exactly those
    listed from scratch, in the same order."""
    g = Game(name, 4)
    RANK = g.ns["RANK"]
    wild = tuple(sorted({c for c in g.deck.cards if RANK[c] in (0, 2)}))
    assert _compare(g, wild, (0, 1, 13), seed, 700) > 2000


def test_kept_listings_equal_the_reference_without_wild_cards():
    """Gin Rummy's hands (no wild card) through the same listings, as a rummy without stand-ins."""
    g = Game("gin-rummy", 2)
    assert _compare(g, (), (0,), 3, 400) > 200
