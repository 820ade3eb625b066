"""Where a meld's cards stand: sequences with wild cards, and the layout of a meld on the table.

The arithmetic of places every other part of the package builds on: ``run_layout`` / ``run_wilds`` (a
hand of cards as one suit's sequence, fewest stand-ins first), ``layout`` (a meld as laid: a sequence low
to high, a set naturals then wilds), and the fixed lay-off (``fixed_layout``: the meld's wilds keep their
places; ``wild_to_low_end``). The rules of sequences and of moving a wild are in the package's doc.
"""
from __future__ import annotations

MAX_PLACES = 13
ACE = 14


def _split(cards, wild):
    """(naturals, stand-in capable) of ``cards`` (multisets as lists)."""
    ws = wild if isinstance(wild, (set, frozenset)) else set(wild)
    nat, wl = [], []
    for c in cards:
        (wl if c in ws else nat).append(c)
    return nat, wl


def run_layout(cards, wild, RANK, SUIT):
    """``(stand_ins, layout)`` of ``cards`` as a sequence (layout: faces low to high), or None.

    Fewest stand-ins first; among equal layouts the one reaching highest (a free
    wild goes to the top end: 9-10-★-Q + J → ★ is the K).
    """
    n = len(cards)
    if n == 0 or n > MAX_PLACES:
        return None
    nat, wl = _split(cards, wild)
    if not nat:
        return None
    suit = SUIT[nat[0]]
    if suit < 0:
        return None
    for c in nat:
        if SUIT[c] != suit or RANK[c] < 2:
            return None
    ranks = [RANK[c] for c in nat]
    if len(set(ranks)) != len(ranks):
        return None
    twos = [w for w in wl if SUIT[w] == suit and RANK[w] == 2]
    best = None
    for ace_low in ((False, True) if ACE in ranks else (False,)):
        pos = [1 if (r == ACE and ace_low) else r for r in ranks]
        for use_two in ((True, False) if twos and 2 not in pos else (False,)):
            p2 = pos + [2] if use_two else pos
            lo_n, hi_n = min(p2), max(p2)
            if hi_n - lo_n + 1 > n:
                continue
            for lo in range(min(lo_n, 15 - n), max(1, hi_n - n + 1) - 1, -1):
                key = (len(wl) - use_two, -lo)
                if best is None or key < best[0]:
                    best = (key, lo, dict(zip(p2, nat + (twos[:1] if use_two else []))), use_two)
                break   # the highest window for this choice
    if best is None:
        return None
    (stand, _), lo, placed, use_two = best
    rest = list(wl)
    if use_two:
        rest.remove(placed[2])
    layout = []
    for p in range(lo, lo + n):
        layout.append(placed[p] if p in placed else rest.pop())
    return stand, tuple(layout)


def run_wilds(cards, wild, RANK, SUIT):
    """Fewest stand-ins of ``cards`` laid out as a sequence, or -1 (the package's doc)."""
    r = run_layout(cards, wild, RANK, SUIT)
    return -1 if r is None else r[0]


def layout(cards, wild, RANK, SUIT, SORT_KEY):
    """A meld's cards as laid on the table: a sequence low to high with its wilds in place; a set
    naturals first (by suit), then wilds."""
    nat, wl = _split(cards, wild)
    if len({RANK[c] for c in nat}) != 1 or len(nat) < 2:
        r = run_layout(cards, wild, RANK, SUIT)
        if r is not None:
            return r[1]
    return tuple(sorted(nat, key=SORT_KEY.__getitem__) + sorted(wl, key=SORT_KEY.__getitem__))


def _run_places(meld, wild, RANK, SUIT):
    """``(suit, {place: card})`` of a laid-out sequence whose naturals fix its places (two naturals of
    different ranks), else None (a set, or a meld a second natural has not yet decided). Places run
    1 (ace low) … 14 (ace high); the layout is low to high, so card i stands on place lo + i."""
    nat, _wl = _split(meld, wild)
    if len({RANK[c] for c in nat}) < 2:
        return None
    suit = SUIT[nat[0]]
    n = len(meld)
    for lo in range(14 - n + 1, 0, -1):   # the layout's lowest place: every natural on its own place
        ok = True
        for i, c in enumerate(meld):
            if c in nat and not (SUIT[c] == suit and (RANK[c] == lo + i or (RANK[c] == ACE and lo + i == 1))):
                ok = False
                break
        if ok:
            return suit, {lo + i: c for i, c in enumerate(meld)}
    return None


#: ``fixed_layout``'s answers by its arguments (the tables by identity, kept with the answer): a lay-off's
#: check, its effect and the effect's ``wild_goes_high`` ask the same one. At most ``_FIXED_SIZE`` (then
#: it starts again); an answer is a tuple (or None), never changed by its callers.
_FIXED = {}
_FIXED_SIZE = 1024


def fixed_layout(meld, cards, wild, RANK, SUIT, SORT_KEY):
    """``_fixed_layout(meld, cards, wild, …)`` (below), kept in ``_FIXED`` by its arguments (``meld`` and
    ``cards`` tuples; unhashable arguments are worked out each time)."""
    key = (meld, cards, wild, id(RANK), id(SUIT), id(SORT_KEY))
    try:
        got = _FIXED.get(key)
    except TypeError:   # a list among them
        return _fixed_layout(meld, cards, wild, RANK, SUIT, SORT_KEY)
    if got is not None and got[1] is RANK and got[2] is SUIT and got[3] is SORT_KEY:
        return got[0]
    r = _fixed_layout(meld, cards, wild, RANK, SUIT, SORT_KEY)
    if len(_FIXED) >= _FIXED_SIZE:
        _FIXED.clear()
    _FIXED[key] = (r, RANK, SUIT, SORT_KEY)
    return r


def _fixed_layout(meld, cards, wild, RANK, SUIT, SORT_KEY):
    """The lay-off of ``cards`` on sequence ``meld`` with its wilds kept in place (issue 20 item 8; the
    partnership rummy digest, "Moving a wild"): ``(layout, end)`` — ``end`` True when this lay-off put a
    wild on the high end and the low end is free too (the player may move it there: ``wild_to_low_end``);
    None when no such layout exists. Every card of the meld keeps its place, except a wild whose place a
    natural card of ``cards`` takes: that wild, and the wilds of ``cards``, fill the gaps, then go to an
    end (high first); a 2 of the suit goes to place 2 as a natural card when that place is free and
    next to the sequence. A meld whose places are not fixed yet (a set, one natural) gives
    ``(layout(meld + cards), False)``: the free rule decides."""
    fixed = _run_places(meld, wild, RANK, SUIT)
    if fixed is None:
        return layout(tuple(meld) + tuple(cards), wild, RANK, SUIT, SORT_KEY), False
    suit, places = fixed
    free = []
    for c in cards:
        if c in wild:
            free.append(c)
            continue
        if SUIT[c] != suit:
            return None
        spots = [RANK[c]] if RANK[c] != ACE else [14, 1]
        for p in spots:
            held = places.get(p)
            if held is None:
                places[p] = c
                break
            if held in wild and (p not in (1, 14) or RANK[held] != ACE):
                free.append(held)   # displaced: the natural card takes its place
                places[p] = c
                break
        else:
            return None
    if 1 in places and 14 in places:
        return None
    for w in [w for w in free if SUIT[w] == suit and RANK[w] == 2]:   # a 2 back on its own place
        if 2 not in places and (min(places) == 3 or max(places) == 1 or (min(places) < 2 < max(places))):
            places[2] = w
            free.remove(w)
    lo, hi = min(places), max(places)
    for p in range(lo, hi + 1):   # gaps take the free wilds
        if p not in places:
            if not free:
                return None
            places[p] = free.pop()
    end = False
    while free:
        w = free.pop()
        if hi < 14 and hi - lo + 1 < MAX_PLACES and not (hi + 1 == 14 and 1 in places):
            hi += 1
            places[hi] = w
            end = lo > 1 and not (lo - 1 == 1 and 14 in places) and hi - lo + 1 <= MAX_PLACES
        elif lo > 1 and hi - lo + 1 < MAX_PLACES and not (lo - 1 == 1 and 14 in places):
            lo -= 1
            places[lo] = w
        else:
            return None
    return tuple(places[p] for p in range(lo, hi + 1)), end


def wild_to_low_end(meld, wild, RANK, SUIT):
    """``meld`` with the wild on its high end moved to the low end, or None when it cannot move."""
    if not meld or meld[-1] not in wild:
        return None
    fixed = _run_places(meld[:-1], wild, RANK, SUIT) if len(meld) > 1 else None
    if fixed is None:
        return None
    _suit, places = fixed
    lo = min(places)
    if lo <= 1 or (lo - 1 == 1 and 14 in places):
        return None
    return (meld[-1],) + tuple(meld[:-1])
