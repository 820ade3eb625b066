"""Listing melds: every set and sequence a hand can make, and every lay-off on a meld.

``melds_in`` and ``extensions`` as lists (the package's doc says how they walk ranks and windows of
places rather than subsets). ``_sets`` and ``_runs`` build the card sets; the searches of ``_search``
walk the same card sets lazily, and their ``_listing`` is these lists.
"""
from __future__ import annotations

import itertools
from collections import Counter

from ._layout import ACE, MAX_PLACES, _split


def _sub_multisets(counter, lo, hi):
    """Sorted tuples of every sub-multiset of ``counter`` with size in lo..hi."""
    items = sorted(counter.items())
    out = []
    for counts in itertools.product(*[range(k + 1) for _, k in items]):
        size = sum(counts)
        if lo <= size <= hi:
            out.append(tuple(f for (f, _), k in zip(items, counts) for _ in range(k)))
    return out


def _wild_choices(wl_counter, k):
    """Wild multisets by size 0..k: ``{size: [tuples]}``."""
    by = {}
    for t in _sub_multisets(wl_counter, 0, k):
        by.setdefault(len(t), []).append(t)
    return by


def _sets(nat, wl, maxw, RANK, req_nat=(), req_wl=()):
    """The cards to add to ``req_nat + req_wl`` (all kept) to make a set: naturals of one rank from
    ``nat``, wild cards from ``wl``, at most ``maxw`` wild cards in all, 3+ cards, 1+ natural.
    ``list[tuple[card]]``; every sub-multiset of each rank's naturals with every wild choice."""
    room = maxw - len(req_wl)
    if room < 0:
        return []
    if req_nat:
        r = RANK[req_nat[0]]
        if any(RANK[c] != r for c in req_nat):
            return []
        groups = {r: Counter(c for c in nat if RANK[c] == r)}
    else:
        groups = {}
        for c in nat:
            if RANK[c] >= 2:
                groups.setdefault(RANK[c], Counter())[c] += 1
    wild_sets = _sub_multisets(Counter(wl), 0, room)
    have = len(req_nat) + len(req_wl)
    out = []
    for cnt in groups.values():
        for ns in _sub_multisets(cnt, 0 if req_nat else 1, 99):
            n = have + len(ns)
            for ws in wild_sets:
                if n + len(ws) >= 3:
                    out.append(ns + ws)
    return out


def _runs(nat, wl, maxw, RANK, SUIT, suits, req_nat=(), req_wl=()):
    """The cards to add to ``req_nat + req_wl`` (all kept) to make a sequence of 3..13 places: the same
    list, in the same order, as ``_runs_reference`` (tests/_melds_reference.py: its doc says what is walked), with the places as bit
    masks and the windows that can give nothing skipped: a window must hold every required place, and
    for one low end its empty places (``L - |required| - |held| - a natural 2``) only grow with the high
    end, so the first window with more of them than ``maxw`` ends that low end's walk."""
    out = []
    if req_nat:
        s0 = SUIT[req_nat[0]]
        rranks = [RANK[c] for c in req_nat]
        if s0 < 0 or any(SUIT[c] != s0 for c in req_nat) or len(set(rranks)) != len(rranks) or min(rranks) < 0:
            return out    # (a negative rank is in no window)
        suits = (s0,)
    else:
        rranks = []
    hi_places = 0
    for r in rranks:
        hi_places |= 1 << r
    # the required places with an ace low (a window starting at place 1)
    lo_places = (hi_places & ~(1 << ACE)) | 2 if hi_places >> ACE & 1 else hi_places
    req_c = Counter(req_wl)
    wl_c = Counter(wl)
    n_req = len(req_wl)
    plain = None
    combinations = itertools.combinations
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
            if 0 <= p < 64:
                amask |= 1 << p
        two = next((w for w in req_c if SUIT[w] == s and RANK[w] == 2), None)
        two_in_req = two is not None
        if two is None:
            two = next((w for w in wl_c if SUIT[w] == s and RANK[w] == 2), None)
        if plain is None:
            plain = (_wild_choices(wl_c, maxw), n_req, ())
        if two is None:
            with_two = None
        elif two_in_req:
            with_two = (plain[0], n_req - 1, ())
        else:
            with_two = (_wild_choices(wl_c - Counter((two,)), maxw), n_req, (two,))
        for lo in range(1, 13):
            rpm = lo_places if lo == 1 else hi_places
            if rpm & ((1 << lo) - 1):
                continue          # a required place below the window
            top_req = rpm.bit_length() - 1
            n_rp = rpm.bit_count()    # (an ace low and a card of rank 1 share place 1, as in a set of places)
            has_two = with_two is not None and lo <= 2
            for hi in range(max(lo + 2, top_req), min(lo + MAX_PLACES - 1, ACE) + 1):
                win = ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)
                omask = amask & win & ~rpm
                if not rpm and not omask:
                    continue
                n_opt = omask.bit_count()
                L = hi - lo + 1
                if L - n_rp - n_opt - has_two > maxw:
                    break         # a higher end leaves no fewer places to fill
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
                            continue
                        for keep in combinations(opt, k):
                            base = tuple(at[p] for p in keep) + extra_two
                            for ws in ws_list:
                                out.append(base + ws)
    return out


def melds_in(hand, wild, maxw, RANK, SUIT, SORT_KEY):
    """Every set and sequence of 3+ cards from ``hand`` with at most ``maxw`` stand-ins (the package's doc).

    ``list[tuple[card]]``, each sorted by ``SORT_KEY``, no repeats, in a stable order.
    """
    nat, wl = _split(hand, wild)
    maxw = max(0, min(maxw, len(wl)))
    found = _sets(nat, wl, maxw, RANK) + _runs(nat, wl, maxw, RANK, SUIT, range(4))
    key = SORT_KEY.__getitem__
    return sorted({tuple(sorted(m, key=key)) for m in found}, key=lambda m: [key(c) for c in m])


def extensions(meld, hand, wild, maxw, RANK, SUIT, SORT_KEY):
    """Card sets of ``hand`` (1+ cards) that make ``meld`` a set or sequence again with at most
    ``maxw`` stand-ins (the package's doc). Walked around the meld's own cards (they are always kept), so
    only supersets of the meld are built. ``list[tuple[card]]`` sorted like ``melds_in``."""
    mnat, mwl = _split(meld, wild)
    hnat, hwl = _split(hand, wild)
    maxw = max(0, maxw)
    key = SORT_KEY.__getitem__
    found = []
    if mnat:
        found += _sets(hnat, hwl, maxw, RANK, mnat, mwl)
        found += _runs(hnat, hwl, maxw, RANK, SUIT, (), mnat, mwl)
    out = {tuple(sorted(add, key=key)) for add in found if add}
    return sorted(out, key=lambda m: [key(c) for c in m])
