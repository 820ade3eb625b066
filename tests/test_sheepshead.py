"""Sheepshead (rulesets/sheepshead.yaml), every rule and worked example of ../shared/rules/sheepshead.md.

Each test names its section of the digest. Deals are constructed with the ``deal=`` override of
``Game.new_state`` (hands and the blind); scores are checked by playing or, for the score table's
worked examples, by the ruleset's own ``deal_points`` definition evaluated on a position whose
tricks were given the digest's point totals.
"""
from __future__ import annotations

import functools
import json
import random
from collections import Counter

import pytest

import cardspec
from cardspec import IllegalAction
from cardspec.engine.determinize import Determinizer
from cardspec.engine.slots import CALLED_BY, DECLARER, TRICKS_TOTAL

RANKS = ["7", "8", "9", "K", "T", "A", "J", "Q"]
DECK = [r + s for s in "CSHD" for r in RANKS]
TRUMP_ORDER = "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D".split()


@functools.lru_cache(maxsize=None)
def game(players=5, items=()):
    return cardspec.load("sheepshead", players, dict(items))


def G(players=5, **opts):
    return game(players, tuple(sorted(opts.items())))


def dealt(g, hands, blind, dealer=0, seed=0):
    z = g.zone
    over = {(z["hand"].index, s): [g.deck.face(c) for c in cs.split()] for s, cs in hands.items()}
    over[(z["blind"].index, None)] = [g.deck.face(c) for c in blind.split()]
    return g.new_state(seed=seed, dealer=dealer, deal=over)


def play(s, *actions):
    for a in actions:
        s.apply(a)
    return s


def tricks(s):
    return [e for e in s.log_all() if e["type"] == "trick"]


def deal_score(s, deal=1):
    ev = [e for e in s.log_all() if e["type"] == "deal_score" and e["deal"] == deal][-1]
    return [ev["points"][str(i)] for i in range(s.n)]


# The worked example "picker keeps ♠9, ♥K and four trumps": seat 1 (the dealer's left) picks.
PICKER_HANDS = {0: "AC TC KC JC 9C 7S", 1: "9S KH QC JD AD 7D", 2: "AS TS KS 8H 9H 7H",
                3: "QS JS 8S AH TH QH", 4: "JH TD KD QD 9D 8D"}
PICKER_BLIND = "8C 7C"


def picked(hands=PICKER_HANDS, blind=PICKER_BLIND, bury="8C 7C", **opts):
    s = dealt(G(**opts), hands, blind)
    play(s, "pick", f"bury {bury}")
    return s


# ---- Cards --------------------------------------------------------------------------------------

def test_cards_32_and_points_120():
    """Cards: 32 cards A K Q J 10 9 8 7 of each suit; points A 11, 10 10, K 4, Q 3, J 2, 9 8 7 0; 120 in all."""
    g = G()
    assert sorted(g.deck.code[f] for f in g.deck.cards) == sorted(DECK)
    pts = {c: g.deck.points_of[g.deck.face(c)] for c in DECK}
    assert sum(pts.values()) == 120
    assert [pts[r + "S"] for r in "AT KQJ987".replace(" ", "")] == [11, 10, 4, 3, 2, 0, 0, 0]


def test_trump_order():
    """Trumps, 14, strongest first: Q♣ Q♠ Q♥ Q♦ J♣ J♠ J♥ J♦ A♦ 10♦ K♦ 9♦ 8♦ 7♦ (each beats the next,
    led or played second)."""
    g = G()
    fails = [c for c in DECK if c not in TRUMP_ORDER]
    for i in range(len(TRUMP_ORDER) - 1):
        high, low = TRUMP_ORDER[i], TRUMP_ORDER[i + 1]
        others = [c for c in TRUMP_ORDER if c not in (high, low)]
        for first, second in ((low, high), (high, low)):
            # seats 0, 3, 4 hold fail cards only, so they may play anything to a trump lead
            hands = {1: [first] + others[0:5], 2: [second] + others[5:10],
                     0: fails[0:6], 3: fails[6:12], 4: fails[12:18]}
            s = dealt(g, {k: " ".join(v) for k, v in hands.items()}, " ".join(others[10:12]))
            play(s, "pass", "pass", "pass", "pass", "pass")        # a leaster: seat 1 leads
            play(s, first, second)
            for _ in range(3):
                s.apply(s.legal_actions()[-1])
            assert tricks(s)[0]["winner"] == (1 if first == high else 2), (first, second)


def test_fail_suit_order_and_queens_jacks_are_not_fail_cards():
    """Cards: fail suits ♣ ♠ ♥, each A 10 K 9 8 7; queens and jacks are trumps, not fail cards.
    Play: the winner is the highest trump, else the highest card of the led suit."""
    g = G()
    hands = {0: "QC QS QH QD JC JS", 1: "7C 8C 9C KC TC AC", 2: "7S 8S 9S KS TS AS",
             3: "7H 8H 9H KH TH AH", 4: "JH JD AD TD KD 9D"}
    s = dealt(g, hands, "8D 7D")
    play(s, "pass", "pass", "pass", "pass", "pass")
    assert s.legal_actions() == ["AC", "TC", "KC", "9C", "8C", "7C"]     # A 10 K 9 8 7
    play(s, "TC", "AS", "AH")
    # seat 4 holds only trumps, seat 0 only queens and jacks: void in clubs though they show ♣ and ♠
    assert len(s.legal_actions()) == 6
    s.apply("9D")
    assert len(s.legal_actions()) == 6
    s.apply("JS")
    assert tricks(s)[0]["winner"] == 0                     # the highest trump wins


# ---- Worked examples of play ----------------------------------------------------------------------

def test_example_heart_lead_queen_of_hearts_trumps():
    """Worked example: ♥A led, ♥10, Q♥ (player with no fail hearts), ♥K, ♥9 -> Q♥ (a trump)."""
    hands = {0: "7C 8C 9C KC TC AC", 1: "AH 7S 8S 9S KS 8H", 2: "TH TS AS JC JS 7D",
             3: "QH QC QS QD JH JD", 4: "KH 9H 7H AD TD KD"}
    s = dealt(G(), hands, "9D 8D")
    play(s, "pass", "pass", "pass", "pass", "pass")
    play(s, "AH", "TH")
    assert "QH" in s.legal_actions() and len(s.legal_actions()) == 6    # no fail heart: any card
    s.apply("QH")
    assert s.legal_actions() == ["KH", "9H", "7H"]
    play(s, "KH", "8C")
    assert tricks(s)[0]["winner"] == 3


def test_example_any_queen_beats_any_jack():
    """Worked example: 7♦ led, J♣, Q♦, A♦, 8♦ -> Q♦ (any queen beats any jack)."""
    hands = {0: "8D 7C 8C 9C KC TC", 1: "7D AC 7S 8S 9S KS", 2: "JC TS AS 7H 8H 9H",
             3: "QD KH TH AH QC QS", 4: "AD QH JS JH JD TD"}
    s = dealt(G(), hands, "KD 9D")
    play(s, "pass", "pass", "pass", "pass", "pass")
    play(s, "7D", "JC", "QD", "AD", "8D")
    assert tricks(s)[0]["winner"] == 3


def test_example_discarded_ace_cannot_win():
    """Worked example: ♣10 led, ♣K, ♣A, ♣9, ♠A (void) -> ♣A; the discarded ♠A cannot win."""
    hands = {0: "AS TS KS 8S 7S 9S", 1: "TC 7H 8H 9H KH TH", 2: "KC AH QC QS QH QD",
             3: "AC JC JS JH JD AD", 4: "9C 8C 7C TD KD 9D"}
    s = dealt(G(), hands, "8D 7D")
    play(s, "pass", "pass", "pass", "pass", "pass")
    play(s, "TC", "KC", "AC", "9C", "AS")
    assert tricks(s)[0]["winner"] == 3


# ---- Players, deal, picking -------------------------------------------------------------------------

def test_five_players_six_each_blind_two_dealer_passes_left():
    """Players and seating: 5 players, the first dealer seat 0, the deal passes left. Deal: 6 cards
    each and 2 to the blind, face down. Match end: each player deals twice (10 deals)."""
    g = cardspec.load("sheepshead")
    assert g.n == 5
    s = g.new_state(seed=2)
    v = s.view(0)
    assert len(v["zones"]["hand"]["0"]) == 6 and v["zones"]["blind"] == {"count": 2}
    assert v["zones"]["hand"]["1"] == {"count": 6}
    s.random_playout()
    dealers = [e["dealer"] for e in s.log_all() if e["type"] == "deal_start"]
    assert dealers == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4]


def test_picking_from_the_dealers_left_each_once_first_pick_takes_blind():
    """Bidding: from the dealer's left, clockwise, each player once: pick or pass. The first to pick
    takes the blind, adds it to his hand and buries 2 cards face down."""
    s = dealt(G(), PICKER_HANDS, PICKER_BLIND, dealer=4)
    assert s.to_act == 0 and sorted(s.legal_actions()) == ["pass", "pick"]
    play(s, "pass", "pick")
    assert s.to_act == 1
    hand = s.view(1)["zones"]["hand"]["1"]
    assert sorted(hand) == sorted("9S KH QC JD AD 7D 8C 7C".split())
    assert all(a.startswith("bury ") for a in s.legal_actions()) and len(s.legal_actions()) == 28
    s.apply("bury 8C 7C")
    assert s.view(1)["zones"]["buried"]["1"] == ["8C", "7C"]
    assert s.view(0)["zones"]["buried"]["1"] == {"count": 2}     # face down


POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


def _pts(cards):
    return sum(POINTS.get(c[0], 0) for c in cards)


def expected_deal(n, picker, partner, p, side_tricks, total):
    """The digest's score table, written out independently of the ruleset (sheepshead.md, Scoring)."""
    mult = 3 if side_tricks in (0, total) else 2 if p >= 91 or p <= 30 else 1
    unit = mult if p >= 61 else -mult
    out = []
    for seat in range(n):
        if seat == picker:
            out.append(unit * (n - 1) if partner < 0 else 2 * unit)
        elif seat == partner:
            out.append(unit)
        else:
            out.append(-unit)
    return out


def expected_leaster(n, points, took):
    low = min(points[i] for i in range(n) if took[i])
    winners = [i for i in range(n) if took[i] and points[i] == low]
    return [n - len(winners) if i in winners else -len(winners) for i in range(n)]


@pytest.mark.parametrize("seed", range(6))
def test_played_deals_score_as_the_table_says(seed):
    """Bidding: buried points count for the picker's side. Scoring: P = card points of the picker's
    side, buried cards included (ignored when the side took no trick); the multipliers and amounts
    of the table. Checked on random deals against the table written out in this test."""
    g = G()
    s = g.new_state(seed=seed)
    rng = random.Random(seed)
    s.apply("pick")
    bury = rng.choice(s.legal_actions())
    s.apply(bury)
    buried = bury.split()[1:]
    call = rng.choice(s.legal_actions())
    s.apply(call)
    while s.view(None)["deal"] == 1:
        s.apply(rng.choice(s.legal_actions()))
    ts = tricks(s)
    partner = next((seat for t in ts for seat, c in t["cards"] if call == f"call {c}"), -1)
    side = {1, partner} - {-1}
    side_tricks = sum(1 for t in ts if t["winner"] in side)
    p = sum(_pts([c for _, c in t["cards"]]) for t in ts if t["winner"] in side)
    if side_tricks:
        p += _pts(buried)
    assert deal_score(s) == expected_deal(5, 1, partner, p, side_tricks, 6), (call, p, side_tricks)


@pytest.mark.parametrize("seed", range(8))
def test_all_pass_is_a_leaster_blind_to_last_trick(seed):
    """Bidding: all pass -> a leaster is played. Scoring, Leaster: everyone plays alone; the blind
    goes to the winner of the last trick; among players who took at least one trick, the fewest card
    points wins; each other player pays 1 to each winner (ties: all tied players win)."""
    g = G()
    s = g.new_state(seed=seed)
    blind = [g.deck.code[c] for c in s.z[g.zone["blind"].index]]
    play(s, "pass", "pass", "pass", "pass", "pass")
    assert [e for e in s.log_all() if e["type"] == "all_pass"][0]["then"] == "leaster"
    rng = random.Random(seed)
    while s.view(None)["deal"] == 1:
        s.apply(rng.choice(s.legal_actions()))
    ts = tricks(s)
    points = [sum(_pts([c for _, c in t["cards"]]) for t in ts if t["winner"] == i) for i in range(5)]
    points[ts[-1]["winner"]] += _pts(blind)
    took = [any(t["winner"] == i for t in ts) for i in range(5)]
    assert deal_score(s) == expected_leaster(5, points, took)




# ---- Partners ---------------------------------------------------------------------------------------

def test_call_an_ace_not_held_nor_buried_with_a_hold_card():
    """Partners: after burying, the picker calls a fail ace he neither holds nor buried, of a suit in
    which he still holds a card; or declares alone. Worked example: keeping ♠9, ♥K and four trumps he
    may call ♠A or ♥A (not ♣A: no club left)."""
    s = picked()
    assert sorted(s.legal_actions()) == ["alone", "call AH", "call AS"]


def test_buried_ace_cannot_be_called():
    """Worked example: had he buried ♠A, he could call only ♥A."""
    hands = dict(PICKER_HANDS)
    hands[2] = "8C TS KS 8H 9H 7H"
    s = picked(hands=hands, blind="AS 7C", bury="AS 7C")
    assert sorted(s.legal_actions()) == ["alone", "call AH"]


def test_all_three_aces_call_a_ten():
    """Partners: if the picker holds all three fail aces he may call a fail ten under the same rule."""
    hands = {0: "TC KC JC 9C 8C 7S", 1: "AC AS AH QC JD AD", 2: "TS KS 8H 9H 7H 8S",
             3: "QS JS 9S TH QH KH", 4: "JH TD KD QD 9D 7C"}
    s = picked(hands=hands, blind="8D 7D", bury="8D 7D")
    assert sorted(s.legal_actions()) == ["alone", "call TC", "call TH", "call TS"]


def test_no_callable_card_plays_alone():
    """Partners: no such ace (and not all three aces): he plays alone (settled here)."""
    hands = {0: "AC TC KC 9C 8C 7C", 1: "QC QS QH QD JC JS", 2: "AS TS KS 9S 8S 7S",
             3: "AH TH KH 9H 8H 7H", 4: "AD TD KD 9D 8D 7D"}
    s = picked(hands=hands, blind="JH JD", bury="JH JD")
    assert s.legal_actions() == ["alone"]


def test_partner_is_secret_until_the_called_card_is_played():
    """Partners: the holder of the called ace is the secret partner, known when it is played. Worked
    example: first spade lead: ♠7 led, picker ♠9, partner ♠A -> the partner is now known."""
    s = picked()
    s.apply("call AS")
    for seat in (0, 1, 3, 4):
        assert s.view(seat)["sides"]["partner"] is None
    assert s.view(2)["sides"]["partner"] == 2
    play(s, "7D", "7H", "JS", "8D", "JC")       # seat 0 wins trick 1 (J♣ over J♠)
    assert tricks(s)[0]["winner"] == 0
    s.apply("7S")
    assert s.legal_actions() == ["9S"]          # the picker keeps his hold card for this lead
    s.apply("9S")
    assert s.legal_actions() == ["AS"]          # the partner must play the called card
    s.apply("AS")
    ev = [e for e in s.log_all() if e["type"] == "partner"]
    assert ev and ev[0]["seat"] == 2 and ev[0]["card"] == "AS"
    assert all(s.view(seat)["sides"]["partner"] == 2 for seat in range(5))


def test_called_card_only_to_its_suit_and_the_picker_keeps_his_hold_card():
    """Partners: the called card may be played only to a lead of its suit (or the last trick); until
    then the picker may not discard his last card of the called suit to another lead."""
    s = picked()
    s.apply("call AS")
    play(s, "7D")
    assert "AS" not in s.legal_actions() and len(s.legal_actions()) == 5   # void in trumps, but not AS
    play(s, "7H", "JS", "8D", "JC")
    s.apply("AC")                               # seat 0 leads a club: the picker is void in clubs
    assert s.to_act == 1 and "9S" not in s.legal_actions()
    with pytest.raises(IllegalAction) as e:
        s.apply("9S")
    assert "called" in str(e.value)


def test_the_picker_may_discard_his_last_called_suit_card_once_the_suit_was_led():
    """Partners: "Until then the picker may not discard his last card of the called suit to another lead
    (last trick excepted)" -- until the called suit is first led. The picker leads ♠9 to trick 1 (the
    first spade lead: the partner plays ♠A); at trick 2, void in hearts, he may discard ♠7, his last spade."""
    hands = {0: "AC TC TD KD 9D 8D", 1: "9S 7S QC JD AD 7D", 2: "AS KC 9C 8H 9H 7H",
             3: "TS KS AH TH JC JS", 4: "8S KH QS QH QD JH"}
    s = picked(hands=hands)
    s.apply("call AS")
    s.apply("9S")                               # the called suit led for the first time
    assert s.legal_actions() == ["AS"]
    play(s, "AS", "KS", "8S", "AC")
    assert tricks(s)[0]["winner"] == 2
    play(s, "8H", "AH", "KH", "TC")
    assert s.to_act == 1 and sorted(s.legal_actions()) == sorted(["QC", "JD", "AD", "7D", "7S"])


def test_information_partner_seat_changes_no_other_view_or_log():
    """Issue 18, the information test: before the called card is played no other seat's view or log
    shows who holds it: the deals that differ only in which of seats 2 and 3 holds ♠A look the same."""
    hands_b = dict(PICKER_HANDS)
    hands_b[2] = "8S TS KS 8H 9H 7H"
    hands_b[3] = "QS JS AS AH TH QH"
    a, b = picked(), picked(hands=hands_b)
    a.apply("call AS")
    b.apply("call AS")
    for act in ("7D", "7H"):
        for seat in (None, 0, 1, 4):
            assert json.dumps(a.view(seat, log=True), sort_keys=True) == \
                json.dumps(b.view(seat, log=True), sort_keys=True), seat
        a.apply(act)
        b.apply(act)
    det = Determinizer(a.game, a.view(0, log=True))
    rng = random.Random(3)
    assert {a.game.sides.partner(det.sample(rng)) for _ in range(200)} >= {2, 3, 4}


# ---- Scoring --------------------------------------------------------------------------------------

def deal_points(g, s, players):
    """The ruleset's own scoring of position ``s``: its tally step (the leaster's low), then its
    ``deal_points`` definition for every seat."""
    next(st for st in g.steps if st.id == "tally").run(s)
    return [g.ns["_d_deal_points"](s, p) for p in range(players)]


def _cards_worth(total, pool, points):
    """Some cards of ``pool`` worth exactly ``total`` (a small subset-sum)."""
    best = {0: []}
    for c in pool:
        for t, cs in list(best.items()):
            n = t + points[c]
            if n <= total and n not in best:
                best[n] = cs + [c]
    return best[total]


def score_of(side_trick_points, buried, alone=False, side_tricks=3, players=5, **opts):
    """deal_points of every seat when the picker (seat 1) buried ``buried`` and his side took
    ``side_tricks`` tricks worth ``side_trick_points``; unless ``alone`` the partner is seat 2, who
    played the called ace (it is among the tricks' cards)."""
    g = G(players, **opts)
    s = dealt(g, PICKER_HANDS, PICKER_BLIND) if players == 5 else g.new_state(seed=1)
    d = g.deck
    pts = {c: d.points_of[d.face(c)] for c in DECK}
    hand, won, buried_z = g.zone["hand"].index, g.zone["won"].index, g.zone["buried"].index
    for zi in (hand, won, buried_z):
        s.z[zi] = [[] for _ in range(players)]
    bur = buried.split()
    pool = [c for c in DECK if c not in bur]
    side = _cards_worth(side_trick_points, pool, pts)
    others = [c for c in pool if c not in side]
    s.z[buried_z][1] = [d.face(c) for c in bur]
    s.z[won][1] = [d.face(c) for c in side]
    s.z[won][3] = [d.face(c) for c in others]
    s.v[DECLARER] = 1
    s.v[g.var["called"].index] = -1 if alone else d.face("AS")
    s.v[CALLED_BY] = -1 if alone else 2
    tricks_total = {5: 6, 4: 7, 3: 10}[players]
    s.v[TRICKS_TOTAL] = tricks_total
    s.c[g.counter["tricks"].index] = [0, side_tricks, 0, tricks_total - side_tricks] + [0] * (players - 4)
    # the sides' tricks (by: side, docs/teams.md): each seat's part, the side's total read through sides:
    s.c[g.counter["side_tricks"].index] = list(s.c[g.counter["tricks"].index])
    return deal_points(g, s, players)


def test_example_picker_side_62_wins():
    """Worked example: picker buries ♥10 and ♣K (14), his side takes 48 in tricks -> P = 62 ->
    picker +2, partner +1, defenders -1 each."""
    assert score_of(48, "TH KC") == [-1, 2, 1, -1, -1]


@pytest.mark.parametrize("p,expected", [(95, [-2, 4, 2, -2, -2]), (58, [1, -2, -1, 1, 1]),
                                        (28, [2, -4, -2, 2, 2]), (60, [1, -2, -1, 1, 1]),
                                        (91, [-2, 4, 2, -2, -2]), (30, [2, -4, -2, 2, 2])])
def test_example_schneider_and_losses(p, expected):
    """Worked examples: P = 95 -> x2: +4, +2, -2 each. P = 58 -> -2, -1, +1 each. P = 28 -> -4, -2, +2
    each. Scoring: P >= 91 x2; P <= 60 loses (60 loses); P <= 30 x2."""
    assert score_of(p, "") == expected


def test_example_alone():
    """Worked examples: alone, P = 65 -> picker +4, each defender -1; alone taking all 6 tricks ->
    +12, -3 each. Scoring: alone, the picker +- the number of defenders."""
    assert score_of(65, "", alone=True) == [-1, 4, -1, -1, -1]
    assert score_of(120, "", alone=True, side_tricks=6) == [-3, 12, -3, -3, -3]


def test_no_trick_x3_and_buried_points_ignored():
    """Scoring: the side took no trick x3, and its buried points are then ignored; all 6 tricks x3."""
    assert score_of(0, "AH AC", side_tricks=0) == [3, -6, -3, 3, 3]      # P = 22 from the buried: ignored
    assert score_of(120 - 22, "AH AC", side_tricks=6) == [-3, 6, 3, -3, -3]


def _leaster(totals, tricks_taken):
    g = G()
    s = dealt(g, PICKER_HANDS, PICKER_BLIND)
    play(s, "pass", "pass", "pass", "pass", "pass")
    d = g.deck
    pts = {c: d.points_of[d.face(c)] for c in DECK}
    won = g.zone["won"].index
    pool = list(DECK)
    s.z[won] = [[] for _ in range(5)]
    for seat, total in enumerate(totals):
        cs = _cards_worth(total, pool, pts)
        pool = [c for c in pool if c not in cs]
        s.z[won][seat] = [d.face(c) for c in cs]
    s.c[g.counter["tricks"].index] = list(tricks_taken)
    return deal_points(g, s, 5)


def test_example_leaster():
    """Worked examples (Leaster): totals 0 (no trick), 12, 25, 40, 43 -> the 12-point player wins: +4,
    others -1 each; totals 0, 12, 12, 48, 48 -> both 12s win: each +3, others -2 each."""
    assert _leaster([0, 12, 25, 40, 43], [0, 1, 1, 2, 2]) == [-1, 4, -1, -1, -1]
    assert _leaster([0, 12, 12, 48, 48], [0, 1, 1, 2, 2]) == [-2, 3, 3, -2, -2]


def test_leaster_player_without_a_trick_cannot_win():
    """Leaster: among players who took at least one trick, the fewest card points wins."""
    assert _leaster([0, 30, 30, 30, 30], [0, 2, 1, 2, 1]) == [-4, 1, 1, 1, 1]


# ---- Options ---------------------------------------------------------------------------------------

def test_option_forced_pick_dealer_must_pick():
    """Options: no_pick = forced_pick: the dealer must pick."""
    s = dealt(G(no_pick="forced_pick"), PICKER_HANDS, PICKER_BLIND, dealer=0)
    play(s, "pass", "pass", "pass", "pass")
    assert s.to_act == 0 and s.legal_actions() == ["pick"]


def test_option_doubler_next_deal_counts_double():
    """Options: no_pick = doubler: the next dealer deals; that deal's scores x2 (x4 after two doublers
    in a row); the all-pass deal counts as a deal."""
    g = G(no_pick="doubler")
    s = dealt(g, PICKER_HANDS, PICKER_BLIND)
    play(s, "pass", "pass", "pass", "pass", "pass")
    assert s.view(None)["deal"] == 2 and s.view(None)["dealer"] == 1
    assert s.v[g.var["doublers"].index] == 1
    # deal 2: picked and played; its score is doubled
    rng = random.Random(4)
    s.apply("pick")
    while s.view(None)["deal"] == 2:
        s.apply(rng.choice(s.legal_actions()))
    pts = deal_score(s, 2)
    assert sum(pts) == 0 and all(p % 2 == 0 for p in pts)
    assert s.v[g.var["doublers"].index] == 0
    assert score_of(62, "", no_pick="doubler") == [-1, 2, 1, -1, -1]     # no doubler pending: x1


def test_option_jack_of_diamonds_partner():
    """Options: partner = jack_of_diamonds: the J♦ holder is the partner; a picker who holds or buried
    J♦ plays alone."""
    g = G(partner_rule="jack_of_diamonds")
    hands = dict(PICKER_HANDS)
    hands[1], hands[4] = "9S KH QC JH AD 7D", "JD TD KD QD 9D 8D"
    s = dealt(g, hands, PICKER_BLIND)
    play(s, "pick", "bury 8C 7C")
    assert s.view(4)["sides"]["partner"] == 4 and s.view(0)["sides"]["partner"] is None
    s = dealt(g, PICKER_HANDS, PICKER_BLIND)          # the picker holds J♦: alone
    play(s, "pick", "bury 8C 7C")
    assert s.view(1)["sides"]["partner"] == -1


def test_option_jack_of_diamonds_has_no_called_card_play_rule():
    """Options: "partner: called_ace | jack_of_diamonds (the J♦ holder is the partner; picker who holds or
    buried J♦ plays alone)" -- and no play constraint: the called ace's rules (Partners) are not the J♦'s.
    To the first trump lead the J♦ holder plays any trump; void in a fail suit he may trump with the J♦;
    the picker, void in the led suit, may trump with his last trump."""
    g = G(partner_rule="jack_of_diamonds")
    hands = dict(PICKER_HANDS)
    hands[1], hands[4] = "9S KH QC JH AD 7D", "JD TD KD QD 9D 8D"
    s = dealt(g, hands, PICKER_BLIND)
    play(s, "pick", "bury 8C 7C", "7D", "7H", "QS")
    assert s.to_act == 4 and sorted(s.legal_actions()) == sorted(["JD", "TD", "KD", "QD", "9D", "8D"])
    s = dealt(g, hands, PICKER_BLIND)
    play(s, "pick", "bury 8C 7C", "KH", "9H", "AH")
    assert s.to_act == 4 and "JD" in s.legal_actions()       # void in hearts
    hands = {0: "KS 7S TH 9H 8H QS", 1: "AC TC KC 9C AS AH", 2: "9S 8S KH 7H QC TS",
             3: "QH QD JC JS JH JD", 4: "AD TD KD 9D 8D 7D"}
    s = dealt(g, hands, PICKER_BLIND)
    play(s, "pass", "pick", "bury 8C 7C", "AC")              # seat 2 picks; seat 1 leads a club
    assert s.to_act == 2 and "QC" in s.legal_actions()       # the picker's last trump, void in clubs


@pytest.mark.parametrize("players,each,blind", [(3, 10, 2), (4, 7, 4)])
def test_option_three_and_four_players_picker_alone(players, each, blind):
    """Options: players 3 (10 each, blind 2) or 4 (7 each, blind 4); the picker always plays alone."""
    g = cardspec.load("sheepshead", players)
    s = g.new_state(seed=1)
    v = s.view(0)
    assert len(v["zones"]["hand"]["0"]) == each and v["zones"]["blind"]["count"] == blind
    s.apply("pick")                                  # seat 1, the dealer's left
    bury = s.legal_actions()[0]
    assert len(bury.split()) == 1 + blind            # as many buried as the blind held
    s.apply(bury)
    assert not any(a.startswith("call") or a == "alone" for a in s.legal_actions())
    rng = random.Random(2)
    while s.view(None)["deal"] == 1:
        s.apply(rng.choice(s.legal_actions()))
    pts = deal_score(s)
    assert sum(pts) == 0 and pts[1] == -(players - 1) * pts[0] and len(set(pts[:1] + pts[2:])) == 1


# ---- Properties -----------------------------------------------------------------------------------

@pytest.mark.parametrize("players,opts", [(5, {}), (5, {"no_pick": "doubler"}), (5, {"no_pick": "forced_pick"}),
                                          (5, {"partner_rule": "jack_of_diamonds"}), (4, {}), (3, {})])
def test_random_matches_conserve_cards_zero_sum_and_end(players, opts):
    """Property over random deals: every card is in exactly one place at every step, each deal's
    scores sum to zero (every amount in the digest is paid by the others), the match ends."""
    g = G(players, **opts)
    for seed in range(6):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not s.terminal:
            cards = Counter(c for zi, zn in enumerate(g.zones) for h in (s.z[zi] if zn.per_seat else [s.z[zi]])
                            for c in h) + Counter(c for _, c in s.plays)
            assert cards == Counter(g.deck.cards)
            s.apply(rng.choice(s.legal_actions()))
            steps += 1
            assert steps < 2000
        for e in s.log_all():
            if e["type"] == "deal_score":
                assert sum(e["points"].values()) == 0
        assert sum(s.game_scores().values()) == 0


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_match_totals_are_the_sum_of_every_deals_points(players):
    """sheepshead.md, Match end: "Each player deals twice (10 deals) … Highest total wins" — the total is
    every deal's points added up. (The ruleset wrote the deal's points over the totals with `counter:
    score` until issue 38's check warned of it: the match was won on the last deal alone.)"""
    g = G(players)
    for seed in range(3):
        s = g.new_state(seed=seed)
        s.random_playout(random.Random(seed))
        deals = [e for e in s.log_all() if e["type"] == "deal_score"]
        assert len(deals) >= 2 * players
        expected = {str(p): sum(e["points"][str(p)] for e in deals) for p in range(players)}
        assert s.scores() == expected
        assert deals[-1]["totals"] == expected


def test_the_buried_cards_are_face_down_to_the_other_seats():
    """sheepshead.md, Picking: the picker buries cards face down (they count for his side) — the other
    seats' logs say how many, never which (issue 32: every seat used to read `bury 8H KD`)."""
    g = G(5)
    for seed in range(8):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.terminal and not any(e["type"] == "action" and e["action"].startswith("bury")
                                         for e in s.log_all()):
            s.apply(rng.choice(s.legal_actions()))
        if s.terminal:
            continue
        ev = [e for e in s.log_all() if e["type"] == "action"][-1]
        k = len(ev["action"].split()) - 1
        for seat in [None, *range(5)]:
            seen = [e for e in s.log(seat) if e["type"] == "action" and e["seat"] == ev["seat"]][-1]
            assert seen["action"] == (ev["action"] if seat == ev["seat"] else
                                      f"bury {k} card{'s' if k != 1 else ''} face down")
