"""``players: {min, max, default}``: the player count used when none is given (docs/rulesets.md).

From issue 18: Sheepshead is for 3–5 players and five is the game (sheepshead.md, "Options":
``players: 5 | 3 | 4``, defaults first), so ``cardspec play sheepshead`` must seat five.
"""
import pytest

import cardspec


def _variant(tmp_path, players):
    p = tmp_path / "v.yaml"
    p.write_text(f"extends: black-lady\nname: v\nplayers: {players}\n")
    return str(p)


def test_default_is_used_when_no_count_is_given(tmp_path):
    g = cardspec.load(_variant(tmp_path, "{min: 3, max: 6, default: 5}"))
    assert g.n == 5
    assert cardspec.load(_variant(tmp_path, "{min: 3, max: 6, default: 5}"), 4).n == 4


def test_without_default_the_minimum(tmp_path):
    assert cardspec.load(_variant(tmp_path, "{min: 3, max: 6}")).n == 3


def test_default_out_of_range_is_a_ruleset_error(tmp_path):
    with pytest.raises(cardspec.RulesetError) as e:
        cardspec.load(_variant(tmp_path, "{min: 3, max: 6, default: 7}"), 4)
    assert "v.yaml:3:" in str(e.value) and "default 7 is not between min 3 and max 6" in str(e.value)
