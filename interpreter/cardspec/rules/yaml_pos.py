"""YAML read with the position of every node kept.

PyYAML's composer gives nodes with start marks; we build plain Python data
(dict, list, str, int, float, bool, None) and a side table ``Positions`` that
maps a path (a tuple of keys and indexes) to where its value starts. Plain data
keeps the rest of the loader simple; the table lets every later check say
file:line:col, and ``Positions.locate`` turns an offset inside a scalar's value
(an expression's error column) back into the file's line and column, whatever
the scalar's style (plain, quoted, ``|`` or ``>``, one or several lines).

A sequence tagged ``!replace`` is returned as ``Replace`` (a list subclass):
``extends:`` then replaces the base's list instead of merging it.

Reading is bounded: at most ``MAX_DEPTH`` levels of nesting and
``MAX_NODES`` values after alias expansion (a "billion laughs" file of
aliases is rejected, not expanded), and ``MAX_BYTES`` of text.
"""
from __future__ import annotations

from dataclasses import dataclass

import re

import yaml

from ..errors import Problem, RulesetError

MAX_DEPTH = 64
MAX_NODES = 100_000
MAX_BYTES = 2_000_000


class Replace(list):
    """A list that replaces the base list under ``extends:`` (YAML tag ``!replace``)."""


@dataclass(frozen=True)
class Pos:
    file: str
    line: int   # 1-based
    col: int    # 1-based, of the value's first character (a quote or a block indicator included)
    quoted: bool = False   # a quoted scalar: its text starts one column later
    block: bool = False    # a block scalar (| or >): its text starts on the next line


class Positions(dict):
    """path tuple → ``Pos``; ``find(path)`` falls back to the nearest known ancestor.

    Keys ``("key",) + path`` hold the position of a mapping key itself.
    ``sources`` maps a file name to the list of its lines.
    """

    def __init__(self, *a, sources=None, file="<ruleset>", **k):
        super().__init__(*a, **k)
        self.sources = dict(sources or {})   # file → list of its lines
        self.file = file                     # the file reported when nothing closer is known
        self.replaced = set()                # paths of text values tagged !replace (a definition meant to replace)

    def find(self, path) -> Pos:
        path = tuple(path)
        while path:
            if path in self:
                return self[path]
            path = path[:-1]
        return self.get((), Pos(self.file, 1, 1))

    def problem(self, path, message, hint="", key=False) -> Problem:
        """A ``Problem`` located at ``path`` (at its key when ``key`` is true and known)."""
        pos = None
        if key and ("key",) + tuple(path) in self:
            pos = self[("key",) + tuple(path)]
        pos = pos or self.find(path)
        return Problem(pos.file, pos.line, pos.col, message, hint, self.line_text(pos.file, pos.line))

    def line_text(self, file, line) -> str:
        lines = self.sources.get(file) or []
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def locate(self, path, value: str, offset: int):
        """``(line, col)`` in the file of character ``offset`` of the scalar ``value`` at ``path``.

        Works for every scalar style by walking the source and the value side by
        side: a run of whitespace in the value matches a run of whitespace
        (newlines and indentation included) in the source; any other character
        matches the next equal source character (skipping quotes, escapes and a
        block indicator's line). Returns None when ``path`` has no exact position, or when a plain
        scalar's source does not spell ``value`` (a YAML ``true`` given as ``True``).
        """
        pos = self.get(tuple(path))
        if pos is None:
            return None
        lines = self.sources.get(pos.file) or []
        if not (0 < pos.line <= len(lines)):
            return None
        # Source text from the scalar's start to the end of the file, with (line, col) per index.
        ln, col = pos.line - 1, pos.col - 1
        if pos.block:            # skip the indicator line (| or >, chomping, comment)
            ln, col = ln + 1, 0
        elif pos.quoted:
            col += 1
        src_line, src_col = ln, col

        def char_at():
            if src_line >= len(lines):
                return ""
            row = lines[src_line]
            return row[src_col] if src_col < len(row) else "\n"

        def step():
            nonlocal src_line, src_col
            if src_line < len(lines) and src_col < len(lines[src_line]):
                src_col += 1
            else:
                src_line, src_col = src_line + 1, 0

        offset = max(0, min(offset, len(value)))
        for i in range(offset):
            ch = value[i]
            if ch.isspace():
                if char_at().isspace() and char_at():
                    if i + 1 < len(value) and value[i + 1].isspace():
                        step()                      # one for one inside a run of spaces
                    else:
                        while char_at() and char_at().isspace():
                            step()                  # the run (line break + indentation) ends here
                continue
            if not pos.quoted and not pos.block and char_at() != ch:
                return None   # plain text is the source itself: this is not the scalar's text (true → True)
            guard = 0
            while char_at() and char_at() != ch and guard < 10_000:
                step()                              # quotes, escapes
                guard += 1
            if not char_at():
                return pos.line, pos.col
            step()
        # Skip indentation so a caret lands on text, not on the line's margin.
        if offset < len(value) and not value[offset].isspace():
            guard = 0
            while char_at() and char_at() != value[offset] and guard < 10_000:
                step()
                guard += 1
        if src_line >= len(lines):
            return pos.line, pos.col
        return src_line + 1, src_col + 1


_SCALAR_TYPES = (str, int, float, bool, type(None))


def _construct(node, path, pos: Positions, file: str, budget: list, depth: int = 0):
    budget[0] += 1
    if budget[0] > MAX_NODES:
        raise RulesetError(pos.problem(path, f"the YAML expands to more than {MAX_NODES} values",
                                       "aliases (*name) that repeat large parts are not allowed"))
    if depth > MAX_DEPTH:
        raise RulesetError(pos.problem(path, f"the YAML is nested more than {MAX_DEPTH} levels deep",
                                       "a recursive alias (&a [*a]) or runaway nesting"))
    m = node.start_mark
    if isinstance(node, yaml.ScalarNode):
        style = node.style or ""
        pos[path] = Pos(file, m.line + 1, m.column + 1, quoted=style in ("'", '"'), block=style in ("|", ">"))
        if node.tag == "!replace":
            # The node starts at its tag: the value starts after it (``penalty(s): !replace EXPR``).
            lines = pos.sources.get(file) or []
            line = lines[m.line] if m.line < len(lines) else ""
            at = line.find("!replace", m.column)
            if at >= 0 and style not in ("|", ">"):
                rest = line[at + len("!replace"):]
                col = at + len("!replace") + (len(rest) - len(rest.lstrip(" "))) + 1
                pos[path] = Pos(file, m.line + 1, col, quoted=style in ("'", '"'), block=False)
            if len(path) != 2 or path[0] != "define":
                raise RulesetError(pos.problem(path, "!replace goes on a list, or on a definition that replaces "
                                               "the base's", "e.g. after_trick: !replace [...], or under define: "
                                               "'penalty(s): !replace 2 * count(won[s])'"))
            pos.replaced.add(path)
        if style:  # quoted or block scalars are always strings
            return node.value
        value = _scalar_value(node)
        if not isinstance(value, _SCALAR_TYPES):   # timestamps, binary, sets …: keep the text
            return node.value
        if isinstance(value, float) and value != value:   # nan
            return node.value
        return value
    pos[path] = Pos(file, m.line + 1, m.column + 1)
    if isinstance(node, yaml.SequenceNode):
        items = [_construct(c, path + (i,), pos, file, budget, depth + 1) for i, c in enumerate(node.value)]
        return Replace(items) if node.tag == "!replace" else items
    if isinstance(node, yaml.MappingNode):
        out = {}
        for knode, vnode in node.value:
            km = knode.start_mark
            if not isinstance(knode, yaml.ScalarNode):
                p = Positions(sources=pos.sources, file=file)
                p[path] = Pos(file, km.line + 1, km.column + 1)
                raise RulesetError(p.problem(path, "a key must be plain text, not a list or mapping"))
            key = knode.value
            if key in out:
                p = Positions(sources=pos.sources, file=file)
                p[path] = Pos(file, km.line + 1, km.column + 1)
                raise RulesetError(p.problem(path, f"key '{key}' appears twice in this mapping",
                                             "remove one of them (YAML keeps only one)"))
            pos[("key",) + path + (key,)] = Pos(file, km.line + 1, km.column + 1)
            out[key] = _construct(vnode, path + (key,), pos, file, budget, depth + 1)
        return out
    raise RulesetError(pos.problem(path, "unsupported YAML node"))  # pragma: no cover


class _ScalarLoader(yaml.SafeLoader):
    pass


_LOADER = _ScalarLoader("")
#: libyaml's parser when PyYAML was built with it (about 10x faster; same nodes and marks).
_BASE_COMPOSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _COMPOSER(_BASE_COMPOSER):
    """The composer with its tag resolution remembered per (kind, text, implicit): the same tags as
    the base class, which runs a few regular expressions in Python for every scalar."""

    _resolved: dict = {}

    def resolve(self, kind, value, implicit):
        key = (kind, value, implicit)
        try:
            return self._resolved[key]
        except KeyError:
            pass
        except TypeError:   # pragma: no cover - unhashable arguments
            return super().resolve(kind, value, implicit)
        tag = super().resolve(kind, value, implicit)
        if len(self._resolved) > 50_000:
            self._resolved.clear()
        self._resolved[key] = tag
        return tag

    if not _BASE_COMPOSER.yaml_path_resolvers:   # then both do nothing; skip the two calls per node
        def descend_resolver(self, current_node, current_index):
            return None

        def ascend_resolver(self):
            return None


_STR_TAG = "tag:yaml.org,2002:str"


def _scalar_value(node):
    """Resolve a plain scalar the way SafeLoader would (int, float, bool, null, str)."""
    if node.tag == _STR_TAG:   # SafeConstructor.construct_yaml_str: the text itself
        return node.value
    ctor = _LOADER.yaml_constructors.get(node.tag)
    if ctor is None:
        return node.value
    try:
        return ctor(_LOADER, node)
    except (yaml.YAMLError, ValueError, TypeError, OverflowError):
        return node.value


def read_text(path, file: str) -> str:
    """The UTF-8 text of the file at ``path``, reading at most ``MAX_BYTES`` + 1 bytes (a larger file
    is refused before the rest of it is read, however large it is).

    Raises ``RulesetError`` (file:1:1) for a larger file; ``OSError`` and ``UnicodeDecodeError``
    pass to the caller, which words them for its kind of file.
    """
    with open(path, "rb") as f:
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise RulesetError(Problem(file, 1, 1, f"the file is larger than {MAX_BYTES} bytes",
                                   "a ruleset or scenario is a small YAML text file"))
    return data.decode("utf-8")


def load_yaml(text: str, file: str, positions: Positions | None = None):
    """Parse ``text`` as one YAML document.

    Returns ``(data, positions)``. Raises ``RulesetError`` (file:line:col) on a
    YAML syntax error, a duplicate key, a misplaced ``!replace``, several
    documents, or input beyond the bounds above.
    """
    pos = positions if positions is not None else Positions(file=file)
    pos.file = file
    pos.sources[file] = text.splitlines()
    if len(text) > MAX_BYTES:
        raise RulesetError(Problem(file, 1, 1, f"the file is larger than {MAX_BYTES} bytes"))
    try:
        node = yaml.compose(text, Loader=_COMPOSER)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        lines = pos.sources[file]
        src = lines[line - 1] if 0 < line <= len(lines) else ""
        problem = str(e.problem or e.context or "invalid YAML")
        msg = f"YAML syntax: {problem}"
        hint = ""
        if "tab" in problem.lower() or "\t" in src:
            hint = "indent with spaces, not tabs"
        elif "mapping values are not allowed" in problem:
            over = _over_indented(lines, line)
            if over:   # issue 20 item 6: an over-indented "key: value" line continues the value above it
                msg, hint = over
                col = len(src) - len(src.lstrip(" ")) + 1
            else:
                hint = "a value containing ': ' must be quoted"
        elif "expected ',' or '}'" in problem or "expected ',' or ']'" in problem:
            hint = "inside { … } or [ … ] quote a value that has [ ] { } or commas in it, or write it on its own lines"
        elif "expected a single document" in str(e) or "another document" in problem:
            msg, hint = "YAML syntax: more than one document ('---') in a ruleset", "keep one document per file"
        elif "found undefined alias" in problem:
            hint = "define the anchor (&name) before using *name"
        elif ("could not find expected ':'" in problem or "expected <block end>" in problem
              or "did not find expected key" in problem):
            hint = "check the indentation of this line and the one before"
        raise RulesetError(Problem(file, line, col, msg, hint, src)) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        detail = str(e).splitlines()[0] if str(e) else type(e).__name__
        if isinstance(e, yaml.reader.ReaderError):
            line, col = _line_col(text, e.position)
            detail = f"character {e.character!r} is not allowed in YAML" if isinstance(e.character, str) \
                else "the file is not text"
        raise RulesetError(Problem(file, line, col, f"YAML: {detail}", "", pos.line_text(file, line))) from None
    except RecursionError:
        raise RulesetError(Problem(file, 1, 1, "the YAML is nested too deeply to read")) from None
    if node is None:
        return None, pos
    try:
        return _construct(node, (), pos, file, [0]), pos
    except RecursionError:  # pragma: no cover - MAX_DEPTH comes first
        raise RulesetError(Problem(file, 1, 1, "the YAML is nested too deeply to read")) from None


def _over_indented(lines: list, line: int):
    """``(message, hint)`` when line ``line`` (1-based) is indented deeper than the line before it, which
    already gives its key a value (``default: 2`` then ``  help: …``): YAML reads the deeper line as
    more of that value and then meets its ': '. None otherwise."""
    if not 0 < line <= len(lines):
        return None
    src = lines[line - 1]
    k = line - 2
    while k >= 0 and (not lines[k].strip() or lines[k].lstrip().startswith("#")):
        k -= 1
    if k < 0:
        return None
    prev = lines[k]
    indent, prev_indent = len(src) - len(src.lstrip(" ")), len(prev) - len(prev.lstrip(" "))
    m = re.match(r"\s*(?:- )?([^\s:#][^:#]*?):\s+(\S.*)$", prev)
    if indent <= prev_indent or not m or m.group(2).startswith(("|", ">", "#")):
        return None
    return (f"this line is indented more than line {k + 1}, whose '{m.group(1).strip()}' already has a value: "
            f"YAML reads it as more of that value",
            f"indent it as line {k + 1} (column {prev_indent + 1}) to make it a key of the same mapping; "
            f"quote the value above if ': ' belongs to it")


def _line_col(text: str, index: int):
    before = text[:max(index, 0)]
    line = before.count("\n") + 1
    return line, index - (before.rfind("\n") + 1) + 1
