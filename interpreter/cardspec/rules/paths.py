"""Where rulesets come from: the data folder, built-in names, a name or path resolved to a file, and what
shared data may make the reader open.

``rulesets_dir``/``schema_path`` find the built-in data (inside the wheel or the source tree);
``resolve_path`` turns a built-in name (``hearts``) or a file path into the file; ``reading_overlay``
puts an editor's unsaved text in place of a file; ``_check_base_path`` refuses a file named by shared
data (an ``extends:``, a scenario's ``ruleset:``) that is not a ruleset file, and ``_not_a_base`` words
the problem of one that turns out not to be a ruleset, quoting nothing of it.
"""
from __future__ import annotations

import contextlib
import contextvars

import difflib
import os
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .yaml_pos import Positions
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
    """``p.is_file()`` — or an editor's unsaved buffer standing for it (``reading_overlay``) —, False for a
    name the system cannot look up (too long, a NUL byte, no permission)."""
    try:
        overlay = _OVERLAY.get()
        if overlay and p.resolve() in overlay:
            return True
        return p.is_file()
    except (OSError, ValueError, RuntimeError):
        return False


def _is_dir(p: Path) -> bool:
    """``p.is_dir()``, False for a name the system cannot look up (see ``_is_file``)."""
    try:
        return p.is_dir()
    except (OSError, ValueError):
        return False


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
