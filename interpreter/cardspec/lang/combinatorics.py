"""Counting functions over a list of numbers (docs/dsl.md, "Counting combinations"): how many subsets add up
to a total (``sum_ways``), how many pairs of equal items (``pairs``), runs of consecutive values counted with
their multiplicity (``runs``), and the tail of a sequence of plays (``tail_same``, ``tail_run``).

Each takes a list of whole numbers, given as a list (``ranks(hand)``) or as ``E for x in L [where C]``
(``sum_ways(c.points for c in hand, 15)``), so one function serves card values, ranks or any table of the
ruleset. Their cost is bounded at load from the list's bound N (the most items the list can hold) and, for
``sum_ways``, from the magnitude of its items: the work of one evaluation is known before play
(docs/dsl.md, "Bounds").

Where the rules come from: scoring by combinations counts fifteens (subsets adding to 15), pairs, runs
with multiplicity and, on the pile, pairs and runs at its end; a capture by sum asks whether some subset of
the table adds up to a card's value (docs/dsl.md, "Counting combinations", names the games).
"""
from __future__ import annotations

import math

from .builtins import _argc, builtin
from .types import ANY, INT, Code, elem


_INT = {int}
#: ``sum_ways``' products by items (a tuple of ints >= 0 adding up to at most ``_KEPT_SUM``, each an int
#: of at most (_KEPT_SUM + 1) * (items + 1) bits); cleared past ``_POLYS_MAX`` entries.
_POLYS: dict = {}
_POLYS_MAX = 1024
_KEPT_SUM = 256


def sum_ways(values, total: int) -> int:
    """The number of subsets of ``values`` (items taken by position: two equal items are two choices)
    whose items add up to ``total``; the empty subset counts when ``total`` is 0. Negative items allowed.

    >>> sum_ways([5, 5, 5, 5, 10], 15)   # the 29 hand's fifteens: 4 × (10 + 5), 4 × (5 + 5 + 5)
    8
    """
    kinds = set(map(type, values))
    if total.__class__ is int and total >= 0 and kinds <= _INT and (not kinds or min(values) >= 0):
        # The count is the coefficient of x**total in the product of (1 + x**v): each coefficient kept in
        # a field of len(values) + 1 bits of one int (it is at most 2**len(values): no carry between
        # fields), the fields past ``total`` cut off. One shift, add and mask per item instead of a list
        # of the subsets' sums: the same count.
        # Items adding up to at most _KEPT_SUM: the whole product kept by the items (_POLYS), so the same
        # items asked for several totals (can each card of a hand capture from this table?) cost a look-up.
        width = len(values) + 1
        key = tuple(values)
        poly = _POLYS.get(key)
        if poly is None:
            if sum(key) <= _KEPT_SUM:
                poly = 1
                for v in key:
                    poly += poly << (v * width)
                if len(_POLYS) >= _POLYS_MAX:
                    _POLYS.clear()
                _POLYS[key] = poly
            else:
                mask = (1 << ((total + 1) * width)) - 1
                poly = 1
                for v in key:
                    if v <= total:
                        poly = (poly + (poly << (v * width))) & mask
        return (poly >> (total * width)) & ((1 << width) - 1)
    if len(values) <= 12 and total >= 0 and all(v >= 0 for v in values):
        # a short list (a hand): the sums of the subsets so far, those past the total dropped (at most 2**12)
        sums = [0]
        for v in values:
            sums += [x + v for x in sums if x + v <= total]
        return sums.count(total)
    ways = {0: 1}
    if all(v >= 0 for v in values):   # (sums past the total can never come back: dropped)
        for v in values:
            for t, k in list(ways.items()):
                u = t + v
                if u <= total:
                    ways[u] = ways.get(u, 0) + k
        return ways.get(total, 0)
    for v in values:
        for t, k in list(ways.items()):
            ways[t + v] = ways.get(t + v, 0) + k
    return ways.get(total, 0)


def pairs(values) -> int:
    """The number of pairs of equal items (``m`` equal items make ``m (m - 1) / 2`` pairs).

    >>> pairs([5, 5, 5, 11])   # a pair royal of fives: 3 pairs
    3
    """
    seen = {}
    n = 0
    for v in values:
        k = seen.get(v, 0)
        n += k
        seen[v] = k + 1
    return n


def runs(values, shortest: int) -> int:
    """The items in runs, each run counted: for every maximal stretch of ``L >= shortest`` consecutive
    values all present, ``L`` times the number of ways to pick one item of each value (the product of
    their multiplicities). Shorter runs inside a longer one do not count. 0 when there is no run.

    >>> runs([4, 4, 5, 6, 9], 3)   # a double run of three: 2 runs × 3
    6
    >>> runs([7, 7, 7, 8, 9], 3)   # a triple run: 3 runs × 3
    9
    """
    if values.__class__ is not list:
        values = list(values)
    count = values.count   # (a multiplicity read only for the values of a run)
    total = 0
    keys = sorted(set(values))
    n = len(keys)
    least = max(shortest, 1)
    i = 0
    while i < n:
        j = i
        while j + 1 < n and keys[j + 1] == keys[j] + 1:
            j += 1
        length = j - i + 1
        if length >= least:
            ways = 1
            for k in keys[i:j + 1]:
                ways *= count(k)
            total += length * ways
        i = j + 1
    return total


def tail_same(values) -> int:
    """How many items at the end of the sequence equal its last item, in an unbroken row (0 when empty).

    >>> tail_same([9, 5, 5, 5])   # the last three: a pair royal on the pile
    3
    """
    if not values:
        return 0
    last = values[-1]
    k = 0
    for v in reversed(values):
        if v != last:
            break
        k += 1
    return k


def tail_run(values) -> int:
    """The largest ``n`` such that the last ``n`` items are ``n`` different consecutive values, in any
    order (1 for a single item, 0 when empty): a run on the pile.

    >>> tail_run([13, 7, 9, 8])   # 7, 9, 8 at the end: a run of three out of order
    3

    Each tail is read in C (its set, least and largest items): at most N (N + 1) / 2 item reads for N items.
    """
    best = 0
    for k in range(1, len(values) + 1):   # the last k items: k different values, k consecutive ones
        tail = values[-k:]
        if len(set(tail)) < k:   # a value twice: every longer tail has it too
            break
        if max(tail) - min(tail) + 1 == k:
            best = k
    return best


_HELPERS = {"_cb_sum_ways": sum_ways, "_cb_pairs": pairs, "_cb_runs": runs, "_cb_tail_same": tail_same,
            "_cb_tail_run": tail_run}


def _install(comp):
    ns = comp.env.ns
    if ns is not None and "_cb_pairs" not in ns:
        ns.update(_HELPERS)


def _numbers(comp, node, fname):
    """``(src, n, item_mag)``: a list of ints as a Python list (a comprehension argument made a list), the
    most items it can hold and the magnitude bound of an item (None: unknown)."""
    parts = comp.comprehension(node)
    if parts:
        src, t, clause = parts
        if node.data == "where_arg":
            comp.err(node, f"{fname} needs numbers: write 'E for x in L where C'",
                     f"e.g. {fname}(c.rank for c in hand)")
        if t not in (INT, ANY):
            comp.err(node, f"{fname} needs a list of numbers, found {t}", f"e.g. {fname}(c.rank for c in hand)")
        mag = comp.last_body.mag
        return f"[{src} {clause}]", comp.bound_of(comp.last_coll), mag
    code = comp.c(node)
    if elem(code.type) not in (INT, ANY):
        comp.err(node, f"{fname} needs a list of numbers, found {code.type}", f"e.g. {fname}(c.rank for c in hand)")
    return code.src, comp.bound_of(code), None


def _item_bound(mag) -> float:
    """The largest magnitude an item may have, from its ``Code.mag`` (infinite when it may be any value)."""
    if mag is None:
        return math.inf
    a, d, b = mag
    return float(b) if not (a and d) else math.inf


@builtin("sum_ways")
def _sum_ways(comp, n, args):
    """``sum_ways(LIST, TOTAL)``: subsets of the numbers adding up to TOTAL. Work: one pass per item over
    the sums reached so far, at most ``min(2**N, 2 * N * M + 1)`` of them (M an item's magnitude bound)."""
    _argc(comp, n, args, 2)
    src, k, mag = _numbers(comp, args[0], "sum_ways")
    total = comp.want(args[1], comp.c(args[1]), INT)
    sums = min(2.0 ** min(k, 1000), 2 * k * _item_bound(mag) + 1)
    comp.charge(k * sums)
    _install(comp)
    return Code(f"_cb_sum_ways({src}, {total.src})", INT, mag=(0, 0, int(2 ** min(k, 4000))))


def _simple(fname, helper, cost, most):
    def f(comp, n, args):
        _argc(comp, n, args, 1)
        src, k, _ = _numbers(comp, args[0], fname)
        comp.charge(cost(k))
        _install(comp)
        return Code(f"{helper}({src})", INT, mag=(0, 0, int(most(k))))
    return f


builtin("pairs")(_simple("pairs", "_cb_pairs", lambda k: 2 * k, lambda k: k * k))
builtin("tail_same")(_simple("tail_same", "_cb_tail_same", lambda k: 2 * k, lambda k: k))
builtin("tail_run")(_simple("tail_run", "_cb_tail_run", lambda k: 4 * k, lambda k: k))


@builtin("runs")
def _runs(comp, n, args):
    """``runs(LIST, SHORTEST)``: the items in runs of at least SHORTEST consecutive values, each run
    counted. Work: a sort of the distinct values and one pass."""
    _argc(comp, n, args, 2)
    src, k, _ = _numbers(comp, args[0], "runs")
    shortest = comp.want(args[1], comp.c(args[1]), INT)
    comp.charge(k * max(1.0, math.log2(max(k, 2.0))) + 2 * k)
    _install(comp)
    # at most k items in runs, each counted once per way: the product of multiplicities is at most 3**(k/3)
    return Code(f"_cb_runs({src}, {shortest.src})", INT, mag=(0, 0, int(k * 3 ** min(k / 3, 2000)) + 1))
