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

import contextlib
import contextvars

import difflib
import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .yaml_pos import Pos, Positions, Replace, load_yaml, read_text
from ..errors import Problem, RulesetError


@lru_cache(maxsize=None)
def _data_dir(name: str) -> Path:
    """Folder of built-in data: inside the wheel (``cardspec/_data/NAME``) or the source tree."""
    packaged = Path(str(resources.files("cardspec"))) / "_data" / name
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[3] / name


def rulesets_dir() -> Path:
    return _data_dir("rulesets")


def schema_path() -> Path:
    return _data_dir("schema") / "ruleset.schema.json"


@lru_cache(maxsize=1)
def schema() -> dict:
    """The ruleset JSON Schema (JSON Schema draft-07) as a dict."""
    return json.loads(schema_path().read_text(encoding="utf-8"))


def builtin_names() -> list:
    """Names of the built-in rulesets (file stems in rulesets/)."""
    return sorted(p.stem for p in rulesets_dir().glob("*.yaml"))


def resolve_path(name_or_path: str, relative_to: str | None = None) -> Path:
    """A built-in name (``hearts``) or a file path → the file's path.

    Raises ``RulesetError`` (code ``ruleset/not_found``) when neither exists.
    """
    name_or_path = str(name_or_path)
    p = Path(name_or_path)
    builtin = rulesets_dir() / f"{name_or_path}.yaml"
    if _is_dir(p) and "/" not in name_or_path and _is_file(builtin):
        return builtin   # a folder named like a built-in ruleset does not hide it
    if _is_dir(p):
        err = RulesetError(Problem(name_or_path, 0, 0, f"'{name_or_path}' is a folder, not a ruleset file",
                                   "give a .yaml file or a built-in name"))
        err.code = "ruleset/not_found"
        raise err
    candidates = []
    if relative_to:
        candidates.append(Path(relative_to).parent / p)
    candidates.append(p)
    for c in candidates:
        if _is_file(c):
            return c
    stem = name_or_path[:-5] if name_or_path.endswith(".yaml") else name_or_path
    b = rulesets_dir() / f"{stem}.yaml"
    if "/" not in stem and _is_file(b):
        return b
    close = difflib.get_close_matches(stem, builtin_names(), n=1)
    hint = f"did you mean '{close[0]}'?" if close else f"built-in rulesets: {', '.join(builtin_names())}"
    shown = name_or_path if len(name_or_path) <= 200 else name_or_path[:200] + "…"
    err = RulesetError(Problem(shown, 0, 0, f"no ruleset file or built-in ruleset named '{shown}'", hint))
    err.code = "ruleset/not_found"
    raise err


def _is_file(p: Path) -> bool:
    """``p.is_file()``, False for a name the system cannot look up (too long, a NUL byte, no permission)."""
    try:
        return p.is_file()
    except (OSError, ValueError):
        return False


def _is_dir(p: Path) -> bool:
    """``p.is_dir()``, False for a name the system cannot look up (see ``_is_file``)."""
    try:
        return p.is_dir()
    except (OSError, ValueError):
        return False


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
    problems: list = field(default_factory=list)   # schema problems kept by read_ruleset(strict=False)

    @property
    def title(self) -> str:
        return self.data.get("title", self.name)

    @property
    def options(self) -> dict:
        o = self.data.get("options")
        return {k: v for k, v in o.items() if isinstance(v, dict)} if isinstance(o, dict) else {}

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


def _merge(base, child, bpos: Positions, cpos: Positions, path, out_pos: Positions, problems=None):
    """Deep-merge ``child`` over ``base`` (see module doc); positions follow the winning value.

    Problems of the merge (an id the base does not have and no position for it, a position naming no
    item) are appended to ``problems``; the item at fault is left out, so the base's items stay.
    """
    problems = [] if problems is None else problems
    if isinstance(base, dict) and isinstance(child, dict) and not is_by_option(child) and not is_by_option(base):
        out = {}   # (a by_option mapping replaces the base value, and is replaced, whole)
        for k in base:
            out[k] = base[k]
            _copy_pos(bpos, path + (k,), path + (k,), out_pos)
        for k, v in child.items():
            if k in base:
                out[k] = _merge(base[k], v, bpos, cpos, path + (k,), out_pos, problems)
            else:
                out[k] = v
                _copy_pos(cpos, path + (k,), path + (k,), out_pos)
        if path and path in cpos:   # the mapping itself is where the child wrote it
            out_pos[path] = cpos[path]
            if ("key",) + path in cpos:
                out_pos[("key",) + path] = cpos[("key",) + path]
        return out
    if isinstance(base, list) and isinstance(child, list) and not isinstance(child, Replace) and child and \
            _has_ids(base) and _has_ids(child):
        return _merge_by_id(base, child, bpos, cpos, path, out_pos, problems)
    _copy_pos(cpos, path, path, out_pos)
    return list(child) if isinstance(child, Replace) else child


#: Keys of a variant's list item that place it (``after: ID``, ``before: ID``); not part of the merged item.
PLACE_KEYS = ("after", "before")


def _has_ids(items) -> bool:
    return any(isinstance(x, dict) and "id" in x for x in items)


def _list_name(path) -> str:
    names = [str(p) for p in path if not isinstance(p, int)]
    return f"{names[-1]}:" if names else "the list"


def _merge_by_id(base, child, bpos, cpos, path, out_pos, problems):
    """Merge a variant's id-list into its base's: an item whose id the base has is merged into that item
    (and moved when it says ``after: ID`` / ``before: ID``); a new item must say where it goes with one of
    those keys. Every item of the base that the variant does not name stays where it is (docs/rulesets.md,
    "extends:"). An unknown id without a position is a problem with a did-you-mean hint (usually a typo);
    so is an item without an id, or a position naming no item."""
    result = [(x, "b", i) for i, x in enumerate(base)]

    def find(ident):
        return next((k for k, it in enumerate(result) if isinstance(it[0], dict) and it[0].get("id") == ident), None)

    def ids():
        return [str(it[0]["id"]) for it in result if isinstance(it[0], dict) and "id" in it[0]]

    def near(ident):
        close = difflib.get_close_matches(str(ident), ids(), n=1, cutoff=0.6)
        return f"did you mean '{close[0]}'? " if close else ""

    where = _list_name(path)
    for ci, cx in enumerate(child):
        if not isinstance(cx, dict) or "id" not in cx:
            problems.append(cpos.problem(path + (ci,), f"this item of {where} has no id: a variant's {where} "
                                         "is merged into the base's by id",
                                         f"give it the id of the base's item it changes, or a new id with "
                                         f"after: ID; to replace the base's whole list write {where} !replace "
                                         f"[…] (ids: {', '.join(ids())})"))
            continue
        places = [k for k in PLACE_KEYS if k in cx]
        at = None
        if len(places) > 1:
            problems.append(cpos.problem(path + (ci, places[1]), "give after: or before:, not both", key=True))
            continue
        if places:
            target = cx[places[0]]
            j = find(target)
            if j is None or target == cx["id"]:
                problems.append(cpos.problem(path + (ci, places[0]), f"{places[0]}: '{target}' names no item of "
                                             f"{where}", near(target) + f"ids: {', '.join(ids())}"))
                continue
            at = (places[0], target)
        item = {k: v for k, v in cx.items() if k not in PLACE_KEYS}
        j = find(cx["id"])
        if j is None and at is None:
            problems.append(cpos.problem(path + (ci, "id"), f"'{cx['id']}' is not the id of an item of the base's "
                                         f"{where} (the variant changes items by id)",
                                         near(cx["id"]) + f"a new item says where it goes: after: ID or before: ID "
                                         f"(ids: {', '.join(ids())})"))
            continue
        entry = (item, "c", ci) if j is None else (item, "m", (result[j][2], ci))
        if j is not None:
            del result[j]
        if at is None:
            result.insert(j, entry)
        else:
            k = find(at[1])
            result.insert(k + 1 if at[0] == "after" else k, entry)
    merged = []
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
            merged.append(_merge(base[bi], x, sub, csub, p, out_pos, problems))
    return merged


def _copy_pos(src: Positions, frm, to, dst: Positions):
    """Copy the positions of ``src`` under path ``frm`` (and of its keys) to path ``to`` in ``dst``, in order."""
    n = len(frm)
    for k in _under(src, n).get(frm, ()):
        if k and k[0] == "key":
            dst[("key",) + to + k[1 + n:]] = src[k]
        else:
            dst[to + k[n:]] = src[k]


def _under(src: Positions, n: int) -> dict:
    """Prefix of length ``n`` → the paths of ``src`` under it, in ``src``'s order (built once per
    length: merging copies one subtree per key, and a scan of every position each time was quadratic)."""
    cache = src.__dict__.get("_under")
    if cache is None or cache[0] != len(src):
        cache = (len(src), {})
        src.__dict__["_under"] = cache
    index = cache[1].get(n)
    if index is None:
        index = {}
        for k in src:
            index.setdefault(k[1:1 + n] if k and k[0] == "key" else k[:n], []).append(k)
        cache[1][n] = index
    return index


def read_ruleset(name_or_path: str, _seen=None, strict: bool = True) -> Ruleset:
    """Read a ruleset file or built-in name, merge its ``extends:`` chain, validate the schema.

    Raises ``RulesetError`` listing every problem found (file:line:col each).
    With ``strict=False`` schema problems do not raise but are kept in
    ``Ruleset.problems`` (``cardspec validate`` goes on to compile and reports
    everything); YAML and ``extends:`` problems always raise.
    """
    path = resolve_path(name_or_path)
    return _read(path, _seen or [], strict)


_OVERLAY = contextvars.ContextVar("cardspec_reading_overlay", default=None)


@contextlib.contextmanager
def reading_overlay(texts: dict):
    """Within the block, ``read_ruleset`` reads ``texts[resolved path]`` instead of that file.

    For an editor's unsaved buffer (``cardspec lsp``): the text is checked exactly as the file would be.
    """
    token = _OVERLAY.set({Path(k).resolve(): v for k, v in texts.items()})
    try:
        yield
    finally:
        _OVERLAY.reset(token)


def _display(path: Path) -> str:
    try:
        rel = os.path.relpath(path)
        return rel if not rel.startswith("../../..") else str(path)
    except ValueError:
        return str(path)


#: The folders no ``extends:`` may name a file in: the system's views of processes, devices and the
#: kernel (reading one may block, or give the process's environment).
_SYSTEM_DIRS = tuple(Path(d) for d in ("/proc", "/sys", "/dev"))


def _check_base_path(bpath: Path, base_name: str, pos: Positions, key: str = "extends") -> None:
    """Refuse a ruleset named by shared data (a ruleset's ``extends:``, a scenario's ``ruleset:``; ``key``)
    that is not a ruleset file: such data must not make the reader open, and quote in its errors, any
    file the reader can see. It may name a built-in ruleset or a file named ``*.yaml``/``*.yml``
    outside ``/proc``, ``/sys`` and ``/dev``. Raises ``RulesetError`` at ``key``'s line."""
    real = bpath.resolve()
    if real.parent == rulesets_dir().resolve():
        return
    hint = f"{key}: names a built-in ruleset ({key}: hearts) or a ruleset file, *.yaml or *.yml"
    if real.suffix.lower() not in (".yaml", ".yml"):
        raise RulesetError(pos.problem((key,), f"{key}: '{base_name}' is not a ruleset file "
                                       "(its name does not end in .yaml or .yml)", hint))
    if any(real == d or d in real.parents for d in _SYSTEM_DIRS):
        raise RulesetError(pos.problem((key,), f"{key}: '{base_name}' is in a system folder", hint))


def _not_a_base(base_of, why: str) -> RulesetError:
    """The problem of a file named by shared data (``base_of``: its positions, the name, the key) that is
    not a ruleset: at that key's line, quoting nothing of the file (it may be any YAML file)."""
    pos, base_name, key = base_of
    err = RulesetError(pos.problem((key,), f"{key}: '{base_name}' is not a ruleset file ({why})",
                                   "a ruleset file is a mapping of name:, players:, deck:, deal: … "
                                   "(docs/rulesets.md)"))
    err.code = "ruleset/invalid"
    return err


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
        _replace_renamed_definitions(data, base.data, child)
        if extends_problems and strict:
            raise RulesetError(extends_problems)
        merged_pos[()] = pos[()]
        pos = merged_pos
        chain = base.chain + chain
        problems = base.problems + extends_problems
    else:
        problems = []
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
    return Ruleset(name=name, data=data, positions=pos, file=file, chain=chain, problems=problems)


def _check_ids(data, pos: Positions, path=()) -> list:
    """Problems of ``id:`` keys, which ``extends:`` merges list items by: in a list whose items carry
    ``id:``, each id is a name (text or a number, not a mapping or a list) used once in that list."""
    out = []
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(v, (dict, list)):
                out += _check_ids(v, pos, path + (k,))
    elif isinstance(data, list):
        first = {}
        for i, x in enumerate(data):
            if isinstance(x, (dict, list)):
                out += _check_ids(x, pos, path + (i,))
            if not isinstance(x, dict) or "id" not in x:
                continue
            ident = x["id"]
            if isinstance(ident, bool) or not isinstance(ident, (str, int, float)):
                out.append(pos.problem(path + (i, "id"), f"id: is a name (text), not {_kind(ident)}",
                                       "e.g. id: deal-hands"))
            elif ident in first:
                at = pos.get(path + (first[ident], "id"))
                out.append(pos.problem(path + (i, "id"), f"id '{ident}' is used twice in this list"
                                       + (f" (first at line {at.line})" if at is not None else ""),
                                       "ids name the items extends: merges: give each item its own id"))
            else:
                first[ident] = i
    return out


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


def _check_redefinitions(base: dict, child: dict, pos: Positions) -> list:
    """Problems of a variant's definition that has the name of a base definition but other parameters
    (``deal_points: 5`` over ``deal_points(s)``): it would be a second definition, not the override the
    author meant. (One file defining a name twice is caught when the names are bound: cardspec.engine.compile.names.)"""
    out = []
    bdefs, cdefs = base.get("define"), child.get("define")
    if not isinstance(bdefs, dict) or not isinstance(cdefs, dict):
        return out
    by_name = {}
    for key in bdefs:
        by_name.setdefault(_define_name(key), key)
    for key in cdefs:
        name = _define_name(key)
        bkey = by_name.get(name)
        if name is None or bkey is None or _define_sig(bkey) == _define_sig(key):
            continue
        out.append(pos.problem(("define", key), f"'{key}' redefines the base's '{bkey}' with other parameters",
                               f"an override keeps the parameters: write '{bkey}: …' (parameters by position, "
                               "the same count)" if "(" in str(bkey) else f"write '{bkey}: …'", key=True))
    return out


def _replace_renamed_definitions(data: dict, base: dict, child: dict):
    """A variant's ``f(p): …`` overrides the base's ``f(s): …`` (the same name and number of parameters,
    other parameter names or types): the base's key leaves the merged ``define:``, the variant's takes
    its place in the order."""
    bdefs, cdefs, merged = base.get("define"), child.get("define"), data.get("define")
    if not (isinstance(bdefs, dict) and isinstance(cdefs, dict) and isinstance(merged, dict)):
        return
    rename = {}
    for ckey in cdefs:
        name = _define_name(ckey)
        for bkey in bdefs:
            if bkey != ckey and name is not None and _define_name(bkey) == name and \
                    _define_sig(bkey) == _define_sig(ckey) and ckey not in bdefs:
                rename[bkey] = ckey
    if rename:
        data["define"] = {rename.get(k, k): merged[rename.get(k, k)] for k in merged if k not in rename.values()}


def _define_name(key):
    name = str(key).split("(", 1)[0].strip()
    return name if name.isidentifier() else None


def _define_sig(key) -> int:
    """How many parameters a ``define:`` key declares (``taken(s)`` → 1, ``penalty_total`` → 0)."""
    key = str(key)
    if "(" not in key:
        return 0
    inner = key.split("(", 1)[1].rsplit(")", 1)[0]
    return len([p for p in inner.split(",") if p.strip()])


def _check_overrides(base: Ruleset, child: dict, pos: Positions) -> list:
    """Problems of a child ruleset naming options its base does not declare (usually a typo).

    A new option in a child must be a full declaration (with ``type:``); a
    partial one (``{default: 8}``) overrides a base option and must name one.
    """
    out = []
    opts = child.get("options")
    if not isinstance(opts, dict):
        return out
    for name, spec in opts.items():
        if name in base.options or (isinstance(spec, dict) and "type" in spec):
            continue
        close = difflib.get_close_matches(name, list(base.options), n=1)
        hint = f"did you mean '{close[0]}'?" if close else "to add a new option, give its type: (and default:)"
        out.append(pos.problem(("options", name), f"option '{name}' is not declared by the base ruleset "
                                                  f"'{base.name}'", hint, key=True))
    return out


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
