"""The loader (issue 2, "Loading a ruleset"): schema, extends merge (id: and !replace),
options, positions in every scalar style."""
from __future__ import annotations

import json

import jsonschema
import pytest

from cardspec.errors import RulesetError
from cardspec.rules import builtin_names, read_ruleset, schema, schema_path
from cardspec.rules.yaml_pos import load_yaml


def test_schema_is_draft_07_with_a_description_on_every_property():
    """Draft-07: the draft yaml-language-server and VS Code support (issue 24: editors gave weaker checks
    on 2020-12)."""
    s = schema()
    jsonschema.Draft7Validator.check_schema(s)
    missing = []

    def walk(node, path):
        if isinstance(node, dict):
            for k, v in (node.get("properties") or {}).items():
                ref = v.get("$ref", "") if isinstance(v, dict) else ""
                target = s["$defs"].get(ref.rsplit("/", 1)[-1], {}) if ref.startswith("#/$defs/") else {}
                if "description" not in v and "description" not in target:
                    missing.append(path + "/" + k)
            for k, v in node.items():
                walk(v, path + "/" + str(k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{path}/{i}")
    walk(s, "")
    assert not missing, missing


@pytest.mark.parametrize("name", builtin_names())
def test_builtin_rulesets_validate_against_the_schema(name):
    rs = read_ruleset(name)
    jsonschema.Draft7Validator(schema()).validate(rs.data)
    text = open(rs.file, encoding="utf-8").read() if rs.file.endswith(".yaml") else ""
    assert text.startswith("# yaml-language-server: $schema=../schema/ruleset.schema.json")


def test_extends_merges_by_id_and_replace():
    base = read_ruleset("black-lady").data
    rs = read_ruleset("cancellation-black-lady").data
    ids = [s.get("id") if isinstance(s, dict) else s for s in rs["deal"]]
    assert ids == ["shuffle", "deal-hands", "deal-widow", "pass", "pass2", "play"] + ids[6:]
    play = next(s for s in rs["deal"] if isinstance(s, dict) and s.get("id") == "play")["tricks"]
    assert play["follow"] == "suit"                  # kept from the base
    assert "cancel" in play                          # added by the variant
    assert play["after_trick"][-1]["if"] == 'widow_to == "first_trick" and widow_taker < 0'   # !replace
    assert all("widow_taker" in e["if"] for e in play["after_trick"] if "if" in e)   # the base's are gone
    assert not any("tricks_total" in str(e) for e in play["after_trick"])
    assert rs["options"]["pass_count"]["type"] == base["options"]["pass_count"]["type"]   # merged option
    assert rs["options"]["pass_count"]["default"] == 2


def test_option_override_errors():
    rs = read_ruleset("black-lady")
    assert rs.option_values({"pass_count": "2"})["pass_count"] == 2
    assert rs.option_values({"moon": "yes"})["moon"] is True
    with pytest.raises(RulesetError, match="did you mean 'pass_count'"):
        rs.option_values({"pass_cont": 1})
    with pytest.raises(RulesetError, match="at most 5"):
        rs.option_values({"pass_count": 9})
    with pytest.raises(RulesetError, match="one of right, left, across, cycle"):
        rs.option_values({"pass_to": "up"})


TEXT = '''a: foo and bar
b: "foo and bar"
c: 'it''s x'
d: |
  if x
    then y
  else z
e: >
  one two
  three four
f: plain start
   continued here
'''


@pytest.mark.parametrize("key,needle,where", [
    ("a", "bar", (1, 12)), ("b", "bar", (2, 13)), ("c", "x", (3, 11)), ("d", "then", (6, 5)), ("d", "z", (7, 8)),
    ("e", "three", (10, 3)), ("e", "four", (10, 9)), ("f", "continued", (12, 4)), ("f", "here", (12, 14)),
])
def test_offsets_map_back_to_the_file_in_every_scalar_style(key, needle, where):
    data, pos = load_yaml(TEXT, "t.yaml")
    value = data[key]
    assert pos.locate((key,), value, value.index(needle)) == where
    line, col = where
    assert TEXT.splitlines()[line - 1][col - 1:].startswith(needle)


def test_cli_schema_prints_the_schema():
    assert json.loads(schema_path().read_text())["$schema"] == "http://json-schema.org/draft-07/schema#"


def test_a_variant_file_alone_is_valid_for_an_editor_and_a_base_still_needs_its_parts():
    """An editor validates the file it shows, not the merged ruleset: a two-line variant must pass the schema
    on its own (issue 24), while a file without extends: still needs name, players, deck and deal."""
    v = jsonschema.Draft7Validator(schema())
    assert list(v.iter_errors({"extends": "hearts", "name": "my-hearts"})) == []
    missing = {e.message for e in v.iter_errors({"name": "x"})}
    assert {"'players' is a required property", "'deck' is a required property",
            "'deal' is a required property"} <= missing
