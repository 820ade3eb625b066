"""Checks of the hand-written Hearts speed baseline (benchmarks/handwritten_hearts.py).

Each random deal is replayed against an independent rule checker written
here from the rules text (not from the engine's helpers).  When OpenSpiel is
installed, deals are also replayed through its ``hearts`` and the legal
action sets and final points compared move by move.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.handwritten_hearts import (  # noqa: E402
    QUEEN_SPADES,
    TWO_CLUBS,
    legal_plays,
    score_deal,
    play_random_game,
    play_random_game_logged,
)

N_GAMES = 400
SEED = 20240601


def suit(c: int) -> int:
    return c % 4


def is_heart(c: int) -> bool:
    return c % 4 == 2


def penalty(c: int) -> int:
    return 13 if c == QUEEN_SPADES else (1 if is_heart(c) else 0)


@pytest.fixture(scope="module")
def logs():
    rng = random.Random(SEED)
    return [play_random_game_logged(rng) for _ in range(N_GAMES)]


def hands_after_pass(log):
    hands = [set(log.dealt(s)) for s in range(4)]
    if log.direction:
        for s in range(4):
            assert len(log.passed[s]) == 3
            assert len(set(log.passed[s])) == 3
            assert set(log.passed[s]) <= set(log.dealt(s))
        for s in range(4):
            hands[s] -= set(log.passed[s])
        for s in range(4):
            hands[(s + log.direction) % 4] |= set(log.passed[s])
    else:
        assert log.passed is None
    return hands


def replay(log):
    """Replay a deal, asserting every rule; return raw points taken."""
    hands = hands_after_pass(log)
    assert all(len(h) == 13 for h in hands)
    assert len(log.tricks) == 13
    broken = False
    taken = [0, 0, 0, 0]
    hearts_taken = [0, 0, 0, 0]
    qs_taker = None
    expected_leader = next(s for s in range(4) if TWO_CLUBS in hands[s])
    for t, (leader, cards) in enumerate(log.tricks):
        assert leader == expected_leader
        assert len(cards) == 4
        for i, c in enumerate(cards):
            seat = (leader + i) % 4
            hand = hands[seat]
            assert c in hand, "card not in the player's hand"
            if i == 0:
                if t == 0:
                    assert c == TWO_CLUBS
                elif is_heart(c) and not broken:
                    # hearts led before broken only from an all-hearts hand
                    assert all(is_heart(x) for x in hand)
            else:
                led = suit(cards[0])
                if any(suit(x) == led for x in hand):
                    assert suit(c) == led, "must follow suit"
                elif t == 0 and (is_heart(c) or c == QUEEN_SPADES):
                    # no points on the first trick unless nothing else
                    assert all(is_heart(x) or x == QUEEN_SPADES for x in hand)
            hand.remove(c)
            if is_heart(c) or c == QUEEN_SPADES:
                broken = True
        led = suit(cards[0])
        win_i = max((i for i in range(4) if suit(cards[i]) == led),
                    key=lambda i: cards[i] // 4)
        winner = (leader + win_i) % 4
        taken[winner] += sum(penalty(c) for c in cards)
        hearts_taken[winner] += sum(1 for c in cards if is_heart(c))
        if QUEEN_SPADES in cards:
            qs_taker = winner
        expected_leader = winner
    assert all(not h for h in hands)
    return taken, hearts_taken, qs_taker


def test_points_and_moon(logs):
    moons = 0
    for log in logs:
        taken, hearts_taken, qs_taker = replay(log)
        assert sum(taken) == 26
        shooter = next((s for s in range(4)
                        if hearts_taken[s] == 13 and qs_taker == s), None)
        if shooter is None:
            assert log.points == taken
            assert sum(log.points) == 26
        else:
            moons += 1
            assert log.points == [0 if s == shooter else 26 for s in range(4)]
            assert sum(log.points) == 78
    assert 0 < moons < len(logs), "seed should give some moon shots"


def test_score_deal():
    assert score_deal([0, 26, 0, 0]) == [26, 0, 26, 26]
    assert score_deal([13, 5, 8, 0]) == [13, 5, 8, 0]


def test_card_conservation(logs):
    for log in logs:
        assert sorted(log.deck) == list(range(52))
        played = [c for _, cards in log.tricks for c in cards]
        assert sorted(played) == list(range(52))
        hands = hands_after_pass(log)
        assert sorted(c for h in hands for c in h) == list(range(52))


def test_pass_directions_all_occur(logs):
    assert {log.direction for log in logs} == {0, 1, 2, 3}


def test_first_trick_rule(logs):
    """Trick 1: 2C led; a club-void player discards no heart/QS unless forced."""
    discards = 0
    for log in logs:
        hands = hands_after_pass(log)
        leader, cards = log.tricks[0]
        assert cards[0] == TWO_CLUBS
        forced = False
        for i, c in enumerate(cards[1:], start=1):
            hand = hands[(leader + i) % 4]
            if suit(c) == 0:
                continue
            assert not any(suit(x) == 0 for x in hand)
            discards += 1
            if is_heart(c) or c == QUEEN_SPADES:
                assert all(is_heart(x) or x == QUEEN_SPADES for x in hand)
                forced = True
        assert sum(penalty(c) for c in cards) == 0 or forced
    assert discards > 0, "no club-void discard seen: rule not exercised"


def test_hearts_broken_rule(logs):
    """No heart is led before a heart or the QS has been played, unless forced."""
    forced = heart_leads = 0
    for log in logs:
        hands = hands_after_pass(log)
        broken = False
        for t, (leader, cards) in enumerate(log.tricks):
            if is_heart(cards[0]) and not broken:
                assert all(is_heart(x) for x in hands[leader])
                forced += 1
            if t and is_heart(cards[0]):
                heart_leads += 1
            for i, c in enumerate(cards):
                hands[(leader + i) % 4].remove(c)
                if is_heart(c) or c == QUEEN_SPADES:
                    broken = True
    # heart leads happen (after breaking, or forced); the check had work to do
    assert heart_leads > forced


def test_legal_plays_helper():
    # first trick, void in clubs, holds hearts, QS and a diamond: diamond only
    hand = [QUEEN_SPADES, 2, 6, 1]
    assert legal_plays(hand, [TWO_CLUBS], True, False) == [1]
    # same, but only hearts and QS: anything
    hand = [QUEEN_SPADES, 2, 6]
    assert sorted(legal_plays(hand, [TWO_CLUBS], True, False)) == sorted(hand)
    # leading, hearts not broken: no hearts
    hand = [2, 6, 1, QUEEN_SPADES]
    assert sorted(legal_plays(hand, [], False, False)) == [1, QUEEN_SPADES]
    # leading with only hearts: hearts allowed
    assert sorted(legal_plays([2, 6], [], False, False)) == [2, 6]
    # leading, hearts broken: anything
    assert sorted(legal_plays(hand, [], False, True)) == sorted(hand)
    # following: must follow suit
    assert legal_plays([5, 9, 4], [1], False, False) == [5, 9]


def test_play_random_game_matches_logged():
    a = [play_random_game(random.Random(s)) for s in range(50)]
    b = [play_random_game_logged(random.Random(s)).points for s in range(50)]
    assert a == b
    for pts in a:
        assert sum(pts) in (26, 78)


def test_matches_openspiel_hearts(logs):
    """Replay deals through OpenSpiel: same legal sets, same points."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("hearts")
    moon_logs = [log for log in logs if sum(log.points) == 78]
    assert moon_logs
    for log in logs[:150] + moon_logs:
        state = game.new_initial_state()
        state.apply_action(log.direction)          # chance: pass direction
        for k in range(52):                         # chance: deal, round robin
            state.apply_action(log.dealt(k % 4)[k // 4])
        hands = [set(log.dealt(s)) for s in range(4)]
        if log.direction:
            for s in range(4):                      # seats 0..3 pass in turn
                for c in log.passed[s]:
                    assert state.current_player() == s
                    assert set(state.legal_actions()) == hands[s]
                    state.apply_action(c)
                    hands[s].discard(c)
            for s in range(4):
                hands[(s + log.direction) % 4] |= set(log.passed[s])
        broken = False
        for t, (leader, cards) in enumerate(log.tricks):
            for i, c in enumerate(cards):
                seat = (leader + i) % 4
                assert state.current_player() == seat
                mine = legal_plays(sorted(hands[seat]), cards[:i], t == 0, broken)
                assert sorted(state.legal_actions()) == sorted(mine)
                state.apply_action(c)
                hands[seat].discard(c)
                if is_heart(c) or c == QUEEN_SPADES:
                    broken = True
        assert state.is_terminal()
        points = [26 - r for r in state.returns()]
        assert points == log.points
