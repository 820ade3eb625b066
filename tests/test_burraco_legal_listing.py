"""Burraco: ``legal_actions()`` lists exactly the legal melds and lay-offs (DESIGN.md, "Actions").

The ``meld`` and ``lay_off`` actions list their card sets from ``candidates:`` (``melds_in`` and
``extensions`` in cardspec.engine.melds: a walk over each rank and each suit's windows of places, not
every subset of the hand), while a typed action is checked directly. These tests hold the two
together: for many small hands (6–9 cards, wild cards frequent: jokers, 2s of the sequence's own
suit and of other suits) and random valid table melds, the listed meld and lay-off actions equal,
as sets, the brute-force enumeration of every sub-multiset of the hand checked one by one with
``State.parse_action`` (the state's own direct legality check). Rules: ../shared/rules/burraco.md
("Melds": sets, sequences, the 2 natural in its own place, wild-card limits; "Moving a wild").
"""
from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from cardspec.engine import melds as _melds
from cardspec.engine import Game
from cardspec.errors import IllegalAction

RULES = "../shared/rules/burraco.md"
VARIANTS = {
    "seed": ("burraco", None),                                   # any number of wilds when laid
    "federation": ("burraco-fibur", None),                       # one wild per meld
    "two-wilds": ("burraco", {"meld_wilds": 2, "layoff_wilds": 2}),   # a limit between the two
}
GAMES = {}
RANKS = "A3456789TJQK"          # the natural ranks (every 2 is wild)


def game(variant):
    if variant not in GAMES:
        name, opts = VARIANTS[variant]
        GAMES[variant] = Game(name, 4, options=opts)
    return GAMES[variant]


def faces(g, codes):
    return [g.deck.face(c) for c in codes]


def position(variant, hand, melds=(), pots=False):
    """Seat 1 to act in the meld phase, holding ``hand`` (codes; the last one is drawn from the
    stock), partnership 1 owning ``melds`` (codes, laid out as the ``meld`` effect lays them)."""
    g = game(variant)
    s = g.new_state(seed=7)
    ns = g.ns
    wild = {c for c in g.deck.cards if ns["RANK"][c] in (0, 2)}   # jokers (rank 0) and 2s
    z = g.zone
    for seat in range(4):
        s.z[z["hand"].index][seat][:] = faces(g, hand[:-1]) if seat == 1 else []
    s.z[z["table"].index][1][:] = [
        _melds.layout(faces(g, m.split() if isinstance(m, str) else m), wild, ns["RANK"], ns["SUIT"], ns["SORT_KEY"]) for m in melds]
    s.z[g.stock].append(g.deck.face(hand[-1]))
    if pots:
        for seat in (1, 3):
            s.c[g.counter["pots"].index][seat] = 1
    s._cache = None
    assert s.to_act == 1
    s.apply("draw")
    return s


def sub_multisets(cards, least):
    """Every distinct sub-multiset of ``cards`` with at least ``least`` cards (lists of codes)."""
    items = sorted(Counter(cards).items())
    for counts in itertools.product(*[range(k + 1) for _, k in items]):
        if sum(counts) >= least:
            yield [c for (c, _), k in zip(items, counts) for _ in range(k)]


def brute_force(s):
    """Canonical texts of every meld and lay-off the state accepts when typed: all sub-multisets of
    the hand, each checked directly by ``parse_action``."""
    g = s.game
    hand = [g.deck.code[c] for c in s.z[g.zone["hand"].index][1]]
    texts = ["meld " + " ".join(m) for m in sub_multisets(hand, 3)]
    for i in range(1, len(s.z[g.zone["table"].index][1]) + 1):
        texts += [f"lay off {i} " + " ".join(m) for m in sub_multisets(hand, 1)]
    out = set()
    for t in texts:
        try:
            out.add(s.parse_action(t))
        except IllegalAction:
            pass
    return out


def listed(s):
    acts = [a for a in s.legal_actions() if a.startswith(("meld ", "lay off "))]
    assert len(acts) == len(set(acts)), "an action is listed twice"
    return set(acts)


def assert_exact(s):
    got, want = listed(s), brute_force(s)
    assert got == want, {"missing": sorted(want - got), "not legal": sorted(got - want)}
    return got


def wild_count(variant, codes):
    g = game(variant)
    s = g.new_state(seed=1)
    return g.ns["_d_wild_count"](s, tuple(faces(g, codes)))


# ---- worked cases -----------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("hand, must", [
    # the reported case: the joker stands for 8♥ although 8♥ is in the hand
    ("7H 8H 9H JK 4D", ["meld 9H 7H JK", "meld 9H 8H 7H", "meld 8H 7H JK"]),
    # a 2 natural in its own place (A-2-3, 2-3-4) and the same 2 as a wild of its own suit (for 3♥)
    ("AH 2H 3H 4H 5H 9S", ["meld AH 2H 3H", "meld 2H 3H 4H", "meld 2H 4H 5H", "meld AH 2H 3H 4H 5H"]),
    # two 2♥: one natural on place 2, the other a stand-in (for 4♥, or for 3♥ with 3♥ in the hand)
    ("AH 2H 2H 3H 5H", ["meld 5H 3H 2H 2H AH", "meld 3H 2H 2H AH"]),
    # ace high; K-A-2 only as the 2 standing for the queen (burraco.md, never around the corner)
    ("QH KH AH 2H JK", ["meld AH KH QH", "meld AH KH 2H", "meld AH QH JK"]),
    # sets with jokers and 2s, suits and duplicates ignored (a set of only wilds is no meld)
    ("7C 7C 7S JK JK 2D", ["meld 7C 7C 7S", "meld 7S JK 2D", "meld 7C 7C JK"]),
])
def test_worked_hands_list_exactly_the_legal_melds(variant, hand, must):
    """burraco.md, Melds: for hands exercising a wild on a place whose natural card the hand holds,
    the 2 natural in its own place and as a wild, ace high and low, and jokers, the listed melds are
    exactly those accepted when typed; each named meld is among them when its wilds fit the variant."""
    s = position(variant, hand.split())
    got = assert_exact(s)
    limit = game(variant).options["meld_wilds"]
    for m in must:
        if wild_count(variant, m.split()[1:]) <= limit:
            assert s.parse_action(m) in got, m


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("hand, melds", [
    ("2H 4H JK 9S", ["AH 2H 3H"]),            # another 2♥ as a wild next to the natural 2♥
    ("4C JK 2C 9S", ["3C 2C 5C"]),            # 3-2(as 4)-5 + 4 → 2-3-4-5, the 2 natural
    ("7C TC 9C 2S 4D", ["6C JK 8C"]),         # the inner joker displaced by 7♣, or not
    ("JC KC 2C 4D", ["9C TC JK QC"]),         # a natural on the joker's place moves it to an end
    ("KS KS JK 2D 4D", ["KS KH KD", "QH KH AH"]),  # a clean set and a clean ace-high sequence
    ("8C 2C JK 4D", ["2C 5C 6C"]),            # the free wild moves to make room
])
def test_worked_lay_offs_list_exactly_the_legal_ones(variant, hand, melds):
    """burraco.md, Lay off / Moving a wild / wild-card limits: the listed lay-offs onto the
    partnership's melds are exactly those accepted when typed."""
    s = position(variant, hand.split(), melds)
    assert_exact(s)


# ---- random small hands -----------------------------------------------------------------------------
@st.composite
def deals(draw):
    """(variant, hand codes, table melds, pots taken): cards from one to three suits and a window of
    3–6 ranks (sometimes also A, K, Q, 3: both ends of the ace), wild cards frequent."""
    variant = draw(st.sampled_from(list(VARIANTS)))
    suits = draw(st.lists(st.sampled_from("SHDC"), min_size=1, max_size=3, unique=True))
    lo = draw(st.integers(0, len(RANKS) - 1))
    span = [RANKS[(lo + i) % len(RANKS)] for i in range(draw(st.integers(3, 6)))]
    if draw(st.booleans()):
        span += ["A", "K", "Q", "3"]
    naturals = [r + s for r in span for s in suits]
    wilds = ["JK"] + ["2" + s for s in suits] + ["2" + draw(st.sampled_from("SHDC"))]
    card = st.one_of(st.sampled_from(naturals), st.sampled_from(naturals), st.sampled_from(wilds))
    hand = draw(st.lists(card, min_size=6, max_size=9))
    limit = game(variant).options["layoff_wilds"]
    melds = []
    for _ in range(draw(st.integers(0, 2))):
        pool = draw(st.lists(card, min_size=3, max_size=6))
        valid = [m for m in sub_multisets(pool, 3)
                 if len(m) <= 6 and 0 <= wild_count(variant, m) <= limit]
        if valid:
            melds.append(draw(st.sampled_from(valid)))
    return variant, hand, melds, draw(st.booleans())


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(deals())
def test_random_hands_list_exactly_the_legal_melds_and_lay_offs(deal):
    """DESIGN.md, Actions: legal_actions() lists exactly the legal actions. For random 6–9-card hands
    (seed, federation and a two-wild limit; pot taken or not, so running out is sometimes illegal)
    and 0–2 valid melds of the partnership, the listed melds and lay-offs equal the brute-force set of
    every sub-multiset of the hand accepted by parse_action (burraco.md, Melds and Lay off)."""
    variant, hand, melds, pots = deal
    s = position(variant, hand, melds, pots)
    assert_exact(s)
