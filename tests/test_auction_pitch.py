"""Auction Pitch (rulesets/auction-pitch.yaml): every rule and worked example of ../shared/rules/auction-pitch.md,
the source named in each test's docstring. Worked examples use 4 players: dealer D = seat 0, then L1 = 1,
L2 = 2, L3 = 3 in order.

Constructed ends of deals: a deal is bid and played (the pitcher leading a spade, so spades are trumps) to
its last trick; then the taken piles are set to the example's and the last trick, of low hearts worth
nothing, is played (``finish``).
"""
from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

import cardspec
from cardspec import IllegalAction
from cardspec.errors import RulesetError

from _jacks import arrange, play, random_deal, tricks

D, L1, L2, L3 = 0, 1, 2, 3
GAME = {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10}
RANKS = "23456789TJQKA"


@functools.lru_cache(maxsize=None)
def game(players=4, items=()):
    return cardspec.load("auction-pitch", players=players, options=dict(items))


def G(players=4, **opts):
    return game(players, tuple(sorted(opts.items())))


def events(s, kind):
    return [e for e in s.log_all() if e["type"] == kind]


def points_of(s, deal_no=1):
    ev = [e for e in events(s, "deal_score") if e["deal"] == deal_no][-1]
    return [ev["points"][str(i)] for i in range(s.n)]


def bid(s, *calls):
    for c in calls:
        s.apply(c)
    return s


def finish(s, piles: dict, totals=None, last=("3H", "4H", "5H", "6H")):
    """``s`` in its play step: play random legal cards (the pitcher's first lead a spade when he can) to the
    last trick; set the taken piles to ``piles`` (seat -> codes; others empty) and, if given, the match
    totals before this deal; play the last trick with ``last`` (codes from its leader on)."""
    g = s.game
    rng = random.Random(1)
    n = s.n
    while len(tricks(s)) < 5 or s.view(None)["trick"]:
        legal = s.legal_actions()
        if not tricks(s) and not s.view(None)["trick"]:
            legal = [c for c in legal if c.endswith("S")] or legal
        s.apply(rng.choice(legal))
    d = g.deck
    hand, won = g.zone["hand"].index, g.zone["won"].index
    lead = s.to_act
    for seat in range(n):
        s.z[won][seat] = [d.face(c) for c in piles.get(seat, [])]
    for i, card in enumerate(last[:n]):
        s.z[hand][(lead + i) % n] = [d.face(card)]
    if totals is not None:
        s.c[g.counter["score"].index] = list(totals)
    s._cache = None
    play(s, *last[:n])
    return s


def pitched(bids=("pass", "pass", "pass", "bid 2"), players=4, seed=3, **opts):
    """A deal at its first trick after the calls ``bids`` (from the dealer's left), trumps still unnamed."""
    s = G(players, **opts).new_state(seed=seed)
    return bid(s, *bids)


# ---- Cards, players, deal ------------------------------------------------------------------------

def test_deck_and_game_values():
    """auction-pitch.md, "Cards": 52 cards, no joker, A high; game values A 4, K 3, Q 2, J 1, 10 10, others 0."""
    d = G().deck
    assert len(d.cards) == 52 and d.jokers == 0
    for f in d.cards:
        assert d.points_of[f] == GAME.get(d.code[f][0], 0)
    assert d.rank[d.face("AS")] > d.rank[d.face("KS")] > d.rank[d.face("2S")]


@pytest.mark.parametrize("players", [1, 8])
def test_two_to_seven_players(players):
    """auction-pitch.md, "Players and seating": 2–7 players."""
    with pytest.raises(RulesetError):
        cardspec.load("auction-pitch", players=players)


@pytest.mark.parametrize("players", [2, 4, 7])
def test_six_cards_each_the_rest_unused(players):
    """auction-pitch.md, "Deal": 6 each (3 at a time, twice); the rest of the pack is not used."""
    s = G(players).new_state(seed=players)
    v = s.view(None)
    assert all(v["zones"]["hand"][str(i)] == {"count": 6} for i in range(players))
    assert v["zones"]["stock"]["count"] == 52 - 6 * players


# ---- Bidding ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dealer", [0, 2])
def test_bidding_from_dealers_left_once_each_dealer_last(dealer):
    """auction-pitch.md, "Bidding": from the dealer's left, clockwise, each player once, the dealer last: pass,
    or bid 1, 2, 3 or 4 points, higher than any earlier bid."""
    s = G().new_state(seed=1, dealer=dealer)
    seen = []
    assert sorted(s.legal_actions()) == ["bid 1", "bid 2", "bid 3", "bid 4", "pass"]
    seen.append(s.to_act)
    s.apply("bid 2")
    assert sorted(s.legal_actions()) == ["bid 3", "bid 4", "pass"]   # higher than any earlier bid
    for _ in range(3):
        seen.append(s.to_act)
        s.apply("pass")
    assert seen == [(dealer + 1 + i) % 4 for i in range(4)]
    assert s.current_step().kind == "tricks" and s.to_act == (dealer + 1) % 4   # the pitcher leads


def test_a_lower_bid_is_refused_naming_the_legal_calls():
    """auction-pitch.md, "Bidding": a bid must be higher than any earlier bid; an illegal call leaves the
    state unchanged."""
    s = G().new_state(seed=1)
    s.apply("bid 3")
    with pytest.raises(IllegalAction) as e:
        s.apply("bid 2")
    assert "bid 4" in str(e.value) and s.to_act == 2


def test_worked_example_auction_dealer_outbids():
    """auction-pitch.md, "Worked examples": L1 pass, L2 2, L3 pass, D 3 → D pitches, contract 3."""
    s = bid(G().new_state(seed=1), "pass", "bid 2", "pass", "bid 3")
    end = events(s, "auction_end")[-1]
    assert end["declarer"] == D and end["bid"] == "3"
    assert s.to_act == D and s.current_step().kind == "tricks"


def test_worked_example_smudge_ends_the_auction():
    """auction-pitch.md, "Worked examples" and "Bidding": L1 4 → the auction ends; L1 pitches, contract 4."""
    s = bid(G().new_state(seed=1), "bid 4")
    assert events(s, "auction_end")[-1]["declarer"] == L1
    assert s.current_step().kind == "tricks" and s.to_act == L1


def test_all_pass_throws_the_hand_in_and_the_deal_passes_left():
    """auction-pitch.md, "Bidding": all pass: the hand is thrown in and the deal passes left (settled there)."""
    s = bid(G().new_state(seed=1), "pass", "pass", "pass", "pass")
    assert not tricks(s) and not events(s, "deal_score")
    assert s.view(None)["deal"] == 2 and s.view(None)["dealer"] == 1
    assert s.c[G().counter["score"].index] == [0, 0, 0, 0]


# ---- Trumps and play -------------------------------------------------------------------------------

def test_worked_example_first_lead_names_trumps_and_a_trump_may_be_played_holding_the_led_suit():
    """auction-pitch.md, "Worked examples", "Trumps" and "Play": D leads ♠K: spades are trumps. Trick 2: ♥5 led,
    ♥Q, ♠2 (its player held hearts — legal), ♥A → ♠2. (Trick 1: ♠K, ♠A, ♠4, ♠3: ♠A's player leads trick 2.)"""
    g = G()
    s = arrange(g, {D: ["KS", "AH"], L1: ["AS", "5H"], L2: ["4S", "QH"], L3: ["3S", "2S", "6H"]}, 6)
    bid(s, "pass", "pass", "pass", "bid 2")
    assert s.to_act == D and s.view(None)["trump"] is None
    s.apply("KS")
    assert s.view(None)["trump"] == "S"
    assert events(s, "trump")[-1]["suit"] == "S"
    play(s, "AS", "4S", "3S")
    assert tricks(s)[-1]["winner"] == L1 and s.to_act == L1
    play(s, "5H", "QH")
    assert "2S" in s.legal_actions() and "6H" in s.legal_actions()
    play(s, "2S", "AH")
    assert tricks(s)[-1]["winner"] == L3


def test_worked_example_trump_led_must_be_followed_with_the_only_trump():
    """auction-pitch.md, "Worked examples" and "Play": ♠9 led; a player whose only trump is ♠3 must play it,
    even holding hearts."""
    g = G()
    spades = [r + "S" for r in "2456789TJQKA" if r != "9"]
    s = arrange(g, {D: ["9S"] + spades[:5], L1: ["3S", "KH", "QH"]}, 6, void={L1: "S", L2: "S", L3: "S"})
    bid(s, "pass", "pass", "pass", "bid 2")
    s.apply("9S")
    assert s.legal_actions() == ["3S"]
    with pytest.raises(IllegalAction):
        s.apply("KH")


def test_unable_to_follow_any_card():
    """auction-pitch.md, "Play": unable to follow: any card."""
    g = G()
    s = arrange(g, {D: ["9S"]}, 6, void={L1: "S"})
    bid(s, "pass", "pass", "pass", "bid 2")
    s.apply("9S")
    assert sorted(s.legal_actions()) == sorted(s.view(L1)["zones"]["hand"]["1"])


def test_another_suit_led_follow_or_trump_nothing_else():
    """auction-pitch.md, "Play": another suit led: either follow that suit or play a trump, even when able to
    follow (a third suit is refused while one holds the led suit)."""
    g = G()
    s = arrange(g, {D: ["AS", "2D"], L1: ["3S", "4S", "3D", "4C"]}, 6, void={L1: "S", L2: "S", L3: "S"})
    bid(s, "pass", "pass", "pass", "bid 2")
    play(s, "AS", "3S")
    for _ in range(2):
        s.apply(s.legal_actions()[0])
    assert tricks(s)[-1]["winner"] == D
    s.apply("2D")
    hand = s.view(L1)["zones"]["hand"]["1"]
    assert set(s.legal_actions()) == {c for c in hand if c[-1] in "DS"} and "4S" in s.legal_actions()
    with pytest.raises(IllegalAction) as e:
        s.apply("4C")
    assert "must follow suit" in str(e.value) and "4S" in e.value.legal


def test_pitcher_leads_trick_one_and_winner_leads_next():
    """auction-pitch.md, "Play": the pitcher leads to trick 1; each trick's winner leads the next."""
    s = pitched(("pass", "bid 2", "pass", "pass"))
    assert s.to_act == L2
    rng = random.Random(2)
    for _ in range(3):
        for _ in range(4):
            s.apply(rng.choice(s.legal_actions()))
        assert s.to_act == tricks(s)[-1]["winner"]


# ---- Scoring ---------------------------------------------------------------------------------------

def test_worked_example_high_low_jack_go_to_their_takers():
    """auction-pitch.md, "Worked examples" and "Scoring": trumps in play ♠K ♠J ♠9 ♠3 ♠2: High ♠K to its player;
    Low ♠2 to whoever took the trick containing it; Jack to the taker of ♠J."""
    s = finish(pitched(), {L1: ["KS", "9S"], L2: ["2S", "8H"], L3: ["JS", "3S"], D: ["7H"]})
    pts = points_of(s)
    # D bid 2 and took nothing: set back 2; Game: nobody took any game value but ♠K (3), ♠J (1): L1 3 > L3 1
    assert pts == [-2, 2, 1, 1]


def test_a_single_trump_is_both_high_and_low():
    """auction-pitch.md, "Scoring": a single trump in play counts as both High and Low."""
    s = finish(pitched(), {L2: ["8S"], D: ["7H"]})
    assert points_of(s) == [-2, 0, 2, 0]


def test_worked_example_game_to_the_highest_game_value():
    """auction-pitch.md, "Worked examples": Game: L1 took ♥10 ♦A ♣K ♣Q = 10 + 4 + 3 + 2 = 19, L2 took ♣10 ♥J = 11,
    others less → L1 scores Game."""
    s = finish(pitched(), {L1: ["TH", "AD", "KC", "QC"], L2: ["TC", "JH"], L3: ["QD", "8S"], D: ["9D"]})
    pts = points_of(s)
    # L3 takes High and Low (the only trump, ♠8); L1 Game
    assert pts == [-2, 1, 0, 2]


def test_game_tie_gives_it_to_nobody():
    """auction-pitch.md, "Scoring": Game: a tie gives it to nobody (mikotan)."""
    s = finish(pitched(), {L1: ["TH", "AD"], L2: ["TC", "AC"], L3: ["8S"]})
    assert points_of(s) == [-2, 0, 0, 2]


@pytest.mark.parametrize("piles, expected", [
    # Contract 3, the pitcher takes High, Jack and Game → +3
    ({D: ["AS", "JS", "TH"], L1: ["2S"]}, [3, 1, 0, 0]),
    # takes High and Low only → −3; meanwhile L2, who took Jack and Game, scores +2
    ({D: ["AS", "2S"], L2: ["JS", "TH"]}, [-3, 0, 2, 0]),
])
def test_worked_example_contract_made_or_set_back(piles, expected):
    """auction-pitch.md, "Worked examples" and "Scoring": every non-pitcher scores what he won; the pitcher
    scores his points if they reach the contract, otherwise he is set back by the contract. Contract 3, the
    pitcher takes High, Jack and Game → +3; takes High and Low only → −3; L2 with Jack and Game → +2."""
    s = finish(pitched(("pass", "pass", "pass", "bid 3")), piles)
    assert points_of(s) == expected


def test_scores_may_go_below_zero():
    """auction-pitch.md, "Scoring": scores may go negative."""
    s = finish(pitched(("pass", "pass", "pass", "bid 3")), {L1: ["AS"]}, totals=[1, 0, 0, 0])
    assert s.c[G().counter["score"].index][D] == -2


def test_option_low_to_holder():
    """auction-pitch.md, "Scoring" and "Options": low_to: holder — Low to the player who held the lowest trump,
    not the one who took it."""
    def deal(**opts):
        g = G(**opts)
        s = arrange(g, {D: ["KS"], L1: ["AS"], L2: ["2S"], L3: ["5S"]}, 6)
        bid(s, "pass", "pass", "pass", "bid 2")
        play(s, "KS", "AS", "2S", "5S")     # L1 takes the trick with ♠2 in it
        random_deal(s, random.Random(0))
        return s
    taker = deal()
    holder = deal(low_to="holder")
    low_trick = next(t for t in tricks(taker) if any(c == "2S" for _, c in t["cards"]))
    assert low_trick["taker"] == L1
    gain = [h - t for h, t in zip(points_of(holder), points_of(taker))]
    assert gain == [0, -1, 1, 0]   # the same plays: Low moves from L1 (taker) to L2 (holder)


# ---- Match end -------------------------------------------------------------------------------------

def test_worked_example_pitcher_goes_out_first():
    """auction-pitch.md, "Match end" and "Worked examples": scores 6 (pitcher D) and 6 (L1), J♠ not dealt: D
    makes his contract 2 with High and Game while L1 takes Low → D 8, L1 7; D wins (the pitcher counts first)."""
    s = finish(pitched(), {D: ["AS", "TH"], L1: ["2S"]}, totals=[6, 6, 0, 0])
    assert s.terminal
    assert s.c[G().counter["score"].index][:2] == [8, 7]
    assert s.result["winner"] == [D] and s.result["ranking"][0] == D


def test_worked_example_set_back_pitcher_lets_the_other_win():
    """auction-pitch.md, "Worked examples": had D bid 3, he would be set back to 3 and L1 would win with 7."""
    s = finish(pitched(("pass", "pass", "pass", "bid 3")), {D: ["AS", "TH"], L1: ["2S"]}, totals=[6, 6, 0, 0])
    assert s.terminal and s.c[G().counter["score"].index][:2] == [3, 7]
    assert s.result["winner"] == [L1]


def test_several_others_reach_the_target_points_count_high_low_jack_game():
    """auction-pitch.md, "Match end": otherwise the deal's points are counted in the order High, Low, Jack,
    Game and the first to reach 7 wins: L2 (6) takes Game, L3 (6) takes Low → L3 wins, though both reach 7
    and L2 has more."""
    s = finish(pitched(("pass", "pass", "pass", "bid 2")), {L1: ["AS"], L3: ["2S"], L2: ["TH", "JS"]},
               totals=[0, 0, 6, 6])
    assert s.terminal
    assert s.c[G().counter["score"].index][2:] == [8, 7]
    assert s.result["winner"] == [L3]


@pytest.mark.parametrize("target", [10, 11, 21])
def test_option_target(target):
    """auction-pitch.md, "Match end" and "Options": target 7 | 10 | 11 | 21."""
    # D (contract 2) takes ♠A, the only trump (High and Low), and Game: 3 points
    s = finish(pitched(target=target), {D: ["AS", "TH"]}, totals=[target - 4, 0, 0, 0])
    assert not s.terminal
    s = finish(pitched(target=target), {D: ["AS", "TH"]}, totals=[target - 3, 0, 0, 0])
    assert s.terminal and s.result["winner"] == [D]


# ---- Option: modern auction --------------------------------------------------------------------------

def test_modern_minimum_bid_two_and_dealer_may_equal_except_four():
    """auction-pitch.md, "Options", modern_auction: minimum bid 2; the dealer may take the contract by equalling
    the high bid, except a 4."""
    s = G(modern_auction=True).new_state(seed=1)
    assert sorted(s.legal_actions()) == ["bid 2", "bid 3", "bid 4", "pass"]
    bid(s, "bid 3", "pass", "pass")
    assert "bid 3" in s.legal_actions()          # the dealer equals the high bid
    s.apply("bid 3")
    assert events(s, "auction_end")[-1]["declarer"] == D
    s = bid(G(modern_auction=True).new_state(seed=1), "pass", "pass", "bid 4")
    assert s.current_step().kind == "tricks"     # a 4 ends the auction: the dealer cannot equal it


def test_modern_dealer_must_bid_two_when_all_others_pass():
    """auction-pitch.md, "Options", modern_auction: if all pass the dealer must bid 2."""
    s = bid(G(modern_auction=True).new_state(seed=1), "pass", "pass", "pass")
    assert s.to_act == D and "pass" not in s.legal_actions() and "bid 2" in s.legal_actions()


def test_modern_made_four_wins_at_once_unless_below_zero():
    """auction-pitch.md, "Options", modern_auction: a made 4 wins the game at once unless the pitcher's score
    was below zero."""
    four = {L1: ["AS", "2S", "JS", "TH"]}
    s = finish(pitched(("bid 4",), modern_auction=True), four, totals=[0, 0, 0, 0])
    assert s.terminal and s.result["winner"] == [L1]
    s = finish(pitched(("bid 4",), modern_auction=True), four, totals=[0, -1, 0, 0])
    assert not s.terminal
    s = finish(pitched(("bid 4",)), four, totals=[0, 0, 0, 0])   # the ordinary game: no such rule
    assert not s.terminal


# ---- Properties over random matches --------------------------------------------------------------------

def _oracle(t_events, pitcher, contract, n, low_to="taker"):
    """Points of one deal from its trick log, written from the digest (auction-pitch.md, "Scoring")."""
    trump = t_events[0]["cards"][0][1][1]
    taken = {}
    played_by = {}
    for t in t_events:
        for seat, c in t["cards"]:
            taken[c] = t["taker"]
            played_by[c] = seat
    trumps = sorted((c for c in taken if c[1] == trump), key=lambda c: RANKS.index(c[0]))
    pts = [0] * n
    pts[taken[trumps[-1]]] += 1                                              # High
    pts[taken[trumps[0]] if low_to == "taker" else played_by[trumps[0]]] += 1  # Low
    if "J" + trump in taken:
        pts[taken["J" + trump]] += 1                                          # Jack
    value = [0] * n
    for c, seat in taken.items():
        value[seat] += GAME.get(c[0], 0)
    best = max(value)
    if value.count(best) == 1:
        pts[value.index(best)] += 1                                           # Game
    awarded = sum(pts)
    if pts[pitcher] < contract:
        pts[pitcher] = -contract
    return pts, awarded, "J" + trump in taken


@pytest.mark.parametrize("players, opts", [(2, {}), (4, {}), (5, {"low_to": "holder"}), (7, {}),
                                           (4, {"modern_auction": True})])
def test_random_matches_award_each_point_once_and_conserve_cards(players, opts):
    """auction-pitch.md, "Scoring" (High, Low, Jack, Game: each awarded once per deal — Jack only when dealt,
    Game not on a tie — the pitcher set back when short) and "Match end" (someone reached the target; the
    winner is the pitcher who made it, else the first to reach it counting High, Low, Jack, Game), checked
    by a plain oracle over whole random matches; every card is somewhere at every step."""
    g = G(players, **opts)
    s = g.new_state(seed=players)
    rng = random.Random(players)
    full = Counter(g.deck.code[f] for f in g.deck.cards)
    seen_tricks = 0
    deals = 0
    while not s.terminal:
        d = s.view(None)["deal"]
        while not s.terminal and s.view(None)["deal"] == d:
            v = s.view(None)
            here = Counter()
            for seat in range(players):
                here.update(s.view(seat)["zones"]["hand"][str(seat)])
                here.update(v["zones"]["won"][str(seat)])
            here.update(c for _, c in v["trick"])
            assert sum(here.values()) + v["zones"]["stock"]["count"] == 52 and not here - full
            s.apply(rng.choice(s.legal_actions()))
        ts = tricks(s)[seen_tricks:]
        seen_tricks = len(tricks(s))
        ends = [e for e in events(s, "auction_end")]
        if not ts:   # thrown in
            assert events(s, "all_pass")
            continue
        deals += 1
        pitcher, contract = ends[-1]["declarer"], int(ends[-1]["bid"])
        want, awarded, jack = _oracle(ts, pitcher, contract, players, opts.get("low_to", "taker"))
        assert points_of(s, d) == want
        assert 2 <= awarded <= 4 and awarded >= 2 + jack
    totals = s.c[g.counter["score"].index]
    target = 7
    w = s.result["winner"]
    assert len(w) == 1 and (totals[w[0]] >= target or opts.get("modern_auction"))
    assert deals >= 1
