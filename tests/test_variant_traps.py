"""Variants that cannot break silently (issue 20, items 1-4 and 6): each mistake a new author made
while writing variants, which `cardspec validate` passed and which played a different game, is now an
error (or, for an option nothing reads, a warning) at file:line:col.

Each test writes the variant as the author did (docs/rulesets.md, "extends: — variants").
"""
from __future__ import annotations

import textwrap

import pytest

import cardspec
from cardspec.errors import RulesetError
from cardspec.validate import validate_ruleset


def write(tmp_path, text, name="variant.yaml"):
    f = tmp_path / name
    f.write_text(textwrap.dedent(text).lstrip())
    return str(f)


def problems(path):
    ps, status = validate_ruleset(path)
    return ps, status


def where(p):
    return (p.line, p.col)


# ---- item 1: a variant's list item with an id the base does not have ----------------------------

def test_misspelt_step_id_is_an_error_with_did_you_mean_and_the_base_deal_stays(tmp_path):
    """Issue 20 item 1: `- id: scroe` replaced the base's whole deal (nothing dealt, a draw). An id the
    base does not have, with no position, is an error at the id with "did you mean 'score'?"."""
    f = write(tmp_path, """
        extends: oh-hell
        name: typo
        deal:
          - id: scroe
            score: {counter: points, value: "10 + bids[seat]", add_to: score}
        """)
    ps, status = problems(f)
    assert status == 1 and len(ps) == 1
    assert where(ps[0]) == (4, 9) and ps[0].file.endswith("variant.yaml")
    assert "'scroe' is not the id of an item of the base's deal:" in ps[0].message
    assert "did you mean 'score'?" in ps[0].hint and "after: ID" in ps[0].hint
    with pytest.raises(RulesetError, match="scroe"):
        cardspec.load(f, players=4)


def test_a_new_step_goes_where_after_or_before_says_and_every_base_step_stays(tmp_path):
    """docs/rulesets.md, "extends:": items of the base the variant does not name stay in place; a new
    item is placed with after: ID or before: ID (and an existing one may be moved the same way)."""
    f = write(tmp_path, """
        extends: black-lady
        name: placed
        deal:
          - id: note
            after: pass
            do: [{emit: {type: note}}]
          - id: first
            before: deal-hands
            do: [{emit: {type: first}}]
          - id: bonuses
            before: score
        """)
    g = cardspec.load(f, players=4)
    base = cardspec.load("black-lady", players=4)
    ids = [spec.get("id") if isinstance(spec, dict) else spec for spec in g.data["deal"]]
    assert ids == ["shuffle", "first", "deal-hands", "deal-widow", "pass", "note", "play", "bonuses", "score"]
    assert len(g.steps) == len(base.steps) + 2
    assert all("after" not in s and "before" not in s for s in g.data["deal"] if isinstance(s, dict))


@pytest.mark.parametrize("item, at, message, hint", [
    ("- id: extra\n    after: pas\n    do: []", (5, 12), "after: 'pas' names no item of deal:", "did you mean 'pass'?"),
    ("- do: []", (4, 5), "this item of deal: has no id", "!replace"),
    ("- id: extra\n    after: pass\n    before: play\n    do: []", (6, 5), "give after: or before:, not both", ""),
])
def test_misplaced_new_steps_are_errors_at_their_position(tmp_path, item, at, message, hint):
    """Issue 20 item 1: every way a variant's id-list item can miss its place is reported where it is
    written (a position naming no item, an item without an id among items merged by id)."""
    f = write(tmp_path, "extends: black-lady\nname: v\ndeal:\n  - id: pass\n    pass: {count: 2}\n  "
              + item + "\n")
    ps, status = problems(f)
    assert status == 1
    p = next(p for p in ps if message in p.message)
    assert where(p)[0] == at[0] + 2 and hint in p.hint


# ---- item 2: a definition redefined with another parameter list ---------------------------------

def test_redefinition_with_other_parameters_is_an_error(tmp_path):
    """Issue 20 item 2: `deal_points: 5` over the base's `deal_points(s)` was ignored (the base formula
    kept scoring). It is an error at the redefinition, naming the base's form."""
    f = write(tmp_path, """
        extends: oh-hell
        name: flat
        define:
          deal_points: 5
        """)
    ps, status = problems(f)
    assert status == 1 and len(ps) == 1
    assert where(ps[0]) == (4, 3)
    assert "'deal_points' redefines the base's 'deal_points(s)' with other parameters" in ps[0].message
    assert "deal_points(s): …" in ps[0].hint


def test_redefinition_with_the_same_parameters_overrides(tmp_path):
    """docs/rulesets.md: a definition is overridden by writing it again with the same parameters (their
    names may differ)."""
    f = write(tmp_path, """
        extends: oh-hell
        name: flat
        define:
          deal_points(p): 5
        """)
    assert problems(f) == ([], 0)
