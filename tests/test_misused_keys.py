"""Keys a step would silently ignore are errors at their file:line:col (issue 16, closing note 2026-12-01:
``deal: {count: 26}``, meaning ``each:``, validated and dealt one card each), and an expression with an
unknown name makes Python no warning while it is checked (generated ``None[0]`` gave ``SyntaxWarning:
'NoneType' object is not subscriptable`` in test_turns, test_turns_errors and test_fuzz_mutants)."""
from __future__ import annotations

import warnings

from pathlib import Path

import pytest

import cardspec
from cardspec.errors import RulesetError
from cardspec.authoring.validate import validate_ruleset


def _problems(tmp_path, text):
    path = tmp_path / "child.yaml"
    path.write_text(text, encoding="utf-8")
    problems, status = validate_ruleset(str(path), play=False)
    return problems, status, path


def test_count_into_a_per_seat_zone_is_an_error_with_did_you_mean_each(tmp_path):
    """The exact noticed fault: count: 26 to a per-seat hand (meant each: 26) dealt one card to each seat."""
    problems, status, path = _problems(tmp_path, "extends: hearts\ndeal:\n  - shuffle\n  - deal: {to: hand, count: 13}\n")
    assert status == 1 and len(problems) == 1, problems
    p = problems[0]
    assert (Path(p.file).resolve(), p.line, p.col) == (path.resolve(), 4, 22), p   # files are named from the cwd
    assert "count: is for a shared zone" in p.message and "'hand' is per seat" in p.message
    assert p.hint == "did you mean each: 13?"
    with pytest.raises(RulesetError):
        cardspec.load(str(path), players=4)


def test_keys_of_the_other_zone_kind_are_each_reported(tmp_path):
    """each:/start: into a shared zone, rest:/face_up: into a per-seat zone: each at its own key."""
    problems, status, _ = _problems(tmp_path, '''\
extends: hearts
zones:
  kitty: {visibility: all}
deal:
  - shuffle
  - deal: {to: kitty, each: 4, start: 1}
  - deal: {to: hand, rest: true, face_up: 1}
''')
    assert status == 1
    got = [(p.line, p.col, p.message.split(":")[0]) for p in problems]
    assert got == [(6, 23, "each"), (6, 32, "start"), (7, 22, "rest"), (7, 34, "face_up")], problems
    assert problems[0].hint == "did you mean count: 4?"


def test_the_right_keys_still_deal_as_before():
    """The built-ins deal with each: to hands and count:/rest:/face_up: to shared zones: unchanged."""
    for name in ("hearts", "knave", "burraco", "oh-hell"):
        assert validate_ruleset(name, play=False) == ([], 0), name
    state = cardspec.load("hearts", players=4).new_state(seed=1)
    assert [len(h) for h in state.z[state.game.zone["hand"].index]] == [13] * 4


def test_phase_keys_that_would_be_ignored_are_errors(tmp_path):
    """auto: is read by a one phase only and who: by a deciding phase only; elsewhere they did nothing."""
    problems, status, _ = _problems(tmp_path, '''\
extends: red-dog
deal:
  - id: turns
    turns:
      first: left_of(dealer)
      max_turns: 10
      turn:
        - do: [{emit: {type: turn_begins}}]
          who: left_of(seat)
        - optional: [raise]
          auto: true
''')
    msgs = [p.message for p in problems]
    assert status == 1 and len(problems) == 2, problems
    assert any(m.startswith("who: chooses the seat") for m in msgs), problems
    assert any(m.startswith("auto: is for a one phase") for m in msgs), problems


def test_an_unknown_name_gives_no_python_warning():
    """A legal: naming an action parameter is compiled once with the seat alone (is it the same for every
    value?): the unknown name compiled to None and folding computed ``None[0]``, and Python warned. Now
    nothing is computed after an unknown name; the DslError is the same."""
    from cardspec.lang import Binding, DslError, INT, BOOL, compile_expr
    game = cardspec.load("red-dog", players=2)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with pytest.raises(DslError) as info:
            compile_expr("count(c in deck where c.suit == cards[0].suit) > 0", game.env,
                         {"seat": Binding("p_seat", INT)}, (BOOL,))
    assert "unknown name 'cards'" in info.value.message
    assert [str(w.message) for w in seen if issubclass(w.category, SyntaxWarning)] == []
