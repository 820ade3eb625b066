"""Property tests: arbitrary text and arbitrary YAML trees given to the loader and to
`cardspec validate` raise nothing but RulesetError / ScenarioError, and validate reports no internal
error (issue 2, "Tests"; issue 16; DESIGN.md "Errors": no Python traceback ever reaches a ruleset
author). tests/test_fuzz_mutants.py mutates the built-in rulesets instead (docs/fuzz.md).
"""
from __future__ import annotations

import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

import cardspec
from cardspec.errors import RulesetError, ScenarioError
from cardspec.rules import read_ruleset
from cardspec.authoring.validate import validate_ruleset

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))

KEYS = ["name", "title", "players", "min", "max", "deck", "ranks", "suits", "copies", "points", "zones", "hand",
        "won", "owner", "counters", "score", "vars", "define", "match", "deals", "deal", "shuffle", "to", "each",
        "tricks", "lead", "wins", "key", "options", "type", "default", "values", "extends", "do", "set", "if"]
EXPRS = ["count(deck) / players", "card.suit == led_suit", "1 +", "trmup", "left_of(dealer)", "QS", "seat",
         "sum(c.points for c in won[seat])", "(", "if x then", "hand", "true", "10H", "1X", "=="]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 60), st.sampled_from(EXPRS + KEYS),
                    st.text(max_size=12))
trees = st.recursive(scalars, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), kids, max_size=5)),
    max_leaves=25)

BASE = {"name": "fuzz", "players": {"min": 3, "max": 4},
        "deck": {"ranks": ["7", "8", "9", "T", "J", "Q", "K", "A"], "suits": ["S", "H", "D", "C"]},
        "zones": {"hand": {"owner": "seat"}, "won": {"owner": "seat"}}, "counters": {"score": {}},
        "deal": ["shuffle", {"deal": {"to": "hand", "each": "count(deck) / players"}},
                 {"tricks": {}}, {"score": {"counter": "score", "value": "count(won[seat])"}}]}


def _check(path):
    try:
        read_ruleset(str(path))
    except (RulesetError, ScenarioError):
        pass
    problems, status = validate_ruleset(str(path))
    assert status in (0, 1, 2)
    for p in problems:
        assert isinstance(p.format(), str)
        # an unexpected exception inside validate is a problem coded internal/… (issue 16): none may occur
        assert not p.code.startswith("internal/"), p.format()


def test_base_is_valid(tmp_path):
    f = tmp_path / "base.yaml"
    f.write_text(yaml.safe_dump(BASE))
    assert validate_ruleset(str(f)) == ([], 0)


@SETTINGS
@given(text=st.text(max_size=300))
def test_arbitrary_text(tmp_path_factory, text):
    f = tmp_path_factory.mktemp("t") / "r.yaml"
    f.write_text(text, encoding="utf-8")
    _check(f)


@SETTINGS
@given(data=st.binary(max_size=200))
def test_arbitrary_bytes(tmp_path_factory, data):
    f = tmp_path_factory.mktemp("b") / "r.yaml"
    f.write_bytes(data)
    _check(f)


@SETTINGS
@given(tree=trees)
def test_arbitrary_yaml_tree(tmp_path_factory, tree):
    f = tmp_path_factory.mktemp("y") / "r.yaml"
    f.write_text(yaml.safe_dump(tree), encoding="utf-8")
    _check(f)


@SETTINGS
@given(key=st.sampled_from(sorted(BASE)), value=trees)
def test_one_part_of_a_valid_ruleset_replaced(tmp_path_factory, key, value):
    f = tmp_path_factory.mktemp("p") / "r.yaml"
    f.write_text(yaml.safe_dump({**BASE, key: value}), encoding="utf-8")
    _check(f)


@SETTINGS
@given(step=trees, expr=st.sampled_from(EXPRS) | st.text(max_size=30))
def test_steps_and_expressions(tmp_path_factory, step, expr):
    data = dict(BASE)
    data["deal"] = list(BASE["deal"]) + [step, {"tricks": {"lead": expr}}]
    f = tmp_path_factory.mktemp("s") / "r.yaml"
    f.write_text(yaml.safe_dump(data), encoding="utf-8")
    _check(f)


@SETTINGS
@given(options=st.dictionaries(st.sampled_from(["pass_count", "moon", "pass_to", "nope"]),
                               st.text(max_size=5) | st.integers(-3, 9) | st.booleans(), max_size=3))
def test_option_overrides(options):
    try:
        cardspec.load("black-lady", 4, options)
    except RulesetError:
        pass
