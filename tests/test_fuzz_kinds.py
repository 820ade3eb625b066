"""Fault kinds the mutation fuzz found (docs/fuzz.md), each fixed where the ruleset is checked, so that any
ruleset of the kind is a RulesetError at file:line:col at validate, not a Python exception at play.

Each test gives the kind in a hand-written form (the fuzz's own mutant indexes move whenever a built-in
changes, so the mutant itself is not kept)."""
from __future__ import annotations

from pathlib import Path

import pytest

from cardspec.authoring.validate import validate_ruleset


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


def test_a_players_range_past_the_deck_is_refused_quickly(tmp_path):
    """Seed 20261201, mutants 18555 (four-jacks-polignac, `players: max: 63`) and 18771 (four-jacks,
    `max: 64`): 32 cards leave every hand empty at 33+ players, so no seat ever decides, and each of those
    player counts ran `match: max_deals` empty deals in one call — validate spent its whole 10 s CPU budget
    and called the ruleset "a loop that does not end". A match may end at most MAX_DEALS_WITHOUT_DECISION
    deals in a row with no decision; past it, a ruleset error that says why (docs/rulesets.md, Caps)."""
    import time
    from cardspec.engine.state import MAX_DEALS_WITHOUT_DECISION
    t0 = time.process_time()
    problems = _problems(tmp_path, "extends: four-jacks\nname: wide\nplayers: {min: 4, max: 64}\n")
    assert time.process_time() - t0 < 8.0   # well inside validate's budget, not stopped by it
    assert [p.code for p in problems] != ["ruleset/over_budget"], problems
    assert any(f"more than {MAX_DEALS_WITHOUT_DECISION} deals in a row ended with no seat to decide" in p.message
               and "players range" in p.message for p in problems), problems


def test_a_budget_stop_while_a_step_is_built_names_no_step():
    """Seed 20261201, mutant 17620 (napoleon): validate's CPU budget ran out inside an auction step's
    constructor, before the step had its name, and the over-budget problem itself raised AttributeError.
    A step still being built is not named; the problem is still ruleset/over_budget."""
    from cardspec.engine.steps.base import Step
    from cardspec.authoring.validate import OverBudget, _over_budget

    class HalfBuilt(Step):
        def __init__(self):
            raise OverBudget

    try:
        HalfBuilt()
    except OverBudget as e:
        p = _over_budget("mutant.yaml", {}, e)
    assert p.code == "ruleset/over_budget" and "in step" not in p.message and p.file == "mutant.yaml"


def test_validate_budget_survives_code_that_swallows_the_interruption(monkeypatch):
    """The budget interrupts the checks with an exception at the next bytecode; code that catches it and
    carries on (a profiler, a bare except) must not turn a stop into a hang: it is raised again each second
    until the checks end."""
    import time
    import cardspec.authoring.validate as v
    monkeypatch.setattr(v, "VALIDATE_SECONDS", 0.6)
    monkeypatch.setattr(v, "_option_extremes", lambda *a: None)   # reach the random games at once
    swallowed = []

    def stubborn(games, problems):
        try:
            while True:
                pass
        except v.OverBudget:
            swallowed.append(1)
        end = time.monotonic() + 30   # without a second interruption: give up, and validate "passes"
        while time.monotonic() < end:
            pass
    monkeypatch.setattr(v, "_random_games", stubborn)
    problems, status = v.validate_ruleset("hearts")
    assert swallowed and status == 1 and [p.code for p in problems] == ["ruleset/over_budget"], problems


def test_a_choice_value_of_several_words_is_refused_at_its_choice(tmp_path):
    """Seed 20261201, mutant 20380 (eleusis-prophets): `choice: '["success[dealer - 1]", "failure", "mixed"]'`
    validated, and then the legal action `judge success[dealer - 1]` was refused as "not understood" when
    applied by its own text. A choice's text value is one word of the action; a value with a space (or an
    empty one) is a RulesetError at the choice's file:line:col."""
    text = (Path(__file__).parents[1] / "rulesets" / "eleusis-prophets.yaml").read_text(encoding="utf-8")
    old = 'choice: \'["success", "failure", "mixed"]\''
    assert old in text
    for bad in ('success[dealer - 1]', ''):
        problems = _problems(tmp_path, text.replace(old, old.replace('"success"', f'"{bad}"')))
        line = next(i for i, t in enumerate(text.splitlines(), 1) if old in t)
        assert any("a choice's value is one word of the action's text" in p.message and p.line == line
                   for p in problems), problems


def test_an_auction_number_range_past_the_cap_is_refused(tmp_path):
    """Seed 20261201, mutant 21343 (auction-pitch): `auction: bids: number: {max: 9223372036854775808}` gave
    an internal OverflowError while the bids were listed at load. An auction offers at most
    MAX_NUMBER_VALUES numbers, like a number parameter (docs/rulesets.md, Caps): past it, a RulesetError at
    the bids' number:."""
    from cardspec.engine.steps.turns import MAX_NUMBER_VALUES
    text = (Path(__file__).parents[1] / "rulesets" / "auction-pitch.yaml").read_text(encoding="utf-8")
    old = 'bids: {number: {min: "if modern_auction then 2 else 1", max: 4}}'
    assert old in text
    for hi in (2 ** 63, 10 ** 12, 1 + MAX_NUMBER_VALUES):
        problems = _problems(tmp_path, text.replace(old, old.replace("max: 4", f"max: {hi}")))
        assert any(f"more than {MAX_NUMBER_VALUES:,} bids" in p.message for p in problems), problems


def test_a_by_option_with_a_default_but_no_cases_is_refused(tmp_path):
    """Seed 20261201, mutant 22978 (svoyi-koziri): `ranks: {by_option: cards, default: [7, 8, …]}` with its
    `cases:` deleted was schema-checked as its default (a list) but, without cases, a by_option is the
    option's value itself (docs/rulesets.md, by_option): the deck got `ranks: 32` and compiling raised
    TypeError. The schema check now sees what the game will (the option's value, here a number where a
    list is expected), and a default: that can never apply is reported at its line."""
    problems = _problems(tmp_path, '''\
extends: svoyi-koziri
name: child
deck:
  ranks:
    by_option: cards
    default: [7, 8, 9, T, J, Q, K, A]
''')
    assert any("expected a list, found the number 32" in p.message and p.line == 5 for p in problems), problems
    assert any("its default: is never used" in p.message and p.line == 6 for p in problems), problems


@pytest.mark.parametrize("text, said", [
    ("play", "the text of action 'play'"),
    ("PLAY", "the text of action 'play'"),
    ("skip", "the word that passes a phase (pass:)"),
    ("'   '", "has an empty text"),
])
def test_two_actions_written_alike_are_refused_at_the_text(tmp_path, text, said):
    """Seed 20261201, mutant 23712 (eleusis-prophets): `prophesy` given `text: play` validated (validate's
    random game then met it as an internal error: 'play' was listed as the prophecy and applied as the play
    of cards, "'play' needs declare"). Every action of a step has a text of its own, not its done/pass word
    either; a clash is a RulesetError at the second action's text."""
    base = (Path(__file__).parents[1] / "rulesets" / "eleusis-prophets.yaml").read_text(encoding="utf-8")
    old = "  prophesy:\n    text: prophet\n"
    assert old in base
    problems = _problems(tmp_path, base.replace(old, f"  prophesy:\n    text: {text}\n"))
    line = base.splitlines().index("    text: prophet") + 1
    assert any(said in p.message and p.line == line for p in problems), problems


_MELD = '      - meld: {from: "hand[seat]", to: "table[team(seat)]", cards: cards, wild: wild_cards}\n'
_LAY_OFF = '      - lay_off: {from: "hand[seat]", to: "table[team(seat)]", index: meld - 1,'
_WILD_LOW = '      - wild_to_low_end: {to: "table[team(seat)]", index: meld - 1, wild: wild_cards}\n'
_DISCARD = '      - move: {from: "hand[seat]", to: discard, cards: card}\n'


def _burraco_with(tmp_path, old, new):
    """The problems of burraco with ``old`` (once in it) replaced by ``new``, and the line of ``new``'s first
    line that is not in burraco."""
    base = (Path(__file__).parents[1] / "rulesets" / "burraco.yaml").read_text(encoding="utf-8")
    assert base.count(old) == 1, old
    changed = next(i for i, t in enumerate(new.splitlines()) if t not in base.splitlines())
    return _problems(tmp_path, base.replace(old, new)), base[:base.index(old)].count("\n") + 1 + changed


@pytest.mark.parametrize("old, new, said", [
    # seed 20261201, mutant 34870 as it was rebuilt: the new meld into the per-seat zone of cards itself
    (_MELD, _MELD.replace('to: "table[team(seat)]"', "to: hand"),
     "meld's to: is a zone of melds (declared melds: true, e.g. table[team(seat)]); found per-seat zone 'hand' "
     "as a whole"),
    (_LAY_OFF, _LAY_OFF.replace('to: "table[team(seat)]"', "to: hand"),
     "lay_off's to: is a zone of melds"),
    (_WILD_LOW, _WILD_LOW.replace('to: "table[team(seat)]"', "to: held"),
     "wild_to_low_end's to: is a zone of melds"),
    # cards taken from what is no zone: a card parameter (a tuple), one meld of the table
    (_MELD, _MELD.replace('from: "hand[seat]"', "from: cards"),
     "meld's from: is a zone of cards (a shared zone, or a per-seat zone with its seat: hand[seat]); found a value "
     "computed from zones, not a zone itself"),
    (_LAY_OFF, _LAY_OFF.replace('from: "hand[seat]"', 'from: "table[team(seat)][meld - 1]"'),
     "lay_off's from: is a zone of cards (a shared zone, or a per-seat zone with its seat: hand[seat]); found one "
     "meld of zone 'table'"),
    # the same hole in move and shuffle: a list of cards that is no zone
    (_DISCARD, _DISCARD.replace("to: discard", 'to: "table[team(seat)][0]"'),
     "move's to: is a zone of cards (a shared zone, or a per-seat zone with its seat: hand[seat]); found one meld "
     "of zone 'table'"),
    (_DISCARD, _DISCARD.replace('from: "hand[seat]"', 'from: "filter(c in hand[seat] where c != card)"'),
     "move's from: is a zone of cards"),
    (_DISCARD, _DISCARD + '      - shuffle: "filter(c in discard where c != card)"\n',
     "shuffle's zone is a zone of cards"),
    (_DISCARD, '      - move: {from: stock, to: "hand[seat]", count: 1, refill: "table[0][0]"}\n' + _DISCARD,
     "move's refill: is a zone of cards"),
])
def test_an_effect_zone_that_is_not_a_zone_of_its_kind_is_refused(tmp_path, old, new, said):
    """Seed 20261201, mutant 34870 (burraco): the meld effect's `to: table[team(seat)]` mutated to `to: hand`
    validated (a per-seat zone of cards and one seat's zone of melds are both lists of card lists) and raised
    `TypeError: 'int' object is not subscriptable` at play, the meld appended to the list of hands. Every
    effect argument that changes a zone is checked at load to be a zone of the kind it needs — meld's and
    lay_off's to: and wild_to_low_end's to: a zone of melds; their from:, move's from:/to:/refill: and
    shuffle's zone a zone of cards (not a card parameter, one meld, or a computed list) — a RulesetError at
    its file:line:col. Before the check, five of these were internal errors at validate's play (TypeError,
    AttributeError), the move onto one meld a ruleset error at play only while that meld did not exist (a
    tuple once it does), and three validated and went wrong silently (the wild_to_low_end into
    `held` could put a tuple in place of a seat's zone; a move from filter(…) copied cards; a shuffle of
    filter(…) shuffled nothing)."""
    problems, line = _burraco_with(tmp_path, old, new)
    assert any(said in p.message and p.line == line for p in problems), problems


def test_a_two_digit_bid_of_a_number_only_is_understood(tmp_path):
    """Seed 20261201, mutant 43186 (napoleon): `bids: {number: …, suit: [C, D, H, S]}` with its suit: deleted
    listed `bid 15` as legal and then refused it as not understood: the parser read a number with a suit
    letter after it ("14H") into "1" and suit "5". Each listed bid's own text is understood."""
    text = (Path(__file__).parents[1] / "rulesets" / "napoleon.yaml").read_text(encoding="utf-8")
    old = "bids: {number: {min: min_bid, max: 20}, suit: [C, D, H, S]}"
    assert old in text
    path = tmp_path / "child.yaml"
    path.write_text(text.replace(old, "bids: {number: {min: min_bid, max: 20}}"), encoding="utf-8")
    import cardspec
    game = cardspec.load(str(path), players=4)
    legal = game.new_state(seed=4).legal_actions()
    assert "bid 15" in legal and "bid 20" in legal, legal
    for text in legal:   # each by its text, on its own copy of the deal
        state = game.new_state(seed=4)
        state.apply(text)
        assert state.legal_actions() != legal or text == "pass"


@pytest.mark.parametrize("index", ["seat + 1", "-1"])
def test_a_lay_off_on_a_meld_that_does_not_exist_is_a_ruleset_error(tmp_path, index):
    """Seed 20261201, mutant 43443 (burraco): the lay_off effect's `index: meld - 1` mutated to `seat + 1`
    validated and raised IndexError at play (a negative index laid the cards off on another meld). The index
    is known only at play: a meld the zone does not hold is a ruleset error at the step (ruleset/runtime),
    raised before any card moves."""
    from cardspec.lang.runtime import RuleFault
    from cardspec.engine.melds import fx_lay_off
    hand, table = [1, 2], [(3, 4, 5)]
    with pytest.raises(RuleFault, match="no such meld"):
        fx_lay_off(None, hand, table, 1 if index == "seat + 1" else -1, [1], [])
    assert hand == [1, 2] and table == [(3, 4, 5)]
    problems = _problems(tmp_path, (Path(__file__).parents[1] / "rulesets" / "burraco.yaml").read_text(
        encoding="utf-8").replace("index: meld - 1, cards: cards", f"index: {index}, cards: cards"))
    assert any(p.code == "ruleset/runtime" and "no such meld" in p.message for p in problems), problems
