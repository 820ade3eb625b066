"""Determinizations of ``visibility: top`` zones and ``turns`` positions (cardspec.engine.determinize, docs/ismcts.md).

Burraco's discard pile (../shared/rules/burraco.md, "A turn": the discard pile shows its top card;
every discard is made face up, and taking the pile takes all of it) is ``visibility: top``: a view
shows its top card and size. A seat also saw every discard go onto the pile (the public log's
``action`` events), so it knows every card below the top that a discard put there, and the card
dealt face up at the start (the ``deal`` event's ``top``, burraco.md "Deal"), and the cards a ``take`` moved into a hand until
that seat melds, lays off or discards them. Every determinization must agree with the seat's view
(top and size included), with these log facts, and hold every card exactly once; in a trick game
(Hearts, ../shared/rules/hearts.md) with the shown voids too.

The facts are computed here independently, from the omniscient log's action texts.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

import cardspec
from _positions import random_position
from cardspec.engine.determinize import Determinizer

BURRACO = cardspec.load("burraco", 4)
HEARTS = cardspec.load("hearts", 4, {"deals": 1})


position = random_position


def every_card(game, s):
    out = []
    for zn in game.zones:
        for part in (s.z[zn.index] if zn.per_seat else [s.z[zn.index]]):
            out += [c for m in part for c in m] if zn.melds else list(part)
    out += [c for _, c in s.plays]
    if s.flight is not None:
        out += [c for f in s.flight if f for c in f]
    return Counter(out)


def burraco_log_facts(s):
    """(pile, taken): the discard pile bottom first (a code, or None for a card the log did not show),
    and {seat: Counter of codes} taken with the pile and not melded, laid off or discarded since."""
    pile, taken = [], {}
    for ev in s.log_all():
        t = ev["type"]
        if t == "deal_start":
            pile, taken = [], {}
        elif t == "deal" and ev["zone"] == "discard":
            pile += [None] * (ev["count"] - 1) + [ev["top"]] if ev["count"] else []
        elif t == "action":
            words = ev["action"].split()
            seat = ev["seat"]
            if words[0] in ("meld", "lay", "discard"):
                named = [w for w in words[1:] if not w.isdigit() and w != "off"]
                for c in named:
                    if taken.get(seat, Counter())[c] > 0:
                        taken[seat][c] -= 1
                if words[0] == "discard":
                    pile.append(named[0])
            elif words[0] == "take":
                taken.setdefault(seat, Counter()).update(c for c in pile if c is not None)
                pile = []
    return pile, taken


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10 ** 6), steps=st.integers(0, 160), draws=st.integers(1, 3))
def test_burraco_determinizations_keep_the_pile_top_size_log_and_every_card(seed, steps, draws):
    """burraco.md "A turn": the pile's top and size, the discards seen, the cards taken, conservation."""
    s = position(BURRACO, seed, steps)
    if s is None:
        return
    seat = s.to_act
    real = s.view(seat)
    code = BURRACO.deck.code
    pile, taken = burraco_log_facts(s)
    real_pile = [code[c] for c in s.z[BURRACO.zone["discard"].index]]
    assert len(pile) == len(real_pile) and all(p is None or p == r for p, r in zip(pile, real_pile))
    det = Determinizer(BURRACO, s.view(seat, log=True))
    rng = random.Random(seed)
    for _ in range(draws):
        d = det.sample(rng)
        assert d.view(seat) == real                        # top card and size included
        assert d.legal_actions() == s.legal_actions()
        assert every_card(BURRACO, d) == Counter(BURRACO.deck.cards)
        got = [code[c] for c in d.z[BURRACO.zone["discard"].index]]
        assert len(got) == len(pile) and all(p is None or p == g for p, g in zip(pile, got)), (pile, got)
        for who, cards in taken.items():
            hand = Counter(code[c] for c in d.z[BURRACO.zone["hand"].index][who])
            assert not (+cards - hand), f"seat {who} took {+cards} with the pile; holds {hand}"


def test_burraco_pile_is_known_below_the_top_once_the_dealt_card_is_taken():
    """After a take, every later discard is known: the whole pile is determined by the log."""
    found = 0
    for seed in range(40):
        s = position(BURRACO, seed, 0)
        rng = random.Random(seed)
        while not s.terminal and found < 3:
            s.apply(rng.choice(s.legal_actions()))
            pile, _ = burraco_log_facts(s)
            if s.terminal or len(pile) < 3 or None in pile:
                continue
            seat = s.to_act
            det = Determinizer(BURRACO, s.view(seat, log=True))
            d = det.sample(random.Random(seed))
            assert d.z[BURRACO.zone["discard"].index] == s.z[BURRACO.zone["discard"].index]
            found += 1
            break
        if found >= 3:
            return
    assert found >= 1


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10 ** 6), steps=st.integers(0, 120))
def test_burraco_state_from_view_with_the_real_hidden_cards_rebuilds_the_position(seed, steps):
    s = position(BURRACO, seed, steps)
    if s is None:
        return
    seat = s.to_act
    view = s.view(seat, log=True)
    hidden = {}
    for zn in BURRACO.zones:
        for owner, cards in (enumerate(s.z[zn.index]) if zn.per_seat else [(None, s.z[zn.index])]):
            e = view["zones"][zn.name] if owner is None else view["zones"][zn.name][str(owner)]
            if isinstance(e, dict) and e["count"]:
                hidden[(zn.name, owner)] = cards[:-1] if "top" in e else list(cards)
    r = BURRACO.state_from_view(view, hidden)
    for who in range(4):
        assert r.view(who) == s.view(who)
    assert r.legal_actions() == s.legal_actions()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10 ** 6), steps=st.integers(0, 55))
def test_hearts_determinizations_keep_the_view_voids_and_every_card(seed, steps):
    """A trick game (hearts.md, "Play": follow suit): view, legal actions, shown voids, conservation."""
    s = position(HEARTS, seed, steps)
    if s is None:
        return
    seat = s.to_act
    real = s.view(seat)
    voids = {}
    tricks = [ev["cards"] for ev in s.log_all() if ev["type"] == "trick"] + [real["trick"]]
    for cards in tricks:
        if cards:
            led = cards[0][1][-1]
            for who, c in cards:
                if c[-1] != led:
                    voids.setdefault(who, set()).add(led)
    d = Determinizer(HEARTS, s.view(seat, log=True)).sample(random.Random(seed))
    assert d.view(seat) == real and d.legal_actions() == s.legal_actions()
    assert every_card(HEARTS, d) == Counter(HEARTS.deck.cards)
    for who, suits in voids.items():
        held = {HEARTS.deck.code[c][-1] for c in d.z[HEARTS.zone["hand"].index][who]}
        assert not (held & suits)
