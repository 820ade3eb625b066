"""The fast schema check (jsonschema-rs, cardspec.rules.schemacheck._fast_check) agrees with jsonschema on validity.

The loader skips jsonschema when the fast check passes a ruleset, so a fast "valid" for
an instance jsonschema rejects would silently drop a schema error. Compared here: every
built-in ruleset, every file of tests/broken/, and many single mutations of the built-in
rulesets (a value of another type, a key removed, an unknown key, a bad name or value).
"""
import copy
import random
from pathlib import Path

import jsonschema
import pytest

from cardspec.rules import schemacheck
from cardspec.rules.yaml_pos import load_yaml
from cardspec.errors import RulesetError
from cardspec.rules import builtin_names, read_ruleset, schema

BROKEN = Path(__file__).parent / "broken"


@pytest.fixture(scope="module")
def both():
    check = schemacheck._fast_check()
    assert check is not None, "the schema uses a keyword the fast check does not know: it is never used"
    return check, jsonschema.Draft7Validator(schema())


def _agree(both, instance, what):
    check, slow = both
    assert check(instance) == slow.is_valid(instance), what


def test_builtin_rulesets_are_valid_for_both(both):
    for name in builtin_names():
        data = read_ruleset(name).data
        assert both[0](data), name
        _agree(both, data, name)


def test_broken_files_get_the_same_verdict(both):
    files = sorted(BROKEN.rglob("*.yaml"))
    assert files
    invalid = 0
    for f in files:
        try:
            data, _ = load_yaml(f.read_text(encoding="utf-8"), str(f))
        except (RulesetError, UnicodeDecodeError):
            continue
        _agree(both, data, f.name)
        invalid += not both[0](data)
    assert invalid > 5


def _paths(x, path=()):
    yield path
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, path + (i,))


_REPLACEMENTS = [None, True, 0, -3, 2.5, 3.0, "", "x", "not a name!", "hearts", [], [1], {}, {"zzz": 1}, {"id": "q"}]


@pytest.mark.parametrize("name", builtin_names())
def test_mutated_rulesets_get_the_same_verdict(both, name):
    data = read_ruleset(name).data
    rng = random.Random(name)
    paths = list(_paths(data))
    rejected = 0
    for _ in range(150):
        d = copy.deepcopy(data)
        path = rng.choice(paths[1:])
        parent = d
        for k in path[:-1]:
            parent = parent[k]
        op = rng.randrange(3)
        if op == 0:
            parent[path[-1]] = copy.deepcopy(rng.choice(_REPLACEMENTS))
        elif op == 1:
            del parent[path[-1]]
        elif isinstance(parent[path[-1]], dict):
            parent[path[-1]][rng.choice(["zzz", "id", "when", "9bad name", "cards"])] = rng.choice(_REPLACEMENTS)
        else:
            continue
        _agree(both, d, f"{name} {['replace', 'delete', 'add key'][op]} at {path}")
        rejected += not both[0](d)
    assert rejected > 20


def test_loader_uses_jsonschema_only_for_an_invalid_ruleset(monkeypatch):
    calls = []
    real = schemacheck._validator

    def counted():
        calls.append(1)
        return real()

    monkeypatch.setattr(schemacheck, "_validator", counted)
    read_ruleset("hearts")
    assert calls == []
    with pytest.raises(RulesetError) as e:
        read_ruleset(str(BROKEN / "unknown-top-key.yaml"))
    assert calls and "unknown key" in str(e.value)
