"""Loading a ruleset: YAML with positions, ``extends:``, options, JSON Schema.

The steps, in order (DESIGN.md, "Loader"): read the YAML keeping every node's
position; merge ``extends:`` bases; validate against
``schema/ruleset.schema.json``; resolve options (declared defaults, then the
caller's overrides, each checked against its type and allowed values). The
result, a ``Ruleset``, is turned into a playable ``Game`` by ``cardspec.engine``
(expression compilation and semantic checks happen there, because they need the
player count).

Merging (``extends: NAME_OR_PATH``): mappings merge key by key; a list whose
items all have an ``id:`` merges item by item (matching ids are merged, new
items are inserted after the previous item of the child list); any other list,
and a list tagged ``!replace``, replaces the base's list.
"""
from __future__ import annotations

import difflib
import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from ._yaml import Pos, Positions, Replace, load_yaml
from .errors import Problem, RulesetError


def _data_dir(name: str) -> Path:
    """Folder of built-in data: inside the wheel (``cardspec/_data/NAME``) or the source tree."""
    packaged = Path(str(resources.files("cardspec"))) / "_data" / name
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent.parent / name


def rulesets_dir() -> Path:
    return _data_dir("rulesets")


def schema_path() -> Path:
    return _data_dir("schema") / "ruleset.schema.json"


@lru_cache(maxsize=1)
def schema() -> dict:
    """The ruleset JSON Schema (Draft 2020-12) as a dict."""
    return json.loads(schema_path().read_text(encoding="utf-8"))


def builtin_names() -> list:
    """Names of the built-in rulesets (file stems in rulesets/)."""
    return sorted(p.stem for p in rulesets_dir().glob("*.yaml"))


def resolve_path(name_or_path: str, relative_to: str | None = None) -> Path:
    """A built-in name (``hearts``) or a file path → the file's path.

    Raises ``RulesetError`` (code ``ruleset/not_found``) when neither exists.
    """
    p = Path(name_or_path)
    candidates = []
    if relative_to:
        candidates.append(Path(relative_to).parent / p)
    candidates.append(p)
    for c in candidates:
        if c.is_file():
            return c
    stem = name_or_path[:-5] if name_or_path.endswith(".yaml") else name_or_path
    b = rulesets_dir() / f"{stem}.yaml"
    if "/" not in stem and b.is_file():
        return b
    close = difflib.get_close_matches(stem, builtin_names(), n=1)
    hint = f"did you mean '{close[0]}'?" if close else f"built-in rulesets: {', '.join(builtin_names())}"
    err = RulesetError(Problem(str(name_or_path), 0, 0, f"no ruleset file or built-in ruleset named '{name_or_path}'",
                               hint))
    err.code = "ruleset/not_found"
    raise err


@dataclass
class Ruleset:
    """A merged, schema-valid ruleset before compilation.

    ``data`` is plain YAML data; ``positions`` maps paths to file:line:col;
    ``file`` is the top file; ``options`` the declared options (name → spec).
    """

    name: str
    data: dict
    positions: Positions
    file: str
    chain: list = field(default_factory=list)

    @property
    def title(self) -> str:
        return self.data.get("title", self.name)

    @property
    def options(self) -> dict:
        return self.data.get("options") or {}

    @property
    def players(self) -> tuple:
        p = self.data.get("players") or {}
        return int(p.get("min", 1)), int(p.get("max", 1))

    def problem(self, path, message, hint="") -> Problem:
        return self.positions.problem(path, message, hint)

    def option_values(self, overrides: dict | None = None) -> dict:
        """Every option's value: defaults, then ``overrides`` (text or typed values).

        Raises ``RulesetError`` for an unknown option or a value of the wrong type or range.
        """
        values = {k: spec.get("default") for k, spec in self.options.items()}
        problems = []
        for key, raw in (overrides or {}).items():
            if key not in self.options:
                close = difflib.get_close_matches(key, list(self.options), n=1)
                hint = f"did you mean '{close[0]}'?" if close else (
                    "options: " + ", ".join(self.options) if self.options else "this ruleset declares no options")
                problems.append(Problem(self.file, 0, 0, f"unknown option '{key}'", hint, code="option/unknown"))
                continue
            try:
                values[key] = coerce_option(key, self.options[key], raw)
            except ValueError as e:
                problems.append(Problem(self.file, 0, 0, str(e), code="option/invalid"))
        if problems:
            raise RulesetError(problems)
        return values


def coerce_option(name: str, spec: dict, raw):
    """Convert ``raw`` (text from a command line or a YAML value) to the option's type.

    Raises ``ValueError`` naming the option and what it accepts.
    """
    t = spec.get("type", "int")
    try:
        if t == "int":
            if isinstance(raw, bool):
                raise ValueError
            v = int(raw)
        elif t == "bool":
            if isinstance(raw, bool):
                v = raw
            elif str(raw).lower() in ("true", "yes", "on", "1"):
                v = True
            elif str(raw).lower() in ("false", "no", "off", "0"):
                v = False
            else:
                raise ValueError
        elif t == "list":
            v = raw if isinstance(raw, list) else [x.strip() for x in str(raw).split(",") if x.strip()]
        else:
            v = str(raw)
    except (TypeError, ValueError):
        raise ValueError(f"option '{name}' takes {_describe(spec)}; got '{raw}'") from None
    values = spec.get("values")
    if values is not None and v not in values and str(v) not in [str(x) for x in values]:
        raise ValueError(f"option '{name}' takes {_describe(spec)}; got '{raw}'")
    if values is not None and v not in values:
        v = next(x for x in values if str(x) == str(v))
    if t == "int":
        if "min" in spec and v < spec["min"]:
            raise ValueError(f"option '{name}' must be at least {spec['min']}; got {v}")
        if "max" in spec and v > spec["max"]:
            raise ValueError(f"option '{name}' must be at most {spec['max']}; got {v}")
    return v


def _describe(spec) -> str:
    if spec.get("values") is not None:
        return "one of " + ", ".join(str(x) for x in spec["values"])
    t = spec.get("type", "int")
    return {"int": "a whole number", "bool": "true or false", "list": "a comma-separated list"}.get(t, "text")


def _merge(base, child, bpos: Positions, cpos: Positions, path, out_pos: Positions):
    """Deep-merge ``child`` over ``base`` (see module doc); positions follow the winning value."""
    if isinstance(base, dict) and isinstance(child, dict):
        out = {}
        for k in base:
            out[k] = base[k]
            _copy_pos(bpos, path + (k,), path + (k,), out_pos)
        for k, v in child.items():
            if k in base:
                out[k] = _merge(base[k], v, bpos, cpos, path + (k,), out_pos)
            else:
                out[k] = v
                _copy_pos(cpos, path + (k,), path + (k,), out_pos)
        return out
    if isinstance(base, list) and isinstance(child, list) and not isinstance(child, Replace) and child and \
            all(isinstance(x, dict) and "id" in x for x in child) and \
            any(isinstance(x, dict) and x.get("id") in {c["id"] for c in child} for x in base):
        items = [(x, "b", i) for i, x in enumerate(base)]
        merged = []
        ids = [x.get("id") if isinstance(x, dict) else None for x in base]
        result = list(items)
        last = -1
        for ci, cx in enumerate(child):
            if cx["id"] in ids:
                j = next(k for k, it in enumerate(result) if isinstance(it[0], dict) and it[0].get("id") == cx["id"])
                result[j] = (cx, "m", (result[j][2], ci))
                last = j
            else:
                result.insert(last + 1, (cx, "c", ci))
                last += 1
        for newi, (x, kind, src) in enumerate(result):
            p = path + (newi,)
            if kind == "b":
                _copy_pos(bpos, path + (src,), p, out_pos)
                merged.append(x)
            elif kind == "c":
                _copy_pos(cpos, path + (src,), p, out_pos)
                merged.append(x)
            else:
                bi, ci = src
                sub = Positions()
                _copy_pos(bpos, path + (bi,), p, sub)
                csub = Positions()
                _copy_pos(cpos, path + (ci,), p, csub)
                merged.append(_merge(base[bi], x, sub, csub, p, out_pos))
        return merged
    _copy_pos(cpos, path, path, out_pos)
    return list(child) if isinstance(child, Replace) else child


def _copy_pos(src: Positions, frm, to, dst: Positions):
    n = len(frm)
    for k, v in src.items():
        if k and k[0] == "key":
            if k[1:1 + n] == frm:
                dst[("key",) + to + k[1 + n:]] = v
        elif k[:n] == frm:
            dst[to + k[n:]] = v


def read_ruleset(name_or_path: str, _seen=None) -> Ruleset:
    """Read a ruleset file or built-in name, merge its ``extends:`` chain, validate the schema.

    Raises ``RulesetError`` listing every problem found (file:line:col each).
    """
    path = resolve_path(name_or_path)
    return _read(path, _seen or [])


def _display(path: Path) -> str:
    try:
        rel = os.path.relpath(path)
        return rel if not rel.startswith("../../..") else str(path)
    except ValueError:
        return str(path)


def _read(path: Path, seen: list) -> Ruleset:
    file = _display(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        err = RulesetError(Problem(file, 0, 0, f"cannot read: {e}"))
        err.code = "ruleset/not_found"
        raise err from None
    data, pos = load_yaml(text, file)
    if not isinstance(data, dict):
        raise RulesetError(pos.problem((), "a ruleset is a mapping (name:, players:, deck:, deal: …)"))
    chain = [file]
    base_name = data.get("extends")
    if base_name is not None:
        if not isinstance(base_name, str):
            raise RulesetError(pos.problem(("extends",), "extends: names one ruleset (a built-in name or a path)"))
        try:
            bpath = resolve_path(base_name, relative_to=str(path))
        except RulesetError as e:
            p = pos.problem(("extends",), e.first.message, e.first.hint)
            raise RulesetError(p) from None
        if bpath.resolve() in seen or bpath.resolve() == path.resolve():
            raise RulesetError(pos.problem(("extends",), f"extends: '{base_name}' makes a cycle"))
        base = _read(bpath, seen + [path.resolve()])
        merged_pos = Positions(sources={**base.positions.sources, **pos.sources})
        child = {k: v for k, v in data.items() if k != "extends"}
        data = _merge(base.data, child, base.positions, pos, (), merged_pos)
        merged_pos[()] = pos[()]
        pos = merged_pos
        chain = base.chain + chain
    _check_schema(data, pos)
    name = data.get("name") or path.stem
    return Ruleset(name=name, data=data, positions=pos, file=file, chain=chain)


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
    if isinstance(x, int):
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


def _check_schema(data, pos: Positions):
    import jsonschema

    cls = jsonschema.validators.validator_for(schema())
    validator = cls(schema())
    problems = []
    seen = set()
    for error in sorted(validator.iter_errors(data), key=lambda e: (len(e.absolute_path), str(e.absolute_path))):
        best = jsonschema.exceptions.best_match([error])
        for e in [best]:
            path = tuple(e.absolute_path)
            if any(path[:len(s)] == s for s in seen if s):
                continue
            seen.add(path)
            at_key = e.validator in ("additionalProperties",)
            if at_key:
                extra = sorted(set(e.instance) - set(e.schema.get("properties", {})))
                if extra:
                    path = path + (extra[0],)
                    close = difflib.get_close_matches(extra[0], list(e.schema.get("properties", {})), n=1)
                    hint = f"did you mean '{close[0]}'?" if close else \
                        "allowed: " + ", ".join(sorted(e.schema.get("properties", {})))
                    problems.append(pos.problem(path, f"unknown key '{extra[0]}'", hint, key=True))
                    continue
            where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in e.absolute_path)
            problems.append(pos.problem(path, f"{where}: {_plain(e)}"))
    if problems:
        raise RulesetError(problems)


def read_scenario_yaml(path: str):
    """Read a scenario file: ``(data, positions)``. Raises ``RulesetError`` on YAML errors."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        err = RulesetError(Problem(path, 0, 0, f"cannot read: {e}"))
        err.code = "ruleset/not_found"
        raise err from None
    return load_yaml(text, path)


__all__ = ["Ruleset", "read_ruleset", "resolve_path", "builtin_names", "schema", "schema_path",
           "coerce_option", "Pos"]
