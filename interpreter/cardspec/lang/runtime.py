"""What generated code calls or meets during play: the helpers of its namespace (``runtime_helpers``,
``rank_strength_helper``), the empty zone of no seat (``NO_ZONE``) and ``RuleFault``, a rule that broke
docs/dsl.md at play (the engine reports it as a ``RulesetError``)."""
from __future__ import annotations

from itertools import chain

from .bounds import INT_LIMIT


class RuleFault(Exception):
    """The rules did at play what docs/dsl.md forbids (cards moved into the zone of no seat, a counter of
    no seat changed, a decision left with no legal action). The engine reports it as a ``RulesetError``
    at the step in progress (code ``ruleset/runtime``)."""


class NoZone(tuple):
    """What indexing a list of lists out of range gives (a per-seat zone of no seat: ``hand[-1]``,
    ``won[seat + 1]`` past the last seat, ``hand[holder(hand, X)]`` when nobody holds X): an empty
    zone to read. Cards cannot go into it (``RuleFault``); taking from it takes nothing."""

    __slots__ = ()

    def _refuse(self, *cards):
        raise RuleFault("cards were moved into a per-seat zone of no seat (an index below 0 or past the last "
                        "seat; docs/dsl.md: such a zone is empty and takes no cards)")

    append = insert = _refuse

    def extend(self, cards):
        for _ in cards:
            self._refuse()

    def clear(self):
        pass

    def sort(self, *a, **k):
        pass

    def remove(self, card):
        raise ValueError("not in an empty zone")


NO_ZONE = NoZone()


def runtime_helpers() -> dict:
    """Functions the generated code calls (names start with ``_``)."""
    def _div(a, b):
        return a // b if b else 0

    def _mod(a, b):
        return a % b if b else 0

    def _at(lst, i):
        return lst[i] if 0 <= i < len(lst) else -1   # docs/dsl.md: from 0; out of range (negative too) gives -1

    def _lat(lst, i):
        return lst[i] if 0 <= i < len(lst) else NO_ZONE   # a list of lists: out of range gives an empty one

    def _seat(i, n):
        """``i`` when it is a seat (0 <= i < n) a counter of which may be changed, else ``RuleFault``."""
        if 0 <= i < n:
            return i
        raise RuleFault(f"a counter of seat {i} was changed: there is no such seat (seats are 0 to {n - 1})")

    def _holder(zone, card):
        for seat, cards in enumerate(zone):
            if card in cards:
                return seat
        return -1

    def _top(lst):
        return lst[-1] if lst else -1

    def _without(a, b):
        """``a`` with each item of ``b`` taken away once (the builtin ``without``)."""
        if len(b) == 1:   # one card taken away (a hand without the card to play): its first copy, in C
            out = list(a)
            if b[0] in out:
                out.remove(b[0])
            return out
        left = {}
        for x in b:
            left[x] = left.get(x, 0) + 1
        out = []
        for x in a:
            if left.get(x, 0) > 0:
                left[x] -= 1
            else:
                out.append(x)
        return out

    def _min2(a, b):   # min(a, b): the same value (b only when b < a), with no keyword parsing (builtins.py)
        return b if b < a else a

    def _max2(a, b):   # max(a, b)
        return b if b > a else a

    def _min_l(xs):   # min(xs, default=0) of a list: the same value, without the keyword (3x the call)
        return min(xs) if xs else 0

    def _max_l(xs):   # max(xs, default=0) of a list
        return max(xs) if xs else 0

    def _clamp(x, hi=INT_LIMIT, lo=-INT_LIMIT):
        return x if lo <= x <= hi else (hi if x > hi else lo)   # docs/dsl.md, "Bounds": ints saturate

    return {"_div": _div, "_mod": _mod, "_at": _at, "_lat": _lat, "_NO_ZONE": NO_ZONE, "_seat": _seat,
            "_holder": _holder, "_top": _top, "_clamp": _clamp, "_min2": _min2, "_max2": _max2,
            "_min_l": _min_l, "_max_l": _max_l,
            "_without": _without, "_chain": chain.from_iterable}


def rank_strength_helper(table):
    """``_rank_strength(r)`` for generated code: ``table[r]`` for a rank value 0 … 14, else 0."""
    def _rank_strength(r):
        return table[r] if 0 <= r < len(table) else 0
    return _rank_strength
