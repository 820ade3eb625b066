"""Knave (rulesets/knave.yaml): every rule and worked example of ../shared/rules/knave.md.

Each test names its source (digest section) in its docstring. Constructed deals use the ``deal=``
override of ``Game.new_state`` (tests/_jacks.py ``arrange``).
"""
from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

import cardspec
from cardspec import IllegalAction
from cardspec.errors import RulesetError

from _jacks import arrange, deal_with_totals, play, random_deal, tricks

VALUES = {"JH": -4, "JD": -3, "JC": -2, "JS": -1}


@functools.lru_cache(maxsize=None)
def game(target=20):
    return cardspec.load("knave", players=3, options={"target": target})


def deal(hands, turnup, void=None, dealer=0, seed=0):
    return arrange(game(), hands, 17, other={"turnup": [turnup]}, void=void, dealer=dealer, seed=seed)


def points_of(s, deal_no=1):
    ev = [e for e in s.log_all() if e["type"] == "deal_score" and e["deal"] == deal_no][-1]
    return [ev["points"][str(i)] for i in range(3)]


# ---- Cards, players, deal ------------------------------------------------------------------------

def test_deck_is_52_cards_ace_high_with_the_jack_values():
    """knave.md, "Cards": 52 cards, no joker, A high; J♥ −4, J♦ −3, J♣ −2, J♠ −1, other cards 0."""
    g = game()
    d = g.deck
    assert len(d.cards) == 52 and d.jokers == 0
    pts = {d.code[f]: d.points_of[f] for f in d.cards}
    assert {c: p for c, p in pts.items() if p} == VALUES
    assert d.rank[d.face("AS")] > d.rank[d.face("KS")] > d.rank[d.face("2S")]


@pytest.mark.parametrize("players", [2, 4])
def test_only_three_players(players):
    """knave.md, "Options": players 3 only (the deal of 17 + 1 needs exactly three)."""
    with pytest.raises(RulesetError):
        cardspec.load("knave", players=players)


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_deal_17_each_turned_card_sets_trumps_and_dealers_left_leads(dealer):
    """knave.md, "Deal", "Trumps", "Play": 17 each one at a time from the dealer's left; the 52nd card is
    turned face up and its suit is trumps; the dealer's left leads to trick 1."""
    s = game().new_state(seed=dealer + 5, dealer=dealer)
    v = s.view(None)
    assert all(v["zones"]["hand"][str(i)] == {"count": 17} for i in range(3))
    assert len(v["zones"]["turnup"]) == 1
    assert v["trump"] == v["zones"]["turnup"][0][-1]
    assert s.to_act == (dealer + 1) % 3


def test_the_deal_passes_left():
    """knave.md, "Players and seating": the deal passes left."""
    s = game().new_state(seed=3)
    rng = random.Random(3)
    dealers = []
    for _ in range(3):
        dealers.append(s.view(None)["dealer"])
        random_deal(s, rng)
        if s.terminal:
            break
    assert dealers == [0, 1, 2][:len(dealers)] and len(dealers) >= 2


def test_turned_card_is_out_of_play_even_a_jack():
    """knave.md, "Deal": the turned card is out of play (nobody scores it, even a jack)."""
    s = deal({}, "JH")
    assert s.view(None)["trump"] == "H"
    random_deal(s, random.Random(1))
    taken = [c for e in tricks(s) for _, c in e["cards"]]
    assert "JH" not in taken and len(taken) == 51


# ---- Play -----------------------------------------------------------------------------------------

def test_worked_example_trump_beats_led_suit():
    """knave.md, "Worked examples": turned ♠4 → spades trumps. ♥K led, ♥A, ♠2 (void in hearts) → ♠2."""
    s = deal({1: ["KH"], 2: ["AH"], 0: ["2S"]}, "4S", void={0: "H"})
    assert s.view(None)["trump"] == "S"
    play(s, "KH", "AH", "2S")
    t = tricks(s)[-1]
    assert t["winner"] == 0 and s.to_act == 0   # the trick's winner leads the next


def test_worked_example_queen_beats_jack_and_the_jack_counts_against_the_taker():
    """knave.md, "Worked examples": ♦5 led, ♦J, ♦Q → ♦Q (Q above J); its player scores +1 for the trick and
    −3 for ♦J, net −2."""
    s = deal({1: ["5D"], 2: ["JD"], 0: ["QD"]}, "4S")
    play(s, "5D", "JD", "QD")
    t = tricks(s)[-1]
    assert t["winner"] == 0
    won = s.view(None)["zones"]["won"]["0"]
    assert sorted(won) == sorted(["5D", "JD", "QD"])
    g = game()
    assert 1 + sum(g.deck.points_of[g.deck.face(c)] for c in won) == -2


def test_worked_example_own_jack_wins_its_trick():
    """knave.md, "Worked examples": ♦5 led, ♦J, ♦9 → ♦J wins; its own player takes it, also net −2."""
    s = deal({1: ["5D"], 2: ["JD"], 0: ["9D"]}, "4S")
    play(s, "5D", "JD", "9D")
    assert tricks(s)[-1]["winner"] == 2


def test_worked_example_discarded_jack_goes_to_the_trick_winner():
    """knave.md, "Worked examples": ♣Q led, ♣3, ♥J (void) → ♣Q; it takes J♥ −4: the trick is worth −3."""
    s = deal({1: ["QC"], 2: ["3C"], 0: ["JH"]}, "4S", void={0: "C"})
    play(s, "QC", "3C", "JH")
    assert tricks(s)[-1]["winner"] == 1
    assert "JH" in s.view(None)["zones"]["won"]["1"]


def test_worked_example_must_follow_with_the_only_club():
    """knave.md, "Worked examples" and "Play": A holds ♣3 and no other club; on a club lead A must play ♣3."""
    other_clubs = [r + "C" for r in "24567890JQKA".replace("0", "T")]
    s = deal({1: other_clubs, 2: ["3C"]}, "4S")
    s.apply("QC")
    assert s.to_act == 2 and s.legal_actions() == ["3C"]
    hand = s.view(2)["zones"]["hand"]["2"]
    with pytest.raises(IllegalAction) as e:
        s.apply([c for c in hand if c != "3C"][0])
    assert "3C" in str(e.value)
    assert s.view(2)["zones"]["hand"]["2"] == hand   # the state is unchanged


def test_void_may_play_any_card():
    """knave.md, "Play": if void, play any card (trump or not)."""
    s = deal({1: ["QC"]}, "4S", void={2: "C"})
    s.apply("QC")
    assert sorted(s.legal_actions()) == sorted(s.view(2)["zones"]["hand"]["2"])


def test_no_trump_played_highest_of_led_suit_wins_off_suit_never():
    """knave.md, "Play": winner: highest trump; else the highest card of the led suit (an off-suit card
    that is not trump never wins)."""
    s = deal({1: ["5D"], 2: ["AH"], 0: ["6D"]}, "4S", void={2: "D"})
    play(s, "5D", "AH", "6D")
    assert tricks(s)[-1]["winner"] == 0


# ---- Scoring -------------------------------------------------------------------------------------

def _scores_match_the_trick_log(s, turned):
    pts = points_of(s)
    won = [[] for _ in range(3)]
    for t in tricks(s):
        won[t["winner"]] += [c for _, c in t["cards"]]
    expected = [len(w) // 3 + sum(VALUES.get(c, 0) for c in w) for w in won]
    assert pts == expected
    assert sum(pts) == 17 - 10 - VALUES.get(turned, 0)


@pytest.mark.parametrize("seed", range(12))
def test_scores_are_tricks_plus_jack_values_summing_to_seven(seed):
    """knave.md, "Scoring": each player scores (tricks won) + (values of the jacks he took); with all four
    jacks in play the three scores sum to 17 − 10 = +7; if the turned card is a jack, its value is missing."""
    s = game().new_state(seed=seed)
    turned = s.view(None)["zones"]["turnup"][0]
    random_deal(s, random.Random(seed))
    _scores_match_the_trick_log(s, turned)


def test_worked_example_turned_jack_of_hearts_sum_eleven():
    """knave.md, "Worked examples": turned card J♥: that jack is out of play; the three scores sum to
    17 − 6 = 11."""
    s = deal({}, "JH")
    random_deal(s, random.Random(2))
    assert sum(points_of(s)) == 11


def test_worked_example_deal_result():
    """knave.md, "Worked examples": A 7 tricks with J♥ → 7 − 4 = 3; B 6 tricks with J♦ and J♠ → 6 − 3 − 1
    = 2; C 4 tricks with J♣ → 4 − 2 = 2. Sum 7. (16 tricks are played, then the taken piles are set to
    the example's — A 6 tricks with J♥, B 6 with J♦ J♠, C 4 with J♣ — and A wins the last trick with ♠A.)"""
    g = game()
    s = deal({}, "2S")
    rng = random.Random(4)
    for _ in range(16 * 3):
        s.apply(rng.choice(s.legal_actions()))
    a = s.to_act
    b, c = (a + 1) % 3, (a + 2) % 3
    d = g.deck
    rest = [d.code[f] for f in d.cards if d.code[f] not in ("2S", "AS", "3S", "4S", "JH", "JD", "JS", "JC")]
    hand, won = g.zone["hand"].index, g.zone["won"].index
    piles = {a: ["JH"] + rest[:17], b: ["JD", "JS"] + rest[17:33], c: ["JC"] + rest[33:44]}
    for seat, last in ((a, "AS"), (b, "3S"), (c, "4S")):
        s.z[hand][seat] = [d.face(last)]
        s.z[won][seat] = [d.face(x) for x in piles[seat]]
    s._cache = None
    play(s, "AS", "3S", "4S")
    pts = points_of(s)
    assert (pts[a], pts[b], pts[c]) == (3, 2, 2) and sum(pts) == 7


# ---- Match end -----------------------------------------------------------------------------------

@pytest.mark.parametrize("totals, over, winners", [
    ([21, 18, 9], True, [0]),      # knave.md: totals 21, 18, 9 → the game ends, the first player wins
    ([19, 19, 16], False, None),   # totals 19, 19, 16 → another deal
    ([22, 22, 10], True, [0, 1]),  # totals 22, 22, 10 → the first two share the win
    ([20, 5, 3], True, [0]),       # target 20: reaching 20 is enough (gokurakism "20点以上")
])
def test_worked_examples_match_end(totals, over, winners):
    """knave.md, "Match end" and "Worked examples": deals continue until, at the end of a deal, at least one
    player has 20 or more; the highest total wins; ties for the highest share the win."""
    s, _ = deal_with_totals(game(), totals, seed=7)
    assert s.terminal == over
    if over:
        assert s.result["winner"] == winners


def test_option_target_21_means_exceeding_20():
    """knave.md, "Options": target 21 (circle9 "over 20"): 20 after a deal does not end the match."""
    s, _ = deal_with_totals(game(21), [20, 5, 3], seed=7)
    assert not s.terminal
    s, _ = deal_with_totals(game(21), [21, 5, 3], seed=7)
    assert s.terminal and s.result["winner"] == [0]


# ---- Properties over random matches ----------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_whole_matches_conserve_cards_and_score_seven_a_deal(seed):
    """knave.md, "Scoring" (sum 7, or 7 minus the turned jack's value) and "Match end", over whole random
    matches: every card is somewhere at every step (hands, tricks taken, the turned card, the trick)."""
    g = game()
    s = g.new_state(seed=100 + seed)
    rng = random.Random(seed)
    full = Counter(g.deck.code[f] for f in g.deck.cards)
    deals = 0
    while not s.terminal:
        turned = s.view(None)["zones"]["turnup"][0]
        d = s.view(None)["deal"]
        while not s.terminal and s.view(None)["deal"] == d:
            v = s.view(None)
            here = Counter(v["zones"]["turnup"])
            for seat in range(3):
                here.update(s.view(seat)["zones"]["hand"][str(seat)])
                here.update(v["zones"]["won"][str(seat)])
            here.update(c for _, c in v["trick"])
            assert here == full
            s.apply(rng.choice(s.legal_actions()))
        deals += 1
        assert sum(points_of(s, d)) == 7 - VALUES.get(turned, 0)
    assert max(s.c[g.counter["score"].index]) >= 20
    assert deals >= 2
