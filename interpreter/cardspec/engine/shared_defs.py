"""Definitions without parameters evaluated once for all the statements of a block of ``set:`` effects.

A ``do:`` step setting several vars at once often reads one definition through others (three vars, each
a definition of one list filtered from the deck): each statement evaluated that list again. When every
statement of the block writes a var slot (``s.v[K] = EXPR``) and a definition without parameters
reads no slot the block writes — it reads only fixed var slots, zones and counters, and definitions
(``s.v[N]`` with N a number, ``s.z[…]``, ``s.c[…]``, ``_d_NAME(s…)``) — its value cannot change while
the block runs: the block keeps it in a dict the first time a statement needs it (``_dm``), as the score
step keeps its definitions for all seats (steps/score.py ``_shared_once``). Definitions between a
statement and the kept one are written out in place (their bodies, from ``env.def_src``) so that the
kept one's calls appear in the block. Each definition is still first evaluated where it first was
(expressions have no effects), so values, errors and their order are those of the plain block.

The only names read are the generated sources of definitions (``env.def_src``): the rewriting moves
generated code, never author text.
"""
from __future__ import annotations

import re

#: A statement of the block: a var slot written with ``=``.
_WRITE = re.compile(r"s\.v\[(\d+)\] = ")
#: A call of a definition with the state as its only argument.
_CALL0 = re.compile(r"\b(_d_\w+)\(s\)")
#: A call of a definition of any parameters (its first argument the state).
_CALL = re.compile(r"\b(_d_\w+)\(s\b")
#: The opening of a call of a definition, just before its first argument (searched ending where ``s`` is).
_CALL_OPEN = re.compile(r"\b_d_\w+\($")
#: The name ``s`` (not part of a longer name, not an attribute).
_NAME_S = re.compile(r"(?<![\w.])s\b")
#: A read of ``s`` that the block's writes of var slots cannot change (a var slot given by a number: its
#: number in group 1), or a call of a definition.
_FIXED_READ = re.compile(r"s\.v\[(\d+)\]|s\.z\[|s\.c\[")
#: The most definitions written out in one block, and the deepest chain of them (a bound on the work
#: and on the size of the generated block, known at load).
MAX_INLINED, MAX_DEPTH = 40, 8


def share(lines: list, defs: dict, memo: str = "_dm") -> list:
    """``lines`` (the statements of one block of effects) with the definitions without parameters that are
    evaluated more than once in the block, and can be kept, read from ``memo`` (module doc); ``lines``
    itself when the block is not only writes of var slots or nothing is evaluated twice. ``defs``:
    generated function name -> (parameter names, body source) (``env.def_src``)."""
    writes = set()
    for ln in lines:
        m = _WRITE.match(ln)
        if m is None:
            return lines
        writes.add(int(m.group(1)))
    zero = {name for name, (params, _) in defs.items() if params == ()}
    counts: dict = {}
    try:
        for ln in lines:
            _count(ln, defs, zero, counts, 0)
    except _TooDeep:
        return lines
    kept = {name for name, n in counts.items() if n > 1 and _fixed(name, defs, writes, set())}
    if not kept:
        return lines
    keys: dict = {}
    inlined = [0]

    def rewrite(text: str, depth: int) -> str:
        def one(m):
            name = m.group(1)
            if name not in zero:
                return m.group(0)
            if name in kept:
                k = keys.setdefault(name, len(keys))
                return f"({memo}[{k}] if {k} in {memo} else {memo}.setdefault({k}, {name}(s)))"
            if depth < MAX_DEPTH and inlined[0] < MAX_INLINED and _reaches(name, defs, zero, kept, 0):
                inlined[0] += 1
                return f"({rewrite(defs[name][1], depth + 1)})"
            return m.group(0)
        return _CALL0.sub(one, text)

    out = [rewrite(ln, 0) for ln in lines]
    return [f"{memo} = {{}}"] + out if keys else lines


class _TooDeep(Exception):
    pass


def _count(text, defs, zero, counts, depth):
    """Add to ``counts`` each definition without parameters that ``text`` evaluates, through the bodies of
    such definitions (one per place it is written)."""
    if depth > MAX_DEPTH:
        raise _TooDeep
    for m in _CALL0.finditer(text):
        name = m.group(1)
        if name in zero:
            counts[name] = counts.get(name, 0) + 1
            _count(defs[name][1], defs, zero, counts, depth + 1)


def _reaches(name, defs, zero, kept, depth) -> bool:
    """Whether definition ``name``'s body calls, through definitions without parameters, one in ``kept``."""
    if depth > MAX_DEPTH:
        return False
    for m in _CALL0.finditer(defs[name][1]):
        other = m.group(1)
        if other in kept or (other in zero and _reaches(other, defs, zero, kept, depth + 1)):
            return True
    return False


def _fixed(name, defs, writes, seen) -> bool:
    """Whether definition ``name`` (and every definition it calls) reads the state only where the
    block's writes (var slots ``writes``) cannot change it (``_FIXED_READ``, module doc)."""
    if name in seen:
        return True
    seen.add(name)
    if name not in defs:
        return False
    src = defs[name][1]
    for m in _NAME_S.finditer(src):
        at = m.start()
        r = _FIXED_READ.match(src, at)
        if r is not None:
            if r.group(1) is not None and int(r.group(1)) in writes:
                return False
            continue
        if _CALL_OPEN.search(src, max(0, at - 200), at) is not None:   # the state passed to a definition
            continue
        return False
    return all(_fixed(m.group(1), defs, writes, seen) for m in _CALL.finditer(src))
