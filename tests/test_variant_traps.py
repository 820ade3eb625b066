"""Variants that cannot break silently (issue 20, items 1-4 and 6): each mistake a new author made
while writing variants, which `cardspec validate` passed and which played a different game, is now an
error (or, for an option nothing reads, a warning) at file:line:col.

Each test writes the variant as the author did (docs/rulesets.md, "extends: — variants").
"""
from __future__ import annotations

import textwrap

import pytest

import cardspec
from cardspec.errors import RulesetError
from cardspec.authoring.validate import validate_ruleset


def write(tmp_path, text, name="variant.yaml"):
    f = tmp_path / name
    f.write_text(textwrap.dedent(text).lstrip())
    return str(f)


def problems(path):
    ps, status = validate_ruleset(path)
    return ps, status


def where(p):
    return (p.line, p.col)


# ---- item 1: a variant's list item with an id the base does not have ----------------------------

def test_misspelt_step_id_is_an_error_with_did_you_mean_and_the_base_deal_stays(tmp_path):
    """Issue 20 item 1: `- id: scroe` replaced the base's whole deal (nothing dealt, a draw). An id the
    base does not have, with no position, is an error at the id with "did you mean 'score'?"."""
    f = write(tmp_path, """
        extends: oh-hell
        name: typo
        deal:
          - id: scroe
            score: {counter: points, value: "10 + bids[seat]", add_to: score}
        """)
    ps, status = problems(f)
    assert status == 1 and len(ps) == 1
    assert where(ps[0]) == (4, 9) and ps[0].file.endswith("variant.yaml")
    assert "'scroe' is not the id of an item of the base's deal:" in ps[0].message
    assert "did you mean 'score'?" in ps[0].hint and "after: ID" in ps[0].hint
    with pytest.raises(RulesetError, match="scroe"):
        cardspec.load(f, players=4)


def test_a_new_step_goes_where_after_or_before_says_and_every_base_step_stays(tmp_path):
    """docs/rulesets.md, "extends:": items of the base the variant does not name stay in place; a new
    item is placed with after: ID or before: ID (and an existing one may be moved the same way)."""
    f = write(tmp_path, """
        extends: black-lady
        name: placed
        deal:
          - id: note
            after: pass
            do: [{emit: {type: note}}]
          - id: first
            before: deal-hands
            do: [{emit: {type: first}}]
          - id: bonuses
            before: score
        """)
    g = cardspec.load(f, players=4)
    base = cardspec.load("black-lady", players=4)
    ids = [spec.get("id") if isinstance(spec, dict) else spec for spec in g.data["deal"]]
    assert ids == ["shuffle", "first", "deal-hands", "deal-widow", "pass", "note", "play", "widow", "bonuses",
                   "score"]
    assert len(g.steps) == len(base.steps) + 2
    assert all("after" not in s and "before" not in s for s in g.data["deal"] if isinstance(s, dict))


@pytest.mark.parametrize("item, at, message, hint", [
    ("- id: extra\n    after: pas\n    do: []", (5, 12), "after: 'pas' names no item of deal:", "did you mean 'pass'?"),
    ("- do: []", (4, 5), "this item of deal: has no id", "!replace"),
    ("- id: extra\n    after: pass\n    before: play\n    do: []", (6, 5), "give after: or before:, not both", ""),
])
def test_misplaced_new_steps_are_errors_at_their_position(tmp_path, item, at, message, hint):
    """Issue 20 item 1: every way a variant's id-list item can miss its place is reported where it is
    written (a position naming no item, an item without an id among items merged by id)."""
    f = write(tmp_path, "extends: black-lady\nname: v\ndeal:\n  - id: pass\n    pass: {count: 2}\n  "
              + item + "\n")
    ps, status = problems(f)
    assert status == 1
    p = next(p for p in ps if message in p.message)
    assert where(p)[0] == at[0] + 2 and hint in p.hint


# ---- item 2: a definition redefined with another parameter list ---------------------------------

def test_redefinition_with_other_parameters_is_an_error(tmp_path):
    """Issue 20 item 2: `deal_points: 5` over the base's `deal_points(s)` was ignored (the base formula
    kept scoring). It is an error at the redefinition, naming the base's form."""
    f = write(tmp_path, """
        extends: oh-hell
        name: flat
        define:
          deal_points: 5
        """)
    ps, status = problems(f)
    assert status == 1 and len(ps) == 1
    assert where(ps[0]) == (4, 3)
    assert "'deal_points' redefines the base's 'deal_points(s)' with other parameters" in ps[0].message
    assert "deal_points(s): …" in ps[0].hint


def test_redefinition_with_the_same_parameters_overrides(tmp_path):
    """docs/rulesets.md: a definition is overridden by writing it again with the same parameters (their
    names may differ); marked `!replace`, it says the replacement is meant (issue 32 item 3)."""
    f = write(tmp_path, """
        extends: oh-hell
        name: flat
        define:
          deal_points(p): !replace 5
        """)
    ps, status = problems(f)
    # The options only the replaced formula read are now read by nothing: warnings (issue 20 item 4), no error.
    assert status == 0 and [p for p in ps if p.severity == "error"] == []
    assert {p.message.split("'")[1] for p in ps} == {"trick_points", "exact_bonus", "zero_bonus"}
    assert cardspec.load(str(f)).new_state(seed=1).random_playout().scores() is not None


def test_a_definition_that_replaces_the_base_unmarked_is_a_warning_naming_the_base_and_its_readers(tmp_path):
    """Issue 32 item 3(b): a variant that "adds a helper" whose name and parameters equal a base
    definition (`penalty(s)` over four-jacks') silently replaced the base's scoring. It still replaces it
    (a variant valid yesterday plays the same: docs/rulesets.md, Stability), but validate says so at the
    variant's key, naming the base's definition (file:line) and what reads it; `!replace` silences it."""
    f = write(tmp_path, """
        extends: four-jacks
        name: helper
        define:
          penalty(s): count(won[s])
        """)
    ps, status = problems(f)
    w = next(p for p in ps if p.code == "define/replaces-base")
    assert status == 0 and w.severity == "warning" and w.line == 4 and w.file.endswith("variant.yaml")
    assert "replaces the base's 'penalty(s)' (rulesets/four-jacks.yaml:" in w.message
    assert "reads" in w.message and "!replace" in w.hint
    f2 = write(tmp_path, """
        extends: four-jacks
        name: helper
        define:
          penalty(s): !replace count(won[s])
        """)
    assert not any(p.code == "define/replaces-base" for p in problems(f2)[0])


def test_replace_on_text_elsewhere_than_a_definition_is_refused(tmp_path):
    f = write(tmp_path, """
        extends: four-jacks
        name: helper
        title: !replace Four Jacks again
        """)
    ps, status = problems(f)
    assert status != 0 and any("!replace goes on a list, or on a definition" in p.message for p in ps)


# ---- item 3: names that hide the engine's, parameter types, turn-only effects ------------------

@pytest.mark.parametrize("section, text, name, what", [
    ("vars", "vars: {leader: 0}", "leader", "the engine's leader"),
    ("vars", "vars: {trick_number: 0}", "trick_number", "the engine's trick_number"),
    ("counters", "counters: {players: {per: match}}", "players", "the engine's players"),
    ("zones", "zones: {seat: {visibility: all}}", "seat", "the seat an expression is about"),
    ("vars", "vars: {card: 0}", "card", "the card played or judged"),
    ("define", "define: {hearts: 1}", "hearts", "the suit hearts"),
    ("define", "define: {Q: 12}", "Q", "the rank Q"),
    ("vars", "vars: {red: false}", "red", "the colour red"),
    ("define", "define: {\"count(x)\": x}", "count", "the function count(…)"),
    ("vars", "vars: {deck: 0}", "deck", "the engine's deck"),
])
def test_a_declared_name_that_hides_an_engine_name_says_so(tmp_path, section, text, name, what):
    """Issue 20 item 3: `vars: {leader: 0}` silently replaced the engine's leader in every expression.
    Issue 32 item 4 keeps it from being silent without taking the name from the author (a name the engine
    gives meaning to later must not break a ruleset that uses it): every kind of engine name (system values,
    constants, suits, ranks, colours, functions, a step's parameters), declared in any kind of declaration,
    gives a warning at the declaring key that names what it hides (docs/rulesets.md, "Stability"). Here the
    base's own expressions then read the declaration, which may be an error of its own (`card.suit` of a
    var 0): that is the variant's change, reported where it fails."""
    f = write(tmp_path, f"extends: black-lady\nname: v\n{text}\n")
    ps, status = problems(f)
    p = next(p for p in ps if f"'{name}' hides" in p.message)
    assert p.severity == "warning" and p.code == "name/hides-engine"
    assert what in p.message and p.line == 3 and p.file.endswith("variant.yaml")
    assert not any("has the name of" in q.message for q in ps)


def test_two_declarations_of_one_name_are_an_error(tmp_path):
    """Issue 20 item 3 (the same kind): a counter named like an option or a var hides it; the second
    declaration is reported, naming the first and where it is."""
    f = write(tmp_path, """
        extends: black-lady
        name: v
        counters:
          moon: {per: deal}
        vars:
          points: 0
        """)
    ps, status = problems(f)
    assert status == 1
    msgs = {(p.line, p.message.split(" (")[0]) for p in ps}
    assert (4, "counter 'moon' has the name of the option 'moon'") in msgs
    assert (6, "var 'points' has the name of the counter 'points'") in msgs


@pytest.mark.parametrize("key, bad, hint", [("f(c: crad)", "crad", "did you mean 'card'?"),
                                            ("f(x: str)", "str", "types: card, suit, int, seat, cards"),
                                            ("f(s: suits)", "suits", "did you mean 'suit'?")])
def test_a_misspelt_parameter_type_is_an_error(tmp_path, key, bad, hint):
    """Issue 20 item 3: `c: crad` silently became an int and failed in play ("int has no attribute
    'rank'"); every type spelling that is not a parameter type is an error at the definition."""
    f = write(tmp_path, f"extends: black-lady\nname: v\ndefine:\n  \"{key}\": 1\n")
    ps, status = problems(f)
    assert status == 1
    p = next(p for p in ps if f"has the type '{bad}'" in p.message)
    assert p.line == 4 and hint in p.hint


@pytest.mark.parametrize("where_, yaml_", [
    ("after_trick", """
        deal:
          - id: play
            tricks:
              after_trick:
                - if: trick_number == 3
                  end: step
        """),
    ("do", """
        deal:
          - id: stop
            before: bonuses
            do:
              - if: deal_number == 2
                end: {level: match, reason: two deals}
        """),
    ("after_play", """
        deal:
          - id: play
            tricks:
              after_play:
                - next_seat: left_of(seat)
        """),
])
def test_turn_effects_outside_a_turns_step_are_errors_at_load(tmp_path, where_, yaml_):
    """Issue 20 item 3: `end: step` inside a tricks step's after_trick validated and then crashed in
    play (internal error: TypeError). end:, next_seat: and repetition: act on a turn; anywhere else
    they are an error at load, at the effect."""
    f = write(tmp_path, "extends: black-lady\nname: v\n" + textwrap.dedent(yaml_).lstrip())
    ps, status = problems(f)
    assert status == 1 and len(ps) == 1
    assert f"is an effect of a turns step" in ps[0].message and f"not of {where_}:" in ps[0].message
    assert ps[0].line >= 7


def _author_locals(x, out):
    """Names an author gives expressions' parameters: action params, for_each `as:`, define params."""
    if isinstance(x, dict):
        for k, v in x.items():
            if k == "as" and isinstance(v, str):
                out.add(v)
            if k == "params" and isinstance(v, dict):
                out.update(str(p) for p in v)
            _author_locals(v, out)
    elif isinstance(x, list):
        for v in x:
            _author_locals(v, out)


def test_every_step_parameter_is_a_reserved_name(monkeypatch):
    """engine/compile/names.py CONTEXT_NAMES lists the parameters steps give their expressions, so a declaration
    that one would hide is refused; compiling every built-in ruleset shows no parameter outside it (a
    new step parameter must be added there)."""
    from cardspec.engine import compiler
    from cardspec.engine.compile import names
    from cardspec.engine.slots import SYSTEM_VARS
    seen = set()
    original = compiler.Compiler.code

    def code(self, text, path, params=(), *a, **k):
        seen.update(p for p, _ in params)
        return original(self, text, path, params, *a, **k)
    monkeypatch.setattr(compiler.Compiler, "code", code)
    local = set()
    from cardspec.rules import builtin_names, read_ruleset
    for name in builtin_names():
        rs = read_ruleset(name)
        _author_locals(rs.data, local)
        for key in (rs.data.get("define") or {}):
            local.update(p for p, _ in names.signature(key)[1])
        cardspec.load(name, players=rs.players[0])
    engine = set(names.CONTEXT_NAMES) | {n for n, _, _ in SYSTEM_VARS} | {"hand"}
    assert seen - local <= engine, sorted(seen - local - engine)
    assert {"seat", "card", "a", "b", "bid"} <= seen
