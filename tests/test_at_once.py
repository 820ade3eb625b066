"""A match won at once (engine/at_once.py; docs/rulesets.md, "A match won at once"): with ``match:
end_at_once: true`` the end condition is checked after every effect that changes a counter or var and after
every automatic step, so the match ends the moment it holds, even mid-deal, and nothing after that moment
runs.

The rule served: docs/rules/cribbage.md, "Match end" — "A player wins the moment his score reaches 121 or
more: on his heels, in the middle of the play, or during the show. Nothing after that moment is counted."
(its worked examples are in tests/test_cribbage.py). Here: tests/plays/ninety-nine.yaml, a running total
where each card scores its value, with a small target.
"""
from __future__ import annotations

import os

import pytest

import cardspec
from cardspec.errors import RulesetError

TOY = os.path.join(os.path.dirname(__file__), "plays", "ninety-nine.yaml")


def _play_until_over(s):
    n = 0
    while not s.terminal:
        s.apply(sorted(s.legal_actions())[-1])
        n += 1
    return n


@pytest.mark.parametrize("seed", range(10))
def test_the_match_ends_on_the_card_that_reaches_the_target(seed):
    g = cardspec.load(TOY, options={"target": 25})
    s = g.new_state(seed=seed)
    score = g.counter["score"].index
    while not s.terminal:
        before = max(s.c[score])
        assert before < 25
        s.apply(sorted(s.legal_actions())[-1])
    assert max(s.c[score]) >= 25
    log = s.log_all()
    assert log[-1]["type"] == "game_over" and log[-1]["reason"] == "a player reached the target"
    start = max(i for i, e in enumerate(log) if e["type"] == "deal_start")
    last_deal = [e["type"] for e in log[start:]]
    assert "deal_end" not in last_deal and "swept" not in last_deal   # mid-deal: the rest never ran


def test_without_it_the_deal_is_played_out(tmp_path):
    p = tmp_path / "later.yaml"
    p.write_text(open(TOY).read().replace("  end_at_once: true\n", ""))
    g = cardspec.load(str(p), options={"target": 25})
    s = g.new_state(seed=0)
    _play_until_over(s)
    types = [e["type"] for e in s.log_all()]
    assert "swept" in types and types.count("deal_end") == 1


def test_effects_after_the_winning_change_do_not_run(tmp_path):
    p = tmp_path / "after.yaml"
    p.write_text(open(TOY).read().replace(
        "      - add: {counter: score, seat: seat, value: card.points}\n",
        "      - add: {counter: score, seat: seat, value: card.points}\n      - emit: {type: after_add}\n"))
    g = cardspec.load(str(p), options={"target": 25})
    s = g.new_state(seed=1)
    _play_until_over(s)
    log = s.log_all()
    adds = [e for e in log if e["type"] == "after_add"]
    plays = [e for e in log if e["type"] == "action"]
    assert len(adds) == len(plays) - 1        # every card but the winning one went on to its emit


def test_end_at_once_needs_an_end(tmp_path):
    p = tmp_path / "noend.yaml"
    p.write_text(open(TOY).read().replace("  end: max(score[s] for s in seats) >= target\n", ""))
    with pytest.raises(RulesetError) as info:
        cardspec.load(str(p))
    assert "end_at_once: true checks match: end: at once, and there is no end:" in str(info.value)


def test_his_heels_ends_the_match_in_a_do_step():
    """An automatic step (cribbage's his heels, a `do` step) that reaches the target ends the match before
    the play: tests/test_cribbage.py::test_winning_on_his_heels sets the scores; here the same with a random
    deal whose starter is a jack and the dealer on 119."""
    g = cardspec.load("cribbage")
    score = g.counter["score"].index
    for seed in range(200):
        s = g.new_state(seed=seed)
        starter = s.z[g.zone["stock"].index][-1]
        if g.deck.code[starter][0] != "J":
            continue
        s.c[score][0] = 119
        s.apply(s.legal_actions()[0])
        s.apply(s.legal_actions()[0])
        assert s.terminal and s.c[score][0] == 121
        return
    pytest.fail("no deal with a jack starter in 200 seeds")


def test_a_stake_is_read_when_the_match_ends(tmp_path):
    """match: stake (docs/rulesets.md, "What a win is worth"): evaluated once at game over, after the
    end; here a double game when the loser has fewer than 16 points (a shutout-like rule)."""
    p = tmp_path / "stake.yaml"
    p.write_text(open(TOY).read().replace("  end_at_once: true\n",
                                          "  end_at_once: true\n  stake: if min(score[s] for s in seats) < 16 then 2 else 1\n"))
    g = cardspec.load(str(p), options={"target": 25})
    seen = set()
    for seed in range(30):
        s = g.new_state(seed=seed)
        _play_until_over(s)
        low = min(s.result["scores"].values())
        assert s.result["stake"] == (2 if low < 16 else 1)
        seen.add(s.result["stake"])
    assert seen == {1, 2}
    plain = cardspec.load(TOY, options={"target": 25}).new_state(seed=0)
    _play_until_over(plain)
    assert "stake" not in plain.result
