"""Messages that misled a ruleset author (issue 20 item 6), each with the mistake that produced it:
an over-indented YAML line, a missing ``then``/``else``, only the first unknown name of an expression
reported, and ``emit`` showing a suit as a number ("suit 0")."""
from __future__ import annotations

import textwrap

import pytest

import cardspec
from cardspec.lang import DslError, parse
from cardspec.play.terminal import format_events
from cardspec.authoring.validate import validate_ruleset


def _problems(tmp_path, text):
    f = tmp_path / "v.yaml"
    f.write_text(textwrap.dedent(text))
    problems, status = validate_ruleset(str(f), play=False)
    assert status == 1
    return [(p.line, p.col, p.message, p.hint) for p in problems]


@pytest.mark.parametrize("text, line, col, key, above", [
    ("""\
        extends: black-lady
        name: v
        options:
          pass_count:
            default: 2
              help: Two cards.
        """, 6, 7, "default", 5),
    ("""\
        extends: black-lady
        name: v
        title: x
          description: y
        """, 4, 3, "title", 3),
])
def test_an_over_indented_line_is_called_over_indented(tmp_path, text, line, col, key, above):
    """It said "mapping values are not allowed … a value containing ': ' must be quoted"."""
    [(ln, c, message, hint)] = _problems(tmp_path, text)
    assert (ln, c) == (line, col)
    assert message == (f"this line is indented more than line {above}, whose '{key}' already has a value: "
                       f"YAML reads it as more of that value")
    assert hint.startswith(f"indent it as line {above} (column ")


def test_a_value_with_an_unquoted_colon_keeps_the_quoting_hint(tmp_path):
    [(ln, _c, message, hint)] = _problems(tmp_path, """\
        extends: black-lady
        name: v
        title: Black Lady: no passing
        """)
    assert ln == 3 and "mapping values are not allowed" in message and hint == "a value containing ': ' must be quoted"


@pytest.mark.parametrize("text, message, col", [
    ("if a == 1 10 else 2", "missing 'then' before '10'", 11),
    ("if a == 1 then 10 2", "missing 'else' before '2'", 19),
    ("if a then 1", "missing 'else': the expression ends too early", 12),
    ("if a then (if b 3 else 4) else 5", "missing 'then' before '3'", 17),
    ('if x == "then" 3 else 4', "missing 'then' before '3'", 16),   # a word in a string is no keyword
])
def test_a_missing_then_or_else_is_named(text, message, col):
    """It said "unexpected '10'" and "expected ')', '*', …" without mentioning then."""
    with pytest.raises(DslError) as e:
        parse(text)
    assert (e.value.message, e.value.col) == (message, col)
    assert e.value.hint == "an if-expression is: if CONDITION then VALUE else VALUE"


def test_other_parse_errors_are_unchanged():
    with pytest.raises(DslError) as e:
        parse("if a then 1 else 2 3")
    assert e.value.message == "unexpected '3'"


def test_every_unknown_name_of_an_expression_is_reported(tmp_path):
    """Only the first was reported, so fixing a typo revealed the next one."""
    found = _problems(tmp_path, """\
        extends: black-lady
        name: v
        define:
          pass_size: !replace if pas_to == "cycle" then pas_count else pass_cont
        """)
    assert found == [(4, 26, "unknown name 'pas_to'", "did you mean 'pass_to'?"),
                     (4, 49, "unknown name 'pas_count'", "did you mean 'pass_count'?"),
                     (4, 64, "unknown name 'pass_cont'", "did you mean 'pass_count'?")]


def test_emit_gives_a_suit_as_its_letter_and_a_card_as_its_code(tmp_path):
    """The log showed a suit as "suit 0": emitted suits read as the trump step's do (S, H, D, C), cards as codes."""
    f = tmp_path / "v.yaml"
    f.write_text(textwrap.dedent("""\
        extends: black-lady
        name: v
        log:
          led: "trick {n}: {suit} led, {card} first"
        deal:
          - id: play
            tricks:
              after_trick:
                - emit: {type: led, n: trick_number, suit: led_suit, card: "trick[0]", cards: trick}
        """))
    g = cardspec.load(str(f), 4, {"pass_count": 0})
    s = g.new_state(seed=1)
    first = s.legal_actions()[0]
    while not any(e["type"] == "led" for e in s.log_all()):
        s.apply(s.legal_actions()[0])
    ev = next(e for e in s.log_all() if e["type"] == "led")
    assert ev["suit"] == first[-1] and ev["card"] == first and ev["cards"][0] == first and len(ev["cards"]) == 4
    assert format_events(g, [ev]) == [f"  trick 1: {first[-1]} led, {first} first"]


def test_errors_cross_processes_whole():
    """`cardspec simulate --workers 2` printed a worker's ruleset error one character a line: the error,
    rebuilt from its text after pickling, took each character for a problem."""
    import pickle
    from cardspec.errors import IllegalAction, Problem, RulesetError
    from cardspec.rules import OptionError
    e = RulesetError([Problem("f.yaml", 4, 5, "boom", "a hint"), Problem("f.yaml", 6, 1, "two")])
    e.code = "ruleset/fault"
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is RulesetError and back.problems == e.problems and str(back) == str(e)
    assert back.code == "ruleset/fault"
    o = pickle.loads(pickle.dumps(OptionError(Problem("options", 0, 0, "unknown option 'x'"))))
    assert type(o) is OptionError and o.problems[0].message == "unknown option 'x'"
    i = pickle.loads(pickle.dumps(IllegalAction(2, "QQ", ["QS", "KS"], "not a card")))
    assert (i.seat, i.action, i.legal, i.reason, str(i)) == (2, "QQ", ["QS", "KS"], "not a card",
                                                            str(IllegalAction(2, "QQ", ["QS", "KS"], "not a card")))


def test_simulate_with_workers_prints_a_fault_as_with_one(tmp_path):
    import os
    import subprocess
    import sys
    f = tmp_path / "fault.yaml"
    f.write_text(textwrap.dedent("""\
        extends: black-lady
        name: fault
        deal:
          - id: oops
            after: play
            do:
              - add: {counter: points, seat: players, value: 1}
        """))

    def run(*extra):
        return subprocess.run([sys.executable, "-m", "cardspec.cli", "simulate", "fault.yaml", "-n", "2", *extra],
                              cwd=tmp_path, capture_output=True, text=True, timeout=300,
                              env={**os.environ, "CARDSPEC_DEBUG": ""})
    one, two = run(), run("--workers", "2")
    assert one.returncode == two.returncode != 0
    assert two.stderr == one.stderr
    assert one.stderr.splitlines()[0].startswith("fault.yaml:4:5: error: with 3 players, deal 1, step 'oops': ")


def test_a_bad_option_default_is_reported_when_the_schema_refuses_its_consequence(tmp_path):
    """`jack_of_diamonds: {default: true}` over black-lady's int option was reported only as the base's
    "$.deck.points.JD: expected a whole number, found true/false" (a by_option use in black-lady.yaml): the
    cause, the variant's default, is now reported at its line too."""
    f = tmp_path / "v.yaml"
    f.write_text("extends: black-lady\nname: v\noptions:\n  jack_of_diamonds: {default: true}\n")
    problems, status = validate_ruleset(str(f), play=False)
    assert status == 1
    mine = [(p.line, p.col, p.message) for p in problems if p.file.endswith("v.yaml")]
    assert mine == [(4, 31, "bad default: option 'jack_of_diamonds' takes a whole number; got 'true'")]
