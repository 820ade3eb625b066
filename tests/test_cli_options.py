"""A bad ``--option`` is a command-line error, not a ruleset error (DESIGN.md, "Errors"; docs/events.md,
"Exit codes of the command line": 2 for bad input such as a bad option, no traceback).

The message names the option as given, every option the ruleset declares with its type or allowed
values, and is not reported against the ruleset file (which is not at fault). A bad option written
in a scenario's ``options:`` points at the scenario's file:line:col.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardspec.cli import main

HERE = Path(__file__).parent
SCENARIO = HERE / "svoyi_koziri" / "solve-6-cards-quick.yaml"
RED_DOG_OPTIONS = "start_chips (a whole number at least 10, default 200)"
SK_OPTIONS = "cards (one of 32, 24, 52, default 32)"


def run(*args):
    r = CliRunner().invoke(main, list(args))
    out = r.output + (r.stderr if r.stderr_bytes is not None else "")
    assert "Traceback" not in out and not isinstance(r.exception, (KeyError, TypeError, AttributeError))
    return r.exit_code, out


@pytest.mark.parametrize("cmd", [
    ("play", "red-dog", "--seed", "1"),
    ("validate", "red-dog"),
    ("simulate", "red-dog", "-n", "2"),
])
@pytest.mark.parametrize("opt,what", [("bogus=1", "unknown option 'bogus'"),
                                      ("start_chips=lots", "option 'start_chips' takes a whole number"),
                                      ("start_chips=5", "must be at least 10"),
                                      ("ace=middle", "option 'ace' takes one of low, high")])
def test_bad_command_line_option_on_a_ruleset_command(cmd, opt, what):
    code, out = run(*cmd, "--option", opt)
    assert code == 2, out
    first = out.strip().splitlines()[0]
    assert first.startswith(f"command line (--option {opt}): error:") and what in first, out
    assert "red-dog.yaml" not in out                  # the ruleset file is not blamed
    assert RED_DOG_OPTIONS in out and "ace (one of low, high, default low)" in out


@pytest.mark.parametrize("cmd", ["replay", "solve"])
@pytest.mark.parametrize("opt,what", [("bogus=1", "unknown option 'bogus'"),
                                      ("cards=33", "option 'cards' takes one of 32, 24, 52")])
def test_bad_command_line_option_on_a_scenario_command(cmd, opt, what):
    code, out = run(cmd, str(SCENARIO), "--option", opt)
    assert code == 2, out
    first = out.strip().splitlines()[0]
    assert first.startswith(f"command line (--option {opt}): error:") and what in first, out
    assert "svoyi-koziri.yaml" not in out and SK_OPTIONS in out


@pytest.mark.parametrize("cmd", ["replay", "solve"])
def test_bad_option_in_a_scenario_points_at_the_scenario(tmp_path, cmd):
    text = SCENARIO.read_text().replace("players: 2\n", "players: 2\noptions:\n  pick_up: everything\n  cardz: 24\n")
    p = tmp_path / "bad-option.yaml"
    p.write_text(text)
    line = text.splitlines().index("  cardz: 24") + 1
    code, out = run(cmd, str(p))
    assert code == 2, out
    assert f"{p}:{line}:3: error: unknown option 'cardz'" in out and "did you mean 'cards'?" in out, out
    assert SK_OPTIONS in out


def test_good_options_still_work():
    code, out = run("play", "red-dog", "--seed", "1", "--option", "start_chips=20", "--option", "max_turns=5")
    assert code == 0, out
    code, out = run("replay", str(SCENARIO), "--option", "pick_up=everything")
    assert code == 0, out
