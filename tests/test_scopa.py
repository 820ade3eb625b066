"""Scopa (rulesets/scopa.yaml) against its digest, docs/rules/scopa.md (issue 34).

The oracle is written from the digest alone (plain Python over card codes): the legal plays of a hand on
a table (a card of the same value taken alone, else a set adding up to the card, else the card laid on the
table — and a card that can capture must), the sweeps, the last capturer taking the table, and the deal's
points (cards, coins, settebello, primiera, sweeps). It is checked at every decision of random matches.
"""
from __future__ import annotations

import itertools
import random

import pytest

import cardspec

VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}
PRIMIERA = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "J": 10, "Q": 10, "K": 10}


def value(c: str) -> int:
    return VALUE[c[0]]


# ---------- the oracle (scopa.md, Play and Scoring) ----------

def plays(hand: list, table: list) -> set:
    """scopa.md, Play: every legal play as (card, frozenset of taken cards) — empty for a card laid down."""
    out = set()
    for c in set(hand):
        v = value(c)
        same = {t for t in table if value(t) == v}
        if same:                                  # 1. the equal card, alone
            out |= {(c, frozenset([t])) for t in same}
            continue
        sums = {frozenset(s) for k in range(2, len(table) + 1)
                for s in itertools.combinations(table, k) if sum(map(value, s)) == v}
        if sums:                                  # 2. a set adding up to it
            out |= {(c, s) for s in sums}
        else:                                     # 3. it captures nothing: laid on the table
            out.add((c, frozenset()))
    return out


def primiera(pile: list):
    """scopa.md, Scoring: the best primiera value of each suit added; None when a suit is missing."""
    best = {}
    for c in pile:
        best[c[1]] = max(best.get(c[1], 0), PRIMIERA[c[0]])
    return sum(best.values()) if len(best) == 4 else None


def deal_points(piles: list, sweeps: list) -> list:
    """scopa.md, Scoring: cards, coins (diamonds), settebello (7D), primiera, one point per sweep; ties
    score nobody."""
    pts = list(sweeps)
    for s in (0, 1):
        o = 1 - s
        pts[s] += len(piles[s]) > len(piles[o])
        coins = [sum(c[1] == "D" for c in p) for p in piles]
        pts[s] += coins[s] > coins[o]
        pts[s] += "7D" in piles[s]
        ps, po = primiera(piles[s]), primiera(piles[o])
        pts[s] += ps is not None and (po is None or ps > po)
    return pts


def _parse(action: str):
    words = action.split()
    if words[0] == "capture":
        return words[1], frozenset(words[2:])
    return words[1], frozenset()


@pytest.fixture(scope="module")
def scopa():
    return cardspec.load("scopa")


def test_legal_plays_sweeps_and_deal_points_agree_with_the_digest_over_random_matches(scopa):
    """scopa.md, Play (the equal card first, else a sum; compulsory capture; sweeps, not on the deal's last
    card; the last capturer takes the table) and Scoring: every legal set and every deal's points of random
    matches (over 500 deals), against the oracle above."""
    deals = decisions = sweeps_seen = 0
    seed = 0
    while deals < 520:
        s = scopa.new_state(seed=seed)
        rng = random.Random(seed)
        seen = 0
        piles, sweeps, table, last = [[], []], [0, 0], None, None
        while not s.terminal:
            for e in s.log_all()[seen:]:
                if e["type"] == "deal_start":
                    piles, sweeps, table, last = [[], []], [0, 0], None, None
                elif e["type"] == "deal_score":
                    if last is not None:
                        piles[last] += table
                    expected = deal_points(piles, sweeps)
                    assert [e["points"]["0"], e["points"]["1"]] == expected, (seed, piles, sweeps)
                    deals += 1
            seen = s.event_count
            if s.terminal:
                break
            seat = s.to_act
            v = s.view(seat)
            if table is None:
                table = list(v["zones"]["table"])
            assert sorted(v["zones"]["table"]) == sorted(table)
            hand = v["zones"]["hand"][str(seat)]
            legal = s.legal_actions()
            assert {_parse(a) for a in legal} == plays(hand, table), (seed, hand, table, legal)
            decisions += 1
            action = rng.choice(legal)
            card, taken = _parse(action)
            last_card = v["zones"]["stock"]["count"] == 0 and len(hand) == 1 and \
                v["zones"]["hand"][str(1 - seat)]["count"] == 0
            if taken:
                for t in taken:
                    table.remove(t)
                piles[seat] += [card, *taken]
                last = seat
                if not table and not last_card:
                    sweeps[seat] += 1
                    sweeps_seen += 1
            else:
                table.append(card)
            s.apply(action)
        for e in s.log_all()[seen:]:
            if e["type"] == "deal_score":
                if last is not None:
                    piles[last] += table
                assert [e["points"]["0"], e["points"]["1"]] == deal_points(piles, sweeps), (seed, piles)
                deals += 1
        seed += 1
    assert decisions > 15000 and sweeps_seen > 50


# ---------- the digest's worked examples ----------

def _position(table: list, hand: list, other=("6H", "6C", "6S")):
    """Seat 1 (the dealer's left) to play ``hand`` on ``table``; seat 0 holds ``other``."""
    game = cardspec.load("scopa")
    d = game.deck
    deal = {(game.zone["hand"].index, 1): [d.face(c) for c in hand],
            (game.zone["hand"].index, 0): [d.face(c) for c in other],
            (game.zone["table"].index, None): [d.face(c) for c in table]}
    s = game.new_state(seed=0, dealer=0, deal=deal)
    assert s.to_act == 1
    return s


def _captures(s, card):
    return sorted(a for a in s.legal_actions() if a.split()[1] == card)


def test_worked_example_a_capture_by_a_sum_of_three():
    """scopa.md, Worked examples: table A♠ 2♣ 3♥ 6♦, K♣ (10) takes A♠ 3♥ 6♦; 2♣ stays."""
    s = _position(["AS", "2C", "3H", "6D"], ["KC", "JD", "QD"])
    assert [sorted(a.split()[2:]) for a in _captures(s, "KC")] == [["3H", "6D", "AS"]]


def test_worked_example_a_choice_of_sums():
    """scopa.md, Worked examples: table 2♦ 5♣ 7♥ 4♠: a Q (9) takes 2♦ + 7♥ or 5♣ + 4♠ (not all four)."""
    s = _position(["2D", "5C", "7H", "4S"], ["QH", "AD", "AC"])
    assert sorted(sorted(a.split()[2:]) for a in _captures(s, "QH")) == [["2D", "7H"], ["4S", "5C"]]


def test_worked_example_the_equal_card_first():
    """scopa.md, Worked examples: table 5♣ 3♦ J♠, J♥ must take J♠ (not 5♣ + 3♦); table 5♣ 5♠ 3♦: a 5 takes
    one of the 5s, K takes 5♣ + 5♠. (A fourth table card that no sum here can use: K♥, then Q♥.)"""
    s = _position(["5C", "3D", "JS", "KH"], ["JH", "AD", "AC"])
    assert _captures(s, "JH") == ["capture JH JS"]
    s = _position(["5C", "5S", "3D", "QH"], ["5H", "KD", "AC"])
    assert sorted(a.split()[2] for a in _captures(s, "5H")) == ["5C", "5S"]
    assert [sorted(a.split()[2:]) for a in _captures(s, "KD")] == [["5C", "5S"]]


def test_worked_example_compulsory_capture():
    """scopa.md, Worked examples: table 5♥ 4♠, hand 5♣ 2♦: 2♦ may be laid down; 5♣ must take 5♥ and may not
    be laid down (a refused action names the rule and changes nothing)."""
    s = _position(["5H", "4S", "KH", "QH"], ["5C", "2D", "JS"])
    assert "play 2D" in s.legal_actions()
    assert _captures(s, "5C") == ["capture 5C 5H"]
    before = s.view(1)
    with pytest.raises(cardspec.IllegalAction, match="can capture must capture"):
        s.apply("play 5C")
    assert s.view(1) == before


def test_worked_example_a_sweep_scores_a_point():
    """scopa.md, Worked examples (a sweep: the digest's 2♣ 5♦ taken by 7♠, here with the four cards of a
    first table): table A♠ 2♣ 3♥ 4♦, K♦ (10) takes all four and clears the table: a scopa."""
    s = _position(["AS", "2C", "3H", "4D"], ["KD", "JD", "JC"])
    s.apply("capture KD 2C 3H 4D AS")
    assert s.view(0)["counters"]["sweeps"] == [0, 1]
    assert any(e["type"] == "scopa" and e["seat"] == 1 for e in s.log_all())


def test_worked_example_three_kings_on_the_table_void_the_deal():
    """scopa.md, Deal and Worked examples: table K♦ K♣ K♠ 4♥ is void, the same dealer deals again (the deal
    number stays, redeals counts it); K♦ K♣ 4♥ 6♠ is played. (The first six cards go to the hands.)"""
    game = cardspec.load("scopa")
    s = game.new_state(seed=3, dealer=0, deck_order="2S 3S 4S 2H 3H 5H KD KC KS 4H".split())
    ends = [e for e in s.log_all() if e["type"] == "deal_end"]
    assert len(ends) == 1 and ends[0]["redeal"] is True and ends[0]["deal"] == 1
    v = s.view(0)
    assert v["deal"] == 1 and v["dealer"] == 0 and v["system"]["redeals"] == 1
    assert sorted(v["zones"]["table"]) != ["4H", "KC", "KD", "KS"]
    s = game.new_state(seed=3, dealer=0, deck_order="2S 3S 4S 2H 3H 5H KD KC 4H 6S".split())
    assert not [e for e in s.log_all() if e["type"] == "deal_end"]
    assert sorted(s.view(0)["zones"]["table"]) == ["4H", "6S", "KC", "KD"]


def test_worked_example_primiera_and_a_deals_full_count():
    """scopa.md, Worked examples: 73 against 75; a side missing a suit loses it; the full count A 4, B 3."""
    assert primiera(["7D", "7H", "7S", "JC"]) == 73 and primiera(["7C", "6D", "6H", "6S"]) == 75
    assert primiera(["7D", "7H", "7S"]) is None
    a = "AD 2D 3D 7D JD KD 4H 5H 6H QH KH 2S 3S 7S JS QS KS 3C 4C 5C JC KC".split()
    b = "4D 5D 6D QD AH 2H 3H 7H JH AS 4S 5S 6S AC 2C 6C 7C QC".split()
    assert deal_points([a, b], [1, 2]) == [4, 3]


def test_whole_matches_with_random_policy_and_ismcts_bots():
    """docs/bots.md: the basic policy, ISMCTS and random bots play whole matches to 11 (target 3 here)."""
    from cardspec.players import make_bot
    game = cardspec.load("scopa", options={"target": 3})
    for seed, specs in enumerate((["policy:basic", "ismcts:20"], ["random", "policy:basic"])):
        bots = [make_bot(x, seed, game) for x in specs]
        s = game.new_state(seed=seed)
        while not s.terminal:
            seat = s.to_act
            s.apply(bots[seat].act(s.view(seat, log=True), s.legal_actions()))
        assert max(s.scores().values()) >= 3
