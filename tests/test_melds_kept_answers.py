"""Answers of the melds package kept between calls give what working them out gives (issue 37, item 2).

``fixed_layout`` keeps its answers by its arguments (a lay-off's check, its effect and the effect's
``wild_goes_high`` ask the same one), and ``_hand_of`` keeps a hand's split by the hand, comparing the
wild cards and tables. Held here to ``_fixed_layout`` and to a fresh ``_Hand``, with the cache cleared
and full, over random melds and lay-offs and changing wild cards. Rules: ../shared/rules/burraco.md
("Moving a wild").
"""
from __future__ import annotations

import random

from cardspec.engine import Game
from cardspec.engine.melds import _hand, _layout


def _tables(g):
    return g.ns["RANK"], g.ns["SUIT"], g.ns["SORT_KEY"]


def test_fixed_layout_kept_equals_worked_out():
    g = Game("burraco", 4)
    RANK, SUIT, SK = _tables(g)
    deck = list(g.deck.cards)
    both = tuple(sorted({c for c in deck if RANK[c] in (0, 2)}))
    rng = random.Random(3)
    cases = []
    for _ in range(3000):
        wild = rng.choice([both, tuple(c for c in both if RANK[c] == 2), ()])
        su, lo = rng.randrange(4), rng.randint(1, 10)
        meld = [c for c in deck if SUIT[c] == su and lo <= RANK[c] <= lo + rng.randint(1, 4)]
        if wild and rng.random() < 0.5:
            meld[rng.randrange(len(meld))] = rng.choice(wild)
        meld = _layout.layout(tuple(meld), wild, RANK, SUIT, SK)
        cards = tuple(rng.choice(deck) for _ in range(rng.randint(1, 3)))
        cases.append((meld, cards, wild))
    _layout._FIXED.clear()
    found = 0
    for _ in range(2):   # worked out, then kept (the cache starts again when full)
        for meld, cards, wild in cases:
            want = _layout._fixed_layout(meld, cards, wild, RANK, SUIT, SK)
            assert _layout.fixed_layout(meld, cards, wild, RANK, SUIT, SK) == want, (meld, cards, wild)
            found += want is not None
    assert found > 200 and len(_layout._FIXED) <= _layout._FIXED_SIZE
    # a list of wild cards (unhashable): worked out each time
    meld, cards, wild = cases[0]
    assert _layout.fixed_layout(meld, cards, list(wild), RANK, SUIT, SK) == \
        _layout._fixed_layout(meld, cards, wild, RANK, SUIT, SK)


def _same(a, b):
    return all(getattr(a, k) == getattr(b, k) for k in ("nat", "wl", "wild", "n_wl", "places", "twos", "by_rank",
                                                          "by_suit"))


def test_hand_of_kept_by_hand_with_its_wild_cards():
    g = Game("burraco", 4)
    RANK, SUIT, _ = _tables(g)
    deck = list(g.deck.cards)
    both = tuple(sorted({c for c in deck if RANK[c] in (0, 2)}))
    twos = tuple(c for c in both if RANK[c] == 2)
    rng = random.Random(4)
    hands = [tuple(rng.sample(deck, rng.randint(0, 14))) for _ in range(20)]
    _hand._HANDS.clear()
    for _ in range(400):
        hand = rng.choice(hands)
        wild = rng.choice([both, twos, (), list(twos), frozenset(both)])
        got = _hand._hand_of(hand, wild, RANK, SUIT)
        assert _same(got, _hand._Hand(hand, wild, RANK, SUIT)), (hand, wild)
        assert len(_hand._HANDS) <= 8
    # a wild-card list changed in place is never read from the kept split
    wl = list(twos)
    hand = hands[0]
    _hand._hand_of(hand, wl, RANK, SUIT)
    wl.append(both[-1])
    assert _same(_hand._hand_of(hand, wl, RANK, SUIT), _hand._Hand(hand, tuple(wl), RANK, SUIT))
