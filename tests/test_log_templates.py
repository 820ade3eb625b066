"""A ruleset's ``log:`` lines are ``{field}`` templates, never ``str.format`` (hostile-input review of
2026-12-02: ``{each.__class__.__mro__}`` walked Python objects, ``{each:>1500000000}`` took 2.9 GB before
a MemoryError, ``{each[0]}`` and ``{each`` passed validation and then failed as internal errors).
Each is now refused when the ruleset is loaded, at the template's file:line:col."""
from __future__ import annotations

import pytest

import cardspec
from cardspec.rules import loglines
from cardspec.errors import RulesetError
from cardspec.rules.loader import builtin_names


@pytest.mark.parametrize("template, said", [
    ("everyone antes {each.__class__.__mro__}", "is not a field part"),
    ("{pot.__class__.__subclasses__}", "is not a field part"),
    ("{each:>1500000000}", "is not a field part"),
    ("{each!r}", "is not a field part"),
    ("{each[0]} {0}", "is not a field part"),
    ("{0}", "is not a field part"),
    ("{}", "is not a field part"),
    ("{each", "expected '}'"),
    ("each}", "Single '}'"),
    ("x" * (loglines.MAX_TEMPLATE + 1), "at most"),
])
def test_a_log_line_that_is_not_field_parts_is_refused_at_load(tmp_path, template, said):
    f = tmp_path / "t.yaml"
    f.write_text(f'extends: red-dog\nname: t\nlog:\n  ante: "{template}"\n')
    with pytest.raises(RulesetError) as e:
        cardspec.load(str(f))
    first = e.value.first
    assert (first.line, first.col) == (4, 9) and said in first.message and "log line for 'ante'" in first.message


def test_field_parts_are_filled_and_braces_doubled_are_literal():
    assert loglines.render("{seat} pays {amount} {{chips}}", {"seat": 2, "amount": 5}) == "2 pays 5 {chips}"
    assert loglines.render("{missing}!", {}) == "?!"


def test_render_refuses_what_parse_refuses_even_without_a_load_check():
    with pytest.raises(loglines.TemplateError):
        loglines.render("{each:>1500000000}", {"each": 1})


@pytest.mark.parametrize("name", builtin_names())
def test_every_built_in_log_line_is_field_parts(name):
    game = cardspec.load(name)
    for template in (game.data.get("log") or {}).values():
        loglines.parse(template)
