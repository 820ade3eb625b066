"""A fast yes/no check of a ruleset against the JSON Schema, before the slow, precise validator.

``checker(schema)`` compiles the schema into nested Python closures answering
"is this instance valid?" for the keywords schema/ruleset.schema.json uses (type,
enum, pattern, minimum, maximum, minItems, minProperties, required, properties,
additionalProperties, propertyNames, items, anyOf, ``$ref`` into ``$defs``, boolean
schemas) with jsonschema's Draft 2020-12 meanings. It returns ``None`` for a schema
using any other keyword, and the loader then always uses jsonschema. A valid ruleset
(the usual case) is checked by the closures alone; an invalid one is validated again by
jsonschema, which finds and words every error (so messages and positions do not depend
on this module). tests/test_schemacheck.py compares the verdicts with jsonschema's.
"""
from __future__ import annotations

import numbers
import re

#: Keywords without effect on validity.
_ANNOTATIONS = frozenset(["description", "title", "$schema", "$id", "$defs", "default", "examples", "$comment"])
_SUPPORTED = _ANNOTATIONS | {"type", "enum", "pattern", "minimum", "maximum", "minItems", "minProperties", "required",
                             "properties", "additionalProperties", "propertyNames", "items", "anyOf", "$ref"}


class _Unsupported(Exception):
    pass


def _is_type(x, t: str) -> bool:
    tx = type(x)
    if t == "object":
        return tx is dict or isinstance(x, dict)
    if t == "array":
        return tx is list or isinstance(x, list)
    if t == "string":
        return isinstance(x, str)
    if t == "boolean":
        return tx is bool
    if t == "integer":
        if tx is bool:
            return False
        return isinstance(x, int) or isinstance(x, float) and x.is_integer()
    if t == "number":
        return tx is not bool and isinstance(x, numbers.Number)
    if t == "null":
        return x is None
    raise _Unsupported(t)


def _equal(a, b) -> bool:
    """jsonschema's equality: booleans differ from numbers; lists and mappings compared item by item."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, dict)) or isinstance(b, (list, dict)):
        return False
    return a == b


def _always(x) -> bool:
    return True


def _never(x) -> bool:
    return False


def checker(schema: dict):
    """``f(instance) -> bool`` (True exactly when jsonschema finds no error), or None if unsupported."""
    defs = schema.get("$defs", {}) if isinstance(schema, dict) else {}
    compiled: dict = {}

    def ref(target: str):
        if not target.startswith("#/$defs/") or "/" in target[8:] or "~" in target or "%" in target:
            raise _Unsupported(target)
        name = target[8:]
        if name not in defs:
            raise _Unsupported(target)
        if name not in compiled:
            compiled[name] = None   # placeholder: recursive references look it up at call time
            compiled[name] = build(defs[name])
        return lambda x: compiled[name](x)

    def build(s):
        if s is True:
            return _always
        if s is False:
            return _never
        if not isinstance(s, dict) or not set(s) <= _SUPPORTED:
            raise _Unsupported(s)
        checks = []
        if "type" in s:
            types = [s["type"]] if isinstance(s["type"], str) else list(s["type"])
            for t in types:
                _is_type(None, t)   # raises for an unknown type name
            if types == ["object"]:
                checks.append(lambda x: isinstance(x, dict))
            elif types == ["string"]:
                checks.append(lambda x: isinstance(x, str))
            else:
                checks.append(lambda x, types=tuple(types): any(_is_type(x, t) for t in types))
        if "enum" in s:
            values = list(s["enum"])
            if all(type(v) is str for v in values):
                strs = frozenset(values)
                checks.append(lambda x: isinstance(x, str) and x in strs)
            else:
                checks.append(lambda x: any(_equal(x, v) for v in values))
        if "pattern" in s:
            rx = re.compile(s["pattern"])
            checks.append(lambda x: not isinstance(x, str) or rx.search(x) is not None)
        if "minimum" in s:
            lo = s["minimum"]
            checks.append(lambda x: not _is_type(x, "number") or x >= lo)
        if "maximum" in s:
            hi = s["maximum"]
            checks.append(lambda x: not _is_type(x, "number") or x <= hi)
        if "minItems" in s:
            n = s["minItems"]
            checks.append(lambda x: not isinstance(x, list) or len(x) >= n)
        if "minProperties" in s:
            n = s["minProperties"]
            checks.append(lambda x: not isinstance(x, dict) or len(x) >= n)
        if "required" in s:
            req = tuple(s["required"])
            checks.append(lambda x: not isinstance(x, dict) or all(k in x for k in req))
        if "properties" in s or "additionalProperties" in s:
            props = {k: build(v) for k, v in s.get("properties", {}).items()}
            extra = build(s["additionalProperties"]) if "additionalProperties" in s else _always

            def obj(x, props=props, extra=extra, no_extra=extra is _never, any_extra=extra is _always):
                if not isinstance(x, dict):
                    return True
                for k, v in x.items():
                    f = props.get(k)
                    if f is None:
                        if no_extra:
                            return False
                        if not any_extra and not extra(v):
                            return False
                    elif not f(v):
                        return False
                return True
            checks.append(obj)
        if "propertyNames" in s:
            names = build(s["propertyNames"])
            checks.append(lambda x: not isinstance(x, dict) or all(names(k) for k in x))
        if "items" in s:
            item = build(s["items"])
            checks.append(lambda x: not isinstance(x, list) or all(item(v) for v in x))
        if "anyOf" in s:
            alts = [build(a) for a in s["anyOf"]]
            checks.append(lambda x: any(f(x) for f in alts))
        if "$ref" in s:
            checks.append(ref(s["$ref"]))
        if not checks:
            return _always
        if len(checks) == 1:
            return checks[0]
        checks = tuple(checks)
        return lambda x: all(f(x) for f in checks)

    try:
        return build(schema)
    except (_Unsupported, re.error, TypeError, AttributeError):
        return None
