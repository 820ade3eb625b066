"""A ``cards:`` parameter: several cards of a zone (a meld, a lay-off, an ordered play).

``{cards: hand, count: {min: 3, max: 13}, where: EXPR, ordered: false, candidates: EXPR}``: a set of
cards (display order; identical faces give one set) or, ``ordered: true``, a sequence (order kept,
permutations) of the zone's cards. Without ``candidates:`` every set of the count is listed
(``_combos``/``_perms``); with it, the ruleset proposes the sets worth checking (``_candidates``), or
a ``CardSetSearch`` (``melds_in``) is searched by the cards chosen so far (``_Searched``). A kind of
``_Param`` (param.py), with card.py's zone and ``where:``; search.py searches its sets.
"""
from __future__ import annotations

import itertools
import math

from ...choices import CardSetSearch, empty_tests
from ...compiler import ZONE
from ....lang import ANY, CARD, INT, list_of, py_param
from ..base import MAX_LISTED, Step, _listing_too_large, _sub_multiset
from .card import _zone_where
from .param import _Param, _literal


def _distinct(make, pool, kmin, kmax, key):
    """Distinct card tuples of sizes kmin..kmax from ``pool`` made by ``make`` (identical faces give one).
    Raises ``RuleFault`` when ``make`` would give more than ``MAX_LISTED`` tuples."""
    pool = sorted(pool, key=key)
    size = len(pool)
    count_of = math.perm if make is itertools.permutations else math.comb
    total = 0
    for k in range(max(kmin, 0), min(kmax, size) + 1):
        total += count_of(size, k)
        if total > MAX_LISTED:
            _listing_too_large(f"a cards parameter ({kmin} to {kmax} of {size} cards)")
    if len(set(pool)) == size:   # no two identical faces: every tuple made is distinct already
        return [t for k in range(max(kmin, 0), min(kmax, size) + 1) for t in make(pool, k)]
    out = []
    seen = set()
    for k in range(max(kmin, 0), min(kmax, len(pool)) + 1):
        for t in make(pool, k):
            if t not in seen:
                seen.add(t)
                out.append(t)
    return out


def _combos(pool, kmin, kmax, key):
    """Distinct sorted card tuples of sizes kmin..kmax from ``pool``."""
    return _distinct(itertools.combinations, pool, kmin, kmax, key)


#: ``_sum_combos``' counts of sets, by (cards, least, most): cleared past ``_COUNTED_MAX`` entries.
_COUNTED: dict = {}
_COUNTED_MAX = 4096


def _sum_combos(pool, kmin, kmax, key, table, target, room):
    """The sets of ``_combos(pool, kmin, kmax, key)`` whose ``table`` values add up to ``target()``, in the
    same order, without making the others: a ``cards:`` parameter whose ``legal:`` begins with
    ``sum(c.T for c in PARAM) == EXPR`` (``EXPR`` not reading it; ``table``: a card table of ints >= 0).

    Returns ``(sets, counted, step)`` for a listing's loop: ``counted`` is how many sets ``_combos`` has
    (the listing's count, ``MAX_LISTED``, goes up by it at once) and ``step`` is 0; or, when that count is
    more than ``room`` (the count would pass its cap inside this loop), every set of ``_combos`` with
    ``counted`` 0 and ``step`` 1 (counted one by one, where the cap is passed, as before). ``target`` (a
    function) is called once, and only when ``_combos`` has a set. Raises ``RuleFault`` as ``_combos``
    does (``MAX_LISTED``). A set is built only on the way to a set of the sum: a bit mask per position
    of the sums the cards after it can make (at most ``target + 1`` bits) prunes the rest. Cost: the
    pool's sort, one mask per card, and per set found at most one step per card."""
    pool = sorted(pool, key=key)
    size = len(pool)
    counted = _COUNTED.get((size, kmin, kmax))
    if counted is None:
        if len(_COUNTED) >= _COUNTED_MAX:
            _COUNTED.clear()
        counted = _COUNTED[size, kmin, kmax] = sum(math.comb(size, k)
                                                    for k in range(max(kmin, 0), min(kmax, size) + 1))
    if counted > MAX_LISTED:   # (the sum grows with k: past the cap at some k as _distinct finds)
        _listing_too_large(f"a cards parameter ({kmin} to {kmax} of {size} cards)")
    full = None
    if len(set(pool)) != size:   # identical faces give one set: counted as _combos lists them
        full = _combos(pool, kmin, kmax, key)
        counted = len(full)
    if counted > room:
        return (full if full is not None else _combos(pool, kmin, kmax, key)), 0, 1
    if not counted:
        return [], 0, 0
    total = target()
    if full is not None or total.__class__ is not int or total < 0:
        get = table.__getitem__
        return [t for t in (full or _combos(pool, kmin, kmax, key)) if sum(map(get, t)) == total], counted, 0
    vals = list(map(table.__getitem__, pool))
    out = [()] if kmin <= 0 <= kmax and total == 0 else []   # (the empty set, size 0)
    if sum(vals) < total:   # not even all of them
        return out, counted, 0
    mask = (1 << (total + 1)) - 1
    a = 1
    after = [1]   # after[i]: bit t set when some set of pool[i:] (the empty one too) adds to t
    for v in reversed(vals):
        a = (a | a << v) & mask
        after.append(a)
    if not a >> total & 1:   # no set adds up to it
        return out, counted, 0
    after.reverse()
    chosen = []

    def walk(i, rem):   # extensions of ``chosen`` by positions >= i, in combinations' order
        for j in range(i, size):
            r = rem - vals[j]
            if r >= 0 and after[j + 1] >> r & 1:
                chosen.append(pool[j])
                if r == 0 and kmin <= len(chosen) <= kmax:
                    out.append(tuple(chosen))
                if len(chosen) < kmax:
                    walk(j + 1, r)
                chosen.pop()

    walk(0, total)
    out.sort(key=len)   # stable: by size, each size in combinations' order, as _combos lists them
    return out, counted, 0


def _perms(pool, kmin, kmax, key):
    """Distinct card sequences (order matters) of lengths kmin..kmax from ``pool`` (``ordered: true``)."""
    return _distinct(itertools.permutations, pool, kmin, kmax, key)


def _candidates(cands, kmin, kmax, zone, key, ordered):
    """The distinct card sets of ``cands`` (a ``candidates:`` value) that pass the count and zone checks.

    Each is a tuple in display order (``key``), or as given when ``ordered``, as a typed action reads
    back; a set of the wrong size, or not a sub-multiset of ``zone``, is dropped (the direct check
    refuses it too). Returns a list in first-proposed order."""
    out = []
    seen = set()
    held = {}
    for c in zone:
        held[c] = held.get(c, 0) + 1
    get = held.get
    for c in cands:
        t = tuple(c) if ordered else tuple(sorted(c, key=key))
        if t in seen or not kmin <= len(t) <= kmax:
            continue
        seen.add(t)
        need = {}
        for x in t:   # a sub-multiset of the zone
            k = need.get(x, 0) + 1
            if k > get(x, 0):
                break
            need[x] = k
        else:
            out.append(t)
    return out


def _without_cards(v, cur):
    """The cards of ``v`` left when each card of ``cur`` is taken away once."""
    rest = list(v)
    for c in cur:
        rest.remove(c)
    return rest


class _Searched:
    """The card sets of a ``candidates:`` parameter whose value is a ``CardSetSearch`` (``melds_in``):
    searched by the cards chosen so far instead of listed, each passing the count and zone checks of
    ``_candidates`` (the same sets, display order)."""

    __slots__ = ("search", "kmin", "kmax", "held", "key", "_limits")

    def __init__(self, search, limits, key):
        self.search, self.key, self._limits, self.held = search, key, limits, None

    def _ok(self, t):
        if self.held is None:   # the count and zone, read when a card set is first proposed
            self.kmin, self.kmax, zone, _ = self._limits()
            held = {}
            for c in zone:
                held[c] = held.get(c, 0) + 1
            self.held = held
        if not self.kmin <= len(t) <= self.kmax:
            return False
        get = self.held.get
        need = {}
        for x in t:
            k = need.get(x, 0) + 1
            if k > get(x, 0):
                return False
            need[x] = k
        return True

    def containing(self, cur):
        """The card sets holding ``cur`` (display order; a set may come twice)."""
        key = self.key
        for c in self.search.containing(cur):
            t = tuple(sorted(c, key=key))
            if self._ok(t):
                yield t

    def __contains__(self, v):
        return self._ok(v) and self.search.holds(v)


class Cards(_Param):
    """Several cards of a zone; its units are cards, one at a time (a set's in display order)."""

    __slots__ = ()
    kind = "cards"

    def compile(self, game, comp, spec, path, ctx, checks):
        var = py_param(self.name)
        zsrc, where = _zone_where(self, comp, spec, path, ctx)
        self.type = list_of(CARD)
        self.ordered = bool(spec.get("ordered", False))   # a sequence: order kept, permutations
        cnt = spec.get("count", 1)
        if isinstance(cnt, dict):
            kmin = comp.code(cnt.get("min", 1), path + ("count", "min"), ctx, (INT,))
            kmax = comp.code(cnt.get("max", 52), path + ("count", "max"), ctx, (INT,))
        else:
            kmin = kmax = comp.code(cnt, path + ("count",), ctx, (INT,))
        if kmin is None or kmax is None:
            return None
        self.kmin, self.kmax = kmin.src, kmax.src
        self.kmin_lit = _literal(comp, str(cnt.get("min", 1) if isinstance(cnt, dict) else cnt),
                                 path + ("count",), (INT,), ctx)
        cond = f" if {where}" if where else ""
        cand = comp.code(spec["candidates"], path + ("candidates",), ctx) if "candidates" in spec else None
        if cand is not None and cand.type not in (list_of(ZONE), list_of(ANY), list_of(list_of(ANY)), ANY):
            comp.problem(path + ("candidates",), f"candidates: is a list of card lists (e.g. "
                         f"melds_in(hand[seat])), not {cand.type}")
            return None
        if cand is not None:   # the ruleset lists the card sets worth checking (e.g. melds_in(...))
            # Candidates only propose: count, zone and where still decide, as in the direct check.
            wf = f" if all([{where} for p_card in _c])" if where else ""
            loop = (f"for {var} in [_c for _c in _t_cands({cand.src}, {kmin.src}, {kmax.src}, "
                    f"{zsrc}, SORT_KEY.__getitem__, {self.ordered}){wf}]:")
            self.cands = comp.function(f"[_c for _c in _t_cands({cand.src}, {kmin.src}, {kmax.src}, "
                                       f"{zsrc}, SORT_KEY.__getitem__, {self.ordered}){wf}]", ctx)
            if not where and not self.ordered:   # the raw value: a CardSetSearch is searched, not listed
                self.search = comp.function(cand.src, ctx)
                test = empty_tests(comp.env).get(cand.src)   # the value's quick "no card set at all"
                if test is not None:
                    self.empty = comp.function(test, ctx)
        else:
            loop = (f"for {var} in {'_t_perms' if self.ordered else '_t_combos'}"
                    f"([p_card for p_card in {zsrc}{cond}], {kmin.src}, "
                    f"{kmax.src}, SORT_KEY.__getitem__):")
        pool = f"[p_card for p_card in {zsrc}{cond}]" if cond else f"list({zsrc})"   # (the same list)
        self.values = comp.function(f"({kmin.src}, {kmax.src}, {zsrc}, {pool})", ctx)
        checks.append(f"if not ({kmin.src} <= len({var}) <= {kmax.src}): return False")
        checks.append(f"if not _t_sub({var}, {zsrc}): return False")
        if where:
            checks.append(f"if not all([{where} for p_card in {var}]): return False")
        self.fixed = None
        self.merged = (self.kmin_lit or 0) >= 1
        self.cardset = not self.ordered
        return loop

    def writer(self, deck):
        code = deck.code
        return lambda v: [code[c] for c in v]

    def parse(self, a, j, words, i, deck):
        """The rest of the words if the parameter is the action's last, else the words that read as cards."""
        last = j == len(a.params) - 1
        taken = []
        while i < len(words):
            try:
                f = deck.face(words[i])
            except ValueError:
                if last:
                    raise
                break
            taken.append(f)
            i += 1
        return (tuple(taken) if self.ordered else tuple(sorted(taken, key=deck.sort_key.__getitem__))), i

    def why(self, s, name, v, bound):
        deck = s.game.deck
        code = deck.code
        kmin, kmax, zone, ok = self.values(s, *bound)
        if not kmin <= len(v) <= kmax:
            size = f"{kmin}" if kmin == kmax else f"{kmin} to {kmax}"
            return f"{name}: {size} cards, not {len(v)}"
        if not _sub_multiset(v, zone):
            rest = list(zone)
            missing = []
            for c in v:
                if c in rest:
                    rest.remove(c)
                else:
                    missing.append(code[c])
            held = " ".join(code[c] for c in deck.sorted(zone)) or "empty"
            return f"{name}: {' '.join(missing)} not in {self.zone} ({self.zone}: {held})"
        if self.where:
            bad = [code[c] for c in v if c not in ok]
            if bad:
                return f"{name}: {' '.join(bad)}: {self.reason}" if self.reason else \
                    f"{name}: {' '.join(bad)} without {self.where} (every card needs it)"
        return None

    def words(self, game):
        return Step.card_codes(game)

    def unit_word(self, s, u):
        return s.game.deck.code[u]

    def domain(self, s, a, j, seat, bound, memo):
        """Every card set (None: listed by search, not here; a ``_Searched`` for a ``CardSetSearch``)."""
        key = ("d", a.index, j, bound)
        if key in memo:
            return memo[key]
        if self.search is not None:
            raw = self.search(s, seat, *bound)
            key_ = s.game.deck.sort_key.__getitem__
            if isinstance(raw, CardSetSearch):
                out = _Searched(raw, lambda: self.values(s, seat, *bound), key_)
            else:
                kmin, kmax, zone, _ = self.values(s, seat, *bound)
                out = _candidates(raw, kmin, kmax, zone, key_, False)
        elif self.cands is not None:
            out = self.cands(s, seat, *bound)
        else:
            out = None
        memo[key] = out
        return out

    def matching(self, s, a, j, seat, bound, cur, memo):
        dom = self.domain(s, a, j, seat, bound, memo)
        if dom.__class__ is _Searched:
            yield from dom.containing(cur)
            return
        if dom is not None:
            if not cur:
                yield from dom
                return
            if self.ordered:
                k = len(cur)
                yield from (v for v in dom if v[:k] == cur)
                return
            for v in dom:
                if _sub_multiset(cur, v):
                    yield v
            return
        kmin, kmax, zone, pool = self.values(s, seat, *bound)
        rest = list(pool)
        for c in cur:
            if c not in rest:
                return
            rest.remove(c)
        key = s.game.deck.sort_key.__getitem__
        rest.sort(key=key)
        base = list(cur)
        seen = set()
        for k in range(max(kmin - len(base), 0), kmax - len(base) + 1):
            if k > len(rest):
                break
            make = itertools.permutations if self.ordered else itertools.combinations
            for extra in make(rest, k):
                v = tuple(base) + extra if self.ordered else tuple(sorted(base + list(extra), key=key))
                if v not in seen:
                    seen.add(v)
                    yield v

    def value(self, s, seat, bound, cur):
        return tuple(cur) if self.ordered else tuple(sorted(cur, key=s.game.deck.sort_key.__getitem__))

    def units(self, s, a, j, seat, bound, cur, memo, cheap=False):
        kmin, kmax, zone, pool = self.values(s, seat, *bound)
        if len(cur) >= kmax:
            return []
        dom = None if cheap and self.search is None else self.domain(s, a, j, seat, bound, memo)
        if dom.__class__ is _Searched:   # searched: the cards still held that it may add, each checked
            some = dom.search.units(cur)
            if cur:
                rest = list(pool)
                for c in cur:
                    if c in rest:
                        rest.remove(c)
            else:
                rest = pool
            if some is not None:
                some = set(some)
                rest = [c for c in rest if c in some]
            return sorted(set(rest), key=s.game.deck.sort_key.__getitem__)
        rest = list(pool) if dom is None else [c for v in dom for c in v]
        for c in cur:
            if c in rest and dom is None:
                rest.remove(c)
        if dom is not None:   # candidates: the cards of the sets that extend cur
            rest = list(dict.fromkeys(rest))
            held = list(zone)
            for c in cur:
                if c in held:
                    held.remove(c)
            rest = [c for c in rest if c in held]
        return sorted(set(rest), key=s.game.deck.sort_key.__getitem__)

    def may_end(self, s, seat, bound, cur):
        kmin, kmax, _, _ = self.values(s, seat, *bound)
        return kmin <= len(cur) <= kmax
