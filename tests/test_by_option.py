"""docs/rulesets.md, "by_option": any value may be chosen by an option, also where the schema wants a
number (deck points), checked as each value it may take; where it cannot be used, the error says so."""
from __future__ import annotations

import pytest

import cardspec
from cardspec import RulesetError

VARIANT = """\
extends: hearts
name: hearts-qs
description: Hearts whose queen of spades is worth an option's points.
options:
  qs_points: {type: int, default: 13, min: 0, help: Points of the queen of spades.}
deck:
  points: {QS: %s}
"""


def deal_points(path, **options):
    s = cardspec.load(str(path), options=options).new_state(seed=2)
    s.random_playout()
    ev = [e for e in s.log_all() if e["type"] == "deal_score"][0]
    return sum(ev["points"].values())


@pytest.mark.parametrize("qs", ["{by_option: qs_points}",
                                "{by_option: qs_points, cases: {10: 10, 13: 13}, default: 13}"])
def test_queen_of_spades_points_by_option(tmp_path, qs):
    """black-lady.md, "Hearts": 13 hearts at 1 + QS = 26 points a deal; with qs_points=10, 23."""
    f = tmp_path / "hearts-qs.yaml"
    f.write_text(VARIANT % qs)
    assert deal_points(f) == 26
    assert deal_points(f, qs_points=10) == 23


def test_a_case_of_the_wrong_type_is_reported_at_the_case(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(VARIANT % "{by_option: qs_points, cases: {10: [1]}, default: 13}")
    with pytest.raises(RulesetError) as e:
        cardspec.read_ruleset(str(f))
    p = e.value.first
    assert (p.line, p.col) == (7, 51) and "$.deck.points.QS.cases.10: expected a whole number" in p.message


def test_unknown_option_and_unusable_places_are_named(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(VARIANT % "{by_option: qs_pionts}" + "players: {by_option: qs_points, cases: {3: {min: 3}}}\n")
    with pytest.raises(RulesetError) as e:
        cardspec.read_ruleset(str(f))
    msgs = [(p.line, p.message, p.hint) for p in e.value.problems]
    assert any(m.startswith("by_option names 'qs_pionts'") and "qs_points" in h for _, m, h in msgs), msgs
    assert any(ln == 8 and "by_option cannot choose a value under 'players:'" in m for ln, m, _ in msgs), msgs
