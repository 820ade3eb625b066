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
    briscola-chiamata's point_auction, declared but never implemented). Nor an option with values that
    make the same game (issue 32 item 5: Napoleon's discards_to: allies; it also found
    cancellation-black-lady-8-widow's face_up_rounding, which an even widow never reads)."""
    problems, status = validate_ruleset(name, play=False)
    assert status == 0
    assert _unread(problems) == []
    assert _alike(problems) == []


def _alike(problems):
    return [(p.line, p.col, p.message) for p in problems if p.code == "option/values-alike"]


ALIKE = """\
    name: discards
    players: {min: 3, max: 4}
    options:
      discards_to: {type: choice, values: [nobody, allies, first_trick], default: nobody}
      bonus_mode: {type: choice, values: [none, low, high], default: none}
      dead: {type: bool, default: false}
      gated: {type: choice, values: [a, b], default: a}
      gate: {type: bool, default: false}
      four_only: {type: bool, default: false}
    deck: {ranks: [9, T, J, Q, K, A], suits: [S, H, D, C]}
    zones:
      hand: {owner: seat, visibility: owner}
      won: {owner: seat, visibility: all}
    counters:
      score: {per: match}
    define:
      first_bonus: if discards_to == "first_trick" then 1 else 0
      extra: {by_option: bonus_mode, cases: {high: 2}, default: 0}
      dead_bonus: if dead and false then 1 else 0
      gated_bonus: if gate and gated == "b" then 1 else 0
      four_bonus: if players == 4 and four_only then 1 else 0
    deal:
      - shuffle
      - deal: {to: hand, each: 6}
      - tricks: {follow: suit, to: won}
      - score:
          value: count(won[seat]) + first_bonus + extra + dead_bonus + gated_bonus + four_bonus
          add_to: score
    """


def test_option_values_no_rule_tells_apart_are_warned(tmp_path):
    """Issue 32 item 5: Napoleon's ``discards_to`` (nobody | allies | first_trick; napoleon.md: "Discarded
    honours count for nobody (settled here; variants give them to the allies or to trick 1's winner)")
    was read by one comparison, ``discards_to == "first_trick"``, so ``allies`` played as ``nobody`` and
    the unread-option check, which asks only whether the option is read, said nothing. The kind of miss:
    a value read by nothing -- another value compared, a by_option case the others share (bonus_mode:
    none and low fall to the default), a read that folds away (dead). Values that differ only with another
    option set (gated, with gate on) or at another player count (four_only, with four players) are read."""
    p = _write(tmp_path, ALIKE, "discards.yaml")
    problems, status = validate_ruleset(str(p), play=False)
    assert status == 0, [x.format() for x in problems]
    assert _unread(problems) == []
    assert [(line, msg.split(":")[0]) for line, _, msg in _alike(problems)] == [
        (4, "option 'discards_to'"), (5, "option 'bonus_mode'"), (6, "option 'dead'")]
    msgs = [m for _, _, m in _alike(problems)]
    assert "nobody and allies make the same game" in msgs[0] and "none and low make the same game" in msgs[1]
    assert "false and true make the same game" in msgs[2]
    assert all(p.severity == "warning" for p in problems if p.code == "option/values-alike")
    # The full validation (option extremes, random games) says the same.
    full, status = validate_ruleset(str(p))
    assert status == 0 and _alike(full) == _alike(problems)
