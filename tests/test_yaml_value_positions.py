"""A problem of a YAML value that is not text (``true``, ``12``) is placed at that value.

New-user review of 2026-12-02: ``first_leader: true`` in a copy of black-lady gave, besides the schema's
error at 105:21, "expected int, but this expression gives bool" at 123:9 — a comment line further down,
where the search for the text ``True`` (how Python spells the value) first met a ``T``.
"""
from __future__ import annotations

from pathlib import Path

from cardspec.rules.loader import rulesets_dir
from cardspec.authoring.validate import validate_ruleset


def test_a_bool_where_an_expression_belongs_is_reported_at_the_bool_only(tmp_path):
    src = (rulesets_dir() / "black-lady.yaml").read_text()
    assert src.count("first_leader: left_of(dealer)") == 1
    f = tmp_path / "fl.yaml"
    f.write_text(src.replace("first_leader: left_of(dealer)", "first_leader: true"))
    line = next(i for i, ln in enumerate(f.read_text().splitlines(), 1) if "first_leader: true" in ln)
    problems = validate_ruleset(str(f))[0]
    errors = [p for p in problems if p.severity == "error"]
    assert errors and all(p.line == line for p in errors), [(p.line, p.col, p.message) for p in errors]
