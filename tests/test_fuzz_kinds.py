"""Fault kinds the mutation fuzz found (docs/fuzz.md), each fixed where the ruleset is checked, so that any
ruleset of the kind is a RulesetError at file:line:col at validate, not a Python exception at play.

Each test gives the kind in a hand-written form (the fuzz's own mutant indexes move whenever a built-in
changes, so the mutant itself is not kept)."""
from __future__ import annotations

import pytest

from cardspec.validate import validate_ruleset


def _problems(tmp_path, text):
    path = tmp_path / "child.yaml"
    path.write_text(text, encoding="utf-8")
    problems, status = validate_ruleset(str(path))
    assert status == 1 and problems, problems
    assert not [p for p in problems if p.code.startswith("internal/")], problems
    return problems


def test_for_each_over_a_number_is_refused_at_its_in(tmp_path):
    """Seed 20261201, mutant 713 (goninkan): `for_each: {in: seats[holder(hand, QS)]}` (one seat, an int)
    passed the checker and failed at play with `'int' object is not iterable`: in: must be a list."""
    problems = _problems(tmp_path, '''\
extends: goninkan
deal:
  - id: draw-dealer
    do:
      - for_each: {as: p, in: "seats[holder(hand, QS)]", do: [{reveal: {cards: "draw[p]", seat: p}}]}
      - set: {dealer: "filter(p in seats where draw_key(p) == min(draw_key(q) for q in seats))[0]"}
''')
    assert any("for_each's in: needs a list" in p.message and "found int" in p.message
               and (p.line, p.col) == (5, 31) for p in problems), problems


def test_reveal_of_a_number_is_refused_at_its_cards(tmp_path):
    """The same kind in `reveal:` (a number where a card or a list of cards is expected)."""
    problems = _problems(tmp_path, '''\
extends: goninkan
deal:
  - id: draw-dealer
    do:
      - for_each: {as: p, in: seats, do: [{reveal: {cards: "count(draw[p])", seat: p}}]}
      - set: {dealer: "filter(p in seats where draw_key(p) == min(draw_key(q) for q in seats))[0]"}
''')
    assert any("reveal's cards: is a card or a list of cards, not int" in p.message for p in problems), problems


@pytest.mark.parametrize("value", ["count(hand[seat])", "hand[seat]"])
def test_candidates_that_are_not_card_lists_are_refused(tmp_path, value):
    """The kind in the turns step: `candidates:` must be a list of card lists (melds_in(...)); a number or a
    plain zone reached the listing at play (`'int' object is not iterable`)."""
    problems = _problems(tmp_path, f'''\
extends: burraco
actions:
  meld:
    params:
      cards:
        candidates: "{value}"
''')
    assert any("candidates: is a list of card lists" in p.message for p in problems), problems


@pytest.mark.parametrize("count", ['"pots[mate(seat)]"', "-1", "0"])
def test_a_choice_count_that_is_not_a_positive_number_is_refused(tmp_path, count):
    """Seed 20261201 before the rulesets moved, mutants 355 (`int()` of the expression text 'pots[mate(seat)]'
    while compiling) and 1031 (`r must be non-negative` from combinations at play), both svoyi-koziri's
    `suits: {choice: all_suits, count: 2}`: the count is checked at its key (main d586207; this test keeps
    both forms of the kind)."""
    from pathlib import Path
    src = (Path(__file__).resolve().parent.parent / "rulesets" / "svoyi-koziri.yaml").read_text(encoding="utf-8")
    assert "suits: {choice: all_suits, count: 2}" in src
    problems = _problems(tmp_path, src.replace("suits: {choice: all_suits, count: 2}",
                                               f"suits: {{choice: all_suits, count: {count}}}"))
    assert any("a choice's count is a whole number of values, 1 or more" in p.message for p in problems), problems


def test_an_int_option_whose_values_are_text_stays_an_int():
    """Long run seed 20261201, mutant 9013 (auction-pitch): an int option with `values:` written as text
    ("-1") gave the text itself as the value (`abs()` of a str while validate tried the option's values):
    the value stays the int it reads as."""
    from cardspec.rules.loader import coerce_option
    spec = {"type": "int", "default": 5, "values": ["-1", 5]}
    assert coerce_option("target", spec, "-1") == -1
    assert coerce_option("target", spec, 5) == 5


@pytest.mark.parametrize("teams, message, col", [
    ("[[100, 2], [1, 3]]", "team seat 100 is not a seat of every game: seats are 0 to 3", 12),
    ("[[0, 2], [1, 2]]", "seat 2 is in two teams", 23),
    ("[[0, 2], [1, -1]]", "at least 0; found -1", 23),
])
def test_team_seats_out_of_range_or_twice_are_refused(tmp_path, teams, message, col):
    """Seed 20261201, mutant 13037 (burraco): `match: teams: [[100, 2], [1, 3]]` validated and then the end of
    the match raised an IndexError in the engine. Every team seat must exist at every player count and be in
    one team only; a mistake is a RulesetError at the seat's file:line:col."""
    problems = _problems(tmp_path, f'''\
extends: burraco
match:
  teams: {teams}
''')
    assert any(message in p.message and (p.line, p.col) == (3, col) for p in problems), problems
