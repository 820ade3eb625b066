"""Four Jacks (rulesets/four-jacks.yaml, four-jacks-3.yaml, four-jacks-polignac.yaml): every rule and worked
example of ../shared/rules/four-jacks.md, the source named in each test's docstring.

The main game is the one where the LOWEST card takes the trick and the highest card of the led suit leads
the next: the tricks step's ``take:`` (docs/rulesets.md, "Who takes the trick, who leads next").
"""
from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

import cardspec
from cardspec import IllegalAction
from cardspec.errors import RulesetError
from cardspec.play.terminal import format_events

from _jacks import arrange, deal_with_totals, play, random_deal, tricks

SPADE_TWO = {"JS": -2, "JH": -1, "JD": -1, "JC": -1}
CLUB_TWO = {"JC": -2, "JH": -1, "JD": -1, "JS": -1}


@functools.lru_cache(maxsize=None)
def game(name="four-jacks", players=4, items=()):
    return cardspec.load(name, players=players, options=dict(items))


def G(players=4, name="four-jacks", **opts):
    return game(name, players, tuple(sorted(opts.items())))


def deal(hands, players=4, void=None, dealer=0, name="four-jacks", **opts):
    g = G(players, name, **opts)
    each = {3: 8, 4: 8, 5: 6, 6: 5}[players]
    return arrange(g, hands, each, void=void, dealer=dealer)


def points_of(s, deal_no=1):
    ev = [e for e in s.log_all() if e["type"] == "deal_score" and e["deal"] == deal_no][-1]
    return [ev["points"][str(i)] for i in range(s.n)]


# ---- Cards, players, deal ------------------------------------------------------------------------

@pytest.mark.parametrize("players, cards, each", [(4, 32, 8), (5, 30, 6), (6, 30, 5)])
def test_deck_and_deal_by_player_count(players, cards, each):
    """four-jacks.md, "Cards" and "Deal" (and the worked example "5 players: 30 cards (no 7♠ 7♣), 6 each;
    6 players: 5 each"): 4 players 32 cards A K Q J 10 9 8 7, 8 each; 5–6 players 30 (7♠ and 7♣ removed)."""
    s = G(players).new_state(seed=players)
    v = s.view(None)
    assert all(v["zones"]["hand"][str(i)] == {"count": each} for i in range(players))
    in_hands = [c for i in range(players) for c in s.view(i)["zones"]["hand"][str(i)]]
    assert len(in_hands) == cards == len(set(in_hands))
    assert {c[0] for c in in_hands} == set("789TJQKA")
    if players >= 5:
        assert "7S" not in in_hands and "7C" not in in_hands and sorted(v["zones"]["out"]) == ["7C", "7S"]


@pytest.mark.parametrize("players", [3, 7])
def test_main_game_is_for_four_to_six(players):
    """four-jacks.md, "Players and seating": 4–6 players (three play the variant file)."""
    with pytest.raises(RulesetError):
        cardspec.load("four-jacks", players=players)


@pytest.mark.parametrize("dealer", [0, 2])
def test_dealers_left_leads_and_the_deal_passes_left(dealer):
    """four-jacks.md, "Play" (the dealer's left leads to trick 1, settled there) and "Players and seating"
    (the deal passes left)."""
    s = G(4).new_state(seed=1, dealer=dealer)
    assert s.to_act == (dealer + 1) % 4
    random_deal(s, random.Random(1))
    assert s.terminal or s.view(None)["dealer"] == (dealer + 1) % 4


def test_follow_suit_if_able_else_any_card():
    """four-jacks.md, "Play": follow suit if able; if void, play any card."""
    s = deal({1: ["9H"], 2: ["KH", "8H"]}, void={3: "H"})
    s.apply("9H")
    assert sorted(s.legal_actions()) == ["8H", "KH"]
    with pytest.raises(IllegalAction):
        s.apply([c for c in s.view(2)["zones"]["hand"]["2"] if not c.endswith("H")][0])
    s.apply("KH")
    assert sorted(s.legal_actions()) == sorted(s.view(3)["zones"]["hand"]["3"])


# ---- The capture and the next lead: worked examples -------------------------------------------------

def test_worked_example_all_of_the_led_suit_lowest_takes_highest_leads():
    """four-jacks.md, "Worked examples": ♥9 led, ♥K, ♥7, ♥J → all hearts: ♥7 takes (with ♥J, −1); ♥K's player
    leads next. ("Play": every card of the led suit: the lowest card takes; the highest of the led suit leads.)"""
    s = deal({1: ["9H"], 2: ["KH"], 3: ["7H"], 0: ["JH"]})
    play(s, "9H", "KH", "7H", "JH")
    t = tricks(s)[-1]
    assert t["taker"] == 3 and t["next_leader"] == 2 and t["winner"] == 2
    assert sorted(s.view(None)["zones"]["won"]["3"]) == sorted(["9H", "KH", "7H", "JH"])
    assert s.view(None)["zones"]["won"]["2"] == []
    assert s.to_act == 2


def test_worked_example_lowest_off_suit_card_takes():
    """four-jacks.md, "Worked examples": ♦A led, ♦10, ♣7 (void), ♠J (void) → off-suit ♣7 and ♠J: ♣7 takes (with
    ♠J, −2); ♦A's player leads next."""
    s = deal({1: ["AD"], 2: ["TD"], 3: ["7C"], 0: ["JS"]}, void={3: "D", 0: "D"})
    play(s, "AD", "TD", "7C", "JS")
    t = tricks(s)[-1]
    assert t["taker"] == 3 and t["next_leader"] == 1 and s.to_act == 1
    assert "JS" in s.view(None)["zones"]["won"]["3"]


def test_worked_example_equal_off_suit_ranks_the_lower_suit_takes():
    """four-jacks.md, "Worked examples" and "Cards" (suit order ♠ > ♥ > ♦ > ♣ for equal ranks): ♣8 led, ♣Q,
    ♥8 (void), ♦8 (void) → off-suit ranks tie: ♦ is lower than ♥, ♦8 takes; ♣Q's player leads next."""
    s = deal({1: ["8C"], 2: ["QC"], 3: ["8H"], 0: ["8D"]}, void={3: "C", 0: "C"})
    play(s, "8C", "QC", "8H", "8D")
    t = tricks(s)[-1]
    assert t["taker"] == 0 and t["next_leader"] == 2 and s.to_act == 2


def test_one_discard_takes_even_when_it_is_high():
    """four-jacks.md, "Play": if any card is off-suit, the lowest off-suit card takes it (an off-suit ace
    takes the trick from every card of the led suit); off-suit cards never lead next."""
    s = deal({1: ["7S"], 2: ["8S"], 3: ["AH"], 0: ["9S"]}, void={3: "S"})
    play(s, "7S", "8S", "AH", "9S")
    t = tricks(s)[-1]
    assert t["taker"] == 3 and t["next_leader"] == 0


def test_the_play_log_names_the_seat_that_takes_the_trick():
    """The log test (issue 19): the play log names the seat that takes the trick (♥7's player), and the seat
    that leads next, not the seat of the strongest card as the taker."""
    s = deal({1: ["9H"], 2: ["KH"], 3: ["7H"], 0: ["JH"]})
    play(s, "9H", "KH", "7H", "JH")
    line = format_events(s.game, [tricks(s)[-1]])[-1]
    assert "seat 3 takes" in line and "seat 2 leads next" in line and "seat 2 wins" not in line
    # The deal's summary counts tricks by the seat that took them.
    random_deal(s, random.Random(8))
    taken = Counter(t["taker"] for t in tricks(s))          # the first deal's tricks
    lines = format_events(s.game, s.log_all())
    summary = next(ln for ln in lines if ln.strip().startswith("tricks "))
    assert summary.split(None, 1)[1] == ", ".join(f"{k}: {taken.get(k, 0)}" for k in range(4))
    # A game where the winner takes the trick and leads next keeps the old wording.
    k = cardspec.load("knave", players=3).new_state(seed=1)
    random_deal(k, random.Random(1))
    assert all(format_events(k.game, [t])[-1].endswith(f"seat {t['winner']} wins") for t in tricks(k))


# ---- Scoring ---------------------------------------------------------------------------------------

def _penalties_from_log(s, values):
    got = [0] * s.n
    for t in tricks(s):
        got[t["taker"]] += sum(values.get(c, 0) for _, c in t["cards"])
    return got


@pytest.mark.parametrize("players", [4, 5, 6])
def test_penalties_are_the_jacks_taken_minus_five_a_deal(players):
    """four-jacks.md, "Cards" (J♠ −2, J♥ J♦ J♣ −1 each; −5 per deal) and "Scoring" (each player adds the
    penalties of the jacks he took)."""
    s = G(players).new_state(seed=players + 10)
    random_deal(s, random.Random(players))
    pts = points_of(s)
    assert pts == _penalties_from_log(s, SPADE_TWO) and sum(pts) == -5


def test_option_every_jack_minus_one():
    """four-jacks.md, "Options": penalties every J −1 (−4 a deal)."""
    s = G(4, penalties="all_one").new_state(seed=3)
    random_deal(s, random.Random(3))
    pts = points_of(s)
    assert pts == _penalties_from_log(s, {"JS": -1, "JH": -1, "JD": -1, "JC": -1}) and sum(pts) == -4


def test_worked_example_end_of_deal():
    """four-jacks.md, "Worked examples": end of deal: A took J♠ and J♥ → −3; B took J♦ → −1; C none → 0;
    D J♣ → −1. (7 tricks are played, then the taken piles are set to the example's and the last trick,
    of low spades, goes to C.)"""
    g = G(4)
    s = deal({})
    rng = random.Random(5)
    for _ in range(7 * 4):
        s.apply(rng.choice(s.legal_actions()))
    lead = s.to_act
    seats = [(lead + i) % 4 for i in range(4)]
    d = g.deck
    last = ["9S", "TS", "7S", "8S"]      # in play order: the third card (♠7) is the lowest: its player takes
    rest = [d.code[f] for f in d.cards if d.code[f] not in last + ["JS", "JH", "JD", "JC"]]
    A, B, C, D = seats[0], seats[1], seats[2], seats[3]
    piles = {A: ["JS", "JH"] + rest[:6], B: ["JD"] + rest[6:13], C: rest[13:20], D: ["JC"] + rest[20:]}
    hand, won = g.zone["hand"].index, g.zone["won"].index
    for seat, card in zip(seats, last):
        s.z[hand][seat] = [d.face(card)]
        s.z[won][seat] = [d.face(x) for x in piles[seat]]
    s._cache = None
    play(s, *last)
    assert tricks(s)[-1]["taker"] == C
    pts = points_of(s)
    assert (pts[A], pts[B], pts[C], pts[D]) == (-3, -1, 0, -1)


# ---- Match end ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("totals, over, winners", [
    ([-10, -3, -2, 0], True, [3]),
    ([-9, -9, -4, -3], False, None),
    ([-11, -1, -1, -5], True, [1, 2]),    # the highest total wins; ties share
])
def test_match_ends_at_minus_ten_highest_wins_ties_share(totals, over, winners):
    """four-jacks.md, "Match end": deals continue until some player's total is −10 or lower after a deal; the
    highest total wins; ties share the win."""
    s, _ = deal_with_totals(G(4), totals, seed=4)
    assert s.terminal == over
    if over:
        assert s.result["winner"] == winners


def test_option_limit_minus_twenty():
    """four-jacks.md, "Options": limit −20."""
    s, _ = deal_with_totals(G(4, limit=-20), [-15, -3, -2, 0], seed=4)
    assert not s.terminal
    s, _ = deal_with_totals(G(4, limit=-20), [-20, -3, -2, 0], seed=4)
    assert s.terminal and s.result["winner"] == [3]


# ---- Variant: three players ------------------------------------------------------------------------

def test_three_players_24_cards_8_each_pass_one_right_then_dealers_left_leads():
    """four-jacks.md, "Variant: three players": 24 cards A K Q J 10 9; 8 each; each player passes one card
    face down to the right neighbour, all at once, then the dealer's left leads."""
    s = G(3, "four-jacks-3").new_state(seed=2)
    hands = {i: s.view(i)["zones"]["hand"][str(i)] for i in range(3)}
    assert all(len(h) == 8 for h in hands.values())
    assert {c[0] for h in hands.values() for c in h} == set("9TJQKA")
    passed = {}
    for i in range(3):
        seat = s.to_act
        assert s.legal_actions()[0].startswith("pass ")
        card = hands[seat][0]
        passed[seat] = card
        s.apply(f"pass {card}")
        if i < 2:   # passed cards are in nobody's hand until everyone has chosen
            assert all(card not in s.view(o)["zones"]["hand"][str(o)] for o in range(3))
    for seat, card in passed.items():
        assert card in s.view((seat - 1) % 3)["zones"]["hand"][str((seat - 1) % 3)]
    assert s.to_act == 1 and s.current_step().kind == "tricks"


def _three_player_deal_with_jacks(piles_jacks):
    """A 3-player deal played to its last trick, the taken piles then set so that seat j took the jacks
    ``piles_jacks[j]`` (7 cards each from 7 tricks, the other cards filling them), the last trick
    (9♠ T♠ Q♠: the lowest, 9♠, takes it) holding no jack."""
    g = G(3, "four-jacks-3")
    s = g.new_state(seed=6)
    rng = random.Random(6)
    while len(tricks(s)) < 7:
        s.apply(rng.choice(s.legal_actions()))
    lead = s.to_act
    d = g.deck
    last = ["9S", "TS", "QS"]
    jacks = [j for js in piles_jacks.values() for j in js]
    rest = [d.code[f] for f in d.cards if d.code[f] not in last + jacks]
    hand, won = g.zone["hand"].index, g.zone["won"].index
    for seat in range(3):
        own = list(piles_jacks.get(seat, []))
        fill, rest = rest[:7 - len(own)], rest[7 - len(own):]
        s.z[won][seat] = [d.face(x) for x in own + fill]
    for i, card in enumerate(last):
        s.z[hand][(lead + i) % 3] = [d.face(card)]
    s._cache = None
    play(s, *last)
    return s, lead


def test_three_players_all_four_jacks_score_plus_five():
    """four-jacks.md, "Worked examples" and "Variant: three players": a player who took J♣ J♦ J♥ J♠ → +5 (taking
    all four scores +5 instead of −5)."""
    s, _ = _three_player_deal_with_jacks({0: ["JC", "JD", "JH", "JS"]})
    assert points_of(s)[0] == 5


def test_three_players_three_jacks_with_the_club_minus_four():
    """four-jacks.md, "Worked examples" and "Variant: three players" (J♣ −2, other jacks −1): one who took
    J♣ J♥ J♠ → −4."""
    s, _ = _three_player_deal_with_jacks({1: ["JC", "JH", "JS"], 2: ["JD"]})
    pts = points_of(s)
    assert pts[1] == -4 and pts[2] == -1 and sum(pts) == -5


def test_three_players_capture_as_in_the_main_game():
    """four-jacks.md, "Variant: three players": capture and next lead as in the main game."""
    g = G(3, "four-jacks-3")
    s = arrange(g, {1: ["9H", "AH"], 2: ["KH"], 0: ["QH"]}, 8)
    for _ in range(3):   # pass: every seat passes a card it was not given for the trick
        seat = s.to_act
        hand = s.view(seat)["zones"]["hand"][str(seat)]
        s.apply("pass " + next(c for c in hand if c not in ("9H", "KH", "QH")))
    play(s, "9H", "KH", "QH")
    t = tricks(s)[-1]
    assert t["taker"] == 1 and t["next_leader"] == 2


# ---- Variant: Polignac ------------------------------------------------------------------------------

def test_polignac_worked_example_jack_above_ace():
    """four-jacks.md, "Variant: four players (Polignac)" and its worked example: rank K Q J A 10 9 8 7; ♠7
    led, ♠A, ♠J, ♠10 → ♠J (J above A); its player takes his own J♠, −2; the highest card of the led suit takes
    the trick and leads next."""
    s = deal({1: ["7S"], 2: ["AS"], 3: ["JS"], 0: ["TS"]}, name="four-jacks-polignac")
    play(s, "7S", "AS", "JS", "TS")
    t = tricks(s)[-1]
    assert t["winner"] == t["taker"] == t["next_leader"] == 3 and s.to_act == 3
    assert "JS" in s.view(None)["zones"]["won"]["3"]


def test_polignac_king_is_highest():
    """four-jacks.md, "Variant: four players (Polignac)": rank K Q J A 10 9 8 7 (the king beats the ace)."""
    s = deal({1: ["AS"], 2: ["KS"], 3: ["QS"], 0: ["8S"]}, name="four-jacks-polignac")
    play(s, "AS", "KS", "QS", "8S")
    assert tricks(s)[-1]["taker"] == 2


@pytest.mark.parametrize("totals, over, losers, first", [
    ([-10, -3, -12, 0], True, [0, 2], 3),
    ([-9, -9, -4, -3], False, None, None),
])
def test_polignac_match_end_every_player_at_ten_loses(totals, over, losers, first):
    """four-jacks.md, "Variant: four players (Polignac)": the game ends after the deal in which someone
    reaches 10 penalty points; every player at 10 or more loses; the others rank by fewest points."""
    s, _ = deal_with_totals(G(4, "four-jacks-polignac"), totals, seed=4)
    assert s.terminal == over
    if over:
        r = s.result
        assert sorted(r["loser"]) == losers and r["ranking"][0] == first and r["winner"] == [first]
        assert r["ranking"][:2] == [3, 1]


# ---- Properties over random matches --------------------------------------------------------------------

CASES = [("four-jacks", 4, {}), ("four-jacks", 5, {}), ("four-jacks", 6, {"penalties": "all_one"}),
         ("four-jacks-3", 3, {}), ("four-jacks-polignac", 4, {})]


@pytest.mark.parametrize("name, players, opts", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_random_matches_conserve_cards_and_jack_penalties(name, players, opts):
    """four-jacks.md, "Cards"/"Scoring" per deal (−5, −4 with every J −1; three players: −5, or +5 when one
    player took all four jacks) and "Match end"; every card is somewhere at every step; the trick's taker
    is the lowest-card rule's (Polignac: the highest card of the led suit), checked by a plain oracle."""
    g = G(players, name, **opts)
    s = g.new_state(seed=players)
    rng = random.Random(players)
    full = Counter(g.deck.code[f] for f in g.deck.cards)
    values = {"four-jacks-3": CLUB_TWO}.get(name, SPADE_TWO)
    if opts.get("penalties") == "all_one":
        values = {j: -1 for j in SPADE_TWO}
    order = "789TJQKA" if name != "four-jacks-polignac" else "789TAJQK"
    seen = 0
    while not s.terminal:
        d = s.view(None)["deal"]
        while not s.terminal and s.view(None)["deal"] == d:
            v = s.view(None)
            here = Counter(v["zones"]["out"])
            for seat in range(players):
                here.update(s.view(seat)["zones"]["hand"][str(seat)])
                here.update(v["zones"]["won"][str(seat)])
            here.update(c for _, c in v["trick"])
            for seat, cs in (v.get("passing_all") or {}).items():
                here.update(cs)
            if s.current_step().kind == "pass":   # cards in flight: not in any zone
                here.update(c for f in s.flight or [] if f for c in (g.deck.code[x] for x in f))
            assert here == full
            s.apply(rng.choice(s.legal_actions()))
        for t in tricks(s)[seen:]:
            cards = [c for _, c in t["cards"]]
            led = cards[0][1]
            if name == "four-jacks-polignac":
                best = max((i for i, c in enumerate(cards) if c[1] == led), key=lambda i: order.index(cards[i][0]))
            else:
                off = [i for i, c in enumerate(cards) if c[1] != led]
                pool = off or list(range(len(cards)))
                best = min(pool, key=lambda i: (order.index(cards[i][0]), "CDHS".index(cards[i][1])))
            assert t["taker"] == t["cards"][best][0]
        seen = len(tricks(s))
        pts = points_of(s, d)
        if name == "four-jacks-3" and 5 in pts:
            assert sorted(pts) == [0, 0, 5]
        else:
            assert sum(pts) == sum(values.values())
    totals = s.c[g.counter["score"].index]
    assert min(totals) <= -10
