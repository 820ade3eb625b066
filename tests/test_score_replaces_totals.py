"""A score step that writes the deal's points over the match's totals is pointed out (issue 38, item 2).

Five of eight outside rulesets wrote `counter: score` where `add_to: score` was meant (docs/rulesets.md
says so; nothing warned): the totals never grew, and a match played to a target never ended by it. The
check found the same mistake in the built-in Sheepshead (tests/test_sheepshead.py: the totals are now the
sum of the deals). `cardspec validate` warns at the `counter:` key, with the fix.
"""
from __future__ import annotations

import pytest

import cardspec
from cardspec.authoring.validate import validate_ruleset

RULESET = """\
name: to-target
players: {{min: 3, max: 3}}
deck: {{ranks: [9, T, J, Q, K, A], suits: [S, H, D, C]}}
zones:
  hand: {{owner: seat, visibility: owner}}
  won: {{owner: seat, visibility: all}}
counters:
  score: {{per: match, label: Score}}
  points: {{per: deal}}
match:
  deals: 0
  end: max(score[s] for s in seats) >= 20
deal:
  - shuffle
  - deal: {{to: hand, each: 8}}
  - tricks: {{follow: suit, to: won}}
  - score:
      {score}
"""


def _check(tmp_path, score):
    f = tmp_path / "to-target.yaml"
    f.write_text(RULESET.format(score=score))
    problems, status = validate_ruleset(str(f), play=False)
    return [p for p in problems if p.code == "score/replaces-totals"], status


def test_counter_score_without_add_to_is_a_warning_at_the_key_with_the_fix(tmp_path):
    ws, status = _check(tmp_path, "counter: score\n      value: count(won[seat]) / players")
    assert status == 0 and len(ws) == 1
    w = ws[0]
    assert w.severity == "warning" and w.line == 18 and w.col == 7    # the counter: key
    assert "replaces the match's totals" in w.message and "match: end may never hold" in w.message
    assert "add_to: score" in w.hint


@pytest.mark.parametrize("score", [
    "counter: points\n      value: count(won[seat])\n      add_to: score",     # the deal's points added
    "value: count(won[seat])\n      add_to: score",
    "counter: score\n      value: score[seat] + count(won[seat])",            # the total read: meant
    "counter: points\n      value: count(won[seat])",                         # a per-deal counter
])
def test_what_adds_to_the_totals_or_means_it_is_not_warned(tmp_path, score):
    assert _check(tmp_path, score)[0] == []


def test_the_counter_written_over_is_found_through_definitions(tmp_path):
    f = tmp_path / "defs.yaml"
    text = RULESET.format(score="counter: score\n      value: so_far(seat)")
    f.write_text(text.replace("match:", "define:\n  so_far(p): score[p] + count(won[p])\nmatch:"))
    problems, _ = validate_ruleset(str(f), play=False)
    assert not any(p.code == "score/replaces-totals" for p in problems)


@pytest.mark.parametrize("name", cardspec.builtin_names())
def test_no_builtin_compiles_with_a_warning(name):
    """Every built-in compiles without a warning of the compiler (a hidden engine name, totals replaced)."""
    rs = cardspec.read_ruleset(name)
    lo, hi = rs.players
    for n in sorted({lo, hi}):
        assert [w.message for w in cardspec.load(name, players=n).warnings] == []
