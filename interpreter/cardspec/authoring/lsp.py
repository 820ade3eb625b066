"""``cardspec lsp``: a language server for ruleset files (pygls; ``pip install 'cardspec[lsp]'``).

What an editor gets, over stdio:

- **diagnostics** from the full loader — the ruleset as ``cardspec validate`` sees it, with its
  ``extends:`` chain merged, so a two-line variant shows no false "'deck' is a required property";
  problems in the file itself at their line and column, problems found in a base file on the
  ``extends:`` line with the base's file:line:col. Unsaved text is checked as typed.
- **completion** of names inside an expression (zones, counters, vars, options, definitions,
  table values such as ``trump``, builtins with their signatures) and of keys from the JSON Schema
  at the cursor's place in the YAML.
- **hover**: a key's description from the schema, or a builtin's row of docs/dsl.md.

The server reads the document through the same loader as every other front end (an overlay gives
the loader the editor's text for that one path; an unsaved new buffer gets a temporary path); it never
runs anything a ruleset says. Checks run in one thread of their own, ``DEBOUNCE_SECONDS`` after the last
edit, and a check overtaken by a newer edit is dropped: requests such as hover are answered meanwhile.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import re
import tempfile
from functools import lru_cache
from pathlib import Path

from .. import __version__
from ..errors import CardspecError

#: Seconds after an edit before the document is checked: the edits of one burst of typing make one check.
DEBOUNCE_SECONDS = 0.3

#: A document larger than this (bytes) is checked when opened or saved, not after every edit.
MAX_LIVE_BYTES = 256 * 1024

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
_KEY_LINE = re.compile(r"^(\s*)(?:-\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*:")


# ---- what the editor is told -------------------------------------------------------------------
def diagnostics_for(path: str, text: str) -> list:
    """Problems of the ruleset ``path`` whose current text is ``text``: ``[(line0, col0, message, severity)]``.

    ``line0``/``col0`` are 0-based (LSP positions); ``severity`` is ``"error"`` or ``"warning"``. Problems
    in another file of the ``extends:`` chain are placed on this file's ``extends:`` line.
    """
    from ..rules.loader import reading_overlay
    from .validate import validate_ruleset
    me = Path(path).resolve()
    with reading_overlay({me: text}):
        try:
            problems, _status = validate_ruleset(str(me), play=False)   # as you type: no random games
        except CardspecError as e:   # validate_ruleset reports bad input itself; this is a safety net
            return [(0, 0, str(e), "error")]
    out = []
    extends_line = _line_of_key(text, "extends")
    for p in problems:
        sev = "warning" if getattr(p, "severity", "error") == "warning" else "error"
        msg = p.message + (f" (hint: {p.hint})" if p.hint else "")
        same = False
        try:
            same = Path(p.file).resolve() == me
        except (OSError, ValueError):
            pass
        if same or not p.file:
            out.append((max(p.line - 1, 0), max(p.col - 1, 0), msg, sev))
        else:
            where = f"{p.file}:{p.line}:{p.col}" if p.line else p.file
            out.append((extends_line, 0, f"in {where}: {msg}", sev))
    return out


def _line_of_key(text: str, key: str) -> int:
    for i, line in enumerate(text.splitlines()):
        if line.startswith(f"{key}:"):
            return i
    return 0


def yaml_path_at(text: str, line: int) -> list:
    """The chain of mapping keys that encloses ``line`` (0-based), outermost first, from indentation alone.

    Works on text that does not parse (an editor's text while typing). ``-`` list items are skipped:
    ``deal: - tricks: lead:`` gives ``["deal", "tricks", "lead"]``.
    """
    lines = text.splitlines()
    path = []
    indent = None
    for i in range(min(line, len(lines) - 1), -1, -1):
        raw = lines[i]
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        m = _KEY_LINE.match(raw)
        if not m:
            continue
        ind = len(m.group(1)) + (raw[len(m.group(1)):].startswith("-") and 2 or 0)
        if i == line:
            indent = ind
            continue
        if indent is None or ind < indent:
            path.append(m.group(2))
            indent = ind
            if ind == 0:
                break
    return list(reversed(path))


def _schema_at(path: list):
    """The schema node for a key path (following properties, items, $ref and the first of any/oneOf)."""
    from ..rules.loader import schema
    root = schema()
    node = root

    def resolve(n):
        seen = 0
        while isinstance(n, dict) and "$ref" in n and seen < 20:
            ref = n["$ref"]
            n = root
            for part in ref.lstrip("#/").split("/"):
                n = n.get(part, {}) if part else n
            seen += 1
        return n

    def props(n):
        n = resolve(n)
        out = {}
        if not isinstance(n, dict):
            return out
        out.update(n.get("properties", {}))
        for k in ("anyOf", "oneOf", "allOf"):
            for alt in n.get(k, []):
                out.update(props(alt))
        if "items" in n:
            out.update(props(n["items"]))
        if isinstance(n.get("additionalProperties"), dict):
            out.update(props(n["additionalProperties"]))
        return out

    for key in path:
        p = props(node)
        if key in p:
            node = p[key]
        else:   # a name the author chose (a zone, an option, a step id): one level of additionalProperties
            n = resolve(node)
            ap = n.get("additionalProperties") if isinstance(n, dict) else None
            node = ap if isinstance(ap, dict) else {}
    return node, props(node)


def key_completions(text: str, line: int) -> list:
    """Keys the schema allows at ``line``: ``[(key, description)]``."""
    _node, props = _schema_at(yaml_path_at(text, line))
    from ..rules.loader import schema
    root = schema()
    out = []
    for k, v in props.items():
        desc = v.get("description", "") if isinstance(v, dict) else ""
        if not desc and isinstance(v, dict) and "$ref" in v:
            target = root
            for part in v["$ref"].lstrip("#/").split("/"):
                target = target.get(part, {}) if part else target
            desc = target.get("description", "") if isinstance(target, dict) else ""
        out.append((k, desc))
    return sorted(out)


def key_hover(text: str, line: int, key: str) -> str | None:
    """The schema description of ``key`` written on ``line``, if the schema has one."""
    for k, desc in key_completions(text, line):
        if k == key and desc:
            return f"**{key}** — {desc}"
    return None


@lru_cache(maxsize=1)
def builtin_docs() -> dict:
    """Builtin name -> (signature, type, meaning, example) from docs/dsl.md's builtin table."""
    from ..rules.loader import _data_dir
    path = _data_dir("docs") / "dsl.md"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return {}
    out = {}
    for row in text.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        sig, typ, meaning, example = cells
        for name in re.findall(r"`([a-z_]+)\(", sig):
            out.setdefault(name, (sig.replace("`", ""), typ, meaning, example.replace("`", "")))
    return out


def name_completions(path: str, text: str) -> list:
    """Names an expression may use in this ruleset: ``[(name, kind, detail)]``.

    From the compiled game when the ruleset compiles (every zone, counter, var, option, definition and
    table value with its type), else from the file's own declarations; plus every builtin.
    """
    from ..lang import BUILTINS
    from ..rules.loader import read_ruleset, reading_overlay
    names = {}
    me = Path(path).resolve()
    with reading_overlay({me: text}):
        try:
            rs = read_ruleset(str(me), strict=False)
        except CardspecError:
            rs = None
        if rs is not None:
            data = rs.data
            for section, kind in (("zones", "zone"), ("counters", "counter"), ("vars", "var"),
                                  ("options", "option"), ("define", "definition")):
                sec = data.get(section)
                if isinstance(sec, dict):
                    for k in sec:
                        if isinstance(k, str):
                            names[k] = (kind, section)
            try:
                from ..engine import Game
                from ..engine.slots import SYSTEM_VARS
                game = Game(rs)
                unused = {k for k, _, _ in SYSTEM_VARS} - _system_values_of(data)
                for k, b in game.env.names.items():
                    if k in unused and k not in names:   # a table value of a mechanism this ruleset lacks
                        continue
                    if k not in names and not k.startswith("_"):
                        kind = "definition" if b.kind == "define" else "value"
                        names[k] = (kind, b.type + (f"({', '.join(b.params)})" if b.params else ""))
                    elif k in names:
                        names[k] = (names[k][0], b.type + (f"({', '.join(b.params)})" if b.params else ""))
            except CardspecError:
                pass
    from ..engine.slots import SYSTEM_VARS
    relevant = _system_values_of(rs.data if rs is not None else {})
    for k, t, what in SYSTEM_VARS:
        if k in relevant:
            names.setdefault(k, ("table value", f"{t}: {what}"))
    if rs is not None:   # an option's help, type and default; a declaration's help (hover, completion detail)
        for section, kind in (("options", "option"), ("zones", "zone"), ("counters", "counter"), ("vars", "var")):
            sec = rs.data.get(section)
            for k, spec in (sec.items() if isinstance(sec, dict) else ()):
                if not isinstance(k, str) or k not in names or names[k][0] != kind or not isinstance(spec, dict):
                    continue
                detail = names[k][1] if names[k][1] != section else ""
                if kind == "option":
                    detail = f"{spec.get('type', 'int')}, default {spec.get('default')!r}" + (
                        f", one of {', '.join(map(str, spec['values']))}" if isinstance(spec.get("values"), list) else "")
                help_ = " ".join(str(spec.get("help") or "").split())
                names[k] = (kind, detail + (f": {help_}" if help_ else ""))
    docs = builtin_docs()
    for k in BUILTINS:
        sig = docs.get(k)
        names.setdefault(k, ("builtin", f"{sig[0]} → {sig[1]}: {sig[2]}" if sig else "builtin"))
    return sorted((k, kind, detail) for k, (kind, detail) in names.items())


#: Table values that mean something only with a mechanism (the rest — dealer, leader, trump … — always do):
#: completion offers them only when the ruleset has it.
_SYSTEM_NEEDS = {
    "declarer": ("auction", "bid"), "bid_number": ("auction",), "bid_suit": ("auction",), "bid_rank": ("auction",),
    "bid_contract": ("auction",), "bid_level": ("auction",), "called_by": ("sides",),
    "round_number": ("rounds",), "deal_in_round": ("rounds",), "sits_out": ("sits_out",),
    "turn_number": ("turns",), "redeals": ("auction", "redeal"),
    "trick_number": ("tricks",), "tricks_total": ("tricks",), "led_suit": ("tricks",), "winner": ("tricks",),
    "leader": ("tricks",),
}


def _system_values_of(data: dict) -> set:
    """The table values (engine/slots.py SYSTEM_VARS) that mean something in a ruleset with ``data``: those
    of its step kinds (auction, tricks, turns …), ``sides:`` and ``match: rounds``; every one when the
    ruleset cannot be read (no step is known to be missing)."""
    from ..engine.slots import SYSTEM_VARS
    everything = {k for k, _, _ in SYSTEM_VARS}
    steps = data.get("deal") if isinstance(data, dict) else None
    if not isinstance(steps, list):
        return everything
    have = set()
    for st in steps:
        if isinstance(st, str):
            have.add(st)
        elif isinstance(st, dict):
            have.update(k for k in st if k not in ("id", "if", "name", "before_deal"))
    if isinstance(data.get("actions"), dict) and data["actions"]:
        have.add("turns")
    if data.get("sides") is not None:
        have.add("sides")
    if isinstance(data.get("match"), dict) and data["match"].get("rounds") is not None:
        have.add("rounds")
    return {k for k in everything if k not in _SYSTEM_NEEDS or have & set(_SYSTEM_NEEDS[k])}


def word_at(text: str, line: int, col: int) -> str:
    """The identifier that ends at (or spans) ``line``/``col`` (0-based)."""
    lines = text.splitlines()
    if line >= len(lines):
        return ""
    s = lines[line]
    a = col
    while a > 0 and (s[a - 1].isalnum() or s[a - 1] == "_"):
        a -= 1
    b = col
    while b < len(s) and (s[b].isalnum() or s[b] == "_"):
        b += 1
    return s[a:b]


def in_value(text: str, line: int, col: int) -> bool:
    """True when the cursor is after a ``key:`` on its line or inside a quoted string (an expression)."""
    lines = text.splitlines()
    if line >= len(lines):
        return False
    before = lines[line][:col]
    if before.count('"') % 2 == 1 or before.count("'") % 2 == 1:
        return True
    stripped = before.lstrip()
    if stripped.startswith("- "):
        stripped = stripped[2:]
    return ":" in stripped


# ---- the server --------------------------------------------------------------------------------
def make_server():
    """The pygls ``LanguageServer`` with cardspec's features. Raises ``CardspecError`` without pygls."""
    try:
        from lsprotocol import types as t
        from pygls.lsp.server import LanguageServer
    except ImportError:
        raise CardspecError("cardspec lsp needs pygls: pip install 'cardspec[lsp]'") from None

    server = LanguageServer("cardspec", __version__)
    # One checker thread: a check runs off the request path (hover and completion answer at once), and the
    # edits that arrive while one waits or runs supersede it (issue 36: 200 quick edits each ran a full
    # check in order, delaying a hover on another file by seconds and diagnostics by minutes).
    checker = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardspec-lsp-check")
    latest: dict = {}   # uri -> the number of the newest edit seen (a check of an older one is dropped)

    def path_of(uri: str) -> str:
        """The file a document stands for; an unsaved new buffer (``untitled:``) gets a name of its own in the
        temporary folder, so it is checked as a file there would be (built-in bases resolve as usual)."""
        from pygls.uris import to_fs_path
        path = to_fs_path(uri) if uri.startswith("file:") else None
        if path:
            return path
        digest = hashlib.sha1(uri.encode("utf-8", "replace")).hexdigest()[:12]
        return str(Path(tempfile.gettempdir()) / f"cardspec-unsaved-{digest}.yaml")

    def publish(uri: str, found: list):
        diags = []
        for line, col, msg, sev in found:
            diags.append(t.Diagnostic(
                range=t.Range(start=t.Position(line=line, character=col), end=t.Position(line=line, character=col + 1)),
                message=msg, source="cardspec",
                severity=t.DiagnosticSeverity.Warning if sev == "warning" else t.DiagnosticSeverity.Error))
        server.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=diags))

    async def check(uri: str, wait: float, typing: bool):
        """Check the document after ``wait`` seconds unless a newer edit came meanwhile; publish the result
        unless a newer edit came while it ran. While typing, a file over ``MAX_LIVE_BYTES`` waits for a save."""
        stamp = latest[uri] = latest.get(uri, 0) + 1
        if wait:
            await asyncio.sleep(wait)
        if latest.get(uri) != stamp:
            return
        text = server.workspace.get_text_document(uri).source
        if typing and len(text.encode("utf-8", "replace")) > MAX_LIVE_BYTES:
            publish(uri, [(0, 0, f"this file is {len(text):,} characters: it is checked when saved, not as you "
                           f"type (more than {MAX_LIVE_BYTES:,} bytes)", "warning")])
            return
        found = await asyncio.get_running_loop().run_in_executor(checker, diagnostics_for, path_of(uri), text)
        if latest.get(uri) == stamp:
            publish(uri, found)

    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls, params: t.DidOpenTextDocumentParams):
        await check(params.text_document.uri, 0, False)

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls, params: t.DidChangeTextDocumentParams):
        await check(params.text_document.uri, DEBOUNCE_SECONDS, True)

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls, params: t.DidSaveTextDocumentParams):
        await check(params.text_document.uri, 0, False)

    @server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=[" ", "(", "[", "."]))
    def completion(ls, params: t.CompletionParams):
        uri, pos = params.text_document.uri, params.position
        doc = server.workspace.get_text_document(uri)
        text = doc.source
        items = []
        if in_value(text, pos.line, pos.character):
            kinds = {"zone": t.CompletionItemKind.Variable, "counter": t.CompletionItemKind.Variable,
                     "var": t.CompletionItemKind.Variable, "option": t.CompletionItemKind.Constant,
                     "definition": t.CompletionItemKind.Function, "builtin": t.CompletionItemKind.Function,
                     "table value": t.CompletionItemKind.Variable, "value": t.CompletionItemKind.Value}
            for name, kind, detail in name_completions(path_of(uri), text):
                items.append(t.CompletionItem(label=name, kind=kinds.get(kind, t.CompletionItemKind.Text),
                                              detail=f"{kind}: {detail}"))
        else:
            for key, desc in key_completions(text, pos.line):
                items.append(t.CompletionItem(label=key, kind=t.CompletionItemKind.Property, detail=desc[:200],
                                              insert_text=f"{key}: "))
        return t.CompletionList(is_incomplete=False, items=items)

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    def hover(ls, params: t.HoverParams):
        uri, pos = params.text_document.uri, params.position
        text = server.workspace.get_text_document(uri).source
        word = word_at(text, pos.line, pos.character)
        if not word:
            return None
        lines = text.splitlines()
        m = _KEY_LINE.match(lines[pos.line]) if pos.line < len(lines) else None
        body = None
        if m and m.group(2) == word and not in_value(text, pos.line, pos.character):
            body = key_hover(text, pos.line, word)
        if body is None:
            sig = builtin_docs().get(word)
            if sig:
                body = f"`{sig[0]}` → {sig[1]}\n\n{sig[2]}\n\nexample: `{sig[3]}`"
            else:
                for name, kind, detail in name_completions(path_of(uri), text):
                    if name == word:
                        body = f"**{name}** ({kind}): {detail}"
                        break
        if body is None:
            return None
        return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=body))

    return server


def serve_stdio() -> int:
    """Run the language server on stdin/stdout until the client exits."""
    make_server().start_io()
    return 0
