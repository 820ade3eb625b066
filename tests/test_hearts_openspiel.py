"""Differential test: cardspec's ``hearts`` ruleset against OpenSpiel's ``hearts`` (default parameters).

Source: ../shared/rules/black-lady.md, "Hearts" (written to match OpenSpiel's
hearts so that the two can be compared deal by deal). For 240 random deals
OpenSpiel draws the pass direction and the deal; cardspec is given the same
deal (``deal=`` override) and ``first_pass`` = that direction, ``deals=1``.
Both then take the same actions and we compare, at every step, whose turn it
is and the legal actions (OpenSpiel passes one card at a time: each of its
pass steps is checked against the cards cardspec lets that seat pass), every
trick winner, and the deal's points per seat.

OpenSpiel encoding (2.0.2, checked by benchmarks/handwritten_hearts.py and
tests/test_handwritten_hearts_baseline.py): card = rank * 4 + suit, suits
C D H S = 0..3, ranks 2..A = 0..12; chance: pass direction 0 none, 1 left,
2 across, 3 right (cards go to (seat + dir) % 4), then 52 deal actions (the
k-th card to seat k % 4); then the passes (seat 0's three cards, then 1, 2, 3);
then 52 plays. Points = 26 - returns (moon already applied).
"""
from __future__ import annotations

import functools
import random

import pytest

import cardspec

pyspiel = pytest.importorskip("pyspiel")

DEALS = 240
DIRECTIONS = {0: "none", 1: "left", 2: "across", 3: "right"}
RANKS = "23456789TJQKA"
SUITS = "CDHS"


def code(card: int) -> str:
    return RANKS[card // 4] + SUITS[card % 4]


def os_card(text: str) -> int:
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


@functools.lru_cache(maxsize=None)
def cs_game(direction: str):
    return cardspec.load("hearts", players=4, options={"deals": 1, "first_pass": direction})


def plain_winner(cards):
    """Highest card of the led suit (OpenSpiel ids, lead first): index into ``cards``."""
    led = cards[0] % 4
    return max((i for i, c in enumerate(cards) if c % 4 == led), key=lambda i: cards[i])


def pass_cards_offered(state):
    """Cards the seat to act may pass now, and how many per action (cardspec's pass text forms)."""
    legal = state.legal_actions()
    assert legal and all(a.startswith("pass ") for a in legal), legal
    per = {len(a.split()) - 1 for a in legal}
    assert len(per) == 1
    return {c for a in legal for c in a.split()[1:]}, per.pop(), set(legal)


def run_deal(game, index):
    rng = random.Random(index)
    greedy = index % 3 == 0   # seat 0 grabs tricks, the others duck: moons happen
    os_state = game.new_initial_state()
    direction = index % 4 if index < 8 else rng.randrange(4)
    assert os_state.is_chance_node()
    os_state.apply_action(direction)
    order = list(range(52))
    rng.shuffle(order)
    hands = {s: [] for s in range(4)}
    for k, c in enumerate(order):
        assert os_state.is_chance_node()
        os_state.apply_action(c)
        hands[k % 4].append(c)
    cg = cs_game(DIRECTIONS[direction])
    deck = cg.deck
    hz = cg.zone["hand"].index
    cs = cg.new_state(seed=index, dealer=0,
                      deal={(hz, s): [deck.face(code(c)) for c in hands[s]] for s in range(4)})

    def choose(seat, legal):
        if greedy:
            return max(legal) if seat == 0 else min(legal)
        return rng.choice(legal)

    # Passing: OpenSpiel asks seat 0 for three cards, then 1, 2, 3.
    passed = {s: [] for s in range(4)}
    if direction:
        for s in range(4):
            for _ in range(3):
                assert os_state.current_player() == s
                legal = sorted(os_state.legal_actions())
                assert legal == sorted(set(hands[s]) - set(passed[s]))
                c = choose(s, legal)
                passed[s].append(c)
                os_state.apply_action(c)
        # cardspec asks every seat from the dealer's left (simultaneous, hidden until all have chosen).
        left = {s: list(passed[s]) for s in range(4)}
        while cs.legal_actions() and cs.legal_actions()[0].startswith("pass "):
            seat = cs.to_act
            offered, per, legal = pass_cards_offered(cs)
            remaining = {code(c) for c in hands[seat]} - {code(c) for c in passed[seat] if c not in left[seat]}
            assert offered == remaining, (seat, offered ^ remaining)
            take, left[seat] = left[seat][:per], left[seat][per:]
            text = cs.parse_action("pass " + " ".join(code(c) for c in take))
            assert text in legal
            cs.apply(text, seat=seat)
        assert not any(left.values())
    # Play: 13 tricks, the 2C holder leads.
    points = [0] * 4
    tricks = 0
    trick = []
    for _ in range(52):
        seat = os_state.current_player()
        assert cs.to_act == seat
        os_legal = sorted(os_state.legal_actions())
        cs_legal = sorted(os_card(a) for a in cs.legal_actions())
        assert cs_legal == os_legal, (index, tricks, seat, [code(c) for c in cs_legal], [code(c) for c in os_legal])
        c = choose(seat, os_legal)
        os_state.apply_action(c)
        cs.apply(code(c), seat=seat)
        trick.append((seat, c))
        if len(trick) == 4:
            ev = [e for e in cs.log_all() if e["type"] == "trick"][-1]
            assert ev["cards"] == [[s, code(x)] for s, x in trick]
            want = trick[plain_winner([x for _, x in trick])][0]
            if not os_state.is_terminal():
                assert os_state.current_player() == want
            assert ev["winner"] == want
            tricks += 1
            trick = []
    assert os_state.is_terminal() and cs.terminal and tricks == 13
    os_points = [26 - r for r in os_state.returns()]
    score = [e for e in cs.log_all() if e["type"] == "deal_score"][-1]
    cs_points = [score["points"][str(s)] for s in range(4)]
    assert cs_points == os_points, (index, cs_points, os_points)
    assert cs.scores() == {str(s): os_points[s] for s in range(4)}
    return direction, sum(os_points)


def test_openspiel_parameters_are_the_defaults_the_ruleset_matches():
    """black-lady.md, "Hearts": OpenSpiel's defaults (pass, no points on trick 1, hearts broken, QS breaks)."""
    params = pyspiel.load_game("hearts").get_parameters()
    assert params["pass_cards"] and params["no_pts_on_first_trick"] and params["must_break_hearts"]
    assert params["qs_breaks_hearts"]
    assert not (params["can_lead_any_club"] or params["can_lead_hearts_instead_of_qs"] or params["jd_bonus"]
                or params["avoid_all_tricks_bonus"])


def test_hearts_agrees_with_openspiel_deal_by_deal():
    """black-lady.md, "Hearts": same legal actions at every step, same trick winners, same points."""
    game = pyspiel.load_game("hearts")
    directions, totals = set(), []
    for i in range(DEALS):
        d, total = run_deal(game, i)
        directions.add(d)
        totals.append(total)
    assert directions == {0, 1, 2, 3}
    assert set(totals) <= {26, 78}
    assert 78 in totals, "no moon was shot: the moon rule was not compared"
