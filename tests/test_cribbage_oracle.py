"""rulesets/cribbage.yaml against an independent oracle (tests/_cribbage_oracle.py, a plain-Python reading of
docs/rules/cribbage.md): over at least 500 random deals of whole matches, at every decision of the play the
seat to act and its legal cards, after every card the scores (pegging, the go, 31), and after each deal the
show in order, his heels and the match's end the moment 121 is reached (cribbage.md, "Play", "Scoring",
"Match end").
"""
from __future__ import annotations

import random

import cardspec

from _cribbage_oracle import Deal, show

GAME = cardspec.load("cribbage")
SC = GAME.counter["score"].index
HAND = GAME.zone["hand"].index
CRIB = GAME.zone["crib"].index
STARTER = GAME.zone["starter"].index
CODE = GAME.deck.code


_GAMES = {}


def _codes(cards):
    return [CODE[c] for c in cards]


def _check_match(seed, target=121):
    if target not in _GAMES:
        _GAMES[target] = GAME if target == 121 else cardspec.load("cribbage", options={"target": target})
    g = _GAMES[target]
    s = g.new_state(seed=seed)
    rng = random.Random(seed)
    deals = 0
    while not s.terminal:
        dealer = s.v[0]
        scores = {0: s.c[SC][0], 1: s.c[SC][1]}
        for _ in range(2):                               # lay away: both at once
            s.apply(rng.choice(s.legal_actions()))
        deals += 1
        hands = {p: _codes(s.z[HAND][p]) for p in (0, 1)} if not s.terminal else None
        starter = CODE[s.z[STARTER][0]] if s.z[STARTER] else None
        if hands is None:        # his heels won the match before the play
            o = Deal({0: [], 1: []}, [], starter, dealer, scores, target)
            assert o.over and {0: s.c[SC][0], 1: s.c[SC][1]} == o.scores
            break
        o = Deal(hands, _codes(s.z[CRIB]), starter, dealer, scores, target)
        assert {0: s.c[SC][0], 1: s.c[SC][1]} == o.scores            # his heels
        while not o.over and not o.play_done():
            assert s.to_act == o.turn
            legal = sorted(a.split()[1] for a in s.legal_actions())
            assert legal == o.legal(), (legal, o.legal())
            card = rng.choice(legal)
            s.apply("play " + card)
            o.play(card)
            if not o.over and not o.play_done():
                assert {0: s.c[SC][0], 1: s.c[SC][1]} == o.scores, (o.events, s.c[SC])
        assert {0: s.c[SC][0], 1: s.c[SC][1]} == o.scores, (o.events, s.c[SC])
        assert s.terminal == o.over
        if s.terminal:
            assert s.result["winner"] == [max(o.scores, key=o.scores.get)]
    return deals


def test_500_random_deals_against_the_oracle():
    deals = 0
    seed = 0
    while deals < 500:
        deals += _check_match(seed)
        seed += 1
    assert deals >= 500


def test_once_around_to_61():
    """Option target 61 (cribbage.md, Options): the same rules, the game ends at 61."""
    for seed in range(20):
        _check_match(seed, target=61)


def test_show_examples_in_the_oracle_itself():
    """The oracle agrees with the digest's worked examples (it is checked, not only trusted)."""
    assert show(["5C", "5D", "5H", "JS"], "5S") == 29
    assert show(["4S", "4H", "5C", "6D"], "9S") == 14
    assert show(["7C", "7D", "7H", "8S"], "9C") == 21
    assert show(["JH", "4S", "5C", "6D"], "QH") == 10
    assert show(["JH", "4S", "5C", "6D"], "JC") == 11
    assert show(["2H", "4H", "8H", "QH"], "KC") == 4 and show(["2H", "4H", "8H", "QH"], "KH") == 5
    assert show(["2H", "4H", "8H", "QH"], "KC", crib=True) == 0
    assert show(["2H", "4H", "8H", "QH"], "KH", crib=True) == 5
    assert show(["2C", "4D", "TH", "QS"], "KD") == 0
