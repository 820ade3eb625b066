"""Broken rulesets (tests/broken/*.yaml, one flaw each): `cardspec validate` names the exact
file:line:col and says what is wrong (issue 2, "cardspec validate"; DESIGN.md "Errors").

Columns are 1-based and point at the offending character, also inside quoted,
multi-line plain, ``|`` and ``>`` scalars.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardspec.authoring.validate import validate_ruleset

BROKEN = Path(__file__).parent / "broken"

# file, line, col, fragment of the message, fragment of the hint ("" = any)
TABLE = [
    ("bad-indent.yaml", 14, 4, "YAML syntax", "indentation"),
    ("block-folded.yaml", 23, 9, "unknown name 'hearts_brokn'", "did you mean 'hearts_broken'?"),
    ("block-literal.yaml", 20, 16, "a card has no 'pionts'", "did you mean 'points'?"),
    ("bool-arithmetic.yaml", 24, 14, "expected int, found bool", ""),
    ("card-not-in-deck.yaml", 21, 34, "card '2C' is not in this ruleset's deck", ""),
    ("card-vs-suit.yaml", 21, 13, "cannot compare card with suit", "card.suit"),
    ("deck-too-small.yaml", 19, 5, "cannot deal 17 cards to each of 11 players", "deck size"),
    ("define-cycle.yaml", 17, 6, "cycle: x -> y -> x", "may not use itself"),
    ("points-unknown-key.yaml", 5, 31, "'JX' is not a suit, a rank or a card", "QS: 13"),
    ("duplicate-key.yaml", 16, 3, "key 'trumps' appears twice", ""),
    ("empty.yaml", 1, 1, "a ruleset is a mapping", ""),
    ("extends-cycle-a.yaml", 2, 10, "makes a cycle", ""),
    ("extends-cycle-b.yaml", 2, 10, "makes a cycle", ""),
    ("if-else-types.yaml", 24, 14, "'then' gives int but 'else' gives bool", ""),
    ("if-not-bool.yaml", 18, 9, "expected bool, but this expression gives int", ""),
    ("min-gt-max.yaml", 3, 10, "min 6 is above max 3", ""),
    ("missing-paren.yaml", 24, 46, "missing ')'", "every '(' needs a ')'"),
    ("multiline-plain.yaml", 22, 12, "unknown name 'hearts_brokne'", "did you mean 'hearts_broken'?"),
    ("not-in-needs-list.yaml", 21, 21, "'in' needs a list or zone on the right, found int", ""),
    ("option-bad-type.yaml", 5, 18, "$.options.rounds.type: expected one of int, bool, choice", ""),
    ("players-type.yaml", 3, 10, "$.players: expected a mapping, found the number 4", ""),
    ("quoted-expr.yaml", 24, 21, "a card has no 'pts'", "did you mean 'points'?"),
    ("single-equals.yaml", 21, 23, "unexpected character '='", "compare with '=='"),
    ("step-body-key.yaml", 21, 7, "unknown key 'folow'", "did you mean 'follow'?"),
    ("string-for-int.yaml", 5, 32, "option 'rounds' takes a whole number; got 'many'", ""),
    ("tab-indent.yaml", 9, 1, "YAML syntax", "spaces, not tabs"),
    ("top-level-list.yaml", 2, 1, "a ruleset is a mapping", ""),
    ("typo-name.yaml", 21, 26, "unknown name 'led_siut'", "did you mean 'led_suit'?"),
    ("unknown-base.yaml", 2, 10, "no ruleset file or built-in ruleset named 'blak-lady'", "did you mean 'black-lady'?"),
    ("unknown-card.yaml", 21, 21, "'1X' is not a card", "rank then a suit"),
    ("unknown-counter-score.yaml", 23, 16, "unknown counter 'scroe'", "did you mean 'score'?"),
    ("unknown-function.yaml", 18, 28, "unknown function 'cuont'", "did you mean 'count'?"),
    ("unknown-option-extends.yaml", 5, 3, "option 'pass_cuont' is not declared by the base", "did you mean 'pass_count'?"),
    ("unknown-option-use.yaml", 5, 13, "unknown name 'dealz'", "did you mean 'deals'?"),
    ("unknown-step.yaml", 17, 5, "unknown step 'shufle'", "did you mean 'shuffle'?"),
    ("unknown-top-key.yaml", 8, 1, "unknown key 'zone'", "did you mean 'zones'?"),
    ("unknown-var-set.yaml", 24, 31, "unknown var 'heart_broken'", "did you mean 'hearts_broken'?"),
    ("unknown-zone.yaml", 18, 16, "unknown zone 'hnad'", "did you mean 'hand'?"),
    ("wrong-arg-count.yaml", 21, 21, "'left_of' takes 1 argument(s), given 2", ""),
]


def test_table_covers_every_broken_file():
    files = {p.name for p in BROKEN.glob("*.yaml")} - {"several-problems.yaml"}
    assert files == {row[0] for row in TABLE}
    assert len(TABLE) >= 20


@pytest.mark.parametrize("name,line,col,message,hint", TABLE, ids=[r[0] for r in TABLE])
def test_broken_ruleset(name, line, col, message, hint):
    problems, status = validate_ruleset(str(BROKEN / name))
    assert status == 1
    assert len(problems) == 1, [p.format() for p in problems]   # one flaw, one report
    p = problems[0]
    assert Path(p.file).name in (name, "extends-cycle-a.yaml", "extends-cycle-b.yaml")
    assert (p.line, p.col) == (line, col), p.format()
    assert message in p.message
    assert hint in p.hint
    if p.line:
        # The caret line is the file's own line.
        text = (BROKEN / Path(p.file).name).read_text(encoding="utf-8").splitlines()
        assert p.source_line == (text[p.line - 1] if p.line <= len(text) else "")


def test_several_independent_problems_are_all_reported():
    problems, status = validate_ruleset(str(BROKEN / "several-problems.yaml"))
    assert status == 1
    found = [(p.line, p.col, p.message) for p in problems]
    assert found == [(12, 1, "unknown key 'titel'"), (15, 16, "unknown zone 'hands'"),
                     (17, 26, "unknown name 'led_siut'")], found


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "cardspec.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env={**os.environ, "CARDSPEC_DEBUG": ""}, timeout=60)


def test_cli_format_and_exit_codes(tmp_path):
    r = _cli("validate", str(BROKEN / "typo-name.yaml"))
    assert r.returncode == 1
    assert r.stdout == ""   # problems go to stderr (cardspec validate BROKEN | head still exits 1)
    lines = r.stderr.splitlines()
    assert lines[0].endswith("typo-name.yaml:21:26: error: unknown name 'led_siut'")
    assert lines[1] == "          lead: card.suit != led_siut or hearts_broken"
    assert lines[2] == "    " + " " * 25 + "^"
    assert lines[3] == "    hint: did you mean 'led_suit'?"
    assert _cli("validate", "black-lady").returncode == 0
    assert _cli("validate", str(tmp_path / "missing.yaml")).returncode == 2
    assert _cli("validate", str(tmp_path)).returncode == 2


GARBAGE = {
    "binary.yaml": bytes(range(256)) * 4,
    "nul.yaml": b"name: x\x00\n",
    "bomb.yaml": ("a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi"))).encode(),
    "recursive.yaml": b"&a [*a]\n",
    "deep.yaml": b"a: " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "deep-map.yaml": b"a: " + b"{b: " * 300 + b"1" + b"}" * 300 + b"\n",
    "list.yaml": b"- 1\n- 2\n",
    "scalar.yaml": b"just text\n",
    "two-docs.yaml": b"a: 1\n---\nb: 2\n",
    "tags.yaml": b"name: !!timestamp 2001-12-14\nplayers: .inf\ndeck: !!binary aGVsbG8=\ndeal: !!set {a, b}\n",
    "complex-key.yaml": b"? [a, b]\n: 1\n",
    "huge-players.yaml": b"name: x\nplayers: {min: 1, max: 100000000000}\ndeck: {ranks: [2], suits: [S]}\ndeal: [shuffle]\n",
    "long-expr.yaml": b"name: x\nplayers: {min: 2, max: 2}\ndeck: {ranks: [2], suits: [S]}\ndeal:\n  - shuffle\n"
                      b"  - if: " + b"1 + " * 3000 + b"1 > 0\n    deal: {to: stock, count: 0}\n",
    "deep-expr.yaml": b"name: x\nplayers: {min: 2, max: 2}\ndeck: {ranks: [2], suits: [S]}\ndeal:\n  - shuffle\n"
                      b"  - if: " + b"not " * 500 + b"true\n    deal: {to: stock, count: 0}\n",
}


@pytest.mark.parametrize("name", sorted(GARBAGE))
def test_garbage_never_tracebacks(tmp_path, name):
    f = tmp_path / name
    f.write_bytes(GARBAGE[name])
    problems, status = validate_ruleset(str(f))
    assert status in (1, 2) and problems
    for p in problems:
        assert Path(p.file).resolve() == f.resolve()
        assert p.format().startswith(f"{p.file}:{p.line}:{p.col}: error: ")


def test_garbage_cli_no_traceback(tmp_path):
    for name, data in GARBAGE.items():
        (tmp_path / name).write_bytes(data)
    r = _cli("validate", *sorted(str(tmp_path / n) for n in GARBAGE))
    assert r.returncode in (1, 2)
    assert "Traceback" not in r.stdout + r.stderr
    assert "internal error" not in r.stdout + r.stderr
