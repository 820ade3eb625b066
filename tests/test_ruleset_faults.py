"""Issue 16, "Found" 3: faults that gave a Python error instead of a ruleset error, each reproduced as
the issue wrote it and each fixed by kind (DESIGN.md "Errors": no Python traceback ever reaches a
ruleset author; a broken ruleset reports file:line:col and what was expected).
"""
from __future__ import annotations

import textwrap

import pytest
from click.testing import CliRunner

import cardspec
from cardspec.rules import yaml_pos as _yaml
from cardspec.cli import main
from cardspec.errors import RulesetError
from cardspec.rules import read_ruleset
from cardspec.authoring.validate import validate_ruleset


def _write(tmp_path, text, name="r.yaml"):
    f = tmp_path / name
    f.write_text(textwrap.dedent(text), encoding="utf-8")
    return f


def _only_problem(path):
    problems, status = validate_ruleset(str(path))
    assert status == 1 and problems, problems
    assert not any(p.code.startswith("internal/") for p in problems), [p.format() for p in problems]
    return problems


# ---- ids under extends: (loader merge) ----------------------------------------------------------

def test_issue16_two_deal_items_with_the_same_id_under_extends(tmp_path):
    """Issue 16 Found 3: two `deal` items with the same id under extends: gave
    `TypeError: list indices must be integers or slices, not tuple`."""
    f = _write(tmp_path, """\
        extends: black-lady
        name: dup
        deal:
          - id: pass
            pass: {count: 2}
          - id: pass
            pass: {count: 3}
        """)
    with pytest.raises(RulesetError) as e:
        read_ruleset(str(f))
    p = e.value.first
    assert (p.line, p.col) == (6, 9) and "id 'pass' is used twice" in p.message and "line 4" in p.message
    _only_problem(f)


def test_a_repeated_new_id_and_a_repeated_id_without_extends_are_refused_too(tmp_path):
    """The same kind without a base item to merge into, and in a file that extends nothing."""
    f = _write(tmp_path, """\
        extends: black-lady
        name: dup
        deal:
          - {id: a, shuffle: {}}
          - {id: a, shuffle: {}}
        """)
    assert "id 'a' is used twice" in _only_problem(f)[0].message
    base = read_ruleset("black-lady").data
    import yaml
    data = dict(base, deal=[{"id": "x", "shuffle": None}, {"id": "x", "shuffle": None}])
    g = tmp_path / "plain.yaml"
    g.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert "id 'x' is used twice" in _only_problem(g)[0].message


@pytest.mark.parametrize("ident, what", [("{a: 1}", "a mapping"), ("[1, 2]", "a list"), ("true", "true/false"),
                                         ("~", "nothing")])
def test_issue16_an_id_that_is_not_a_name(tmp_path, ident, what):
    """Issue 16 Found 3: `id: {a: 1}` gave `unhashable type: 'dict'`."""
    f = _write(tmp_path, f"""\
        extends: black-lady
        name: dictid
        deal:
          - id: {ident}
            shuffle: {{}}
        """)
    p = _only_problem(f)[0]
    assert (p.line, p.col) == (4, 9) and p.message == f"id: is a name (text), not {what}"


# ---- file names and sizes --------------------------------------------------------------------------

@pytest.mark.parametrize("base", ["x" * 5000, "a/" * 3000 + "b", "nul\0byte"])
def test_issue16_an_extends_name_the_system_cannot_look_up(tmp_path, base):
    """Issue 16 Found 3: a 5,000-character `extends:` gave `OSError: File name too long`; the same kind:
    a path too deep, a NUL byte. Each is 'no ruleset named …' at the extends: value."""
    f = tmp_path / "r.yaml"
    f.write_text(f"extends: \"{base.replace(chr(0), chr(92) + '0')}\"\nname: long\n", encoding="utf-8")
    p = _only_problem(f)[0]
    assert (p.line, p.col) == (1, 10) and p.message.startswith("no ruleset file or built-in ruleset named")
    assert len(p.message) < 400
    r = CliRunner().invoke(main, ["validate", "x" * 5000])
    assert r.exit_code == 2 and "no ruleset file" in r.output and "Traceback" not in r.output


def test_issue16_a_huge_file_is_refused_before_it_is_read_whole(tmp_path, monkeypatch):
    """Issue 16 Found 3: a 3 GB file was read whole before the 2 MB limit applied. Now at most
    MAX_BYTES + 1 bytes are read (a sparse 3 GB file: no disk, and no time to read it)."""
    f = tmp_path / "huge.yaml"
    with open(f, "wb") as h:
        h.write(b"name: huge\n")
        h.truncate(3 * 10**9)
    reads = []
    real_open = open

    class Counting:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *a):
            self.fh.close()

        def read(self, n=-1):
            reads.append(n)
            return self.fh.read(n)

    monkeypatch.setattr(_yaml, "open", lambda *a, **k: Counting(real_open(*a, **k)), raising=False)
    with pytest.raises(RulesetError) as e:
        read_ruleset(str(f))
    assert "larger than 2000000 bytes" in e.value.first.message
    assert reads == [_yaml.MAX_BYTES + 1]
    with pytest.raises(RulesetError):   # a scenario file too
        from cardspec.rules import read_scenario_yaml
        read_scenario_yaml(str(f))


# ---- options -------------------------------------------------------------------------------------

def test_issue16_an_int_option_with_no_default(tmp_path):
    """Issue 16 Found 3: an int option with no default validated, then play failed with
    `NoneType + int`. Every option declares its default (after extends: merges)."""
    f = _write(tmp_path, """\
        extends: black-lady
        name: nodefault
        options:
          extra: {type: int}
        deal:
          - id: score
            score: {counter: score, value: "count(won[seat]) + extra"}
        """)
    p = _only_problem(f)[0]
    assert (p.line, p.col) == (4, 3) and p.message == "option 'extra' has no default:"
    with pytest.raises(RulesetError):
        cardspec.load(str(f), 4)
    # a variant may still leave out default: for an option its base declares (vanishing-whist's max_cards)
    assert validate_ruleset("vanishing-whist") == ([], 0)


# ---- the command line: no traceback, a coded message, exit 2 -------------------------------------

def _boom(*a, **k):
    raise ZeroDivisionError("boom inside cardspec")


@pytest.mark.parametrize("args, target", [
    (["list"], "cardspec.rules.builtin_names"),
    (["schema"], "cardspec.rules.schema_path"),
    (["validate", "hearts"], "cardspec.authoring.validate.validate_ruleset"),
    (["play", "hearts"], "cardspec.play.terminal.play_match"),
    (["simulate", "hearts", "-n", "1"], "cardspec.simulate.simulate"),
    (["replay", "tests/scenarios/cancellation-5C-led-queens-cancel-3H-wins.yaml"], "cardspec.authoring.scenario.replay"),
    (["solve", "tests/svoyi_koziri/solve-6-cards-quick.yaml"], "cardspec.players.solve.solve"),
    (["serve", "--stdio", "--store", "none"], "cardspec.serve.protocol.serve_stdio"),
])
def test_every_command_turns_an_unexpected_exception_into_a_coded_error(monkeypatch, args, target):
    """Issue 16 Deliver 3: no Python exception type reaches a user: an internal fault prints
    `error: [internal/error] …` with a bug-report hint, no traceback, and exits 2."""
    import importlib
    mod, name = target.rsplit(".", 1)
    monkeypatch.setattr(importlib.import_module(mod), name, _boom)
    monkeypatch.delenv("CARDSPEC_DEBUG", raising=False)
    r = CliRunner().invoke(main, args)
    out = r.output
    assert r.exit_code == 2, out
    assert "error: [internal/error] unexpected ZeroDivisionError: boom inside cardspec" in out
    assert "please report it" in out and "Traceback" not in out


def test_validate_reports_an_internal_fault_as_a_problem_of_that_file_and_goes_on(monkeypatch):
    """`cardspec validate a b`: an internal fault while checking a is a problem of a (code internal/error,
    exit 1: the check failed) and b is still checked."""
    import cardspec.authoring.validate as v
    real = v._validate
    monkeypatch.setattr(v, "_validate", lambda name, *rest: _boom() if name == "hearts" else
                        real(name, *rest))
    r = CliRunner().invoke(main, ["validate", "hearts", "black-lady"])
    assert r.exit_code == 1
    assert "hearts: error: internal error: unexpected ZeroDivisionError: boom inside cardspec" in r.output
    assert "black-lady: ok" in r.output and "Traceback" not in r.output


# ---- seats out of range: the documented -1 rule (docs/dsl.md, "Seats out of range") --------------

def _ev(game, state, text, params=(), args=()):
    from cardspec.lang import Binding, compile_expr
    code = compile_expr(text, game.env, {name: Binding(f"p_{name}", t) for name, t in params})
    return game.comp.function(code.src, params)(state, *args)


def test_issue16_a_score_of_count_won_seat_plus_one(tmp_path):
    """Issue 16 Found 3: a score of `count(won[seat + 1])` gave IndexError at play, although docs/dsl.md
    says out-of-range indexing gives -1 (for a zone: an empty zone). The last seat now scores 0."""
    f = _write(tmp_path, """\
        extends: black-lady
        name: wonidx
        players: {min: 4, max: 4}
        options:
          deals: {default: 1}
        deal:
          - id: score
            score: {counter: points, value: "count(won[seat + 1])", report: false}
          - id: bonuses
            score: {counter: points, value: "points[seat]", add_to: score}
        """)
    problems, status = validate_ruleset(str(f))
    # No error; the replaced scoring leaves the moon and clear options unread (warnings, issue 20 item 4).
    assert status == 0 and [(p.code, p.message.split("'")[1]) for p in problems] == \
        [("option/unread", "moon"), ("option/unread", "clear")]
    g = cardspec.load(str(f), 4)
    s = g.new_state(seed=3)
    s.random_playout()
    won = s.z[g.zone["won"].index]
    assert s.terminal and sum(map(len, won)) == 52
    assert s.scores() == {"0": len(won[1]), "1": len(won[2]), "2": len(won[3]), "3": 0}


@pytest.mark.parametrize("text, params, args, value", [
    ("count(hand[-1])", (), (), 0),
    ("count(hand[players])", (), (), 0),
    ("count(hand[seat + 1])", (("seat", "int"),), (3,), 0),
    ("count(hand[seat + 1])", (("seat", "int"),), (2,), 13),
    ("count(hand[holder(hand, card)])", (("card", "card"),), (-1,), 0),   # nobody holds "no card"
    ("QS in hand[-1]", (), (), False),
    ("top(hand[7])", (), (), -1),
    ("sum(c.points for c in won[0 - 1])", (), (), 0),
    ("score[-1]", (), (), -1),
    ("count(hand[[5, 0][0]])", (), (), 0),   # an index that is neither a name nor a number: _lat
])
def test_reading_a_per_seat_zone_of_no_seat_gives_an_empty_zone(text, params, args, value):
    """docs/dsl.md "Seats out of range": `hand[holder(hand, X)]` when nobody holds X (the last session's
    note), `hand[-1]` (never the last seat's hand, Python's reading of -1), `hand[players]`."""
    g = cardspec.load("hearts", 4)
    s = g.new_state(seed=1)
    assert _ev(g, s, text, params, args) == value


def test_a_per_seat_index_in_range_still_reads_that_seat():
    g = cardspec.load("hearts", 4)
    s = g.new_state(seed=1)
    hand = s.z[g.zone["hand"].index]
    for seat in range(4):
        assert _ev(g, s, "count(hand[seat])", (("seat", "int"),), (seat,)) == len(hand[seat])
        assert _ev(g, s, "count(hand[(seat + 1) % players])", (("seat", "int"),), (seat,)) == len(hand[(seat + 1) % 4])


@pytest.mark.parametrize("effect, message", [
    ("move: {from: 'hand[0]', to: 'won[holder(won, QS)]'}", "cards were moved into a per-seat zone of no seat"),
    ("move: {from: 'hand[0]', to: 'won[players]', count: 1}", "cards were moved into a per-seat zone of no seat"),
    ("add: {counter: score, seat: -1, value: 5}", "a counter of seat -1 was changed: there is no such seat"),
    ("add: {counter: score, seat: 'players + 1', value: 5}", "a counter of seat 5 was changed"),
    ("transfer: {from: 'score[0 - 1]', to: 'score[0]', value: 1}", "a counter of seat -1 was changed"),
])
def test_writing_to_no_seat_stops_the_game_with_a_ruleset_error_at_the_step(tmp_path, effect, message):
    """docs/dsl.md "Seats out of range": cards never go to another seat's zone (Python's lst[-1]) and are
    never lost; the game stops with a RulesetError (code ruleset/runtime) at the step being played."""
    f = _write(tmp_path, f"""\
        extends: black-lady
        name: nowhere
        players: {{min: 4, max: 4}}
        deal:
          - id: deal-widow
          - id: extra
            after: deal-widow
            do:
              - {effect}
        """)
    g = cardspec.load(str(f), 4)
    with pytest.raises(RulesetError) as e:
        g.new_state(seed=2)
    p = e.value.first
    assert e.value.code == "ruleset/runtime" and p.code == "ruleset/runtime"
    assert message in p.message and "with 4 players, deal 1, step 'extra'" in p.message
    assert (p.line, p.col) == (6, 5)
    problems, status = validate_ruleset(str(f))   # validate's random games meet it first
    assert status == 1 and any(message in q.message for q in problems), problems


# ---- stuck with no legal action --------------------------------------------------------------------

def test_issue16_oh_hell_with_bids_min_64(tmp_path):
    """Issue 16 Found 3: oh-hell with bids `min: 64` got stuck with no legal action. A bid range with no
    bid is a ruleset error at the bid step, found by validate."""
    f = _write(tmp_path, """\
        extends: oh-hell
        name: ohbid
        deal:
          - id: bid
            bid: {min: 64}
        """)
    problems, status = validate_ruleset(str(f))
    assert status == 1 and "no bid is possible: min 64 is above max" in problems[0].message
    assert (problems[0].line, problems[0].col) == (4, 5)


def test_issue16_black_lady_with_pass_to_65(tmp_path):
    """Issue 16 Found 3: black-lady with `pass: to: 65` (every seat passing to one seat) got stuck: that
    seat's hand grew and the others ran out mid-deal. The pass step refuses targets that are not a
    permutation of the seats, at the pass step, and validate reports it for every player count."""
    f = _write(tmp_path, """\
        extends: black-lady
        name: blpass
        deal:
          - id: pass
            pass: {to: 65}
        """)
    problems, status = validate_ruleset(str(f))
    assert status == 1 and "each seat must receive the cards of exactly one seat" in problems[0].message
    assert (problems[0].line, problems[0].col) == (4, 5)


def test_a_short_hand_at_the_tricks_step_is_a_ruleset_error_not_a_stuck_game(tmp_path):
    """The same kind reached another way: a deal leaving one seat fewer cards than the tricks to play."""
    f = _write(tmp_path, """\
        extends: black-lady
        name: short
        players: {min: 4, max: 4}
        options:
          pass_count: {default: 0}
        deal:
          - id: deal-widow
          - id: take-two
            after: deal-widow
            do:
              - move: {from: 'hand[0]', to: widow, count: 2}
        """)
    g = cardspec.load(str(f), 4)
    with pytest.raises(RulesetError) as e:
        g.new_state(seed=1)
    assert "seat 0 holds 11 card(s) for 13 trick(s)" in e.value.first.message


def test_no_legal_action_is_reported_by_the_public_api(tmp_path):
    """Whatever the step: `legal_actions()` never answers [] in a game that is not over."""
    f = _write(tmp_path, """\
        extends: oh-hell
        name: ohbid
        deal:
          - id: bid
            bid: {min: 64}
        """)
    g = cardspec.load(str(f), 3)
    from cardspec.engine.steps.bidding import Bid
    # skip the enter() check to reach the listing itself
    real = Bid.enter
    try:
        Bid.enter = lambda self, s: (setattr(s, "queue", [1, 2, 0]) or setattr(s, "flight", []) or
                                     s.v.__setitem__(7, 1) or True)
        s = g.new_state(seed=1)
    finally:
        Bid.enter = real
    with pytest.raises(RulesetError) as e:
        s.legal_actions()
    assert "seat 1 has no legal action" in e.value.first.message and e.value.code == "ruleset/runtime"


def test_an_unexpected_exception_in_the_rules_is_a_coded_error_with_the_step(monkeypatch):
    """Anything else that fails while the rules run is `internal/runtime` at the step, with the
    bug-report hint: never a bare Python exception out of the public API."""
    class Boom(list):   # the trick in progress fails when a card is added to it
        def append(self, x):
            1 / 0

    g = cardspec.load("hearts", 4)
    s = g.new_state(seed=1)
    while s.current_step().kind != "tricks":
        s.apply(s.legal_actions()[0])
    # Through the generated apply (state.text_state_class) and through State's own (a seat given).
    for seat in (None, s.to_act):
        c = s.clone()
        card = c.legal_actions()[0]
        c.plays = Boom(c.plays)
        with pytest.raises(RulesetError) as e:
            c.apply(card, seat=seat)
        assert e.value.code == "internal/runtime" and "ZeroDivisionError" in e.value.first.message
        assert "step 'play'" in e.value.first.message and "please report it" in e.value.first.hint
    g.actions   # states with generated id methods too (state.fused_state_class)
    s = g.new_state(seed=1)
    while s.current_step().kind != "tricks":
        s.apply(s.legal_actions()[0])
    ids = s.legal_action_ids()
    s.plays = Boom(s.plays)
    with pytest.raises(RulesetError) as e:
        s.apply_id(ids[0])
    assert e.value.code == "internal/runtime" and "ZeroDivisionError" in e.value.first.message


# ---- validate checks what play will meet (issue 16 Deliver 3) -----------------------------------------

def test_validate_deals_every_deal_of_the_schedule(tmp_path):
    """Issue 16 Found 3: `validate` compiled and dealt only the first deal, so a fault in a later deal
    surfaced mid-game. Here deal k deals k cards each: with 3 players deal 18 needs 54 of 52 cards (one
    problem per step: the smallest player count that fails is named)."""
    f = _write(tmp_path, """\
        extends: black-lady
        name: growing
        players: {min: 3, max: 4}
        options:
          deals: {default: 20}
          pass_count: {default: 0}
        deal:
          - id: deal-hands
            deal: {to: hand, each: deal_number}
        """)
    problems, status = validate_ruleset(str(f), play=False)
    assert status == 1
    assert [(p.line, p.col, p.message) for p in problems] == [
        (8, 5, "with 3 players, deal 18 fails: cannot deal 18 cards to each of 3 players: 52 left")]


def test_validate_tries_each_option_at_its_extremes(tmp_path):
    """An int option's max that makes the deal impossible is found without --option (the message says
    which option value)."""
    f = _write(tmp_path, """\
        extends: black-lady
        name: extraopt
        players: {min: 4, max: 4}
        options:
          extra: {type: int, default: 0, min: 0, max: 40, help: More cards in each hand.}
        deal:
          - id: deal-hands
            deal: {to: hand, each: "count(deck) / players + extra"}
        """)
    problems, status = validate_ruleset(str(f))
    assert status == 1 and len(problems) == 1
    assert (problems[0].line, problems[0].col, problems[0].message) == (
        7, 5, "with --option extra=40: with 4 players, deal 1 fails: cannot deal 53 cards to each of 4 players: "
              "52 left")
    assert validate_ruleset(str(f), play=False) == ([], 0)


def test_validate_plays_random_games_and_reports_a_crash_at_its_step(tmp_path):
    """A ruleset that validated, then failed in play: a counter of a seat past the last one, reached only
    after some tricks. validate's random games meet it and name the step and the seed."""
    f = _write(tmp_path, """\
        extends: black-lady
        name: latecrash
        players: {min: 4, max: 5}
        deal:
          - id: play
            tricks:
              after_trick:
                - add: {counter: score, seat: "winner + trick_number", value: 1}
        """)
    problems, status = validate_ruleset(str(f))
    assert status == 1 and len(problems) == 1, problems
    p = problems[0]
    assert p.message.startswith("in a random game (seed ") and "step 'play': a counter of seat" in p.message
    assert (p.line, p.col) == (5, 5) and p.code == "ruleset/runtime"
    assert validate_ruleset(str(f), play=False) == ([], 0)   # --quick: compile and deal only
    r = CliRunner().invoke(main, ["validate", "--quick", str(f)])
    assert r.exit_code == 0 and r.output.strip().endswith(": ok")
    r = CliRunner().invoke(main, ["validate", str(f)])
    assert r.exit_code == 1 and "a counter of seat" in r.output


def test_every_builtin_validates_with_play():
    """The built-ins pass every check, the random games included (no false alarm)."""
    from cardspec.rules import builtin_names
    for name in builtin_names():
        assert validate_ruleset(name) == ([], 0), name
