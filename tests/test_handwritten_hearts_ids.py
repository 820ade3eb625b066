"""The hand-written Hearts state API (benchmarks/handwritten_hearts_ids.py) plays cardspec's ``hearts``.

That module is the floor of the action-id benchmark (issue 21, item 6; docs/performance.md): its
instruction count only means something if it is the same game as the ruleset it is compared with.
Each deal here is dealt by cardspec, given to the hand-written state as it stands, and both are
driven by the same random actions: at every decision the seat to act, the legal action texts (by
``game.actions``' names) and at the end the scores must agree.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import cardspec

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import handwritten_hearts_ids as hw  # noqa: E402

_NUM = {f"{r}{su}": si * 13 + ri for si, su in enumerate("CDHS") for ri, r in enumerate("23456789TJQKA")}


@pytest.fixture(scope="module")
def game():
    g = cardspec.load("hearts", 4, options={"deals": 1})
    g.actions
    return g


@pytest.mark.parametrize("first", [0, 60])
def test_same_decisions_and_scores_as_the_ruleset(game, first):
    code = game.ns["CODE"]
    rng = random.Random(first)
    for deal in range(first, first + 60):
        s = game.new_state(seed=deal, record=False)
        h = hw.HeartsState(None, hands=[[_NUM[code[c]] for c in s.z[0][p]] for p in range(4)])
        while not s.terminal:
            assert h.to_act == s.to_act
            mine = sorted(hw.NAMES[i] for i in h.legal_action_ids())
            assert mine == sorted(game.actions.decode(i) for i in s.legal_action_ids())
            pick = mine[int(rng.random() * len(mine))]
            s.apply_id(game.actions.encode(pick))
            h.apply_id(hw.NAMES.index(pick))
        assert h.terminal
        assert h.scores == [s.scores()[str(p)] for p in range(4)]
        assert h.history == s.history


def test_an_illegal_id_is_refused_and_changes_nothing():
    h = hw.HeartsState(random.Random(1))
    legal = h.legal_action_ids()
    bad = next(i for i in range(104) if i not in legal)
    with pytest.raises(ValueError, match="not legal"):
        h.apply_id(bad)
    assert h.legal_action_ids() == legal and h.history == []
