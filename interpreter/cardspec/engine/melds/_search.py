"""Searching without listing (small choices): ``MeldsIn`` and ``Extensions``, searchable lists of card sets.

A small choice asks whether some meld (or lay-off) holding the cards chosen so far is legal, about
one question per card of the hand at each choice. ``MeldsIn`` and ``Extensions`` (the values of
``melds_in`` and ``extensions``) answer ``containing(cur)`` by walking only the card sets that hold
``cur``: the same walk as ``_sets``/``_runs`` with ``cur`` among the required cards, lazily (the
caller stops at the first legal one), over a hand split once into naturals and wild cards, and with
the windows of a sequence limited to those around its required places. ``holds(v)`` is that walk
with nothing left to add. tests/test_melds_search.py compares both with the lists.
"""
from __future__ import annotations

import itertools
from collections import Counter

from ..choices import CardSetSearch
from ._hand import _hand_of, _minus
from ._kept import kept_listing
from ._layout import ACE, MAX_PLACES
from ._listing import _sub_multisets, _wild_choices, extensions, melds_in


#: Wild-card multisets by size, per (wild cards available, most taken): few distinct keys (the wild
#: faces of a deck), kept between searches.
_WILD_CHOICES = {}


def _wild_by_size(wl, k):
    """``{size: [tuples]}`` of the sub-multisets of ``wl`` (``{face: count}``) with 0..k cards."""
    key = (tuple(sorted(wl.items())), k)
    got = _WILD_CHOICES.get(key)
    if got is None:
        if len(_WILD_CHOICES) > 4096:
            _WILD_CHOICES.clear()
        got = _WILD_CHOICES[key] = _wild_choices(Counter(wl), k)
    return got


def _wild_upto(wl, k):
    """The sub-multisets of ``wl`` with 0..k cards, smallest first (a list of tuples)."""
    by = _wild_by_size(wl, k)
    return [t for n in sorted(by) for t in by[n]]


def _set_adds(nat, wl, maxw, RANK, req_nat, req_wl, rank_floor):
    """Lazily, ``_sets``: the cards (from ``nat``/``wl``, ``{card: count}``) to add to the required ones
    to make a set. ``rank_floor``: the least rank of a set's naturals without required naturals (2, as
    ``melds_in``), or also with them (``extensions`` has none: 0)."""
    room = maxw - len(req_wl)
    if room < 0:
        return
    if req_nat:
        r = RANK[req_nat[0]]
        for c in req_nat:
            if RANK[c] != r:
                return
        if r < rank_floor:
            return
        groups = [{c: k for c, k in nat.items() if RANK[c] == r}]   # ({card: count}: _sub_multisets reads items)
        least = 0
    else:
        by = {}
        for c, k in nat.items():
            if RANK[c] >= 2:
                by.setdefault(RANK[c], {})[c] = k
        groups = list(by.values())
        least = 1
    if not groups:
        return
    wild_sets = _wild_upto(wl, room)
    have = len(req_nat) + len(req_wl)
    for cnt in groups:
        for ns in _sub_multisets(cnt, least, 99):
            n = have + len(ns)
            for ws in wild_sets:
                if n + len(ws) >= 3:
                    yield ns + ws


def _run_adds(nat, wl, maxw, RANK, SUIT, suits, req_nat, req_wl):
    """Lazily, ``_runs``: the cards (from ``nat``/``wl``, ``{card: count}``) to add to the required
    ones to make a sequence; the windows walked are those holding every required place (and with
    enough cards to fill them), the others give nothing in ``_runs`` either."""
    if req_nat:
        s0 = SUIT[req_nat[0]]
        rranks = [RANK[c] for c in req_nat]
        if s0 < 0 or any(SUIT[c] != s0 for c in req_nat) or len(set(rranks)) != len(rranks):
            return
        suits = (s0,)
    else:
        rranks = []
    n_req = len(req_wl)
    n_wl = sum(wl.values())
    # required places when the window starts above 1 (an ace is 14) and when it starts at 1 (ace: 1)
    hi_places = 0
    for r in rranks:
        hi_places |= 1 << r
    lo_places = (hi_places & ~(1 << ACE)) | (1 << 1) if hi_places >> ACE & 1 else hi_places
    r_hi_min = (hi_places & -hi_places).bit_length() - 1 if rranks else 99
    r_hi_max = hi_places.bit_length() - 1 if rranks else 0
    r_lo_max = lo_places.bit_length() - 1 if rranks else 0
    n_rp = len(rranks)
    plain = None
    for s in suits:
        at = {}
        for c in nat:
            if SUIT[c] == s:
                r = RANK[c]
                at.setdefault(r, c)
                if r == ACE:
                    at.setdefault(1, c)
        if not at and not rranks:
            continue
        amask = 0
        for p in at:
            if p >= 0:
                amask |= 1 << p
        two = next((w for w in req_wl if SUIT[w] == s and RANK[w] == 2), None)
        two_in_req = two is not None
        if two is None:
            two = next((w for w in wl if SUIT[w] == s and RANK[w] == 2), None)
        if plain is None:
            plain = (_wild_by_size(wl, maxw), n_req, ())
        if two is None:
            with_two = None
        elif two_in_req:
            with_two = (plain[0], n_req - 1, ())
        else:
            with_two = (_wild_by_size(_minus(wl, (two,)), maxw), n_req, (two,))
        limit = min(maxw, n_wl + n_req)   # the most empty places wild cards may fill
        two_any = with_two is not None
        if rranks:   # lo from the highest down (windows grow to the left), then lo 1 (an ace low)
            los = list(range(min(r_hi_min, 12), 1, -1)) + ([1] if r_lo_max <= MAX_PLACES else [])
        else:
            los = range(1, 13)
        stop = False   # the lower windows above place 1 need too many cards: only lo 1 is left to try
        for lo in los:
            if stop and lo != 1:
                continue
            rpm = lo_places if lo == 1 else hi_places
            first_hi = max(lo + 2, (r_lo_max if lo == 1 else r_hi_max))
            has_two = two_any and lo <= 2
            for hi in range(first_hi, min(lo + MAX_PLACES - 1, ACE) + 1):
                win = ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)
                if rpm & ~win:
                    continue
                omask = amask & win & ~rpm
                n_opt = omask.bit_count()
                L = hi - lo + 1
                if L - n_rp - n_opt - has_two > limit:
                    # too many places to fill even with every natural and wild; a larger window (higher
                    # hi; for a window holding the required span, a lower lo too) has no fewer
                    if hi == first_hi and rranks and lo > 1 and first_hi == r_hi_max and \
                            L - n_rp - n_opt - two_any > limit:
                        break_lo = True
                    else:
                        break_lo = False
                    break
                break_lo = False
                if not n_rp and not n_opt:
                    continue
                opt = [p for p in range(lo, hi + 1) if omask >> p & 1]
                for use_two in ((False, True) if has_two else (False,)):
                    wb, fixed, extra_two = with_two if use_two else plain
                    top = L - n_rp - use_two - fixed
                    for k in range(min(n_opt, top), -1, -1):
                        need = L - n_rp - k - use_two
                        if need > maxw:
                            break
                        if k == 0 and not n_rp:
                            break
                        ws_list = wb.get(need - fixed, ())
                        if not ws_list:
                            break   # fewer naturals need more wild cards than there are
                        for keep in itertools.combinations(opt, k):
                            base = tuple(at[p] for p in keep) + extra_two
                            for ws in ws_list:
                                yield base + ws
            else:
                break_lo = False
            if break_lo:
                stop = True


class MeldsIn(CardSetSearch):
    """The value of ``melds_in(hand, wild, k)``: every set and sequence of 3+ cards from ``hand`` with
    at most ``k`` stand-ins (the package's doc), listed like ``melds_in``, searchable by the cards they hold."""

    __slots__ = ("hand", "wild", "maxw", "RANK", "SUIT", "SORT_KEY", "_h", "_k")

    def __init__(self, hand, wild, maxw, RANK, SUIT, SORT_KEY):
        self.hand, self.wild, self.maxw = tuple(hand), wild, maxw
        self.RANK, self.SUIT, self.SORT_KEY = RANK, SUIT, SORT_KEY
        self._h = None

    def _listing(self):
        # kept between decisions (_kept): worked out from a close hand's listing when there is one
        return kept_listing(("m", self.wild, max(0, self.maxw)), self.hand, self.RANK, self.SUIT, self.SORT_KEY,
                            lambda: melds_in(self.hand, self.wild, self.maxw, self.RANK, self.SUIT, self.SORT_KEY),
                            self.containing)

    def _hand(self):
        if self._h is None:
            self._h = _hand_of(self.hand, self.wild, self.RANK, self.SUIT)
            self._k = max(0, min(self.maxw, self._h.n_wl))
        return self._h

    def units(self, cur):
        h = self._hand()
        rn, rw = h.split(cur)
        return h.units(rn, rw, rn, rw, self._k, 2, range(4), cur)

    def _adds(self, nat, wl, req_nat, req_wl):
        yield from _set_adds(nat, wl, self._k, self.RANK, req_nat, req_wl, 2)
        yield from _run_adds(nat, wl, self._k, self.RANK, self.SUIT, range(4), req_nat, req_wl)

    def containing(self, cur):
        h = self._hand()
        cur = tuple(cur)
        rn, rw = h.split(cur)
        if not h.possible(rn, rw, rn, rw, self._k, 2, range(4)):
            return
        left = h.without(cur)
        if left is None:
            return
        for add in self._adds(left[0], left[1], rn, rw):
            if len(cur) + len(add) >= 3:
                yield cur + add

    def holds(self, v):
        h = self._hand()
        if len(v) < 3 or h.without(v) is None:
            return False
        rn, rw = h.split(v)
        return next(self._adds({}, {}, rn, rw), None) is not None


def no_extension(meld, hand, wild, RANK, SUIT) -> bool:
    """True only when ``extensions(meld, hand, wild, k)`` holds no card set, for every ``k`` (the
    ``Extensions``' ``none_holding(())``), read without ``k`` and without making the value: the hand
    (``_hand_of``, shared with the decision's other searches) holds no wild card, and no natural that
    ``_Hand.joins`` would look at (the rank of a meld whose naturals are of one rank; the suit of a
    meld whose naturals may be a sequence's), or the meld has no natural. False tells nothing (the
    value is made and asked). ``meld``, ``hand``, ``wild``: card lists; ``RANK``/``SUIT``: the
    deck's tables."""
    h = _hand_of(tuple(hand), wild, RANK, SUIT)
    if h.n_wl:
        return False
    ws = h.wild
    it = iter(meld)
    for c in it:
        if c not in ws:
            break
    else:
        return True   # no natural: Extensions has no lay-off
    r0, s0 = RANK[c], SUIT[c]
    if r0 >= 0 and h.by_rank.get(r0):   # a set of rank r0 may take the hand's naturals of that rank
        for x in meld:
            if x not in ws and RANK[x] != r0:
                break
        else:
            return False
    if s0 < 0 or s0 not in h.by_suit:
        return True
    places = 1 << r0 if r0 >= 1 else 0   # a sequence of suit s0 may take the hand's naturals of that suit
    if not places:
        return True
    for x in it:
        if x in ws:
            continue
        r = RANK[x]
        if SUIT[x] != s0 or r < 1 or places >> r & 1:
            return True
        places |= 1 << r
    return False


class Extensions(CardSetSearch):
    """The value of ``extensions(meld, hand, wild, k)``: the card sets of ``hand`` that make ``meld`` a
    larger set or sequence with at most ``k`` stand-ins, listed like ``extensions``, searchable."""

    __slots__ = ("meld", "hand", "wild", "maxw", "RANK", "SUIT", "SORT_KEY", "_h", "_m", "_joins")

    def __init__(self, meld, hand, wild, maxw, RANK, SUIT, SORT_KEY):
        self.meld, self.hand, self.wild, self.maxw = tuple(meld), tuple(hand), wild, maxw
        self.RANK, self.SUIT, self.SORT_KEY = RANK, SUIT, SORT_KEY
        self._h = self._joins = None

    def _any_joins(self):
        """Whether some card of the hand may join the meld (``_Hand.joins``; False: no lay-off at all)."""
        if self._joins is None:
            h = self._hand()
            mnat, mwl = self._m
            self._joins = bool(mnat) and h.joins(mnat, mwl, max(0, self.maxw))
        return self._joins

    def none_holding(self, cur):
        return not cur and not self._any_joins()

    def _listing(self):
        return kept_listing(("x", self.meld, self.wild, max(0, self.maxw)), self.hand, self.RANK, self.SUIT,
                            self.SORT_KEY, lambda: extensions(self.meld, self.hand, self.wild, self.maxw, self.RANK,
                                                              self.SUIT, self.SORT_KEY), self.containing)

    def _hand(self):
        if self._h is None:
            self._h = _hand_of(self.hand, self.wild, self.RANK, self.SUIT)
            self._m = self._h.split(self.meld)
        return self._h

    def units(self, cur):
        h = self._hand()
        mnat, mwl = self._m
        if not mnat:
            return ()
        cn, cw = h.split(cur)
        return h.units(mnat + cn, mwl + cw, cn, cw, max(0, self.maxw), 0, (), cur)

    def _adds(self, nat, wl, rn, rw):
        maxw = max(0, self.maxw)
        yield from _set_adds(nat, wl, maxw, self.RANK, rn, rw, 0)
        yield from _run_adds(nat, wl, maxw, self.RANK, self.SUIT, (), rn, rw)

    def containing(self, cur):
        h = self._hand()
        mnat, mwl = self._m
        if not mnat:
            return
        cur = tuple(cur)
        cn, cw = h.split(cur)
        rn, rw = mnat + cn, mwl + cw
        if not cur and not self._any_joins():
            return   # a lay-off adds a card, and no card of the hand may join (``units`` lists every one that may)
        if not h.possible(rn, rw, cn, cw, max(0, self.maxw), 0, ()):
            return
        left = h.without(cur)
        if left is None:
            return
        for add in self._adds(left[0], left[1], rn, rw):
            if cur or add:
                yield cur + add

    def holds(self, v):
        h = self._hand()
        mnat, mwl = self._m
        if not v or not mnat or h.without(v) is None:
            return False
        cn, cw = h.split(v)
        return next(self._adds({}, {}, mnat + cn, mwl + cw), None) is not None
