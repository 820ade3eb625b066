"""Conditions of a step that are the same at every position, answered from tables made at load.

A step's generated condition (``f(s, p_seat, …)``) whose code never reads the state ``s`` nor some of its
parameters (``p_seat``) is a function of the others alone: the auction's ``legal: contract == "pick"``
reads only the bid, a bid step's ``legal:`` whose option folded it to ``True`` reads nothing.
``per_args`` evaluates such a condition once per argument tuple when the step is made (bounded by the
step's own list of bids); a condition that reads the state, or fails for some argument, is asked in play
as before (None).
"""
from __future__ import annotations

import dis

#: The opcodes that read a local or closure name in a generated function's code.
_READS = ("LOAD_FAST", "LOAD_DEREF", "LOAD_CLOSURE", "LOAD_NAME", "LOAD_GLOBAL", "LOAD_CLASSDEREF")


def reads_none(code, names: tuple) -> bool:
    """Whether ``code`` (a code object) and every code object nested in it (comprehensions, lambdas)
    never read any of ``names`` (str)."""
    if any(n in code.co_cellvars or n in code.co_freevars for n in names):
        return False
    for ins in dis.get_instructions(code):
        if ins.opname.startswith(_READS):
            read = ins.argval if isinstance(ins.argval, tuple) else (ins.argval,)   # (a fused load: a pair)
            if any(x in names for x in read):
                return False
    return all(reads_none(c, names) for c in code.co_consts if hasattr(c, "co_code"))


def per_args(cond, unread: tuple, args_list) -> list | None:
    """``[bool(cond(None, *args)) for args in args_list]`` when ``cond`` (a generated function whose first
    parameter is the state) reads neither ``s`` nor any name of ``unread`` and gives an answer for every
    ``args`` (a tuple, the values of the parameters after ``s``; the unread ones may be anything, such as
    0); else None. ``cond`` None also gives None."""
    if cond is None or not hasattr(cond, "__code__") or not reads_none(cond.__code__, ("s",) + tuple(unread)):
        return None
    try:
        return [bool(cond(None, *args)) for args in args_list]
    except Exception:  # noqa: BLE001 - the condition fails for some value: it is asked in play, as before
        return None
