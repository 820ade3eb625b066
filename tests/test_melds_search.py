"""The searched values of ``melds_in`` and ``extensions`` agree with their lists (issue 21, speed).

A small choice of a meld or lay-off asks whether some card set holding the cards chosen so far is
legal. ``MeldsIn`` / ``Extensions`` (cardspec.engine.melds) answer without listing every meld:
``containing(cur)`` walks only the sets and sequences holding ``cur``, ``holds(v)`` checks one card
set, ``units(cur)`` names the cards worth trying next. These tests hold them to the lists
``melds_in`` and ``extensions`` give (themselves held to a brute-force walk of every sub-multiset by
tests/test_burraco_legal_listing.py): for random hands full of wild cards (jokers and 2s, or 2s
only with jokers natural), wild-card limits 0, 1, 2 and 13, every ``cur`` of up to four cards of
the hand. Rules: ../shared/rules/burraco.md ("Melds": sets, sequences, ace low or high, a 2 natural
in its own place, wild-card limits).
"""
from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from cardspec.engine import Game
from cardspec.engine import melds as M

RULES = "../shared/rules/burraco.md"


@pytest.fixture(scope="module")
def g():
    return Game("burraco", 4)


def _sub_multisets(cards, most):
    items = sorted(Counter(cards).items())
    for counts in itertools.product(*[range(k + 1) for _, k in items]):
        if sum(counts) <= most:
            yield tuple(f for (f, _), k in zip(items, counts) for _ in range(k))


def _key(m):
    return tuple(sorted(m))


def _check(obj, hand, most):
    """``containing``, ``units`` and ``holds`` of ``obj`` against its list, for every ``cur`` of up to
    ``most`` cards of ``hand``; returns a description of the first disagreement, or None."""
    listed = {_key(m) for m in obj}
    for cur in _sub_multisets(hand, most):
        got = {_key(m) for m in obj.containing(cur)}
        want = {m for m in listed if not Counter(cur) - Counter(m)}
        if got != want:
            return ("containing", cur, sorted(got ^ want))
        need = {x for m in want for x in (Counter(m) - Counter(cur)).elements()}
        units = obj.units(cur)
        if units is not None and need - set(units):
            return ("units", cur, sorted(need - set(units)))
    for v in _sub_multisets(hand, len(hand)):
        if obj.holds(v) != (_key(v) in listed):
            return ("holds", v)
    return None


def _hands(g, seed, n):
    ns = g.ns
    RANK, SUIT = ns["RANK"], ns["SUIT"]
    deck = list(g.deck.cards)
    wilds = {"jokers and 2s": tuple(sorted({c for c in deck if RANK[c] in (0, 2)})),
             "2s only": tuple(sorted({c for c in deck if RANK[c] == 2}))}
    rng = random.Random(seed)
    for _ in range(n):
        name = rng.choice(["jokers and 2s", "jokers and 2s", "2s only"])
        suits = rng.sample(range(4), rng.choice([1, 1, 2, 4]))
        pool = [c for c in deck if SUIT[c] in suits] + [c for c in deck if RANK[c] in (0, 2)]
        hand = [rng.choice(pool) for _ in range(rng.randint(3, 9))]
        meld_pool = [rng.choice(pool) for _ in range(rng.randint(3, 6))]
        yield name, wilds[name], hand, meld_pool, rng.choice([0, 1, 2, 13])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_searched_melds_agree_with_the_list(g, seed):
    """burraco.md, Melds: every set and sequence of the hand holding the chosen cards is found by
    ``containing`` (no more, no fewer than ``melds_in`` lists), ``holds`` says which card sets are
    melds, and ``units`` names every card that can join the chosen ones."""
    ns = g.ns
    for name, wild, hand, _, k in _hands(g, seed, 60):
        obj = M.MeldsIn(hand, wild, k, ns["RANK"], ns["SUIT"], ns["SORT_KEY"])
        bad = _check(obj, hand, 4)
        assert bad is None, (name, k, [g.deck.code[c] for c in hand], bad)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_searched_lay_offs_agree_with_the_list(g, seed):
    """burraco.md, Lay off: the card sets of the hand that extend a table meld (a set or a sequence,
    its wild cards counted) holding the chosen cards are those ``extensions`` lists."""
    ns = g.ns
    RANK, SUIT, KEY = ns["RANK"], ns["SUIT"], ns["SORT_KEY"]
    tried = 0
    for name, wild, hand, pool, k in _hands(g, seed, 80):
        melds = list(M.MeldsIn(pool, wild, 13, RANK, SUIT, KEY))
        if not melds:
            continue
        meld = M.layout(random.Random(len(hand)).choice(melds), wild, RANK, SUIT, KEY)
        obj = M.Extensions(meld, hand, wild, k, RANK, SUIT, KEY)
        bad = _check(obj, hand, 4)
        assert bad is None, (name, k, [g.deck.code[c] for c in meld], [g.deck.code[c] for c in hand], bad)
        tried += 1
    assert tried >= 20


def test_the_value_is_the_list(g):
    """As an expression value ``melds_in`` is its list (count, indexing, iteration, equality)."""
    ns = g.ns
    f = [g.deck.face(c) for c in "7H 8H 9H JK 4D".split()]
    wild = tuple(sorted({c for c in g.deck.cards if ns["RANK"][c] in (0, 2)}))
    obj = M.MeldsIn(f, wild, 13, ns["RANK"], ns["SUIT"], ns["SORT_KEY"])
    listed = M.melds_in(f, wild, 13, ns["RANK"], ns["SUIT"], ns["SORT_KEY"])
    assert list(obj) == listed and len(obj) == len(listed) == 5 and obj[0] == listed[0] and obj == listed
    assert listed[1] in obj
