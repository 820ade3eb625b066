"""Hearts (standard four-player game): every rule of ../shared/rules/black-lady.md, "Hearts", and the
digest's "Known faults to avoid", each as a test.

Constructed deals use the ``deal=`` override with ``first_pass=none`` unless
the pass is what is tested. Pass actions are taken from ``legal_actions()`` so
the tests hold whether a pass is one action of three cards or three actions
of one card.
"""
from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

import cardspec
from cardspec import IllegalAction

RANKS = "23456789TJQKA"
DECK = [r + s for s in "SHDC" for r in RANKS]
SRC = "../shared/rules/black-lady.md"


@functools.lru_cache(maxsize=None)
def game(items=()):
    return cardspec.load("hearts", players=4, options=dict(items))


def G(**opts):
    return game(tuple(sorted(opts.items())))


def state(hands, seed=0, dealer=0, **opts):
    g = G(**{"first_pass": "none", "deals": 1, **opts})
    d = g.deck
    return g.new_state(seed=seed, dealer=dealer,
                       deal={(g.zone["hand"].index, s): [d.face(c) for c in cs] for s, cs in hands.items()})


def suits_deal():
    """Seat 0 all clubs, 1 all diamonds, 2 all hearts, 3 all spades."""
    return {0: [r + "C" for r in RANKS], 1: [r + "D" for r in RANKS], 2: [r + "H" for r in RANKS],
            3: [r + "S" for r in RANKS]}


def do_passes(s, pick=lambda legal: legal[0]):
    while s.legal_actions() and s.legal_actions()[0].startswith("pass "):
        s.apply(pick(s.legal_actions()))


def points(s):
    ev = [e for e in s.log_all() if e["type"] == "deal_score"][-1]
    return [ev["points"][str(i)] for i in range(4)]


def test_two_of_clubs_leads_it():
    """black-lady.md, "Hearts": the holder of 2C leads it (not the dealer's left)."""
    hands = suits_deal()
    hands[0], hands[3] = hands[3], hands[0]   # seat 3 holds the clubs
    s = state(hands)
    assert s.to_act == 3 and s.legal_actions() == ["2C"]
    with pytest.raises(IllegalAction):
        s.apply("AC")


def test_two_of_clubs_leader_is_found_after_the_pass():
    """black-lady.md, "Known faults": the forced 2C lead computed before passing (the holder after the pass
    leads)."""
    hands = suits_deal()
    s = state(hands, first_pass="left")

    def pick(legal):
        # seat 0 passes 2C first; everyone else passes its first legal choice
        mine = [a for a in legal if "2C" in a.split()]
        return mine[0] if mine else legal[0]
    do_passes(s, pick)
    assert s.to_act == 1, "2C went left to seat 1"
    assert s.legal_actions() == ["2C"]


def test_no_pass_deal_starts_with_the_2c_holder():
    """black-lady.md, "Known faults": a no-pass deal starts with the right leader."""
    hands = suits_deal()
    hands[0], hands[2] = hands[2], hands[0]
    s = state(hands, first_pass="none")
    assert s.to_act == 2 and s.legal_actions() == ["2C"]


def test_no_points_on_the_first_trick_unless_nothing_else():
    """black-lady.md, "Hearts": no points on the first trick (a club-void player may not discard a heart or
    QS, unless they hold nothing else)."""
    s = state(suits_deal())
    s.apply("2C", seat=0)
    assert set(s.legal_actions()) == {r + "D" for r in RANKS}
    s.apply("5D")
    assert set(s.legal_actions()) == {r + "H" for r in RANKS}, "only hearts: a heart may be played"
    s.apply("2H")
    assert set(s.legal_actions()) == {r + "S" for r in RANKS} - {"QS"}
    with pytest.raises(IllegalAction, match="legal"):
        s.apply("QS")


def _trick_two_deal():
    return {0: ["2C"] + [r + "D" for r in RANKS[:12]],
            1: ["AC", "QS", "3S"] + [r + "H" for r in "23456789TJ"],
            2: [r + "C" for r in "3456789TJ"] + ["QH", "KH", "AH", "AD"],
            3: ["QC", "KC"] + [r + "S" for r in RANKS if r not in "Q3"]}


def test_first_trick_rule_not_applied_on_the_second_trick():
    """black-lady.md, "Known faults": the first-trick restriction applied on a later trick. Seat 1 wins
    trick 1 and may lead the QS (points) to trick 2; a spade-void follower may then discard hearts."""
    hands = _trick_two_deal()
    assert Counter(c for h in hands.values() for c in h) == Counter(DECK)
    s = state(hands)
    for seat, c in ((0, "2C"), (1, "AC"), (2, "3C"), (3, "KC")):
        s.apply(c, seat=seat)
    assert s.to_act == 1
    assert set(s.legal_actions()) == {"QS", "3S"}, "hearts not broken: no heart lead, but QS may be led"
    s.apply("QS")
    assert set(s.legal_actions()) == set(hands[2]) - {"3C"}, "void in spades on trick 2: any card"
    s.apply("AH")


def _broken_deal():
    return {0: ["2C"] + [r + "D" for r in RANKS[:12]],
            1: ["AC", "3S"] + [r + "H" for r in RANKS[:11]],
            2: [r + "C" for r in RANKS[1:12]] + ["AD", "KH"],
            3: [r + "S" for r in RANKS if r != "3"] + ["AH"]}


@pytest.mark.parametrize("discard,seat3,broken", [("KH", "4S", True), ("AD", "4S", False), ("AD", "QS", True)])
def test_hearts_not_led_until_broken_by_a_heart_or_the_qs(discard, seat3, broken):
    """black-lady.md, "Hearts": hearts may not be led until broken (a heart discarded, or the QS played);
    "Known faults": the hearts-broken flag is consulted for leads."""
    hands = _broken_deal()
    assert Counter(c for h in hands.values() for c in h) == Counter(DECK)
    s = state(hands)
    for seat, c in ((0, "2C"), (1, "AC"), (2, "3C"), (3, "2S")):
        s.apply(c, seat=seat)
    assert set(s.legal_actions()) == {"3S"}, "seat 1: hearts unbroken, a spade held"
    for seat, c in ((1, "3S"), (2, discard), (3, seat3), (0, "2D")):
        s.apply(c, seat=seat)
    assert s.to_act == 3
    assert ("AH" in s.legal_actions()) is broken
    if not broken:
        with pytest.raises(IllegalAction):
            s.apply("AH")


def test_hearts_led_from_an_all_hearts_hand():
    """black-lady.md, "Hearts": ... unless the leader holds only hearts."""
    hands = {0: ["2C"] + [r + "D" for r in RANKS[:12]], 1: ["AC"] + [r + "H" for r in RANKS[:12]],
             2: [r + "C" for r in RANKS[1:12]] + ["AD", "AH"], 3: [r + "S" for r in RANKS]}
    assert Counter(c for h in hands.values() for c in h) == Counter(DECK)
    s = state(hands)
    for seat, c in ((0, "2C"), (1, "AC"), (2, "3C")):
        s.apply(c, seat=seat)
    assert "QS" not in s.legal_actions(), "no QS on the first trick while other spades are held"
    s.apply("2S", seat=3)
    assert s.to_act == 1
    assert set(s.legal_actions()) == {r + "H" for r in RANKS[:12]}


def test_random_deals_follow_every_lead_and_play_rule():
    """black-lady.md, "Hearts": at every step of random deals, the legal plays are exactly those of the rules
    (2C first, follow suit, no points on trick 1 for followers, hearts led only when broken or forced),
    with "broken" tracked here from the plays, independently of the engine's flag."""
    for seed in range(40):
        g = G(deals=1, first_pass=["left", "right", "across", "none"][seed % 4])
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        do_passes(s, lambda legal: rng.choice(legal))
        broken = False
        trick = []
        tricks = 0
        while not s.terminal:
            seat = s.to_act
            hand = s.view(seat)["zones"]["hand"][str(seat)]
            if not trick:
                if tricks == 0:
                    want = {"2C"}
                elif broken or all(c[1] == "H" for c in hand):
                    want = set(hand)
                else:
                    want = {c for c in hand if c[1] != "H"}
            else:
                led = trick[0][1]
                want = {c for c in hand if c[1] == led} or set(hand)
                if tricks == 0 and not any(c[1] == led for c in hand):
                    want = {c for c in hand if c[1] != "H" and c != "QS"} or set(hand)
            assert set(s.legal_actions()) == want, (seed, tricks, seat)
            c = rng.choice(s.legal_actions())
            s.apply(c)
            trick.append(c)
            broken = broken or c[1] == "H" or c == "QS"
            if len(trick) == 4:
                trick, tricks = [], tricks + 1
        assert tricks == 13


def test_moon_is_all_hearts_and_the_queen():
    """black-lady.md, "Hearts": shooting the moon: the shooter scores 0, everybody else 26; "Known faults":
    detected from taking all 13 hearts and the QS."""
    s = state(suits_deal())
    while not s.terminal:
        legal = s.legal_actions()
        s.apply(next((a for a in legal if a != "QS"), legal[0]) if s.to_act == 3 else legal[0])
    won = Counter()
    for t in [e for e in s.log_all() if e["type"] == "trick"]:
        won[t["winner"]] += 1
    assert won == {0: 13}
    assert points(s) == [0, 26, 26, 26]
    s = state(suits_deal(), moon=False)
    while not s.terminal:
        s.apply(s.legal_actions()[0])
    assert points(s) == [26, 0, 0, 0], "the last trick's QS counted; moon off gives the raw points"


def test_no_moon_when_one_heart_is_missing():
    """black-lady.md, "Known faults": moon detected from taking all 13 hearts and the QS — a player with
    25 (12 hearts and the QS) shoots nothing: everybody scores what they took."""
    # Seat 1's AC takes trick 1 with a forced heart from seat 2; seat 0's AD regains the lead on trick 2 and
    # its clubs take every later trick: seat 0 takes 12 hearts and the QS, seat 1 one heart.
    hands = {0: [r + "C" for r in RANKS[:12]] + ["AD"], 1: ["AC"] + [r + "D" for r in RANKS[:12]],
             2: [r + "H" for r in RANKS], 3: [r + "S" for r in RANKS]}
    assert Counter(c for h in hands.values() for c in h) == Counter(DECK)
    s = state(hands)
    rng = random.Random(7)
    while not s.terminal:
        s.apply(rng.choice(s.legal_actions()))
    winners = [e["winner"] for e in s.log_all() if e["type"] == "trick"]
    assert winners == [1] + [0] * 12
    assert points(s) == [25, 1, 0, 0]


@pytest.mark.parametrize("first,targets", [
    ("left", [1, -1, 2, 0, 1]), ("right", [-1, 2, 0, 1, -1]), ("across", [2, 0, 1, -1, 2]),
    ("none", [0, 1, -1, 2, 0])])
def test_pass_cycle_left_right_across_none(first, targets):
    """black-lady.md, "Hearts": the pass direction cycles left, right, across, no pass by deal."""
    s = G(first_pass=first, deals=5).new_state(seed=1)
    rng = random.Random(1)
    while not s.terminal:
        s.apply(rng.choice(s.legal_actions()))
    log = s.log_all()
    deals = []
    for e in log:
        if e["type"] == "deal_start":
            deals.append(set())
        elif e["type"] == "pass":
            deals[-1].add((e["to"] - e["seat"]) % 4)
            assert len(e["cards"]) >= 1
    assert deals == [({t % 4} if t else set()) for t in targets]
    for i, t in enumerate(targets):
        if t:
            sizes = Counter()
            seen = False
            for e in log:
                if e["type"] == "deal_start":
                    seen = e["deal"] == i + 1
                elif seen and e["type"] == "pass":
                    sizes[e["seat"]] += len(e["cards"])
            assert set(sizes.values()) == {3}, "3 cards each"


def test_target_100_ends_the_match():
    """black-lady.md, "Hearts": lowest total when someone reaches 100 wins (the match ends at that deal)."""
    s = G().new_state(seed=4)
    rng = random.Random(4)
    while not s.terminal:
        s.apply(rng.choice(s.legal_actions()))
    totals = [e["totals"] for e in s.log_all() if e["type"] == "deal_score" and "totals" in e]
    assert max(totals[-1].values()) >= 100 and all(max(t.values()) < 100 for t in totals[:-1])
    over = s.log_all()[-1]
    assert over["ranking"][0] == min(range(4), key=lambda k: (totals[-1][str(k)], k))


OMNIBUS = """extends: hearts
name: omnibus-hearts
description: Hearts with the jack of diamonds worth -10 to its taker.
deck: {points: {JD: -10}}
"""


def _omnibus_games(tmp_path):
    """Omnibus Hearts two ways: the issue 20 reproduction (a variant giving the JD -10 points) and the
    Hearts family's option."""
    f = tmp_path / "omnibus.yaml"
    f.write_text(OMNIBUS)
    return [cardspec.load(str(f), players=4, options={"first_pass": "none", "deals": 1}),
            G(first_pass="none", deals=1, jack_of_diamonds=-10)]


def _dealt(g, hands):
    d = g.deck
    return g.new_state(seed=0, deal={(g.zone["hand"].index, s): [d.face(c) for c in cs] for s, cs in hands.items()})


def test_omnibus_jack_of_diamonds_is_a_bonus_card_not_a_penalty_card(tmp_path):
    """black-lady.md, "Hearts" (published variants: the jd bonus) and issue 20 item 5: with the jack of
    diamonds at -10 (Omnibus Hearts), shooting the moon is still all 13 hearts and the queen of spades (26
    penalty points: the shooter scores 0 plus the JD's -10, everybody else 26), and the JD may be discarded
    on the first trick (it is not a penalty card)."""
    for g in _omnibus_games(tmp_path):
        s = _dealt(g, suits_deal())
        s.apply("2C", seat=0)
        assert set(s.legal_actions()) == {r + "D" for r in RANKS}, "the JD is no penalty card"
        while not s.terminal:
            legal = s.legal_actions()
            s.apply(next((a for a in legal if a != "QS"), legal[0]) if s.to_act == 3 else legal[0])
        assert points(s) == [-10, 26, 26, 26]


def test_omnibus_jack_of_diamonds_stays_with_its_taker_without_a_moon(tmp_path):
    """Issue 20 item 5: without a moon, the JD's -10 counts for whoever takes it; the penalties stay."""
    for g in _omnibus_games(tmp_path):
        s = _dealt(g, {0: [r + "C" for r in RANKS[:12]] + ["AD"], 1: ["AC"] + [r + "D" for r in RANKS[:12]],
                       2: [r + "H" for r in RANKS], 3: [r + "S" for r in RANKS]})
        rng = random.Random(7)
        while not s.terminal:
            s.apply(rng.choice(s.legal_actions()))
        assert [e["winner"] for e in s.log_all() if e["type"] == "trick"] == [1] + [0] * 12
        # seat 0: 12 hearts, the QS and (in trick 2) seat 1's JD; seat 1: one heart.
        assert points(s) == [15, 1, 0, 0]
