"""Goninkan (rulesets/goninkan.yaml) against ../shared/rules/goninkan.md: every worked example (seats
0–4, seat s+1 sits to the right of seat s, play goes to the right: 0 → 1 → 2 …), the rules of each
section, and random matches."""
import copy
import random

import pytest

import cardspec

from _team_games import card_count, play_random, to_play, trick_winner

NO_DRAW = {"draw_for_dealer": False}


@pytest.fixture(scope="module")
def game():
    return cardspec.load("goninkan", 5, NO_DRAW)


def _deal(game, hands, out=None):
    """A first deal fixing some cards: ``hands`` {seat: [codes]}; the rest dealt in order (``out``:
    the seat that sits out, dealt nothing)."""
    deck = game.deck
    used = [c for cards in hands.values() for c in cards]
    rest = [deck.code[f] for f in deck.cards if deck.code[f] not in used and deck.code[f] not in ("2C", "2D", "2H")]
    full = {p: list(hands.get(p, [])) for p in range(game.n)}
    for p in range(game.n):
        while len(full[p]) < 10 and p != out:
            full[p].append(rest.pop(0))
    z = {zn.name: zn.index for zn in game.zones}
    out = {(z["hand"], p): [deck.face(c) for c in cards] for p, cards in full.items()}
    out[(z["aside"], None)] = [deck.face(c) for c in ("2C", "2D", "2H")]
    return out


@pytest.fixture(scope="module")
def base(game):
    s = game.new_state(seed=1, deal=_deal(game, {0: ["AC"], 2: ["JK"]}))
    return to_play(s)


def test_deck_honours_and_deal():
    """goninkan.md, Cards and Deal: 50 cards (no 2♣ 2♦ 2♥, one joker), 16 honours A K Q J, 10 each."""
    g = cardspec.load("goninkan", 5)
    s = g.new_state(seed=1)
    v = s.view(None)
    assert all(v["zones"]["hand"][str(p)]["count"] == 10 for p in range(5))
    assert sorted(v["zones"]["aside"]) == ["2C", "2D", "2H"]
    assert sum(g.deck.points_of[f] for f in g.deck.cards) == 16


def test_first_dealer_is_the_lowest_draw():
    """goninkan.md, Cards: the lowest card deals (A high, 2 low; ties ♣ > ♦ > ♥ > ♠, the lower suit
    deals; the joker highest)."""
    g = cardspec.load("goninkan", 5)
    rank = {r: i for i, r in enumerate("23456789TJQKA", 2)}
    suit = {"S": 0, "H": 1, "D": 2, "C": 3}
    for seed in range(8):
        s = g.new_state(seed=seed)
        draws = {e["seat"]: e["cards"][0] for e in s.log_all() if e["type"] == "reveal"}
        key = {p: 1000 if c == "JK" else rank[c[0]] * 4 + suit[c[1]] for p, c in draws.items()}
        assert s.view(None)["dealer"] == min(key, key=key.get)


@pytest.mark.parametrize("plays,winner,number,hands,choices", [
    (["KD", "AD", "3C", "5D", "QD"], 2, 2, None, None),                         # ♣3 (trump)
    (["7H", "AH", "JK", "KC", "3H"], 2, 4, {2: ["4H"]}, None),                   # joker, its holder had hearts
    (["JK", "4S", "KS", "9C", "AS"], 0, 3, {p: [c] for p, c in enumerate(["5H", "6H", "7H", "8H", "9H"])},
     {"JK": "name spades"}),                                                      # joker led naming ♠
    (["9D", "JK", "TD", "AH", "3D"], 2, 10, None, None),                         # trick 10: joker cannot win
])
def test_trick_worked_examples(game, base, plays, winner, number, hands, choices):
    """goninkan.md, Worked examples (trumps ♣)."""
    assert trick_winner(game, base, plays, leader=0, trick_number=number, trump="C", hands=hands,
                        choices=choices) == winner


def test_joker_led_to_trick_10_the_second_card_counts_as_led(game, base):
    """goninkan.md, Play: a joker led at trick 10 cannot win; the second card played counts as led."""
    assert trick_winner(game, base, ["JK", "5H", "KH", "3S", "AD"], leader=0, trick_number=10, trump="C") == 2


def _trick_position(game, base, held, trick_number, trump):
    """A position of ``base`` (in its tricks step) at the start of trick ``trick_number``, trumps
    ``trump``, seat 0 to lead, each seat holding ``held[seat]`` (codes) and no other hidden card."""
    v = copy.deepcopy(base.view(None))
    for name, z in v["zones"].items():
        if isinstance(z, dict) and "count" in z:
            v["zones"][name] = {"count": 0}
        elif isinstance(z, dict):
            for k, e in z.items():
                if isinstance(e, dict):
                    z[k] = {"count": 0}
    for p in range(game.n):
        v["zones"]["hand"][str(p)] = {"count": len(held[p])}
    v["system"].update(trick_number=trick_number, leader=0, to_act=0, led_suit=-1, tricks_total=10,
                       trump=game.deck.suit_index(trump))
    v["trick"] = []
    return game.state_from_view(v, {("hand", p): cards for p, cards in held.items()})


def test_a_led_joker_names_the_suit_every_other_card_must_follow(game, base):
    """goninkan.md, Play: "A player who leads it names a suit, which the others must follow." The joker
    led to trick 3 naming clubs (trumps diamonds): the next seat holding clubs must play a club; a seat
    void in clubs plays any card, and that card does not make its suit the one to follow: the seat after
    it must still play a club (worked example "joker led naming ♠; ♠4, ♠K, ♣9 (void in spades), ♠A")."""
    held = {0: ["JK", "5S"], 1: ["4C", "6H"], 2: ["7H", "9S"], 3: ["8C", "9H"], 4: ["3C", "JS"]}
    s = _trick_position(game, base, held, 3, "D")
    s.events = []   # record this trick's events
    s.apply("JK")
    s.apply("name clubs")
    assert s.to_act == 1 and s.legal_actions() == ["4C"]
    s.apply("4C")
    assert sorted(s.legal_actions()) == ["7H", "9S"]      # void in clubs: any card
    s.apply("7H")
    assert s.legal_actions() == ["8C"]                    # clubs still, not the hearts played before
    s.apply("8C")
    assert s.legal_actions() == ["3C"]
    s.apply("3C")
    trick = [e for e in s.log_all() if e["type"] == "trick"][-1]
    assert trick["led_suit"] == "C" and trick["winner"] == 0


def test_joker_not_on_trick_one(game):
    """goninkan.md, Play: the joker may be played to any trick but the 1st (and the 10th)."""
    s = game.new_state(seed=3, deal=_deal(game, {0: ["AC"], 2: ["JK", "3H"]}))
    to_play(s)
    while s.view(None)["system"]["trick_number"] == 1:
        if s.to_act == 2:
            assert "JK" not in s.legal_actions()
        s.apply(s.legal_actions()[-1])


def test_kankei_pair_and_seat_change(game):
    """goninkan.md, Worked examples: seat 1 holds ♣A, seat 2 the joker: seat 2 swaps with seat 3;
    kankei now sit at seats 1 and 3 (players keep their new seats; play follows the seating)."""
    s = game.new_state(seed=1, deal=_deal(game, {1: ["AC"], 2: ["JK"]}))
    v = s.view(None)
    assert v["vars"]["kan_joker"] == 2 and v["vars"]["kan_ace"] == 1
    chair = v["counters"]["chair"]
    assert chair[2] == 3 and chair[3] == 2 and chair[1] == 1
    assert {"type": "seat_change", "seat": 2} in s.log_all()
    to_play(s)
    order = []
    for _ in range(5):
        order.append(s.to_act)
        s.apply(s.legal_actions()[0])
    k = order.index(1)
    assert [order[(k + i) % 5] for i in range(5)][:3] == [1, 3, 2]   # 1, then 3 (now to his right), then 2


def test_double_kan(game):
    """goninkan.md, Worked examples: seat 0 holds ♣A and the joker: seat 2 is his partner; seat 0
    passes ♣A to seat 2 and draws one random card from seat 2's hand."""
    s = game.new_state(seed=1, deal=_deal(game, {0: ["AC", "JK"]}))
    v = s.view(None)
    assert v["vars"]["kan_joker"] == 0 and v["vars"]["kan_ace"] == 2 and v["vars"]["double"] is True
    h0, h2 = s.view(0)["zones"]["hand"]["0"], s.view(2)["zones"]["hand"]["2"]
    assert "AC" in h2 and "AC" not in h0 and len(h0) == 10 and len(h2) == 10


def test_trump_schedule_and_rounds():
    """goninkan.md, Trumps (deal 1 of round r: ♣ ♦ ♥ … ♠ in round 10; deals 2–3 named) and Scoring
    (a round: the same dealer deals again while the pair wins, at most 3 deals; the next dealer is
    the player to the right); Match end: 10 rounds."""
    g = cardspec.load("goninkan", 5)
    for seed in range(3):
        rng = random.Random(seed)
        s = g.new_state(seed=seed)
        prev = None
        while not s.terminal:
            v = s.view(None)
            key = (v["deal"], v["system"]["round_number"], v["system"]["deal_in_round"], v["dealer"])
            if prev is not None and key[0] != prev[0]:
                chair = prev_chair
                won = v["vars"]["pair_won"]
                if won and prev[2] < 3:
                    assert key[1:] == (prev[1], prev[2] + 1, prev[3])
                else:
                    assert key[1] == prev[1] + 1 and key[2] == 1
                    assert chair[key[3]] == (chair[prev[3]] + 1) % 5
            if v["step"] == "play" and v["system"]["deal_in_round"] == 1:
                r = v["system"]["round_number"]
                assert v["trump"] == ("S" if r == 10 else "CDH"[(r - 1) % 3])
            prev, prev_chair = key, list(v["counters"]["chair"])
            s.apply(rng.choice(s.legal_actions()))
        assert s.result["reason"] == "all 10 rounds are played"


def _scored(game, base, kankei_h, mukankei_h, deal_in_round=1, kankei_wins=0):
    """Points of a deal whose last trick ends with these honours by side (kankei: seats 0 and 2)."""
    v = copy.deepcopy(base.view(None))
    v["system"].update(trick_number=10, tricks_total=10, leader=0, to_act=0, deal_in_round=deal_in_round)
    v["vars"].update(kan_joker=2, kan_ace=0, kankei_wins=kankei_wins, pair_won=True)
    honours = [f"{r}{s}" for s in "SHDC" for r in "AKQJ"]
    plain = [f"{r}{s}" for s in "SHDC" for r in "3456789T"]
    last = plain[:5]
    won = {p: [] for p in range(5)}
    for i in range(kankei_h):
        won[[0, 2][i % 2]].append(honours.pop())
    for i in range(mukankei_h):
        won[[1, 3, 4][i % 3]].append(honours.pop())
    for p in range(5):
        v["zones"]["won"][str(p)] = won[p]
        v["zones"]["hand"][str(p)] = {"count": 1}
    v["trick"] = []
    s = game.state_from_view(v, {("hand", p): [last[p]] for p in range(5)})
    before = s.game_scores()
    for _ in range(5):
        s.apply(s.legal_actions()[0])
    return {p: s.game_scores()[p] - before[p] for p in range(5)}


def test_scoring_worked_examples(game, base):
    """goninkan.md, Worked examples: deal 1, kankei 9 honours, mukankei 4 → kankei +1 each, mukankei
    −1 each; deal 2, mukankei reach 9 first → mukankei +1, kankei −1 (round total 0). Kankei win
    deals 1–3, deal 2 by sukonku → each kankei 1 + 2 + 1 + 1 = +5, each mukankei −1 − 2 − 1 = −4."""
    d1 = _scored(game, base, 9, 4)
    assert d1 == {0: 1, 2: 1, 1: -1, 3: -1, 4: -1}
    d2 = _scored(game, base, 5, 9, deal_in_round=2, kankei_wins=1)
    assert d2 == {0: -1, 2: -1, 1: 1, 3: 1, 4: 1}
    assert all(d1[p] + d2[p] == 0 for p in range(5))
    sweep = [_scored(game, base, 9, 3), _scored(game, base, 8, 0, 2, 1), _scored(game, base, 9, 2, 3, 2)]
    assert [sum(d[p] for d in sweep) for p in range(5)] == [5, -4, 5, -4, -4]


def test_early_end_stops_the_deal(game):
    """goninkan.md, Scoring and Options early_end: the deal ends as soon as either side reaches its
    target (off: all 10 tricks are played)."""
    for g, early in [(game, True), (cardspec.load("goninkan", 5, {"early_end": False, **NO_DRAW}), False)]:
        s = g.new_state(seed=7)
        rng = random.Random(1)
        while s.view(None)["deal"] == 1:
            s.apply(rng.choice(s.legal_actions()))
        tricks = [e for e in s.log_all() if e["type"] == "trick"]
        assert (len(tricks) < 10) == early or (early and len(tricks) == 10)


def test_random_matches_conserve_cards_and_end():
    g = cardspec.load("goninkan", 5)
    for seed in range(3):
        play_random(g, seed, check=lambda st: card_count(st) == 53 or pytest.fail("cards"))


@pytest.mark.parametrize("bot", ["random", "policy:basic", "ismcts:20"])
def test_bots_play_a_round(bot):
    from cardspec.players import make_bot, take_turn
    g = cardspec.load("goninkan", 5, {"rounds": 1})
    s = g.new_state(seed=2)
    bots = [make_bot(bot, seed=i, game=g) for i in range(5)]
    while not s.terminal:
        take_turn(s, bots[s.to_act])


# ---- Options: players 6 (the dealer does not play and scores with the kankei) ---------------------

@pytest.fixture(scope="module")
def game6():
    return cardspec.load("goninkan", 6, NO_DRAW)


def test_six_players_the_dealer_sits_out_and_is_dealt_nothing(game6):
    """goninkan.md, Options "players: 5 | 6 (the dealer does not play ...)"; gocci.or.jp: "the dealer
    deals to the other 5 people from the left, one each in turn, 10 each". With seat 0 dealing: seats
    1-5 hold 10 cards each, seat 0 none, and seat 0 never acts in the deal."""
    s = game6.new_state(seed=2)
    v = s.view(None)
    assert v["system"]["sits_out"] == 0 == v["dealer"]
    assert [v["zones"]["hand"][str(p)]["count"] for p in range(6)] == [0, 10, 10, 10, 10, 10]
    rng = random.Random(2)
    while s.view(None)["deal"] == 1:
        assert s.to_act != 0
        s.apply(rng.choice(s.legal_actions()))
    tricks = [e for e in s.log_all() if e["type"] == "trick"]
    assert tricks and all(len(t["cards"]) == 5 and 0 not in [p for p, _ in t["cards"]] for t in tricks)


def test_six_players_seat_change_counts_only_the_players(game6):
    """goninkan.md, Partners: side by side, the right-hand one swaps seats with the player on his right;
    gocci.or.jp: "one or two people of the other group between the kankei, other than the dealer". Seat
    5 holds ♣A, seat 1 the joker, seat 0 deals: 5 and 1 sit side by side among the players (the dealer
    between them does not count), so seat 1 swaps with seat 2; the dealer keeps his chair."""
    s = game6.new_state(seed=1, deal=_deal(game6, {5: ["AC"], 1: ["JK"]}, out=0))
    v = s.view(None)
    assert v["vars"]["kan_ace"] == 5 and v["vars"]["kan_joker"] == 1
    chair = v["counters"]["chair"]
    assert chair[0] == 0 and chair[1] == 2 and chair[2] == 1 and chair[5] == 5
    assert {"type": "seat_change", "seat": 1} in s.log_all()


def test_six_players_double_kan_partner_two_players_to_the_right(game6):
    """goninkan.md, Partners (double kan: his partner is the player two seats to his right) with six:
    seat 4 holds ♣A and the joker, seat 0 deals and does not play: the two players to his right are
    seat 5 and then seat 1, his partner."""
    s = game6.new_state(seed=1, deal=_deal(game6, {4: ["AC", "JK"]}, out=0))
    v = s.view(None)
    assert v["vars"]["kan_joker"] == 4 and v["vars"]["kan_ace"] == 1 and v["vars"]["double"] is True
    assert "AC" in s.view(1)["zones"]["hand"]["1"]


def _deal_results(s):
    """[(points by seat, the seat that sat out)] of each scored deal in the log of ``s``."""
    out, rows = -1, []
    for e in s.log_all():
        if e["type"] == "deal_start":
            out = -1
        elif e["type"] == "sits_out":
            out = e["seat"]
        elif e["type"] == "deal_score":
            rows.append(({int(k): x for k, x in e["points"].items()}, out))
    return rows


@pytest.mark.parametrize("seed", range(3))
def test_six_players_random_matches(seed):
    """Property over random six-player matches (goninkan.md Options players 6): every card in one place
    at every step; the dealer holds no card and never acts; the same dealer sits out a whole round
    (Scoring: "the same dealer deals again") and the next round's dealer is the player to his right;
    the dealer scores exactly what each kankei player scores (gocci: "the dealer will get the score of
    the related group"), every mukankei the opposite, so a deal without the 三タテ bonus sums to zero
    (3 against 3); the match ends after 10 rounds."""
    g = cardspec.load("goninkan", 6)
    hand = g.zone["hand"].index
    rounds = {}

    def check(st):
        assert card_count(st) == 53
        v = st.view(None)
        out = v["system"]["sits_out"]
        if out >= 0:
            assert out == v["dealer"] and st.to_act != out and not st.z[hand][out]
            rounds.setdefault(v["system"]["round_number"], set()).add((out, tuple(v["counters"]["chair"])))

    s = play_random(g, seed, check=check)
    assert s.result["reason"] == "all 10 rounds are played"
    for r, seen in rounds.items():
        assert len({o for o, _ in seen}) == 1            # one dealer sits out the whole round
        if r + 1 in rounds:
            (o1, chair), (o2, _) = sorted(seen)[0], sorted(rounds[r + 1])[0]
            assert chair[o2] == (chair[o1] + 1) % 6       # the next dealer: the player to the right
    for points, out in _deal_results(s):
        pair = [p for p in range(6) if points[p] == points[out]]
        assert len(pair) == 3 and out in pair
        others = [p for p in range(6) if p not in pair]
        base = points[others[0]]
        assert all(points[p] == base for p in others) and base != 0
        assert points[out] in (-base, -base + 1)          # +1: the 三タテ bonus
        if points[out] == -base:
            assert sum(points.values()) == 0


@pytest.mark.parametrize("bot", ["random", "policy:basic", "ismcts:20"])
def test_six_players_bots_play_a_round(bot):
    """The bots play the six-player game: none is ever asked to act for the dealer who sits out."""
    from cardspec.players import make_bot, take_turn
    g = cardspec.load("goninkan", 6, {"rounds": 1})
    s = g.new_state(seed=4)
    bots = [make_bot(bot, seed=i, game=g) for i in range(6)]
    while not s.terminal:
        assert s.to_act != s.view(None)["system"]["sits_out"]
        take_turn(s, bots[s.to_act])


# ---- Options: juroku (16) ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def game16():
    return cardspec.load("goninkan", 5, {"juroku": True, **NO_DRAW})


@pytest.fixture(scope="module")
def base16(game16):
    s = game16.new_state(seed=1, deal=_deal(game16, {0: ["AC"], 2: ["JK"]}))
    return to_play(s)


def _last_two_tricks(game, base, won, trick9, trick10, leader, deal_in_round=2):
    """A position before trick 9 of 10 (trumps ♣; kankei seats 0 and 2, the pair having won deal 1):
    ``won`` {seat: honours already taken}, ``trick9``/``trick10`` the cards each seat will play, in play
    order from ``leader``. Returns the state."""
    v = copy.deepcopy(base.view(None))
    v["system"].update(trick_number=9, tricks_total=10, leader=leader, to_act=leader, deal_in_round=deal_in_round,
                       trump=game.deck.suit_index("C"))
    v["vars"].update(kan_joker=2, kan_ace=0, kankei_wins=deal_in_round - 1, pair_won=True)
    for p in range(5):
        v["zones"]["won"][str(p)] = list(won.get(p, []))
    v["trick"] = []
    order = [(leader + i) % 5 for i in range(5)]
    held = {p: [trick9[i], trick10[i]] for i, p in enumerate(order)}
    for p in range(5):
        v["zones"]["hand"][str(p)] = {"count": 2}
    return game.state_from_view(v, {("hand", p): cards for p, cards in held.items()})


def _play_out(s, cards, declare=None):
    """Play ``cards`` (codes, in turn); at the 16 decision apply ``declare`` (juroku/decline).
    Returns the seats asked to declare."""
    asked = []
    for c in cards:
        while c not in s.legal_actions():
            asked.append(s.to_act)
            assert sorted(s.legal_actions()) == ["decline", "juroku"]
            s.apply(declare)
        s.apply(c)
    return asked


KANKEI_WON = {0: ["KD", "QD", "JD", "AC"], 2: ["KC", "QC", "JC"]}       # 7 honours, mukankei none


@pytest.mark.parametrize("trick10,declare,points", [
    (["AH", "KH", "QH", "JH", "AD"], "juroku", {0: 5, 2: 5, 1: -5, 3: -5, 4: -5}),     # all 16: made
    (["KH", "AH", "QH", "JH", "AD"], "juroku", {0: -7, 2: -7, 1: 7, 3: 7, 4: 7}),      # seat 1 takes AH: failed
    (["AH", "KH", "QH", "JH", "AD"], "decline", {0: 2, 2: 2, 1: -2, 3: -2, 4: -2}),    # no 16: the sukonku
])
def test_juroku_declared_by_the_kankei(game16, base16, trick10, declare, points):
    """goninkan.md Options juroku: "in deals 2–3, after a sukonku, the trick winner may declare 16 (all
    honours): +5 made, −7 failed for the declaring side" (1533medalgame: "one honour missed: −7").
    Deal 2 (kankei target 8): the kankei hold 7 honours, the mukankei none; seat 0 wins trick 9 with
    ♠A K Q J (11 honours, a sukonku): seat 0 is asked; declaring, the play goes on to trick 10;
    declining, the deal ends there (early_end) and scores the sukonku ±2."""
    s = _last_two_tricks(game16, base16, KANKEI_WON, ["AS", "KS", "QS", "JS", "4S"], trick10, leader=0)
    before = s.game_scores()
    asked = _play_out(s, ["AS", "KS", "QS", "JS", "4S"] + (trick10 if declare == "juroku" else []), declare)
    if declare == "decline":
        assert s.to_act == 0 and sorted(s.legal_actions()) == ["decline", "juroku"]
        s.apply("decline")
        asked = [0]
    assert asked == [0]
    after = s.game_scores()
    assert {p: after[p] - before[p] for p in range(5)} == points
    assert s.view(None)["system"]["round_number"] == (1 if points[0] > 0 else 2)   # a failed 16 loses the deal


@pytest.mark.parametrize("trick10,points", [
    (["AH", "AD", "KH", "QH", "JH"], {1: 10, 3: 10, 4: 10, 0: -10, 2: -10}),    # all 16 to the mukankei
    (["KH", "AH", "AD", "QH", "JH"], {1: -13, 3: -13, 4: -13, 0: 13, 2: 13}),   # seat 2 takes AH: failed
])
def test_juroku_reverse_sixteen_by_the_mukankei(game16, base16, trick10, points):
    """goninkan.md Options juroku: "reverse 16 for mukankei +10/−13". Deal 2 (mukankei target 9): the
    mukankei hold 7 honours, the kankei none; seat 1 wins trick 9 with ♠A and three more honours (a
    reverse sukonku) and declares; the other side scores the opposite (settled here)."""
    won = {1: ["KD", "QD", "JD", "AC"], 3: ["KC", "QC"], 4: ["JC"]}
    s = _last_two_tricks(game16, base16, won, ["AS", "4S", "KS", "QS", "JS"], trick10, leader=1)
    before = s.game_scores()
    assert _play_out(s, ["AS", "4S", "KS", "QS", "JS"] + trick10, "juroku") == [1]
    after = s.game_scores()
    assert {p: after[p] - before[p] for p in range(5)} == points


def test_juroku_only_in_deals_2_and_3_and_only_with_the_option(game16, base16, game, base):
    """goninkan.md Options juroku: "in deals 2–3" — a sukonku in deal 1 ends the deal with no
    declaration; with the option off (the default) nobody is ever asked."""
    plays = ["AS", "KS", "QS", "JS", "4S", "AH", "KH", "QH", "JH", "AD"]
    won = {0: ["KD", "QD", "JD", "AC", "KC"], 2: ["QC", "JC"]}    # deal 1: target 9
    s = _last_two_tricks(game16, base16, won, plays[:5], plays[5:], leader=0, deal_in_round=1)
    for c in plays[:5]:
        s.apply(c)
    assert "juroku" not in s.legal_actions() and s.view(None)["deal"] == 2
    s = _last_two_tricks(game, base, KANKEI_WON, plays[:5], plays[5:], leader=0)
    for c in plays[:5]:
        s.apply(c)
    assert "juroku" not in s.legal_actions() and s.view(None)["deal"] == 2


def test_juroku_with_early_end_off_the_play_goes_on_either_way(base16):
    """goninkan.md Options juroku with early_end off (play all 10 tricks): the declaration is offered
    at the sukonku all the same, and declining, the deal is still played out (trick 10 here) and
    scored as usual; random matches at five and six players keep every card, and end."""
    g = cardspec.load("goninkan", 5, {"juroku": True, "early_end": False, **NO_DRAW})
    s = _last_two_tricks(g, base16, KANKEI_WON, ["AS", "KS", "QS", "JS", "4S"], ["AH", "KH", "QH", "JH", "AD"],
                         leader=0)
    before = s.game_scores()
    assert _play_out(s, ["AS", "KS", "QS", "JS", "4S", "AH", "KH", "QH", "JH", "AD"], "decline") == [0]
    after = s.game_scores()
    assert {p: after[p] - before[p] for p in range(5)} == {0: 2, 2: 2, 1: -2, 3: -2, 4: -2}   # sukonku
    for players, seeds in ((5, 3), (6, 2)):
        g = cardspec.load("goninkan", players, {"juroku": True, "early_end": False})
        for seed in range(seeds):
            s = play_random(g, seed, check=lambda st: card_count(st) == 53 or pytest.fail("cards"))
            assert s.result["reason"] == "all 10 rounds are played"


@pytest.mark.parametrize("players,options", [(5, {}), (6, {}), (5, {"juroku": True, "early_end": False})])
def test_side_honours_are_the_sums_over_each_sides_seats(players, options):
    """The ruleset sums the pair's honours as two piles (honours(kan_joker) + honours(kan_ace)) and the
    mukankei's over the seats where not kankei(p) (one pass over their piles chained): the same as
    summing honours(p) over the seats where kankei(p) / not kankei(p) (goninkan.md, Scoring: "the
    side's captured honours"), at every decision
    of random matches — the two kankei are never one seat, a double kan included."""
    g = cardspec.load("goninkan", players, options)
    kh, mh = g.ns["_d_kankei_honours"], g.ns["_d_mukankei_honours"]
    won, pts = g.zone["won"].index, g.ns["POINTS"]
    for seed in range(2):
        s, rng = g.new_state(seed=seed), random.Random(seed)
        for _ in range(1500):
            if s.terminal:
                break
            v = s.view(None)["vars"]
            pair = {v["kan_joker"], v["kan_ace"]} - {-1, None}
            assert v["kan_joker"] != v["kan_ace"] or v["kan_joker"] in (-1, None)
            honours = [sum(pts[c] for c in s.z[won][p]) for p in range(players)]
            assert kh(s) == sum(honours[p] for p in range(players) if p in pair)
            assert mh(s) == sum(honours[p] for p in range(players) if p not in pair)
            s.apply(rng.choice(s.legal_actions()))
