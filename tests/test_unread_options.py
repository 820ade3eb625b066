"""``cardspec validate`` warns about an option that nothing reads (issue 20 item 4, "Inherited options that do
nothing": cancellation-black-lady listed black-lady's ``pass_to`` but passed to the right whatever it said, so
``--option pass_to=left`` was accepted and ignored).

An option is read by an expression compiled for the game (a definition's only when something uses that
definition), by a ``by_option`` choice, or by a step field that names it (``if_none_wins: OPTION``). The
warning is at the option's key, file:line:col; the ruleset stays usable (exit 0).
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cardspec.rules import builtin_names
from cardspec.authoring.validate import validate_ruleset


def _write(tmp_path, text, name="variant.yaml"):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


def _unread(problems):
    return [(p.line, p.col, p.message) for p in problems if p.code == "option/unread"]


def test_a_variant_that_hard_codes_the_pass_direction_is_warned_at_the_option(tmp_path):
    """The issue's case: the variant replaces the pass step by one to the right; black-lady's ``pass_to``
    (read only by its definition ``pass_target``, which now nothing calls) changes nothing."""
    p = _write(tmp_path, """\
        extends: black-lady
        name: right-only
        options:
          pass_to: {default: right}
        deal:
          - id: pass
            pass: {count: pass_count, to: right_of(seat)}
        """)
    problems, status = validate_ruleset(str(p), play=False)
    assert status == 0, [x.format() for x in problems]
    assert [(Path(x.file).resolve(), x.line, x.col, x.severity) for x in problems] == [(p.resolve(), 4, 3, "warning")]
    assert "option 'pass_to' is read by no expression, by_option or step" in problems[0].message
    assert problems[0].format().startswith(f"{problems[0].file}:4:3: warning: option 'pass_to'")


def test_an_option_no_expression_reads(tmp_path):
    p = _write(tmp_path, """\
        extends: black-lady
        name: with-bonus
        options:
          bonus: {type: int, default: 5, help: A bonus nobody wrote a rule for.}
          used: {type: int, default: 1}
          via_case: {type: int, default: 2}
          named: {type: choice, values: [leader, carry], default: leader}
        define:
          unused_def: bonus * 2
          used_def: used + 1
          extra: {by_option: moon, cases: {true: via_case}, default: 0}
        match:
          end: max(score) >= target + used_def + extra
        deal:
          - id: play
            tricks: {if_none_wins: named}
        """)
    problems, status = validate_ruleset(str(p), play=False)
    assert status == 0
    # bonus: only in a definition nothing calls. used: through used_def. via_case: only when the
    # option moon is on (validate compiles the other values of the options too). named: a step field.
    assert _unread(problems) == [(4, 3, "option 'bonus' is read by no expression, by_option or step: "
                                        "setting it changes nothing")]


def test_cli_prints_the_warning_and_exits_0(tmp_path):
    p = _write(tmp_path, """\
        extends: black-lady
        name: with-bonus
        options:
          bonus: {type: int, default: 5}
        """)
    r = subprocess.run([sys.executable, "-m", "cardspec.cli", "validate", "--quick", p.name], capture_output=True,
                       text=True, env={**os.environ, "CARDSPEC_DEBUG": ""}, timeout=120, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines()[0] == "variant.yaml:4:3: warning: option 'bonus' is read by no expression, by_option " \
                                       "or step: setting it changes nothing"
    assert r.stdout.strip() == "variant.yaml: ok (1 warning)"


@pytest.mark.parametrize("name", builtin_names())
def test_no_builtin_has_an_option_nothing_reads(name):
    """Issue 20 item 4: "the built-ins have none" (this found cancellation-black-lady's pass_to and
    briscola-chiamata's point_auction, declared but never implemented)."""
    problems, status = validate_ruleset(name, play=False)
    assert status == 0
    assert _unread(problems) == []
