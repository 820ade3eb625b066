"""Briscola Chiamata (rulesets/briscola-chiamata.yaml), the rules and worked examples of
../shared/rules/briscola-chiamata.md.

Each test names its section of the digest. Seats: the digest's "play order A B C D, dealer E" goes
to the right, so with seat 0 dealing A is seat 4, B seat 3, C seat 2, D seat 1 and E seat 0.
Constructed deals use ``deal=`` with ``cut_for_dealer=false`` (seat 0 deals the first deal).
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
from cardspec.engine.slots import BID_NUMBER, CALLED_BY, DECLARER, TRICKS_TOTAL

ORDER = ["A", "3", "K", "Q", "J", "7", "6", "5", "4", "2"]          # high to low
POINTS = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2}
DECK = [r + s for s in "SHDC" for r in ORDER]
A, B, C, D, E = 4, 3, 2, 1, 0


@functools.lru_cache(maxsize=None)
def game(items=()):
    return cardspec.load("briscola-chiamata", 5, dict(items))


def G(**opts):
    opts.setdefault("cut_for_dealer", False)
    return game(tuple(sorted(opts.items())))


def dealt(g, hands, seed=0):
    over = {(g.zone["hand"].index, s): [g.deck.face(c) for c in cs.split()] for s, cs in hands.items()}
    return g.new_state(seed=seed, dealer=0, deal=over)


def play(s, *actions):
    for a in actions:
        s.apply(a)
    return s


def tricks(s):
    return [e for e in s.log_all() if e["type"] == "trick"]


def pts(cards):
    return sum(POINTS.get(c[:-1], 0) for c in cards)


SPADES_DEAL = {A: "KS 4S 5S AD 3D KD QD JD", B: "3S 6S 7D 6D 5D 4D 2D 7C", C: "AS 2S QS 3C AC KC QC JC",
               D: "2H 4H 5H 6H 7H JH QH KH", E: "JS 7S 3H AH 6C 5C 4C 2C"}
CLUBS_DEAL = {A: "QC KS 4S 5S AD 3D KD QD", B: "3C 3S 6S 7D 6D 5D 4D 2H", C: "7C AS 2S QS JD JC 6C 5C",
              D: "KC 2D 4H 5H 6H 7H JH QH", E: "AC JS 7S 3H AH KH 4C 2C"}


def declared(hands, bid="bid A", suit="hearts", **opts):
    """A (seat 4, the dealer's right) bids, everyone else passes, A names ``suit``."""
    s = dealt(G(**opts), hands)
    play(s, bid, "pass", "pass", "pass", "pass", f"name {suit}")
    return s


# ---- Cards ------------------------------------------------------------------------------------------

def test_cards_forty_ranks_and_points():
    """Cards: 40 cards; rank in every suit, high to low, A 3 K Q(horse) J 7 6 5 4 2; points A 11,
    3 10, K 4, Q 3, J 2, others 0; 120 in all."""
    g = G()
    d = g.deck
    assert sorted(d.code[f] for f in d.cards) == sorted(DECK)
    assert sorted(ORDER, key=lambda r: -d.strength[d.face(r + "S")]) == ORDER
    assert sum(d.points_of[f] for f in d.cards) == 120
    assert [d.points_of[d.face(r + "C")] for r in ORDER] == [11, 10, 4, 3, 2, 0, 0, 0, 0, 0]


# ---- Players, seating, first dealer, deal --------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_first_dealer_by_cut_lowest_card(seed):
    """Players and seating: first dealer: everyone cuts; the lowest card in the rank above deals
    (ties by cutting again: among tied players each is equally likely, as the suit order does here)."""
    s = cardspec.load("briscola-chiamata").new_state(seed=seed)
    cut = {e["seat"]: e["cards"][0] for e in s.log_all() if e["type"] == "reveal"}
    low = min(ORDER.index(c[:-1]) * -1 for c in cut.values())
    lowest = [seat for seat, c in cut.items() if -ORDER.index(c[:-1]) == low]
    dealer = [e for e in s.log_all() if e["type"] == "dealer"][0]["seat"]
    assert dealer in lowest and s.view(None)["dealer"] == dealer


def test_deal_eight_each_bidding_and_play_to_the_right():
    """Deal: 8 cards each, all 40 dealt. Players and seating: dealing, bidding and play go
    counterclockwise (to the right); the deal passes to the right. Bidding starts at the dealer's right."""
    g = G()
    s = g.new_state(seed=3)
    assert all(len(s.view(p)["zones"]["hand"][str(p)]) == 8 for p in range(5))
    assert s.to_act == A                          # the dealer's right (seat 0 - 1)
    s.apply(s.legal_actions()[0])
    assert s.to_act == B
    rng = random.Random(3)
    while s.view(None)["deal"] == 1:
        s.apply(rng.choice(s.legal_actions()))
    for t in tricks(s):
        seats = [p for p, _ in t["cards"]]
        assert all(seats[i + 1] == (seats[i] - 1) % 5 for i in range(4))
    assert s.view(None)["dealer"] == 4            # deal 2: the dealer's right deals


# ---- Bidding -------------------------------------------------------------------------------------------

def test_example_auction():
    """Worked example: A K, B J, C pass, D 7, E pass, A pass, B 5, D pass -> B declares with 5. B names
    ♦ -> the called card is 5♦; its holder (say D) is the partner. Bidding: hard pass."""
    hands = {A: "KS 4S 5S AD 3D KD QD JD", B: "3S 6S 7D 6D 2D 4D 2S 7C", C: "AS 5D QS 3C AC KC QC JC",
             D: "2H 4H 5H 6H 7H JH QH KH", E: "JS 7S 3H AH 6C 5C 4C 2C"}
    s = dealt(G(), hands)
    play(s, "bid K", "bid J", "pass", "bid 7", "pass", "pass")
    assert s.to_act == B and "bid 5" in s.legal_actions() and "bid 7" not in s.legal_actions()
    s.apply("bid 5")
    assert s.to_act == D                          # C and E and A passed for good
    s.apply("pass")
    assert [e for e in s.log_all() if e["type"] == "auction_end"][0]["declarer"] == B
    assert s.to_act == B
    s.apply("name diamonds")
    assert s.view(0, log=True)["vars"]["called"] == "5D"
    assert s.view(C)["sides"]["partner"] == C and s.view(A)["sides"]["partner"] is None


def test_each_bid_lower_and_after_a_two_only_pass():
    """Bidding: every later bid must name a lower rank in A 3 K Q J 7 6 5 4 2; after a bid of 2 the
    others can only pass."""
    s = dealt(G(), SPADES_DEAL)
    s.apply("bid 3")
    assert "bid A" not in s.legal_actions() and "bid K" in s.legal_actions()
    with pytest.raises(IllegalAction):
        s.apply("bid A")
    s.apply("bid 2")
    assert s.legal_actions() == ["pass"]


def test_all_pass_redeal_same_dealer():
    """Bidding: all five pass with no bid: the cards are redealt by the same dealer (settled here)."""
    s = dealt(G(), SPADES_DEAL)
    play(s, "pass", "pass", "pass", "pass", "pass")
    v = s.view(None)
    assert v["deal"] == 1 and v["dealer"] == 0 and s.to_act == A and v["step"] == "auction"
    assert s.view(A)["zones"]["hand"][str(A)] != sorted(SPADES_DEAL[A].split())


def test_the_first_deal_start_event_names_the_dealer_of_the_cut():
    """Players and seating: "First dealer: everyone cuts; the lowest card in the rank above deals." The
    first `deal_start` event (and the play log's "Deal 1" line) names that dealer, not seat 0 (issue 32
    item 5); a redeal after five passes names the same dealer."""
    from cardspec.play.terminal import format_events
    named = set()
    for seed in range(6):
        s = game().new_state(seed=seed)
        dealer = s.view(None)["dealer"]
        named.add(dealer)
        starts = [e for e in s.log_all() if e["type"] == "deal_start"]
        assert starts == [{"type": "deal_start", "deal": 1, "dealer": dealer}]
        assert format_events(s.game, s.log(0))[0] == f"Deal 1 (dealer: seat {dealer})"
        for _ in range(5):
            s.apply("pass")
        assert [e["dealer"] for e in s.log_all() if e["type"] == "deal_start"] == [dealer, dealer]
    assert named - {0}


@pytest.mark.parametrize("players", [5, 6])
def test_all_pass_on_the_first_deal_keeps_the_dealer_of_the_cut(players):
    """Bidding: all pass -> "redealt by the same dealer", also on the first deal after the cut for the
    dealer (Players and seating): the cut is not made again. With six, that dealer still sits out."""
    g = game6() if players == 6 else game()
    for seed in range(4):
        s = g.new_state(seed=seed)
        dealer = s.view(None)["dealer"]
        for _ in range(players - (1 if players == 6 else 0)):
            s.apply("pass")
        v = s.view(None)
        assert v["deal"] == 1 and v["dealer"] == dealer and v["system"]["redeals"] == 1
        assert sum(1 for e in s.log_all() if e["type"] == "dealer") == 1
        if players == 6:
            assert v["system"]["sits_out"] == dealer


# ---- Partners ------------------------------------------------------------------------------------------

def test_declarer_holding_the_called_card_plays_alone():
    """Partners: if the declarer holds the called card he plays alone, 1 against 4; the others learn
    it when he plays it or at the end. Worked example: B's bid 5 with 5♦ in his own hand."""
    s = declared(SPADES_DEAL, bid="bid A", suit="diamonds")      # A♦ is in A's own hand
    assert s.view(A)["sides"]["partner"] == -1
    assert all(s.view(p)["sides"]["partner"] is None for p in (B, C, D, E))


def test_information_partner_seat_changes_no_other_view_or_log():
    """Issue 18, the information test: before the called card is played no seat's view or log (other
    than the partner's own hand) shows who holds it; a bot's determinization may give it to any of them."""
    hands_b = dict(SPADES_DEAL)
    hands_b[E] = "JS 7S 3H 6D 6C 5C 4C 2C"
    hands_b[B] = "3S 6S 7D AH 5D 4D 2D 7C"
    a, b = declared(SPADES_DEAL), declared(hands_b)
    for act in ("KS", "3S", "AS"):
        for seat in (None, A, C, D):
            assert json.dumps(a.view(seat, log=True), sort_keys=True) == \
                json.dumps(b.view(seat, log=True), sort_keys=True), seat
        a.apply(act)
        b.apply(act)
    det = Determinizer(a.game, a.view(D, log=True))
    rng = random.Random(2)
    assert {a.game.sides.partner(det.sample(rng)) for _ in range(200)} >= {B, C, E}


# ---- Play ----------------------------------------------------------------------------------------------

def test_example_trump_wins_27():
    """Worked example (trumps ♥): ♠K led, ♠3, ♠A, ♥2 (void), ♠J -> ♥2 wins 4 + 10 + 11 + 0 + 2 = 27.
    Play: the declarer leads to trick 1; follow suit if able; if void, any card."""
    s = declared(SPADES_DEAL)
    assert s.to_act == A
    play(s, "KS", "3S", "AS")
    assert "2H" in s.legal_actions() and len(s.legal_actions()) == 8    # void in spades: any card
    play(s, "2H", "JS")
    t = tricks(s)[0]
    assert t["winner"] == D and pts(c for _, c in t["cards"]) == 27


def test_example_ace_beats_three_beats_king_28():
    """Worked example (trumps ♥): ♣Q led, ♣3, ♣7, ♣K, ♣A -> ♣A (A > 3 > K > Q); 3 + 10 + 0 + 4 + 11 = 28.
    And: a player whose only club is the ♣3 (the digest: ♣2) must play it to a club lead, even holding trumps."""
    s = declared(CLUBS_DEAL)
    s.apply("QC")
    assert s.legal_actions() == ["3C"]            # seat B's only club; B also holds 2♥, a trump
    play(s, "3C", "7C", "KC", "AC")
    t = tricks(s)[0]
    assert t["winner"] == E and pts(c for _, c in t["cards"]) == 28
    assert s.to_act == E                           # the winner leads the next trick


def test_option_first_lead_dealer_right_and_may_follow():
    """Options: first_lead = dealer_right; may_follow = on gives Briscola Bugiarda's play rule (no duty
    to follow)."""
    s = declared(SPADES_DEAL, bid="bid A", first_lead="dealer_right")
    assert s.to_act == A                           # the dealer's right (here also the declarer)
    s = dealt(G(first_lead="dealer_right"), SPADES_DEAL)
    play(s, "pass", "bid A", "pass", "pass", "pass", "name hearts")
    assert s.to_act == A                           # the declarer is B, the dealer's right leads
    s = declared(CLUBS_DEAL, may_follow=True)
    s.apply("QC")
    assert len(s.legal_actions()) == 8


# ---- Scoring -------------------------------------------------------------------------------------------

def deal_points(g, s, players):
    """The ruleset's own scoring of position ``s``: its ``deal_points`` definition for every seat (the
    side's tricks are a by: side counter, its card points a definition: no tally step)."""
    return [g.ns["_d_deal_points"](s, p) for p in range(players)]


def _cards_worth(total, pool):
    best = {0: []}
    for c in pool:
        for t, cs in list(best.items()):
            n = t + POINTS.get(c[:-1], 0)
            if n <= total and n not in best:
                best[n] = cs + [c]
    return best[total]


def score_of(side_points, alone=False, side_tricks=4, **opts):
    """deal_points when A (seat 4) declared, B (seat 3) is the partner who played the called card
    (unless ``alone``) and their tricks hold ``side_points``."""
    g = G(**opts)
    s = declared(SPADES_DEAL, **{k: v for k, v in opts.items()})
    d = g.deck
    won = g.zone["won"].index
    s.z[won] = [[] for _ in range(5)]
    side = _cards_worth(side_points, DECK)
    s.z[won][A] = [d.face(c) for c in side]
    s.z[won][C] = [d.face(c) for c in DECK if c not in side]
    s.v[DECLARER] = A
    s.v[CALLED_BY] = -1 if alone else B
    if alone:
        s.v[g.var["called"].index] = d.face("AD")
        s.z[g.zone["hand"].index][A].append(d.face("AD"))
    s.v[TRICKS_TOTAL] = 8
    s.c[g.counter["tricks"].index] = [0, 0, 8 - side_tricks, 0, side_tricks]
    s.c[g.counter["side_tricks"].index] = [0, 0, 8 - side_tricks, 0, side_tricks]
    return deal_points(g, s, 5)


def test_example_scores():
    """Worked examples: declarer side 68 -> declarer +2, partner +1, opponents -1 each; 60 -> -2, -1, +1
    each; alone with 70 -> +4, others -1 each; all 8 tricks (120) -> +4, +2, -2 each. Scoring: 61 needed,
    60 loses; the declarer's side took all 8 tricks: every amount doubled (settled here)."""
    assert score_of(68) == [-1, -1, -1, 1, 2]
    assert score_of(60) == [1, 1, 1, -1, -2]
    assert score_of(61) == [-1, -1, -1, 1, 2]
    assert score_of(70, alone=True) == [-1, -1, -1, -1, 4]
    assert score_of(120, side_tricks=8) == [-2, -2, -2, 2, 4]


def test_option_capot_either_side():
    """Options: capot_either_side: doubling also when the opponents take all 8 tricks."""
    assert score_of(0, side_tricks=0) == [1, 1, 1, -1, -2]
    assert score_of(0, side_tricks=0, capot_either_side=True) == [2, 2, 2, -2, -4]


def test_example_match_end_at_eleven():
    """Worked example: totals 10, 6, -4, -6, -6; the first player declares, the second is his partner,
    they win -> 12, 7, -5, -7, -7; the match ends and the first player wins. Match end: after the deal
    in which any player reaches 11 or more; the highest total wins."""
    g = G()
    s = dealt(g, SPADES_DEAL)
    score = g.counter["score"].index
    s.c[score] = [10, 6, -4, -6, -6]
    assert not g.match_end(s)
    s.c[score] = [a + b for a, b in zip([10, 6, -4, -6, -6], [2, 1, -1, -1, -1])]
    assert s.c[score] == [12, 7, -5, -7, -7]
    assert g.match_end(s) and s.ranking()[0] == 0


# ---- Properties ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("opts", [{}, {"may_follow": True}, {"capot_either_side": True}, {"point_auction": True},
                                  {"first_lead": "dealer_right"}])
def test_random_matches_conserve_cards_zero_sum_and_end(opts):
    """Property over random matches: every card in exactly one place at every step; each deal's scores
    sum to zero (the amounts of Scoring are paid by the other side); the match ends (game to 11)."""
    g = game(tuple(sorted(opts.items())))
    for seed in range(3):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not s.terminal:
            cards = Counter(c for zi, zn in enumerate(g.zones) for h in (s.z[zi] if zn.per_seat else [s.z[zi]])
                            for c in h) + Counter(c for _, c in s.plays)
            assert cards == Counter(g.deck.cards)
            s.apply(rng.choice(s.legal_actions()))
            steps += 1
            assert steps < 20000
        assert all(sum(e["points"].values()) == 0 for e in s.log_all() if e["type"] == "deal_score")
        assert max(s.game_scores().values()) >= 11


# ---- Options: point_auction ------------------------------------------------------------------------

def test_option_point_auction_after_a_two_bids_go_on_in_points():
    """Options: point_auction (pagat's basic game): after a 2 has been bid, bidding continues in points,
    "2 with 62", 63, ... 120, each higher than the last (a plain 2 means 61)."""
    s = dealt(G(point_auction=True), SPADES_DEAL)
    assert s.legal_actions()[:3] == ["pass", "bid 61 A", "bid 61 3"]
    s.apply("bid 61 K")
    assert "bid 61 Q" in s.legal_actions() and "bid 62 2" not in s.legal_actions()   # not before a 2
    with pytest.raises(IllegalAction, match="after a 2 has been bid"):
        s.apply("bid 62 2")
    s.apply("bid 61 2")                               # a plain 2: 61
    assert s.legal_actions() == ["pass"] + [f"bid {n} 2" for n in range(62, 121)]
    with pytest.raises(IllegalAction):
        s.apply("bid 62 K")                           # only the 2 goes on in points
    s.apply("bid 70 2")
    assert "bid 70 2" not in s.legal_actions() and "bid 71 2" in s.legal_actions()


def test_option_point_auction_off_no_point_bids():
    """Options: point_auction is off by default: a bid names a rank only and after a 2 the others can
    only pass (Bidding)."""
    s = dealt(G(), SPADES_DEAL)
    assert all(len(a.split()) <= 2 for a in s.legal_actions())   # "bid K", never "bid 61 K"
    s.apply("bid 2")
    assert s.legal_actions() == ["pass"]


def test_option_point_auction_declarer_needs_the_points_of_the_bid():
    """Options: point_auction: the declarer's side then needs the points of its bid instead of 61
    (a plain rank bid: 61)."""
    g = G(point_auction=True)

    def score(bid, side_points):
        s = dealt(g, SPADES_DEAL)
        if bid == "61 K":   # A declares with a plain K (B stands in as the partner)
            play(s, "bid 61 K", "pass", "pass", "pass", "pass", "name hearts")
            declarer, partner = A, B
        else:               # A bids a plain 2, B goes on in points, everyone else passes: B declares
            play(s, "bid 61 2", f"bid {bid}", "pass", "pass", "pass", "pass", "name hearts")
            declarer, partner = B, D
        assert s.v[DECLARER] == declarer and s.v[BID_NUMBER] == int(bid.split()[0])
        d = g.deck
        won = g.zone["won"].index
        side = _cards_worth(side_points, DECK)
        s.z[won] = [[] for _ in range(5)]
        s.z[won][declarer] = [d.face(c) for c in side]
        s.z[won][C] = [d.face(c) for c in DECK if c not in side]
        s.v[CALLED_BY] = partner
        s.v[TRICKS_TOTAL] = 8
        s.c[g.counter["tricks"].index] = [0, 0, 4, 0, 0]
        s.c[g.counter["tricks"].index][declarer] = 4
        return deal_points(g, s, 5)

    # seats: E 0, D 1, C 2, B 3, A 4
    assert score("70 2", 72) == [-1, 1, -1, 2, -1]
    assert score("70 2", 68) == [1, -1, 1, -2, 1]      # 68 would make a plain bid: short of 70
    assert score("61 K", 61) == [-1, -1, -1, 1, 2]
    assert score("61 K", 60) == [1, 1, 1, -1, -2]


# ---- Options: players 6 (the dealer sits out each deal) ---------------------------------------------

@functools.lru_cache(maxsize=None)
def game6(items=()):
    return cardspec.load("briscola-chiamata", 6, dict(items))


def test_option_six_players_the_dealer_sits_out_each_deal():
    """Options: "players: 5 | 6 (the dealer sits out each deal)". With six, the dealer is dealt no
    cards and the other five get 8 each (all 40, Deal); bidding starts at the dealer's right and never
    reaches the dealer, who plays to no trick (Bidding, Play); the deal passes to the right (Players and
    seating) and the new dealer sits out in turn; the dealer scores nothing for the deal."""
    g = game6((("cut_for_dealer", False),))
    s = g.new_state(seed=4)
    hands = s.z[g.zone["hand"].index]
    assert [len(h) for h in hands] == [0, 8, 8, 8, 8, 8]
    assert s.view(None)["system"]["sits_out"] == 0
    assert s.to_act == 5                          # the dealer's right
    rng = random.Random(4)
    acted = set()
    while s.view(None)["deal"] == 1:
        acted.add(s.to_act)
        s.apply(rng.choice(s.legal_actions()))
    assert 0 not in acted and acted <= {1, 2, 3, 4, 5}
    log = s.log_all()
    for t in [e for e in log if e["type"] == "trick"]:
        seats = [p for p, _ in t["cards"]]
        assert len(seats) == 5 and 0 not in seats
        assert all(seats[i + 1] == (seats[i] - 1) % 6 or (seats[i] == 1 and seats[i + 1] == 5) for i in range(4))
    score = [e for e in log if e["type"] == "deal_score"][0]["points"]
    assert score["0"] == 0 and sum(score.values()) == 0
    assert s.view(None)["dealer"] == 5 and s.view(None)["system"]["sits_out"] == 5   # deal 2
    assert len(s.z[g.zone["hand"].index][5]) == 0
    assert {"type": "sits_out", "seat": 5} in s.log_all()


def test_option_six_players_every_count_validates():
    """Options: players 5 | 6 — validate deals every deal of the schedule at both counts and plays
    random games (docs/rulesets.md, "A seat that sits out a deal")."""
    from cardspec.authoring.validate import validate_ruleset
    problems, status = validate_ruleset("briscola-chiamata")
    assert status == 0 and problems == []
    assert cardspec.load("briscola-chiamata", 5).may_sit_out is False   # five: the step folds away


def test_option_six_players_the_sitting_out_seat_sees_what_a_spectator_sees():
    """Options: players 6: the dealer does not play the deal, so his view of the table is a
    spectator's (no hidden card, no secret var), and a bot's guesses give him no cards."""
    g = game6()
    s = g.new_state(seed=7)
    out = s.view(None)["system"]["sits_out"]
    mine, spectator = s.view(out), s.view(None)
    for key in ("zones", "counters", "vars", "trick"):
        assert mine[key] == spectator[key]
    assert mine["display"]["sits_out"] == out and mine["display"]["sits_out_text"] == "you sit out this deal"
    assert spectator["display"]["sits_out_text"] == f"seat {out} sits out this deal"
    to_act = s.to_act
    det = Determinizer(g, s.view(to_act, log=True))
    rng = random.Random(1)
    for _ in range(20):
        guess = det.sample(rng)
        assert guess.z[g.zone["hand"].index][out] == []
        assert sum(len(h) for h in guess.z[g.zone["hand"].index]) == 40


@pytest.mark.parametrize("opts", [{}, {"first_lead": "dealer_right"}, {"point_auction": True}])
def test_option_six_players_random_matches_conserve_cards_zero_sum_and_end(opts):
    """Property over random six-player matches (Options: players 6): every card in one place at every
    step, the dealer never holds a card nor acts, each deal's scores sum to zero with the dealer's 0
    (Scoring: the amounts are paid by the other side), and the match ends (game to 11)."""
    g = game6(tuple(sorted(opts.items())))
    hand = g.zone["hand"].index
    for seed in range(3):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not s.terminal:
            cards = Counter(c for zi, zn in enumerate(g.zones) for h in (s.z[zi] if zn.per_seat else [s.z[zi]])
                            for c in h) + Counter(c for _, c in s.plays)
            assert cards == Counter(g.deck.cards)
            out = s.view(None)["system"]["sits_out"]
            if s.view(None)["step"] not in ("cut", "cut-dealer", "cut-shuffle"):
                assert out == s.view(None)["dealer"] and s.to_act != out and not s.z[hand][out]
            s.apply(rng.choice(s.legal_actions()))
            steps += 1
            assert steps < 20000
        out = -1
        for e in s.log_all():   # each deal: the seat that sat out (its sits_out event) scores 0
            if e["type"] == "deal_start":
                out = -1
            elif e["type"] == "sits_out":
                out = e["seat"]
            elif e["type"] == "deal_score":
                assert out >= 0 and e["points"][str(out)] == 0 and sum(e["points"].values()) == 0
        assert max(s.game_scores().values()) >= 11
