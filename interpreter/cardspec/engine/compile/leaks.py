"""The information-flow check of compiling: no value every seat sees is computed from cards a seat cannot see.

A seat learns what its view shows. Zones show their cards by their ``visibility:`` (docs/rulesets.md,
"Zones"); counters and vars are shown to every seat unless declared otherwise (a counter's
``visibility: owner``, a var's ``visibility: none`` or ``seen_by:``). So an effect that writes, into a
value every seat sees, something read from the cards of a face-down zone tells every seat about those
cards — a ``vars: secret_card`` set from ``top(hand[0])``, a running total of points read from a won pile
into which face-down cards went. This check finds such flows in the compiled game and reports each as the
warning ``info/leak`` at the effect's file:line:col (a warning, not an error: a check added by a later
release never turns a valid ruleset invalid, docs/rulesets.md "Stability"; ``cardspec validate --strict``
fails on it).

What counts as reading a zone's cards: any use of the zone but its size (``count(hand[p])``: how many
cards a seat holds is on the table) and its face-up part (``face_up_cards(widow)``). A zone whose cards
every seat has seen — ``visibility: all`` or ``top``, a zone of melds, or a pile that tricks are taken into
and that no ``move`` fills from a face-down zone — may be read freely. Definitions are followed through
their calls. The flow counted is the value written and the ``if:`` conditions guarding the effect
(``if: AS in hand[0]`` then ``add`` … tells as much as the value).

A tricks step's window condition (``windows: [{when}]``) is judged like a value every seat sees: whether
the window opens shows in whose turn it is.

What is not judged: effects of a step after the deal's last decision (the deal is over: the rules show the
hands for the count, docs/rulesets.md "Scoring"), ``match:`` (between deals), score steps, ``emit`` and
``reveal`` (the author's own announcement: the event names what it tells), reads of a zone that a
``reveal`` earlier in the same list of effects showed to all, and values whose declaration says the rules announce them (``announced:``
on the counter or var, with the rule in words). The dynamic side of the same property — re-dealing what a
seat has not seen and comparing its view, log and legal actions — is tests/test_information_flow.py.
"""
from __future__ import annotations

import ast

from ..information import SEEN_BY_OTHERS

#: The warning's code.
LEAK = "info/leak"

#: Effects whose written value every seat may read without the author having said so: a var or counter set,
#: a counter added to. (An ``emit`` names what it tells in the event itself: the author's announcement.)
_SINKS = ("set", "add")


def run(g):
    """Add an ``info/leak`` warning to ``g.warnings`` for each effect that writes a hidden card's trace into a
    value every seat sees. Reads ``g.comp.compiled`` (every expression's path and generated source)."""
    comp = g.comp
    late = _after_last_decision(g)
    private = _private_zones(g, late)
    if not private:
        return g
    defs = _definition_reads(g, private)
    guards = {path[:-1]: src for path, src in comp.compiled if path and path[-1] == "if"}
    seen = set()
    for path, src in comp.compiled:
        sink = _sink(g, path)
        if sink is None or path[0] == "match" or _in(path, late):
            continue
        k, what = sink
        read = _reads(src, private, defs) - _revealed(g, path[:k])
        for p, gsrc in guards.items():
            if p == path[:len(p)] and len(p) <= k:
                read |= _reads(gsrc, private, defs)
        if not read or (path[:k], what) in seen:
            continue
        seen.add((path[:k], what))
        zones = ", ".join(sorted(g.zones[i].name for i in read))
        said = (f"{what} is seen by every seat (whose turn it becomes), and this condition reads {zones}"
                if path[-1] == "when" else
                f"{what} is shown to every seat, and this effect writes into it what it reads of {zones}")
        w = comp.pos.problem(
            path, f"{said} (cards some seat cannot see): every seat learns about those cards",
            "keep the value where only its owner sees it (a counter's visibility: owner, a var's visibility: "
            "none or seen_by:), or, if the rules announce it to all, say so on its declaration (announced: "
            "THE RULE)")
        w.severity, w.code = "warning", LEAK
        g.warnings.append(w)
    return g


def _private_zones(g, late: frozenset) -> frozenset:
    """Indices of the zones holding, while the deal is played, cards that some seat has not seen (a move in
    a step of ``late``, after the deal's last decision, fills a zone when nothing is left to judge)."""
    hidden = {i for i, z in enumerate(g.zones) if not (z.melds or z.visibility in SEEN_BY_OTHERS)}
    piles = {st.won for st in g.steps if isinstance(getattr(st, "won", None), int)}   # tricks taken in
    filled = set()   # zones a move fills from a face-down zone
    for path, src in g.comp.compiled:
        if len(path) >= 2 and path[-1] == "to" and path[-2] == "move" and not _in(path, late):
            frm = next((s for p, s in g.comp.compiled if p == path[:-1] + ("from",)), None)
            if frm is None or _zones_named(frm) & hidden:
                filled |= _zones_named(src)
    return frozenset(hidden - (piles - filled))


def _in(path, late) -> bool:
    return path[0] == "deal" and len(path) > 1 and path[1] in late


def _revealed(g, effect) -> set:
    """Zones whose cards a ``reveal`` effect earlier in the same list of effects has shown to every seat."""
    if not effect or not isinstance(effect[-1], int):
        return set()
    out = set()
    for p, src in g.comp.compiled:
        if len(p) == len(effect) + 2 and p[:-3] == effect[:-1] and isinstance(p[-3], int) and p[-3] < effect[-1] \
                and p[-2:] == ("reveal", "cards"):
            out |= _zones_named(src)
    return out


def _zones_named(src: str) -> set:
    """Zone indices an expression's generated source names anywhere (``s.z[K]``)."""
    try:
        tree = ast.parse(src, mode="eval")
    except SyntaxError:
        return set()
    return {n.slice.value for n in ast.walk(tree) if _is_zone(n)}


def _is_zone(n) -> bool:
    return (isinstance(n, ast.Subscript) and isinstance(n.value, ast.Attribute) and n.value.attr == "z"
            and isinstance(n.value.value, ast.Name) and n.value.value.id == "s"
            and isinstance(n.slice, ast.Constant) and type(n.slice.value) is int)


def _reads(src: str, private: frozenset, defs: dict) -> set:
    """The private zones whose cards the generated source ``src`` reads (its size and face-up part aside),
    through the definitions it calls (``defs``: function name → zones)."""
    try:
        tree = ast.parse(src, mode="eval")
    except SyntaxError:
        return set()
    parent = {}
    for n in ast.walk(tree):
        for c in ast.iter_child_nodes(n):
            parent[c] = n
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in defs:
            out |= defs[n.func.id]
        if not _is_zone(n) or n.slice.value not in private:
            continue
        up, node = parent.get(n), n
        # one seat's pile (s.z[K][p]) and the bounds check around it ((… if 0 <= p < n else _NO_ZONE))
        while (isinstance(up, ast.Subscript) and up.value is node and not isinstance(up.slice, ast.Slice)) or \
                (isinstance(up, ast.IfExp) and up.body is node):
            up, node = parent.get(up), up
        if isinstance(up, ast.Call) and isinstance(up.func, ast.Name) and up.func.id == "len" and up.args == [node]:
            continue   # its size
        if isinstance(up, ast.Subscript) and up.value is node and isinstance(up.slice, ast.Slice) and \
                "face_up" in ast.unparse(up.slice):
            continue   # its face-up part
        out.add(n.slice.value)
    return out


def _definition_reads(g, private) -> dict:
    """Function name (``_d_NAME``) → the private zones the definition reads, its calls followed."""
    direct, calls = {}, {}
    for path, src in g.comp.compiled:
        if len(path) == 2 and path[0] == "define":
            name = "_d_" + str(path[1]).split("(")[0].strip()
            direct[name] = _reads(src, private, {})
            calls[name] = {n.func.id for n in ast.walk(ast.parse(src, mode="eval")) if isinstance(n, ast.Call)
                           and isinstance(n.func, ast.Name) and n.func.id.startswith("_d_")} \
                if _parses(src) else set()
    out = {k: set(v) for k, v in direct.items()}
    changed = True
    while changed:   # a fixed point over the call graph (definitions cannot call each other in a cycle)
        changed = False
        for k, cs in calls.items():
            for c in cs:
                extra = out.get(c, set()) - out[k]
                if extra:
                    out[k] |= extra
                    changed = True
    return out


def _parses(src: str) -> bool:
    try:
        ast.parse(src, mode="eval")
        return True
    except SyntaxError:
        return False


def _after_last_decision(g) -> frozenset:
    """Indices (under ``deal:``) of the steps after the deal's last decision step."""
    idx = [st.path[1] for st in g.steps if len(getattr(st, "path", ())) >= 2 and st.path[0] == "deal"]
    dec = [st.path[1] for st in g.steps if getattr(st, "decision", False) and len(getattr(st, "path", ())) >= 2
           and st.path[0] == "deal"]
    if not dec:
        return frozenset()
    last = max(dec)
    return frozenset(i for i in idx if i > last)


def _sink(g, path) -> tuple | None:
    """``(k, what)`` when ``path`` is a value an effect writes into something every seat sees: ``path[k]`` is
    the effect's kind and ``what`` names the target for the message; or a tricks step's window condition
    (``windows: [{when}]``: whether a window opens shows in whose turn it is); None otherwise."""
    if len(path) >= 3 and path[-1] == "when" and path[-3] == "windows":
        node = _at(g.data, path[:-1])
        name = node.get("name") if isinstance(node, dict) else None
        return len(path) - 1, f"whether the window{' ' + repr(str(name)) if name else ''} opens"
    for k in range(len(path) - 1, 0, -1):
        if path[k] not in _SINKS:
            continue
        node = _at(g.data, path[:k])
        if not isinstance(node, dict) or path[k] not in node:
            continue
        kind, body = path[k], node[path[k]]
        if kind == "set" and len(path) > k + 1:
            return _public(g, str(path[k + 1]), k)
        if kind == "add" and isinstance(body, dict):
            return _public(g, str(body.get("to", body.get("counter", ""))), k)
        return None
    return None


def _public(g, target: str, k: int):
    name = target.split("[")[0].strip()
    var = g.var.get(name)
    if var is not None:
        shown = not var.hidden and var.seen_by is None
        return (k, f"var '{name}'") if shown and not _announced(g, "vars", name) else None
    c = g.counter.get(name)
    if c is not None and c.visibility == "all" and not _announced(g, "counters", name):
        return (k, f"counter '{name}'")
    return None


def _announced(g, section: str, name: str) -> bool:
    decl = (g.data.get(section) or {}).get(name)
    return isinstance(decl, dict) and bool(decl.get("announced"))


def _at(data, path):
    for p in path:
        try:
            data = data[p]
        except (KeyError, IndexError, TypeError):
            return None
    return data
