"""Problems a new user of `cardspec solve` / `cardspec replay` met with Svoyi Koziri endings (a tester's report,
fourth session), each checked from the outside.

Sources: DESIGN.md "Scenarios" (deal: {hands: {seat: [cards]}, ZONE: [cards]}) and "Errors" (file:line:col, what
was expected, no traceback, exit 2); docs/solve.md (a small ending names the hands and leaves every other card
in the stock; `--seconds` is the time limit); ../shared/rules/svoyi-koziri.md (the mirrored deal reveals the
dealt hands).
"""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cardspec.cli import main

CHOICES = '["1: own hearts diamonds", "1: trump diamonds", "0: trump spades"]'
HANDS = "{0: [AS, KS, 7C], 1: [7H, 8H, AD]}"
STOCK = ("[7S, 8S, 9S, TS, JS, QS, 9H, TH, JH, QH, KH, AH, 7D, 8D, 9D, TD, JD, QD, KD, 8C, 9C, TC, JC, QC, KC, "
         "AC]")


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in r.stdout + r.stderr
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def scenario(tmp_path, stock=True):
    text = f"ruleset: svoyi-koziri\ndealer: 1\ndeal:\n  hands: {HANDS}\n"
    if stock:
        text += f"  stock: {STOCK}\n"
    text += f"actions: {CHOICES}\n"
    p = tmp_path / "ending.yaml"
    p.write_text(text)
    return p


def test_replay_of_a_scenario_deal_shows_no_cards_of_the_shuffled_deal(tmp_path):
    """A scenario's `deal:` replaces the shuffled deal: the log must not show the hands the shuffled deck
    would have given (the mirrored deal's reveals) nor cards dealt face up that the scenario's deal never
    had; it did both ("face up: 16 cards, face up: " and two 16-card "seat N shows" lines, different on
    every run)."""
    r = run("replay", scenario(tmp_path))
    assert r.exit_code == 0, r.stderr
    assert "shows" not in r.stdout
    assert "face up: 16 cards\n" in r.stdout


def test_deal_that_leaves_cards_unnamed_is_reported_at_deal_with_the_missing_cards(tmp_path):
    """docs/solve.md: an ending names the hands and puts every other card in the stock. Leaving the stock out
    was reported as "deal: the named zones hold 6 cards where the deal put 32", with no file position and no
    word of which cards or what to do."""
    for cmd in ("replay", "solve"):
        r = run(cmd, scenario(tmp_path, stock=False))
        assert r.exit_code == 2
        first = r.stderr.splitlines()[0]
        assert first.startswith(f"{tmp_path / 'ending.yaml'}:3:1: error: deal:"), first
        assert "26 cards are not named (QS JS TS 9S 8S 7S" in first
        assert "`stock: [...]`" in first


@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_solve_refuses_a_time_limit_that_is_not_a_finite_nonnegative_number(tmp_path, value):
    """`--seconds nan` compared false with every clock reading, so the search ran with no limit at all;
    `-1` was accepted silently."""
    r = run("solve", "--seconds", value, scenario(tmp_path))
    assert r.exit_code == 2
    assert "--seconds" in r.stderr


def test_solve_of_the_ending_answers_as_the_independent_analysis_does(tmp_path):
    """The ending used above is a legal position and `cardspec solve` answers it: {AS KS 7C} against
    {7H 8H AD}, seat 0 (spades trump) to lead, is a win (the tester's hand check), as the hand-written
    retrograde analysis of benchmarks/handwritten_svoyi.py says."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from benchmarks.handwritten_svoyi import Rules, retrograde
    assert retrograde(Rules((0, 2)), Rules.root(["AS", "KS", "7C"], ["7H", "8H", "AD"]))[0] == 1
    r = run("solve", scenario(tmp_path))
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith("win for seat 0")


def test_misspelt_ruleset_name_is_reported_at_the_scenarios_ruleset_key(tmp_path):
    """A scenario naming a ruleset that does not exist is the scenario's fault: file:line:col of `ruleset:`
    with the near name (it was reported as `svoyi-kozri: error: ...`, with no position in the file)."""
    p = tmp_path / "typo.yaml"
    p.write_text(f"ruleset: svoyi-kozri\ndealer: 1\nactions: {CHOICES}\n")
    for cmd in ("replay", "solve"):
        r = run(cmd, p)
        assert r.exit_code == 2
        assert r.stderr.startswith(f"{p}:1:10: error: no ruleset file or built-in ruleset named 'svoyi-kozri'")
        assert "did you mean 'svoyi-koziri'?" in r.stderr
