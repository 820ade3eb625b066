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


def _deal(game, hands):
    """A first deal fixing some cards: ``hands`` {seat: [codes]}; the rest dealt in order."""
    deck = game.deck
    used = [c for cards in hands.values() for c in cards]
    rest = [deck.code[f] for f in deck.cards if deck.code[f] not in used and deck.code[f] not in ("2C", "2D", "2H")]
    full = {p: list(hands.get(p, [])) for p in range(5)}
    for p in range(5):
        while len(full[p]) < 10:
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
