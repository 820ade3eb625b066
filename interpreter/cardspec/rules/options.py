"""Options: their declarations and values, and ``by_option`` (a value chosen by an option).

A ruleset declares options (``options: NAME: {type:, default:, values:, min:, max:}``); a caller
(command line, scenario, Python) overrides them with text or typed values, each checked by
``coerce_option`` against the option's type and allowed values (``RulesetOptions.option_values``).
``_check_option_defaults`` checks the declarations themselves. A ``{by_option: NAME, cases: {…},
default: …}`` mapping chooses a value by an option (``is_by_option``, ``by_option_nodes``); the
schema check tries each value it may take (``_alternatives``, ``_substitute``).
"""
from __future__ import annotations

import difflib

from .yaml_pos import Positions
from ..errors import Problem, RulesetError


class RulesetOptions:
    """The options part of a ``Ruleset`` (``cardspec.rules.loader``): its declared options and their values,
    read from ``data`` (the merged YAML data) for the ruleset named ``name``."""

    @property
    def options(self) -> dict:
        o = self.data.get("options")
        return {k: v for k, v in o.items() if isinstance(v, dict)} if isinstance(o, dict) else {}

    def option_values(self, overrides: dict | None = None, origins: dict | None = None) -> dict:
        """Every option's value: defaults, then ``overrides`` (text or typed values).

        ``origins`` (optional): option name → where that override was written, either a label
        (``"command line"``) or a function ``(message, hint) -> Problem`` (e.g. a scenario file's
        position); an override without one is reported against ``"options"`` (the caller's dict),
        never against the ruleset file, which is not at fault.

        Raises ``OptionError`` (a ``RulesetError``; problem codes ``option/unknown``,
        ``option/invalid``) for an unknown option or a value of the wrong type or range; the hint
        lists the ruleset's options with their types and allowed values.
        """
        values = {k: _default(k, spec) for k, spec in self.options.items()}
        problems = []
        known = self.describe_options()
        for key, raw in (overrides or {}).items():
            origin = (origins or {}).get(key, "options")
            if key not in self.options:
                close = difflib.get_close_matches(key, list(self.options), n=1)
                hint = (f"did you mean '{close[0]}'? " if close else "") + known
                problems.append(_option_problem(origin, f"unknown option '{key}' for ruleset {self.name}", hint,
                                                "option/unknown"))
                continue
            try:
                values[key] = coerce_option(key, self.options[key], raw)
            except ValueError as e:
                problems.append(_option_problem(origin, str(e), known, "option/invalid"))
        if problems:
            raise OptionError(problems)
        return values

    def describe_options(self) -> str:
        """``"options: NAME (TYPE, default D), …"`` for hints (or that the ruleset declares none)."""
        if not self.options:
            return f"ruleset {self.name} declares no options"
        parts = []
        for name, spec in self.options.items():
            what = _describe(spec)
            if spec.get("type", "int") == "int" and spec.get("values") is None:
                lo, hi = spec.get("min"), spec.get("max")
                what += (f" {lo} to {hi}" if lo is not None and hi is not None else f" at least {lo}"
                         if lo is not None else f" at most {hi}" if hi is not None else "")
            d = spec.get("default")
            d = ("true" if d else "false") if isinstance(d, bool) else d
            parts.append(f"{name} ({what}, default {d})")
        return "options: " + "; ".join(parts)


def _default(name: str, spec: dict):
    """An option's declared default as a value of its type (``default: '65'`` for an int is 65): play must
    not meet the text a YAML author quoted. A default that does not fit is reported by the reader."""
    try:
        return coerce_option(name, spec, spec.get("default"))
    except (ValueError, TypeError):
        return spec.get("default")


class OptionError(RulesetError):
    """An option given by a caller (command line, scenario, Python) that the ruleset does not accept."""

    code = "option/invalid"


def _option_problem(origin, message, hint, code) -> Problem:
    if callable(origin):
        p = origin(message, hint)
        p.code = code
        return p
    return Problem(str(origin), 0, 0, message, hint, code=code)


#: The size of an int option's value, declared bounds or not (docs/rulesets.md, "Caps").
MAX_OPTION_INT = 10 ** 9


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
    except (TypeError, ValueError, OverflowError):
        shown = ("true" if raw else "false") if isinstance(raw, bool) else raw   # as written in YAML
        raise ValueError(f"option '{name}' takes {_describe(spec)}; got '{shown}'") from None
    values = spec.get("values")
    if values is not None and v not in values and str(v) not in [str(x) for x in values]:
        raise ValueError(f"option '{name}' takes {_describe(spec)}; got '{raw}'")
    if values is not None and v not in values and t != "int":   # (an int stays an int: values: ["-1", 5])
        v = next(x for x in values if str(x) == str(v))
    if t == "int":
        if abs(v) > MAX_OPTION_INT:   # docs/rulesets.md, Caps: an int option needs no bounds to stay sane
            raise ValueError(f"option '{name}' is at most {MAX_OPTION_INT:,} in size; got {raw}")
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


def _check_option_defaults(data: dict, pos: Positions) -> list:
    """Problems of option declarations whose default does not fit their own type, values, min and max."""
    out = []
    for name, spec in (data.get("options") or {}).items():
        if not isinstance(spec, dict):
            continue
        if "min" in spec and "max" in spec and spec["min"] > spec["max"]:
            out.append(pos.problem(("options", name, "min"), f"option '{name}': min {spec['min']} is above "
                                                             f"max {spec['max']}"))
            continue
        if spec.get("type") == "choice" and not spec.get("values"):
            out.append(pos.problem(("options", name), f"option '{name}' is a choice but lists no values:",
                                   "add values: [a, b, …]", key=True))
            continue
        if "default" not in spec:
            out.append(pos.problem(("options", name), f"option '{name}' has no default:",
                                   "add default: VALUE (the value when no --option overrides it)", key=True))
            continue
        try:
            coerce_option(name, spec, spec["default"])
        except ValueError as e:
            out.append(pos.problem(("options", name, "default"), f"bad default: {e}"))
    return out


BY_OPTION_KEYS = {"by_option", "cases", "default"}
# Read before any option has a value (by `cardspec list`, the option declarations themselves).
NO_BY_OPTION = ("extends", "name", "title", "description", "source", "players", "options")


def is_by_option(x) -> bool:
    """True for a ``{by_option: NAME, cases: {...}, default: ...}`` mapping (``cases`` optional)."""
    return isinstance(x, dict) and isinstance(x.get("by_option"), str) and set(x) <= BY_OPTION_KEYS


def by_option_nodes(x, path=()) -> list:
    """``(path, node)`` of every by_option mapping in ``x``, outermost first (then those in its cases)."""
    out = []
    _collect_by_option(x, path, out)
    return out


def _collect_by_option(x, path, out: list):
    if is_by_option(x):
        out.append((path, x))
        for k, v in (x.get("cases") or {}).items() if isinstance(x.get("cases"), dict) else ():
            _collect_by_option(v, path + ("cases", k), out)
        if "default" in x:
            _collect_by_option(x["default"], path + ("default",), out)
    elif isinstance(x, dict):
        for k, v in x.items():
            if isinstance(v, (dict, list)):
                _collect_by_option(v, path + (k,), out)
    elif isinstance(x, list):
        for i, v in enumerate(x):
            if isinstance(v, (dict, list)):
                _collect_by_option(v, path + (i,), out)


def _alternatives(node, options) -> list:
    """``(sub-path, value)`` each value a by_option mapping may take; the first is the one checked
    with the rest of the file (its default, else the option's own default)."""
    if "cases" not in node:   # the option's value itself, as the Game resolves it (a default: is never used)
        spec = options.get(node["by_option"])
        return [((), spec.get("default") if isinstance(spec, dict) else None)]
    out = []
    if "default" in node:
        out.append((("default",), node["default"]))
    cases = node.get("cases")
    if isinstance(cases, dict):
        out += [(("cases", k), v) for k, v in cases.items()]
    return out or [((), None)]


def _substitute(x, chosen):
    """``x`` with each by_option mapping replaced by ``chosen(path, node)`` (a value; recursively)."""
    def walk(v, path):
        if is_by_option(v):
            sub, val = chosen(path, v)
            return walk(val, path + sub)
        if isinstance(v, dict):
            return {k: walk(w, path + (k,)) for k, w in v.items()}
        if isinstance(v, list):
            return [walk(w, path + (i,)) for i, w in enumerate(v)]
        return v
    return walk(x, ())
