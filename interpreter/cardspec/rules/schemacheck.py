"""The JSON Schema check of a ruleset (``schema/ruleset.schema.json``) and its messages in plain words.

jsonschema-rs answers whether a ruleset is valid (``_fast_check``, compiled); only a ruleset it
rejects is checked again by jsonschema (``_validator``), whose errors ``_check_schema`` words
(``_plain``) and places at the YAML's line and column: an unknown key at the key with a did-you-mean
hint, errors that follow from a value of the wrong type dropped. A ``by_option`` mapping is checked as
each value it may take (``_schema_errors``).

Named ``schemacheck`` rather than ``schema``: ``cardspec.rules.schema`` is the function giving the
schema itself, and a module of that name would shadow it as an attribute of the package.
"""
from __future__ import annotations

import difflib
import json
from functools import lru_cache

from .options import NO_BY_OPTION, _alternatives, _substitute, by_option_nodes
from .paths import schema_path
from .yaml_pos import Positions
from ..errors import RulesetError


@lru_cache(maxsize=1)
def schema() -> dict:
    """The ruleset JSON Schema (JSON Schema draft-07) as a dict."""
    return json.loads(schema_path().read_text(encoding="utf-8"))


_TYPE_WORDS = {"object": "a mapping", "array": "a list", "string": "text", "integer": "a whole number",
               "boolean": "true or false", "number": "a number", "null": "nothing"}


def _plain(error) -> str:
    """A jsonschema error in plain words."""
    v = error.validator
    inst = error.instance
    if v == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return f"missing required key '{missing}'"
    if v == "additionalProperties":
        extra = sorted(set(inst) - set(error.schema.get("properties", {})))
        return f"unknown key '{extra[0]}'" if extra else error.message
    if v == "type":
        want = error.validator_value
        want = [want] if isinstance(want, str) else want
        return f"expected {' or '.join(_TYPE_WORDS.get(w, w) for w in want)}, found {_kind(inst)}"
    if v == "enum":
        return f"expected one of {', '.join(str(x) for x in error.validator_value)}; found '{inst}'"
    if v == "minimum":
        return f"must be at least {error.validator_value}; found {inst}"
    if v == "maximum":
        return f"must be at most {error.validator_value}; found {inst}"
    if v in ("oneOf", "anyOf"):
        # A value that may also be a by_option choice: when it is not one, say what the other branch wanted.
        branches = error.validator_value if isinstance(error.validator_value, list) else []
        plain = [i for i, b in enumerate(branches) if b != {"$ref": "#/$defs/by_option"}]
        if len(plain) == 1 and len(branches) == 2 and not (isinstance(inst, dict) and "by_option" in inst):
            subs = [e for e in error.context or () if e.relative_schema_path and
                    e.relative_schema_path[0] == plain[0]]
            if subs:
                return _plain(subs[0])
        return f"not a valid {error.schema.get('title') or 'value'} here" + (
            f": {error.schema['description'].split('.')[0]}" if error.schema.get("description") else "")
    if v == "minItems":
        return f"needs at least {error.validator_value} item(s)"
    if v == "minProperties":
        return "must not be empty"
    if v == "maxProperties":
        return f"takes at most {error.validator_value} key(s)"
    if v == "pattern":
        return f"'{inst}' does not have the expected form"
    return error.message


def _kind(x) -> str:
    if isinstance(x, bool):
        return "true/false"
    if isinstance(x, (int, float)):
        return f"the number {x}"
    if isinstance(x, str):
        return f"text '{x[:30]}'"
    if isinstance(x, list):
        return "a list"
    if isinstance(x, dict):
        return "a mapping"
    if x is None:
        return "nothing"
    return type(x).__name__


@lru_cache(maxsize=1)
def _validator():
    import jsonschema

    cls = jsonschema.validators.validator_for(schema())
    return cls(schema())


@lru_cache(maxsize=1)
def _fast_check():
    """A yes/no validity check by jsonschema-rs (compiled): jsonschema then runs only to
    find and word the errors of a ruleset it rejects. None when jsonschema-rs is not installed."""
    try:
        import jsonschema_rs
    except ImportError:   # pragma: no cover - a dependency; jsonschema alone still gives every answer
        return None
    return jsonschema_rs.validator_for(schema()).is_valid


def _iter_errors(instance) -> list:
    """jsonschema's errors for ``instance``; none, without running jsonschema, when the fast check passes it."""
    check = _fast_check()
    if check is not None and check(instance):
        return []
    return list(_validator().iter_errors(instance))


def _where(path) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def _schema_errors(data, pos: Positions, problems: list):
    """``(path, error)`` of every schema error, a by_option mapping checked as each value it may take
    (an error inside one of its cases is reported there). Misused by_option mappings go to ``problems``."""
    options = data.get("options") if isinstance(data.get("options"), dict) else {}
    nodes = by_option_nodes(data)
    for path, node in nodes:
        if path and path[0] in NO_BY_OPTION:
            problems.append(pos.problem(path + ("by_option",), f"by_option cannot choose a value under "
                                        f"'{path[0]}:' (it is read before options have values)",
                                        "choose values of deck:, zones:, define:, match:, deal: … by option",
                                        key=True))
        elif node["by_option"] not in options:
            close = difflib.get_close_matches(node["by_option"], list(options), n=1)
            problems.append(pos.problem(path + ("by_option",), f"by_option names '{node['by_option']}', "
                                        "which is not a declared option",
                                        f"did you mean '{close[0]}'?" if close else "declare it under options:"))
        elif "cases" in node and not isinstance(node["cases"], dict):
            problems.append(pos.problem(path + ("cases",), "cases: is a mapping of option value → value"))
        elif "cases" not in node and "default" in node:   # fuzz 20261201:22978: checked as its default, run as the value
            problems.append(pos.problem(path + ("default",), f"a by_option without cases: is the value of option "
                                        f"'{node['by_option']}' itself, so its default: is never used",
                                        "add cases: {VALUE: …} for the values that differ, or leave default: out",
                                        key=True))
    if not nodes and _fast_check() is not None and _fast_check()(data):
        return []   # the usual case: nothing to substitute, and valid
    first = {path: _alternatives(node, options)[0] for path, node in nodes}
    out = [(tuple(e.absolute_path), e) for e in _iter_errors(_substitute(data, lambda p, n: first[p]))]
    for path, node in nodes:
        for alt in _alternatives(node, options)[1:]:
            tried = _substitute(data, lambda p, n: alt if p == path else first[p])
            for e in _iter_errors(tried):
                epath = tuple(e.absolute_path)
                if epath[:len(path)] == path:
                    out.append((path + alt[0] + epath[len(path):], e))
    return out


def _check_schema(data, pos: Positions):
    """Validate ``data`` against the schema; raise ``RulesetError`` with every problem in plain words.

    Each unknown key is reported at the key (with a did-you-mean hint); a
    missing required key that an unknown key nearly spells is not reported
    twice; errors under a value of the wrong type are dropped (they follow
    from it).
    """
    problems = []
    errors = []
    for path, raw in _schema_errors(data, pos, problems):
        import jsonschema   # only when there are errors: a valid ruleset never imports it

        e = jsonschema.exceptions.best_match([raw])   # may be a deeper error of raw's context
        errors.append((path + tuple(e.absolute_path)[len(raw.absolute_path):], e))
    unknown = {}          # path → unknown keys found there
    wrong_type = set()    # paths whose value has the wrong type
    for path, e in errors:
        if e.validator == "additionalProperties" and isinstance(e.instance, dict):
            allowed = list(e.schema.get("properties", {}))
            for extra in sorted(set(e.instance) - set(allowed)):
                unknown.setdefault(path, []).append(extra)
                close = difflib.get_close_matches(extra, allowed, n=1)
                hint = f"did you mean '{close[0]}'?" if close else "allowed: " + ", ".join(sorted(allowed))
                if extra == "<<":
                    hint = "YAML merge keys (<<: *anchor) are not supported; use extends: or write the keys out"
                problems.append(pos.problem(path + (extra,), f"unknown key '{extra}'", hint, key=True))
        elif e.validator == "type":
            wrong_type.add(path)
    for path, e in errors:
        if e.validator in ("additionalProperties",) and isinstance(e.instance, dict):
            continue
        if any(path[:len(w)] == w and len(path) > len(w) for w in wrong_type):
            continue
        if e.validator == "required":
            missing = e.message.split("'")[1] if "'" in e.message else ""
            if difflib.get_close_matches(missing, unknown.get(path, []), n=1):
                continue
        if e.validator == "propertyNames":
            name = str(e.instance)
            problems.append(pos.problem(path + (name,), f"'{name}' is not a usable name here",
                                        "names are letters, digits and _ (not starting with a digit); "
                                        "definitions may take parameters: name(a, b)", key=True))
            continue
        problems.append(pos.problem(path, f"{_where(path)}: {_plain(e)}"))
    if problems:
        raise RulesetError(sorted(problems, key=lambda p: (p.file, p.line, p.col)))
