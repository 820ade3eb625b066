"""The solver against a second, hand-written Svoyi Koziri (benchmarks/handwritten_svoyi.py): its own rules
model over bit masks, written from ../shared/rules/svoyi-koziri.md apart from the ruleset and the engine, and
an exact retrograde analysis (no search, no repetition bookkeeping). Issue #5: "The solver's value for small
positions agrees with brute-force enumeration"; this enumeration shares no code with the engine, so a fault
in the ruleset, the turns step or the position key cannot hide in both."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.handwritten_svoyi import Rules, card, dfpn_solve, ending, retrograde  # noqa: E402
from cardspec.players.solve import LOSS, WIN, solve  # noqa: E402

from _positions import svoyi_ending  # noqa: E402

RULES = Rules((0, 2))       # seat 0 owns spades (trump) and clubs, seat 1 diamonds (trump) and hearts
VALUE = {1: WIN, 0: 0, -1: LOSS}

# 4 cards per hand: 12 endings; 5 cards (about 0.2 M positions each for the retrograde analysis): 2
ENDINGS = [(4, seed) for seed in range(12)] + [(5, 0), (5, 2)]


@pytest.mark.parametrize("k,seed", ENDINGS)
def test_solver_value_matches_independent_retrograde(tmp_path, k, seed):
    """svoyi-koziri.md "Play"/"End" (beat or pick up; emptying one's hand wins at once) as bit masks, solved
    by backward induction over every reachable position: ``cardspec solve``'s value is the same, and a best
    move of a won position leads to a position lost for the other side."""
    h0, h1 = ending(k, seed)
    root = Rules.root(h0, h1)
    value, n = retrograde(RULES, root)
    assert n > 100
    s = svoyi_ending(tmp_path, k, seed, cards=32)
    r = solve(s, 60)
    assert r.value == VALUE[value], (h0, h1)
    if value == 1:
        verb, code = r.best.split()
        assert verb == "lead"
        child = [c for c in RULES.children(root) if c[0] == "W" or c[3] == card(code)][0]
        assert child[0] == "W" or retrograde(RULES, child)[0] == -1


@pytest.mark.parametrize("k,seed", ENDINGS[:8])
def test_handwritten_baseline_search_matches_retrograde(k, seed):
    """The benchmark's hand-written df-pn (the speed baseline for `cardspec solve`) gives the exact values."""
    root = Rules.root(*ending(k, seed))
    assert dfpn_solve(RULES, root, 60)[0] == retrograde(RULES, root)[0]


def test_handwritten_rules_beat_examples():
    """svoyi-koziri.md, the 24-card examples, with diamonds the responder's own trump (seat 1 here): lead the
    ten of clubs -> the queen of clubs beats, the nine of diamonds beats; the nine of clubs, the ace of hearts
    and the ace of spades do not. Lead the ten of diamonds (the responder's trump) -> only J Q K A of
    diamonds beat."""
    beats = RULES.beats[1]
    for c in ("QC", "9D"):
        assert beats[card("TC")] >> card(c) & 1
    for c in ("9C", "AH", "AS"):
        assert not beats[card("TC")] >> card(c) & 1
    assert {c for c in ("9D", "JD", "QD", "KD", "AD", "8D", "AS", "AC")
            if beats[card("TD")] >> card(c) & 1} == {"JD", "QD", "KD", "AD"}


def test_handwritten_rules_pick_up_and_immediate_win():
    """svoyi-koziri.md: a responder who does not beat picks up every card on the table and the leader leads
    again; a player who leads their last card wins at once."""
    pos = (1 << card("TC") | 1 << card("AS"), 1 << card("9H"), 1 << card("QH") | 1 << card("JH"),
           card("JH"), 1, 1)                       # seat 1 answers JH with only 9H: cannot beat
    kids = RULES.children(pos)
    assert kids == [(pos[0], (1 << card("9H")) | pos[2], 0, -1, 0, 0)]
    last = Rules.root(["TC"], ["9H"])
    assert RULES.children(last) == [("W", 0)]
