"""Loading a ruleset: YAML with positions, ``extends:``, options, JSON Schema.

The steps, in order (DESIGN.md, "Loader"): read the YAML keeping every node's
position; merge ``extends:`` bases; validate against
``schema/ruleset.schema.json``; resolve options (declared defaults, then the
caller's overrides, each checked against its type and allowed values). The
result, a ``Ruleset``, is turned into a playable ``Game`` by ``cardspec.engine``
(expression compilation and semantic checks happen there, because they need the
player count).

This module reads (``read_ruleset``, ``_read``) and holds ``Ruleset``; each step is
a module of ``cardspec.rules``: ``paths`` (built-in names, a name or path resolved
to a file, what shared data may make the reader open), ``merge`` (``extends:`` and
``!replace``), ``schemacheck`` (the JSON Schema check and its messages),
``options`` (option declarations and values, ``by_option``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .merge import (_check_ids, _check_overrides, _check_redefinitions, _merge, _replace_renamed_definitions,
                    _replaced_definitions)
from .options import RulesetOptions, _check_option_defaults
from .paths import _OVERLAY, _check_base_path, _display, _not_a_base, resolve_path
from .schemacheck import _check_schema, _kind, schema
from .yaml_pos import Pos, Positions, load_yaml, read_text
from ..errors import Problem, RulesetError

# Names importers take from this module, which now live in its neighbours (kept importable here).
from .options import (OptionError, _describe, by_option_nodes, coerce_option,  # noqa: F401,E402
                      is_by_option)
from .paths import (_data_dir, builtin_names, reading_overlay, rulesets_dir,  # noqa: F401,E402
                    schema_path)
from .schemacheck import _fast_check, _validator  # noqa: F401,E402


@dataclass
class Ruleset(RulesetOptions):
    """A merged, schema-valid ruleset before compilation.

    ``data`` is plain YAML data; ``positions`` maps paths to file:line:col;
    ``file`` is the top file; ``options`` the declared options (name → spec).
    """

    name: str
    data: dict
    positions: Positions
    file: str
    chain: list = field(default_factory=list)
    problems: list = field(default_factory=list)   # schema problems kept by read_ruleset(strict=False)
    warnings: list = field(default_factory=list)   # what reads but is probably not meant (a replaced definition)

    @property
    def title(self) -> str:
        return self.data.get("title", self.name)

    @property
    def players(self) -> tuple:
        p = self.data.get("players")
        p = p if isinstance(p, dict) else {}
        lo, hi = p.get("min", 1), p.get("max", 1)
        lo = lo if isinstance(lo, int) and not isinstance(lo, bool) else 1
        hi = hi if isinstance(hi, int) and not isinstance(hi, bool) else lo
        return lo, hi

    @property
    def default_players(self) -> int:
        """The player count used when none is given: ``players: default:`` if it is in range, else ``min``."""
        lo, hi = self.players
        p = self.data.get("players")
        d = p.get("default") if isinstance(p, dict) else None
        return d if isinstance(d, int) and not isinstance(d, bool) and lo <= d <= hi else lo

    def problem(self, path, message, hint="") -> Problem:
        return self.positions.problem(path, message, hint)


def read_ruleset(name_or_path: str, _seen=None, strict: bool = True) -> Ruleset:
    """Read a ruleset file or built-in name, merge its ``extends:`` chain, validate the schema.

    Raises ``RulesetError`` listing every problem found (file:line:col each).
    With ``strict=False`` schema problems do not raise but are kept in
    ``Ruleset.problems`` (``cardspec validate`` goes on to compile and reports
    everything); YAML and ``extends:`` problems always raise.
    """
    path = resolve_path(name_or_path)
    return _read(path, _seen or [], strict)


def read_named_ruleset(name: str, relative_to: str, pos: Positions, key: str) -> Ruleset:
    """The ruleset that shared data names (a scenario's ``ruleset:``): a built-in name or a path relative
    to the file ``relative_to``, as ``extends:`` is checked (``_check_base_path``: a ruleset file only,
    a file that is not one reported at ``key`` in ``pos`` without quoting it).

    Raises ``RulesetError`` (code ``ruleset/not_found`` for a name that is neither)."""
    path = resolve_path(name, relative_to=relative_to)
    _check_base_path(path, name, pos, key)
    return _read(path, [], True, base_of=(pos, name, key))


def _read(path: Path, seen: list, strict: bool = True, base_of=None) -> Ruleset:
    """Read the ruleset at ``path``. ``base_of``: ``(positions, name, key)`` of the shared data that named
    it (a ruleset's ``extends:``, a scenario's ``ruleset:``):
    a file that is not UTF-8, not YAML or not shaped as a ruleset (a mapping with ``name:`` and ruleset
    keys only) is then reported at that line, without quoting it."""
    file = _display(path)
    overlay = _OVERLAY.get()
    try:
        text = overlay.get(path.resolve()) if overlay else None
        if text is None:
            text = read_text(path, file)
    except UnicodeDecodeError as e:
        if base_of is not None:
            raise _not_a_base(base_of, "not UTF-8 text") from None
        err = RulesetError(Problem(file, 1, 1, f"not a text file (byte {e.object[e.start]:#04x} at offset {e.start} "
                                               "is not UTF-8)", "a ruleset is a YAML text file in UTF-8"))
        err.code = "ruleset/not_found"
        raise err from None
    except OSError as e:
        err = RulesetError(Problem(file, 0, 0, f"cannot read: {e.strerror or e}"))
        err.code = "ruleset/not_found"
        raise err from None
    try:
        data, pos = load_yaml(text, file)
    except RulesetError as e:
        if base_of is None:
            raise
        raise _not_a_base(base_of, f"{e.first.file}:{e.first.line}:{e.first.col}: {e.first.message}") from None
    if base_of is not None and not (isinstance(data, dict) and "name" in data
                                    and set(data) <= set(schema().get("properties", {}))):
        raise _not_a_base(base_of, "not a mapping with name: and a ruleset's keys")
    if not isinstance(data, dict):
        what = "empty" if data is None else f"{_kind(data)}"
        raise RulesetError(pos.problem((), f"a ruleset is a mapping (name:, players:, deck:, deal: …); this file is {what}"))
    id_problems = _check_ids(data, pos)
    if id_problems:
        raise RulesetError(id_problems)
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
        _check_base_path(bpath, base_name, pos)
        if bpath.resolve() in seen or bpath.resolve() == path.resolve():
            raise RulesetError(pos.problem(("extends",), f"extends: '{base_name}' makes a cycle"))
        base = _read(bpath, seen + [path.resolve()], strict, base_of=(pos, base_name, "extends"))
        merged_pos = Positions(sources={**base.positions.sources, **pos.sources}, file=file)
        child = {k: v for k, v in data.items() if k != "extends"}
        extends_problems = _check_overrides(base, child, pos)
        data = _merge(base.data, child, base.positions, pos, (), merged_pos, extends_problems)
        extends_problems += _check_redefinitions(base.data, child, pos)
        warnings = base.warnings + _replaced_definitions(base.data, child, pos, base.positions)
        _replace_renamed_definitions(data, base.data, child)
        if extends_problems and strict:
            raise RulesetError(extends_problems)
        merged_pos[()] = pos[()]
        pos = merged_pos
        chain = base.chain + chain
        problems = base.problems + extends_problems
    else:
        problems = []
        warnings = []
    try:
        _check_schema(data, pos)
    except RulesetError as e:
        if strict:
            raise
        # An option's bad default is often the cause of what the schema refused (a by_option value in the
        # base: `default: true` for an int option made the deck's points "expected a whole number" at the
        # base's line): report it too, at the default (issue 20 item 6).
        try:
            problems += [p for p in _check_option_defaults(data, pos) if p.message.startswith("bad default: ")]
        except (TypeError, ValueError, AttributeError):   # option specs the schema refused
            pass
        problems += e.problems
    else:
        option_problems = _check_option_defaults(data, pos) + _check_var_defaults(data, pos)
        if option_problems and strict:
            raise RulesetError(option_problems)
        problems += option_problems
    name = data.get("name") if isinstance(data.get("name"), str) else path.stem
    return Ruleset(name=name, data=data, positions=pos, file=file, chain=chain, problems=problems, warnings=warnings)


def _check_var_defaults(data: dict, pos: Positions) -> list:
    """Problems of var defaults that are not a value of the var's type (``ended_by: count(deck)``: a var
    starts as a value; an expression is for a ``set:`` effect). The type is ``type:``, else the default's."""
    out = []
    vars_ = data.get("vars")
    for name, spec in (vars_.items() if isinstance(vars_, dict) else ()):
        decl = spec if isinstance(spec, dict) else {"default": spec}
        default = decl.get("default", 0)
        t = decl.get("type") or ("bool" if isinstance(default, bool) else "int" if isinstance(default, int)
                                 else "suit" if default == "no_suit" else "int")
        ok = {"int": isinstance(default, int) and not isinstance(default, bool),
              "bool": isinstance(default, bool),
              "suit": default is None or isinstance(default, str)}.get(t, True)
        if not ok:
            at = ("vars", name, "default") if isinstance(spec, dict) and "default" in spec else ("vars", name)
            out.append(pos.problem(at, f"var '{name}': the default {_kind(default)} is not {_TYPE_WORDS_VAR[t]}",
                                   "a var starts as a value (a number, true/false, a suit for type: suit); "
                                   "compute it with a set: effect in a step"))
    return out


_TYPE_WORDS_VAR = {"int": "a whole number", "bool": "true or false", "suit": "a suit"}


def read_scenario_yaml(path: str):
    """Read a scenario file: ``(data, positions)``. Raises ``RulesetError`` on YAML errors."""
    try:
        text = read_text(path, path)
    except (OSError, UnicodeDecodeError) as e:
        err = RulesetError(Problem(path, 0, 0, f"cannot read: {e}"))
        err.code = "ruleset/not_found"
        raise err from None
    return load_yaml(text, path)


__all__ = ["Ruleset", "read_ruleset", "resolve_path", "builtin_names", "schema", "schema_path",
           "coerce_option", "Pos", "OptionError"]
