"""Rewrites of generated source that give the same values with less work (``Compiler.function``, engine/compiler.py).

``seat_counters``: a counter read for every seat (``max(score[s] for s in seats)``, a match's end) is
generated as ``[(s.c[K][X] if 0 <= X < len(s.c[K]) else -1) for X in (0, 1, …, n - 1)]``: the bounds check
holds for every seat, because a counter keeps one value per seat (``State``: ``[initial] * n``; a view
rebuilt by ``determinize``: the view's list of n), so the list is the counter's values in seat order,
``s.c[K][:]`` (a new list, as the comprehension made), made in C.

``seat_piles``: the sizes of a per-seat zone's piles for every seat (``sum(count(hand[p]) for p in seats)``)
are generated as ``[len((s.z[K][X] if 0 <= X < n else _NO_ZONE)) for X in (0, 1, …, n - 1)]``; a per-seat
zone holds one pile per seat, always (``State``, ``determinize``: ``[[] for _ in range(n)]``), so the
list is ``list(map(len, s.z[K]))``, made in C.
"""
from __future__ import annotations

import re

_SEAT_COUNTER = re.compile(r"\[\((s\.c\[\d+\])\[(_l\d+_\w+)\] if 0 <= \2 < len\(\1\) else -1\) "
                           r"for \2 in \((\d+(?:, \d+)*),?\)\]")


def seat_counters(src: str, players: int) -> str:
    """``src`` with each list of a counter's values over every seat (the loop's tuple ``(0, …, players - 1)``)
    written ``s.c[K][:]``; other loops (some seats, another order) unchanged. ``players``: the game's n."""
    seats = ", ".join(str(i) for i in range(players))

    def one(m):
        return f"{m.group(1)}[:]" if m.group(3) == seats else m.group(0)

    return _SEAT_COUNTER.sub(one, src)


_SEAT_PILES = re.compile(r"\[len\(\((s\.z\[\d+\])\[(_l\d+_\w+)\] if 0 <= \2 < (\d+) else _NO_ZONE\)\) "
                         r"for \2 in \((\d+(?:, \d+)*),?\)\]")


def seat_piles(src: str, players: int) -> str:
    """``src`` with each list of a per-seat zone's pile sizes over every seat (bound ``players``, the loop's
    tuple ``(0, …, players - 1)``) written ``list(map(len, s.z[K]))``; other loops unchanged."""
    seats = ", ".join(str(i) for i in range(players))

    def one(m):
        return f"list(map(len, {m.group(1)}))" if m.group(3) == str(players) and m.group(4) == seats \
            else m.group(0)

    return _SEAT_PILES.sub(one, src)
