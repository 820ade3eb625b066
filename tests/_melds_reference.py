"""The meld listings as first written (every window of places tried, nothing kept between calls): what
tests/test_melds_listing.py and tests/test_melds_empty.py hold the engine's faster listings to
(``cardspec.engine.melds._listing._runs``, ``melds/_kept.py``). Moved here from the engine, which never
calls them."""
from __future__ import annotations

import itertools
from collections import Counter

from cardspec.engine.melds._layout import ACE, MAX_PLACES, _split
from cardspec.engine.melds._listing import _sets, _wild_choices


def _runs_reference(nat, wl, maxw, RANK, SUIT, suits, req_nat=(), req_wl=()):
    """``_runs`` as first written, every window of places tried (tests/test_melds_listing.py holds ``_runs``
    to it). The cards to add to ``req_nat + req_wl`` (all kept) to make a sequence of 3..13 places.

    Walks each suit's windows of consecutive places (ace on 1 or 14, never both) that hold every
    place of ``req_nat``; in each, every choice of ``nat``'s naturals on the free places (so a wild
    may fill a place whose natural card is held), a 2 of the suit on place 2 as a natural or not,
    and every multiset of ``wl`` filling the rest, with at most ``maxw`` stand-ins (wild cards other
    than a natural 2). ``list[tuple[card]]`` (the added cards, repeats possible).
    """
    out = []
    if req_nat:
        s0 = SUIT[req_nat[0]]
        rranks = [RANK[c] for c in req_nat]
        if s0 < 0 or any(SUIT[c] != s0 for c in req_nat) or len(set(rranks)) != len(rranks):
            return out
        suits = (s0,)
    else:
        rranks = []
    req_c = Counter(req_wl)
    wl_c = Counter(wl)
    n_req = len(req_wl)
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
        two = next((w for w in req_c if SUIT[w] == s and RANK[w] == 2), None)
        two_in_req = two is not None
        if two is None:
            two = next((w for w in wl_c if SUIT[w] == s and RANK[w] == 2), None)
        # (wilds that may still be added, stand-ins already fixed by the required wilds) per use of a natural 2
        if plain is None:
            plain = (_wild_choices(wl_c, maxw), n_req, ())
        if two is None:
            with_two = None
        elif two_in_req:
            with_two = (plain[0], n_req - 1, ())
        else:
            with_two = (_wild_choices(wl_c - Counter((two,)), maxw), n_req, (two,))
        for lo in range(1, 13):
            for hi in range(lo + 2, min(lo + MAX_PLACES - 1, ACE) + 1):
                rp = set()
                for r in rranks:
                    p = 1 if (r == ACE and lo == 1) else r
                    if not lo <= p <= hi:
                        break
                    rp.add(p)
                else:
                    opt = [p for p in range(lo, hi + 1) if p in at and p not in rp]
                    if not rp and not opt:
                        continue
                    L = hi - lo + 1
                    has_two = with_two is not None and lo <= 2 <= hi
                    if L - len(rp) - len(opt) - has_two > maxw:
                        continue          # too many places to fill even with every natural
                    for use_two in ((False, True) if has_two else (False,)):
                        wb, fixed, extra_two = with_two if use_two else plain
                        # stand-ins: need = L - |rp| - |keep| - use_two, of which `fixed` are required wilds
                        top = L - len(rp) - use_two - fixed      # most naturals kept (0 wilds added)
                        for k in range(min(len(opt), top), -1, -1):
                            need = L - len(rp) - k - use_two
                            if need > maxw:
                                break
                            if k == 0 and not rp:
                                break
                            ws_list = wb.get(need - fixed, ())
                            if not ws_list:
                                continue
                            for keep in itertools.combinations(opt, k):
                                base = tuple(at[p] for p in keep) + extra_two
                                for ws in ws_list:
                                    out.append(base + ws)
    return out


def melds_in_reference(hand, wild, maxw, RANK, SUIT, SORT_KEY):
    """``melds_in`` as first written (``_runs_reference``, nothing kept between calls): the listing the
    differential test (tests/test_melds_listing.py) holds the faster one to."""
    nat, wl = _split(hand, wild)
    maxw = max(0, min(maxw, len(wl)))
    found = _sets(nat, wl, maxw, RANK) + _runs_reference(nat, wl, maxw, RANK, SUIT, range(4))
    key = SORT_KEY.__getitem__
    return sorted({tuple(sorted(m, key=key)) for m in found}, key=lambda m: [key(c) for c in m])


def extensions_reference(meld, hand, wild, maxw, RANK, SUIT, SORT_KEY):
    """``extensions`` as first written (``_runs_reference``, nothing kept between calls), for the test."""
    mnat, mwl = _split(meld, wild)
    hnat, hwl = _split(hand, wild)
    maxw = max(0, maxw)
    key = SORT_KEY.__getitem__
    found = []
    if mnat:
        found += _sets(hnat, hwl, maxw, RANK, mnat, mwl)
        found += _runs_reference(hnat, hwl, maxw, RANK, SUIT, (), mnat, mwl)
    out = {tuple(sorted(add, key=key)) for add in found if add}
    return sorted(out, key=lambda m: [key(c) for c in m])
