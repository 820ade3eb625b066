"""Rewrites of generated source that give the same values with less work (``Compiler.function``, engine/compiler.py).

``seat_counters``: a counter read for every seat (``max(score[s] for s in seats)``, a match's end) is
generated as ``[(s.c[K][X] if 0 <= X < len(s.c[K]) else -1) for X in (0, 1, …, n - 1)]``: the bounds check
holds for every seat, because a counter keeps one value per seat (``State``: ``[initial] * n``; a view
rebuilt by ``determinize``: the view's list of n), so the list is the counter's values in seat order,
``s.c[K][:]`` (a new list, as the comprehension made), made in C. A loop over ``seats`` whose variable the
checker knows in range is generated without the check (``[s.c[K][X] for X in (0, 1, …, n - 1)]``): the
same rewrite.

``table_extremes``: the least or largest value of a card table over a zone's cards
(``min(c.points for c in hand[p])``) is generated as ``min([T[X] for X in ZONE], default=D)``: the same
values in the same order as ``map(T.__getitem__, ZONE)``, read in C (the table's getter is then made
a dict's, ``Compiler._fast_get``), without a list.

``seat_piles``: the sizes of a per-seat zone's piles for every seat (``sum(count(hand[p]) for p in seats)``)
are generated as ``[len((s.z[K][X] if 0 <= X < n else _NO_ZONE)) for X in (0, 1, …, n - 1)]``; a per-seat
zone holds one pile per seat, always (``State``, ``determinize``: ``[[] for _ in range(n)]``), so the
list is ``list(map(len, s.z[K]))``, made in C; likewise its unchecked form ``[len(s.z[K][X]) for X in (0, …)]``.
"""
from __future__ import annotations

import re

_SEAT_COUNTER = re.compile(r"\[(?:\((s\.c\[\d+\])\[(_l\d+_\w+)\] if 0 <= \2 < len\(\1\) else -1\)"
                           r"|(s\.c\[\d+\])\[(_l\d+_\w+)\]) for (?:\2|\4) in \((\d+(?:, \d+)*),?\)\]")


def seat_counters(src: str, players: int) -> str:
    """``src`` with each list of a counter's values over every seat (the loop's tuple ``(0, …, players - 1)``)
    written ``s.c[K][:]``; other loops (some seats, another order) unchanged. ``players``: the game's n."""
    seats = ", ".join(str(i) for i in range(players))

    def one(m):
        return f"{m.group(1) or m.group(3)}[:]" if m.group(5) == seats else m.group(0)

    return _SEAT_COUNTER.sub(one, src)


_SEAT_PILES = re.compile(r"\[len\((?:\((s\.z\[\d+\])\[(_l\d+_\w+)\] if 0 <= \2 < (\d+) else _NO_ZONE\)"
                         r"|(s\.z\[\d+\])\[(_l\d+_\w+)\])\) for (?:\2|\5) in \((\d+(?:, \d+)*),?\)\]")


def seat_piles(src: str, players: int) -> str:
    """``src`` with each list of a per-seat zone's pile sizes over every seat (bound ``players``, the loop's
    tuple ``(0, …, players - 1)``) written ``list(map(len, s.z[K]))``; other loops unchanged."""
    seats = ", ".join(str(i) for i in range(players))

    def one(m):   # (checked: the bound is the player count; unchecked: the checker knew every seat in range)
        bound_ok = m.group(3) == str(players) if m.group(1) else True
        return f"list(map(len, {m.group(1) or m.group(4)}))" if bound_ok and m.group(6) == seats else m.group(0)

    return _SEAT_PILES.sub(one, src)


_TABLE_EXTREME = re.compile(r"(?<![\w.])(min|max|_min_l|_max_l)\(\[([A-Z][A-Z_0-9]*)\[(_l\d+_\w+)\] for \3 in "
                            r"(\(s\.z\[\d+\]\[\w+\] if 0 <= \w+ < \d+ else _NO_ZONE\)|s\.z\[\d+\](?:\[\w+\])?)\]"
                            r"(, default=|\))")


def table_extremes(src: str) -> str:
    """``src`` with each ``min``/``max`` of a card table over a zone's cards read through ``map``: with a
    default, no list (``min(map(T.__getitem__, Z), default=``); as ``_min_l``/``_max_l`` (lang/runtime.py:
    a list's least or largest, 0 when empty), the list made in C (``_min_l(list(map(T.__getitem__, Z)))``)."""
    def one(m):
        f, table, zone, tail = m.group(1), m.group(2), m.group(4), m.group(5)
        if tail == ")":
            return f"{f}(list(map({table}.__getitem__, {zone})))" if f.startswith("_") else m.group(0)
        return f"{f}(map({table}.__getitem__, {zone}), default=" if not f.startswith("_") else m.group(0)
    return _TABLE_EXTREME.sub(one, src)


def seat_lists(src: str, players: int) -> str:
    """``seat_counters`` then ``seat_piles`` on ``src``, each only where its pattern may occur (the compiler
    calls this on every generated function after its tables' getters are made fast)."""
    if "s.c[" in src:
        src = seat_counters(src, players)
    if "[len(s.z[" in src or "[len((s.z[" in src:
        src = seat_piles(src, players)
    return src
