"""YAML read with the position of every node kept.

PyYAML's composer gives nodes with start marks; we build plain Python data
(dict, list, str, int, float, bool, None) and a side table ``Positions`` that
maps a path (a tuple of keys and indexes) to where its value starts. Plain data
keeps the rest of the loader simple; the table lets every later check say
file:line:col.

A sequence tagged ``!replace`` is returned as ``Replace`` (a list subclass):
``extends:`` then replaces the base's list instead of merging it.
"""
from __future__ import annotations

from dataclasses import dataclass

import yaml

from .errors import Problem, RulesetError


class Replace(list):
    """A list that replaces the base list under ``extends:`` (YAML tag ``!replace``)."""


@dataclass(frozen=True)
class Pos:
    file: str
    line: int   # 1-based
    col: int    # 1-based, of the value's first character
    quoted: bool = False   # a quoted scalar: its text starts one column later
    block: bool = False    # a block scalar (| or >): its text starts on the next line


class Positions(dict):
    """path tuple → ``Pos``; ``find(path)`` falls back to the nearest known ancestor."""

    def __init__(self, *a, sources=None, **k):
        super().__init__(*a, **k)
        self.sources = dict(sources or {})   # file → list of its lines

    def find(self, path) -> Pos:
        path = tuple(path)
        while path:
            if path in self:
                return self[path]
            path = path[:-1]
        return self.get((), Pos("<ruleset>", 1, 1))

    def problem(self, path, message, hint="", key=False) -> Problem:
        """A ``Problem`` located at ``path`` (at its key when ``key`` is true and known)."""
        pos = None
        if key and ("key",) + tuple(path) in self:
            pos = self[("key",) + tuple(path)]
        pos = pos or self.find(path)
        lines = self.sources.get(pos.file) or []
        src = lines[pos.line - 1] if 0 < pos.line <= len(lines) else ""
        return Problem(pos.file, pos.line, pos.col, message, hint, src)

    def line_text(self, file, line) -> str:
        lines = self.sources.get(file) or []
        return lines[line - 1] if 0 < line <= len(lines) else ""


def _construct(node, path, pos: Positions, file: str):
    m = node.start_mark
    if isinstance(node, yaml.ScalarNode):
        style = node.style or ""
        pos[path] = Pos(file, m.line + 1, m.column + 1, quoted=style in ("'", '"'), block=style in ("|", ">"))
        if node.tag == "!replace":
            raise RulesetError(pos.problem(path, "!replace goes on a list"))
        if style:  # quoted or block scalars are always strings
            return node.value
        return yaml.SafeLoader.construct_scalar_value(node)
    pos[path] = Pos(file, m.line + 1, m.column + 1)
    if isinstance(node, yaml.SequenceNode):
        items = [_construct(c, path + (i,), pos, file) for i, c in enumerate(node.value)]
        return Replace(items) if node.tag == "!replace" else items
    if isinstance(node, yaml.MappingNode):
        out = {}
        for knode, vnode in node.value:
            if not isinstance(knode, yaml.ScalarNode):
                raise RulesetError(pos.problem(path, "a key must be plain text"))
            key = knode.value
            if key in out:
                p = Positions(sources=pos.sources)
                p[path] = Pos(file, knode.start_mark.line + 1, knode.start_mark.column + 1)
                raise RulesetError(p.problem(path, f"key '{key}' appears twice in this mapping"))
            km = knode.start_mark
            pos[("key",) + path + (key,)] = Pos(file, km.line + 1, km.column + 1)
            out[key] = _construct(vnode, path + (key,), pos, file)
        return out
    raise RulesetError(pos.problem(path, "unsupported YAML node"))


class _ScalarLoader(yaml.SafeLoader):
    pass


def _scalar_value(node):
    """Resolve a plain scalar the way SafeLoader would (int, float, bool, null, str)."""
    loader = _ScalarLoader("")
    tag = node.tag
    ctor = loader.yaml_constructors.get(tag)
    if ctor is None:
        return node.value
    return ctor(loader, node)


yaml.SafeLoader.construct_scalar_value = staticmethod(_scalar_value)


def load_yaml(text: str, file: str, positions: Positions | None = None):
    """Parse ``text`` as one YAML document.

    Returns ``(data, positions)``. Raises ``RulesetError`` (file:line:col) on a
    YAML syntax error, a duplicate key or a misplaced ``!replace``.
    """
    pos = positions if positions is not None else Positions()
    pos.sources[file] = text.splitlines()
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        lines = pos.sources[file]
        src = lines[line - 1] if 0 < line <= len(lines) else ""
        msg = f"YAML syntax: {e.problem or e.context}"
        hint = ""
        if "tab" in str(e.problem or "").lower() or "\t" in src:
            hint = "indent with spaces, not tabs"
        elif "mapping values are not allowed" in str(e.problem):
            hint = "a value containing ': ' must be quoted"
        raise RulesetError(Problem(file, line, col, msg, hint, src)) from None
    except yaml.YAMLError as e:
        raise RulesetError(Problem(file, 1, 1, f"YAML: {e}")) from None
    if node is None:
        return None, pos
    return _construct(node, (), pos, file), pos
