"""Melds: card-collection functions for the expression language and the ``meld`` / ``lay_off`` effects.

Rummy-family rules (sets, sequences, wild cards, lay-offs) are written in a
ruleset as expressions over lists of cards; this module adds the few general
functions those expressions need, and a zone kind holding melds
(``zones: {table: {owner: seat, melds: true}}``: each item of ``table[i]`` is
a meld, a tuple of card faces laid out low to high for a sequence).

Expression functions (``wild`` is a list of the card faces that may stand in
for others, e.g. ``distinct(filter(c in deck where c.rank == 2 or c.rank == 0))``,
folded to a constant at load time)::

    join(a, b)                    list[card]  the cards of a, then those of b
    ranks(cards)                  list[int]   each card's rank, in order
    suits(cards)                  list[suit]  each card's suit, in order
    run_wilds(cards, wild)        int         fewest cards of ``wild`` standing in for another
                                              card in a layout of ``cards`` as one suit's sequence;
                                              -1 when there is none
    melds_in(hand, wild, k)       list[list[card]]  every set and sequence (3+ cards) that can be
                                              made from ``hand`` with at most ``k`` stand-ins
                                              (a ``MeldsIn``: the list, searchable, below)
    extensions(meld, hand, wild, k)  list[list[card]]  card sets of ``hand`` that make ``meld``
                                              a larger set or sequence with at most ``k`` stand-ins
                                              (an ``Extensions``)
    fits_in_place(meld, cards, wild)  bool  ``cards`` laid off on sequence ``meld`` with its wilds kept
                                              in place (``fixed_layout``); a set: true
    wild_goes_high(meld, cards, wild)  bool  that lay-off puts a wild on the high end, the low end free too
    wild_moves_low(meld, wild)    bool        the wild on ``meld``'s high end could stand on its low end

Sequences (``run_wilds``): cards of one suit on consecutive places; the ace
is low (place 1, before the 2) or high (place 14, after the king), never
both and never around the corner (K-A-2 is not a sequence); at most 13
places. A card of ``wild`` of the sequence's suit whose rank is 2 may stand
naturally on place 2 (A-2-3, 2-3-4-5); every other card of ``wild`` stands in
for the natural card of the place it fills, so a wild always has a definite
place. At least one card must not be in ``wild``. Two ways to lay off on a
sequence: free (validity depends only on the cards, so ``run_wilds(meld + cards,
wild)`` is the check and the ``lay_off`` effect lays the meld out again — an end
wild may jump to the other end), or fixed (``fits_in_place`` and the effect's
``fixed: true``: every card keeps its place, except a wild whose natural card is
laid off; it moves to an end, 9-10-★-Q + J → 9-10-J-Q-★, and the
``wild_to_low_end`` effect may then move it to the low end).
Source of these rules: the partnership rummy digest in shared/rules/ ("Melds", "Moving a wild").

``melds_in`` and ``extensions`` never list every subset of the hand: they
walk each rank's cards (sets) and each suit's windows of consecutive places
(sequences), so the work grows with the hand's structure, not 2^len(hand).
In a window every choice of the held naturals is tried, the rest of the
places taking wild cards (so a wild may fill a place whose natural card the
hand also holds: 7-★-9 from 7 8 9 ★), with a 2 of the suit on place 2 as a
natural or not. They list every set and sequence with at most ``k``
stand-ins, none missing (the tests compare them with a brute-force walk over
every subset checked directly); the ruleset's ``legal:`` still decides.
``extensions`` builds only supersets of the meld (its cards are always kept,
its places always in the window), so a lay-off costs no more than its meld's
neighbourhood. Their values are ``CardSetSearch`` objects (engine/choices.py):
the list above when listed, and searched by the cards a small choice has chosen
so far (``containing``, ``holds``, ``units``; "searching without listing" below).

Effects::

    - meld: {from: "hand[seat]", to: "table[team]", cards: cards, wild: wild_cards}
    - lay_off: {from: "hand[seat]", to: "table[team]", index: "meld - 1", cards: cards, wild: wild_cards,
               fixed: true}          # optional: the meld's wilds keep their places (default false)
    - wild_to_low_end: {to: "table[team]", index: "meld - 1", wild: wild_cards}
"""
from __future__ import annotations

import itertools
from collections import Counter

from ..lang.builtins import BUILTIN_COST, _argc, builtin
from .choices import CardSetSearch
from .effects import EXTRA_EFFECTS, zone_arg
from ..lang import ANY, BOOL, CARD, INT, SUIT, Code, list_of
from ..lang.runtime import RuleFault

MAX_PLACES = 13
ACE = 14


# ---- runtime ---------------------------------------------------------------------------------
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
    """Fewest stand-ins of ``cards`` laid out as a sequence, or -1 (module doc)."""
    r = run_layout(cards, wild, RANK, SUIT)
    return -1 if r is None else r[0]


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
    """The cards to add to ``req_nat + req_wl`` (all kept) to make a sequence of 3..13 places.

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


def melds_in(hand, wild, maxw, RANK, SUIT, SORT_KEY):
    """Every set and sequence of 3+ cards from ``hand`` with at most ``maxw`` stand-ins (module doc).

    ``list[tuple[card]]``, each sorted by ``SORT_KEY``, no repeats, in a stable order.
    """
    nat, wl = _split(hand, wild)
    maxw = max(0, min(maxw, len(wl)))
    found = _sets(nat, wl, maxw, RANK) + _runs(nat, wl, maxw, RANK, SUIT, range(4))
    key = SORT_KEY.__getitem__
    return sorted({tuple(sorted(m, key=key)) for m in found}, key=lambda m: [key(c) for c in m])


def extensions(meld, hand, wild, maxw, RANK, SUIT, SORT_KEY):
    """Card sets of ``hand`` (1+ cards) that make ``meld`` a set or sequence again with at most
    ``maxw`` stand-ins (module doc). Walked around the meld's own cards (they are always kept), so
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


# ---- searching without listing (small choices) --------------------------------------------------
# A small choice asks whether some meld (or lay-off) holding the cards chosen so far is legal, about
# one question per card of the hand at each choice. ``MeldsIn`` and ``Extensions`` (the values of
# ``melds_in`` and ``extensions``) answer ``containing(cur)`` by walking only the card sets that hold
# ``cur``: the same walk as ``_sets``/``_runs`` with ``cur`` among the required cards, lazily (the
# caller stops at the first legal one), over a hand split once into naturals and wild cards, and with
# the windows of a sequence limited to those around its required places. ``holds(v)`` is that walk
# with nothing left to add. tests/test_melds_search.py compares both with the lists.

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


def _counts(cards):
    d = {}
    for c in cards:
        d[c] = d.get(c, 0) + 1
    return d


def _minus(counts, cards):
    """``counts`` (``{card: n}``) without ``cards`` (with repeats), or None when they are not all there."""
    out = dict(counts)
    for c in cards:
        k = out.get(c, 0)
        if k <= 0:
            return None
        if k == 1:
            del out[c]
        else:
            out[c] = k - 1
    return out


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
        groups = [Counter({c: k for c, k in nat.items() if RANK[c] == r})]
        least = 0
    else:
        by = {}
        for c, k in nat.items():
            if RANK[c] >= 2:
                by.setdefault(RANK[c], Counter())[c] = k
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


#: The hands split last (``_hand_of``): one decision asks the melds and each lay-off of one hand.
_HANDS = {}


def _hand_of(hand, wild, RANK, SUIT):
    key = (hand, wild, id(RANK), id(SUIT))
    try:
        h = _HANDS.get(key)
    except TypeError:   # an unhashable wild list
        return _Hand(hand, wild, RANK, SUIT)
    if h is None:
        if len(_HANDS) >= 8:
            _HANDS.clear()
        h = _HANDS[key] = _Hand(hand, wild, RANK, SUIT)
    return h


#: Per (wild cards, RANK, SUIT): the wild cards as a set, and each face's places as a natural card of a
#: sequence (bit p for place p, an ace on 1 and 14; 0 for a card without a suit or rank).
_FACES = {}


def _faces(wild, RANK, SUIT):
    try:
        key = (wild, id(RANK), id(SUIT))
        got = _FACES.get(key)
    except TypeError:   # an unhashable wild list
        key, got = None, None
    if got is None or got[2] is not RANK or got[3] is not SUIT:
        ws = wild if isinstance(wild, (set, frozenset)) else frozenset(wild)
        place = [((1 << r) | ((1 << 1) if r == ACE else 0)) if su >= 0 and r >= 0 else 0
                 for r, su in zip(RANK, SUIT)]
        got = (ws, place, RANK, SUIT)
        if key is not None:
            if len(_FACES) >= 64:
                _FACES.clear()
            _FACES[key] = got
    return got


class _Hand:
    """A hand split once for searches: naturals and wild cards as ``{card: count}``, and what the quick
    tests of ``possible`` read: each suit's places held by a natural (bit p for place p; an ace on 1 and
    14), the wild 2s of each suit, the naturals of each rank."""

    __slots__ = ("nat", "wl", "wild", "n_wl", "places", "twos", "by_rank", "by_suit", "RANK", "SUIT")

    def __init__(self, hand, wild, RANK, SUIT):
        ws, PLACE, _, _ = _faces(wild, RANK, SUIT)
        nat, wl = {}, {}
        for c in hand:
            if c in ws:
                wl[c] = wl.get(c, 0) + 1
            else:
                nat[c] = nat.get(c, 0) + 1
        self.nat, self.wl, self.wild, self.RANK, self.SUIT = nat, wl, ws, RANK, SUIT
        places, by_rank, by_suit = {}, {}, {}
        for c, k in nat.items():
            r = RANK[c]
            by_rank[r] = by_rank.get(r, 0) + k
            su = SUIT[c]
            b = by_suit.get(su)
            if b is None:
                by_suit[su] = [c]
            else:
                b.append(c)
            p = PLACE[c]
            if p:
                places[su] = places.get(su, 0) | p
        twos = {}
        if wl:
            self.n_wl = sum(wl.values())
            for c, k in wl.items():
                if RANK[c] == 2 and SUIT[c] >= 0:
                    twos[SUIT[c]] = twos.get(SUIT[c], 0) + k
        else:
            self.n_wl = 0
        self.places, self.twos, self.by_rank, self.by_suit = places, twos, by_rank, by_suit

    def split(self, cards):
        ws = self.wild
        nat, wl = [], []
        for c in cards:
            (wl if c in ws else nat).append(c)
        return nat, wl

    def without(self, cards):
        """``(naturals, wilds)`` left when ``cards`` are taken, or None when the hand lacks one."""
        nat, wl = self.split(cards)
        a = _minus(self.nat, nat)
        b = _minus(self.wl, wl) if a is not None else None
        return None if b is None else (a, b)

    def _run_ok(self, su, req, cw, w_left, maxw):
        """Whether a sequence of suit ``su`` may hold the places ``req`` (a bit mask, an ace as 14) and
        the wild cards ``cw`` with cards added from the hand (``w_left`` wild cards left in it): some
        smallest window holding the places, and a window no smaller than the others, has no more empty
        places than wild cards may fill. A quick test: True may still find none."""
        RANK, SUIT = self.RANK, self.SUIT
        two = 1 if self.twos.get(su, 0) else 0
        for w in cw:
            if RANK[w] == 2 and SUIT[w] == su:
                two = 1
        if len(cw) - two > maxw:
            return False
        slack = min(maxw, w_left + len(cw)) + two   # empty places wild cards may fill (a 2 natural on its own)
        held0 = self.places.get(su, 0)
        m = req
        while True:
            held = held0 | m
            lo, hi = (m & -m).bit_length() - 1, m.bit_length() - 1
            if hi - lo < MAX_PLACES:
                if hi - lo >= 2:
                    if (hi - lo + 1) - (held & (((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1))).bit_count() <= slack:
                        return True
                else:
                    for x in range(max(1, hi - 2), min(lo, 12) + 1):
                        if 3 - (held & (7 << x)).bit_count() <= slack:
                            return True
            if m is not req or not req >> ACE & 1:
                return False
            m = (req & ~(1 << ACE)) | (1 << 1)   # the ace low: place 1, the window starting there

    def units(self, cn, cw, xn, xw, maxw, rank_floor, suits, cur):
        """The cards of the hand (less ``cur``) that may join the required cards (naturals ``cn``,
        wild cards ``cw``; ``xn``/``xw`` of them from this hand) in a set or a sequence, by the quick
        tests of ``possible``: every card that does is listed (and perhaps some that do not)."""
        RANK, SUIT = self.RANK, self.SUIT
        left = _minus(self.nat, xn)
        wl = _minus(self.wl, xw)
        if left is None or wl is None:
            return ()
        w_left = self.n_wl - len(xw)
        have = len(cn) + len(cw)
        room = maxw - len(cw)
        out = []
        if cn:
            r0, s0 = RANK[cn[0]], SUIT[cn[0]]
            same_rank = r0 >= rank_floor and all(RANK[c] == r0 for c in cn)
            cnt = self.by_rank.get(r0, 0) - len(xn) if same_rank else 0
            set_nat = same_rank and room >= 0 and have + cnt + min(w_left, room) >= 3
            set_wild = same_rank and room >= 1 and have + 1 + cnt + min(w_left - 1, room - 1) >= 3
            ranks = {RANK[c] for c in cn}
            run = s0 >= 0 and len(ranks) == len(cn) and min(ranks) >= 1 and all(SUIT[c] == s0 for c in cn)
            req = 0
            for r in ranks:
                req |= 1 << r
            for u in left:
                r = RANK[u]
                if set_nat and r == r0 or run and SUIT[u] == s0 and r not in ranks and r >= 1 and \
                        self._run_ok(s0, req | (1 << r), cw, w_left, maxw):
                    out.append(u)
            if set_wild or run:
                for u in wl:
                    if set_wild or self._run_ok(s0, req, cw + [u], w_left - 1, maxw):
                        out.append(u)
            return out
        by_rank = self.by_rank
        place_mask = self._place_mask
        ok = {}
        for su in self.places:
            if su in suits:
                ok[su] = place_mask(su, cw, w_left, maxw)
        # a natural of rank r >= 2 may make a set when the hand holds set_need of that rank
        set_need = 3 - have - min(w_left, room) if room >= 0 else 1 << 62
        for u in left:
            r = RANK[u]
            if r >= 2 and by_rank[r] >= set_need:
                out.append(u)
            elif r >= 1:
                su = SUIT[u]
                if su >= 0:
                    m = ok.get(su, 0)
                    if m >> r & 1 or r == ACE and m >> 1 & 1:
                        out.append(u)
        if wl:
            best = 0
            for r, k in by_rank.items():
                if r >= 2 and k > best:
                    best = k
            if best and room >= 1 and have + 1 + best + min(w_left - 1, room - 1) >= 3:
                out += wl
            else:   # a wild card's runs depend on it only by whether it is a 2 (and of which suit)
                seen = {}
                for u in wl:
                    kind = SUIT[u] if RANK[u] == 2 else -1
                    got = seen.get(kind)
                    if got is None:
                        got = seen[kind] = any(place_mask(su, cw + [u], w_left - 1, maxw) for su in ok)
                    if got:
                        out.append(u)
        return out

    def joins(self, cn, cw, maxw):
        """``bool(self.units(cn, cw, (), (), maxw, 0, (), ()))`` for naturals ``cn`` (1+) and wild cards ``cw``
        on the table (a meld): whether some card of the hand passes the quick tests to join them, found
        without listing them (the naturals of the meld's rank or suit only; the first one found)."""
        RANK, SUIT = self.RANK, self.SUIT
        w_left = self.n_wl
        have = len(cn) + len(cw)
        room = maxw - len(cw)
        r0, s0 = RANK[cn[0]], SUIT[cn[0]]
        if r0 >= 0:
            for c in cn:
                if RANK[c] != r0:
                    break
            else:   # one rank: a set (units' set_nat, set_wild)
                cnt = self.by_rank.get(r0, 0)
                if room >= 0 and cnt and have + cnt + min(w_left, room) >= 3:
                    return True
                if room >= 1 and w_left and have + 1 + cnt + min(w_left - 1, room - 1) >= 3:
                    return True
        if s0 < 0:
            return False
        ranks = set()
        req = 0
        for c in cn:
            r = RANK[c]
            if SUIT[c] != s0 or r < 1 or r in ranks:
                return False
            ranks.add(r)
            req |= 1 << r
        run_ok = self._run_ok
        for u in self.by_suit.get(s0, ()):
            r = RANK[u]
            if r >= 1 and r not in ranks and run_ok(s0, req | (1 << r), cw, w_left, maxw):
                return True
        for u in self.wl:
            if run_ok(s0, req, cw + [u], w_left - 1, maxw):
                return True
        return False

    def _place_mask(self, su, cw, w_left, maxw):
        """The places of suit ``su``'s naturals that ``_run_ok`` lets start a sequence with the wild
        cards ``cw`` (each natural's smallest windows are the three of 3 places around it)."""
        RANK, SUIT = self.RANK, self.SUIT
        m = self.places.get(su, 0)
        if not m:
            return 0
        two = 1 if self.twos.get(su, 0) else 0
        for w in cw:
            if RANK[w] == 2 and SUIT[w] == su:
                two = 1
        if len(cw) - two > maxw:
            return 0
        slack = min(maxw, w_left + len(cw)) + two
        if slack >= 2:
            return m
        # the windows of 3 places starting at a (1..12) holding at least 3 - slack naturals (bit a of t),
        # and the naturals of those windows
        if slack < 0:
            return 0
        m1, m2 = m >> 1, m >> 2
        t = (m & m1 & m2) if slack == 0 else (m & m1) | (m & m2) | (m1 & m2)
        t &= 0x1FFE
        return m & (t | t << 1 | t << 2)

    def possible(self, cn, cw, xn, xw, maxw, rank_floor, suits):
        """False when no set and no sequence holds the required cards (naturals ``cn`` and wilds ``cw``,
        of which ``xn``/``xw`` come from this hand; the others are on the table) with cards added from
        the rest of the hand: a quick test before ``_set_adds``/``_run_adds`` walk them (True may
        still find none). Sets: exact (enough naturals of the rank and wild cards). Sequences: the
        smallest windows holding the required places (any larger one needs more cards to fill)."""
        RANK, SUIT = self.RANK, self.SUIT
        w_left = self.n_wl - len(xw)            # wild cards of the hand still to add
        have = len(cn) + len(cw)
        room = maxw - len(cw)
        if cn:
            r = RANK[cn[0]]
            if room >= 0 and r >= rank_floor and all(RANK[c] == r for c in cn) and \
                    have + self.by_rank.get(r, 0) - len(xn) + min(w_left, room) >= 3:
                return True
            su = SUIT[cn[0]]
            req = 0
            for c in cn:
                r = RANK[c]
                if SUIT[c] != su or r < 1 or req >> r & 1:
                    return False
                req |= 1 << r
            return su >= 0 and self._run_ok(su, req, cw, w_left, maxw)
        if room >= 0 and any(r >= 2 and have + k + min(w_left, room) >= 3 for r, k in self.by_rank.items()):
            return True
        return any(self._run_ok(su, m & -m, cw, w_left, maxw) for su, m in self.places.items() if su in suits
                   for m in _bits(m))


def _bits(m):
    """Each set bit of ``m`` as its own mask, low to high."""
    while m:
        b = m & -m
        yield b
        m ^= b


class MeldsIn(CardSetSearch):
    """The value of ``melds_in(hand, wild, k)``: every set and sequence of 3+ cards from ``hand`` with
    at most ``k`` stand-ins (module doc), listed like ``melds_in``, searchable by the cards they hold."""

    __slots__ = ("hand", "wild", "maxw", "RANK", "SUIT", "SORT_KEY", "_h", "_k")

    def __init__(self, hand, wild, maxw, RANK, SUIT, SORT_KEY):
        self.hand, self.wild, self.maxw = tuple(hand), wild, maxw
        self.RANK, self.SUIT, self.SORT_KEY = RANK, SUIT, SORT_KEY
        self._h = None

    def _listing(self):
        return melds_in(self.hand, self.wild, self.maxw, self.RANK, self.SUIT, self.SORT_KEY)

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
        return extensions(self.meld, self.hand, self.wild, self.maxw, self.RANK, self.SUIT, self.SORT_KEY)

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


def fixed_layout(meld, cards, wild, RANK, SUIT, SORT_KEY):
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


def _take(src, cards):
    out = []
    for c in cards:
        if c in src:
            src.remove(c)
            out.append(c)
    return out


def fx_meld(s, src, dst, cards, wild):
    """Move ``cards`` from ``src`` into a new meld at the end of ``dst``."""
    ns = s.game.ns
    got = _take(src, cards)
    dst.append(layout(got, wild, ns["RANK"], ns["SUIT"], ns["SORT_KEY"]))


def fx_lay_off(s, src, dst, index, cards, wild, fixed=False):
    """Move ``cards`` from ``src`` onto meld ``index`` of ``dst`` and lay it out again (``fixed``: its
    wilds keep their places, ``fixed_layout``; the ruleset's ``legal:`` has checked that one exists).
    Raises ``RuleFault`` (a ruleset error at the step) when ``dst`` has no meld ``index``, before any card moves."""
    if not 0 <= index < len(dst):
        raise RuleFault(f"cards were laid off on meld {index} (from 0) of a zone holding {len(dst)} melds: "
                        "there is no such meld (the lay_off effect's index:)")
    ns = s.game.ns
    got = _take(src, cards)
    if fixed:
        r = fixed_layout(tuple(dst[index]), tuple(got), wild, ns["RANK"], ns["SUIT"], ns["SORT_KEY"])
        if r is not None:
            dst[index] = r[0]
            return
    dst[index] = layout(tuple(dst[index]) + tuple(got), wild, ns["RANK"], ns["SUIT"], ns["SORT_KEY"])


def fx_wild_to_low_end(s, dst, index, wild):
    """Move the wild on the high end of meld ``index`` of ``dst`` to its low end (when it can move)."""
    ns = s.game.ns
    if 0 <= index < len(dst):
        moved = wild_to_low_end(tuple(dst[index]), wild, ns["RANK"], ns["SUIT"])
        if moved is not None:
            dst[index] = moved


# ---- the expression functions -------------------------------------------------------------------
#: Their own work beyond their arguments, for the load-time cost bound (docs/dsl.md, "Bounds"), N the most
#: cards a list can hold: finding melds looks at pairs of cards (runs from each card, sets by rank).
BUILTIN_COST.update(ranks=lambda n: n, suits=lambda n: n, join=lambda n: n, run_wilds=lambda n: 8 * n,
                        melds_in=lambda n: n * n, extensions=lambda n: n * n, fits_in_place=lambda n: 16 * n,
                        wild_moves_low=lambda n: 16 * n, wild_goes_high=lambda n: 16 * n)
def _install(comp):
    ns = comp.env.ns
    if ns is not None and "_m_run_wilds" not in ns:
        ns.update(_m_run_wilds=run_wilds, _m_melds_in=MeldsIn, _m_extensions=Extensions)


def _cards_arg(comp, node, what):
    code = comp.c(node)
    if code.type not in (list_of(CARD), ANY, list_of(ANY)):
        comp.err(node, f"{what} needs a list of cards, found {code.type}")
    return code


@builtin("ranks")
def _ranks(comp, n, args):
    _argc(comp, n, args, 1)
    a = _cards_arg(comp, args[0], "ranks")
    return Code(f"[RANK[_c] for _c in {a.src}]", list_of(INT))


@builtin("suits")
def _suits(comp, n, args):
    _argc(comp, n, args, 1)
    a = _cards_arg(comp, args[0], "suits")
    return Code(f"[SUIT[_c] for _c in {a.src}]", list_of(SUIT))


@builtin("run_wilds")
def _run_wilds(comp, n, args):
    _argc(comp, n, args, 2)
    a, w = _cards_arg(comp, args[0], "run_wilds"), _cards_arg(comp, args[1], "run_wilds")
    _install(comp)
    return Code(f"_m_run_wilds({a.src}, {w.src}, RANK, SUIT)", INT)


@builtin("melds_in")
def _melds_in(comp, n, args):
    _argc(comp, n, args, 3)
    a, w = _cards_arg(comp, args[0], "melds_in"), _cards_arg(comp, args[1], "melds_in")
    k = comp.want(args[2], comp.c(args[2]), INT)
    _install(comp)
    return Code(f"_m_melds_in({a.src}, {w.src}, {k.src}, RANK, SUIT, SORT_KEY)", list_of(list_of(CARD)))


@builtin("extensions")
def _extensions(comp, n, args):
    _argc(comp, n, args, 4)
    m, h = _cards_arg(comp, args[0], "extensions"), _cards_arg(comp, args[1], "extensions")
    w = _cards_arg(comp, args[2], "extensions")
    k = comp.want(args[3], comp.c(args[3]), INT)
    _install(comp)
    return Code(f"_m_extensions({m.src}, {h.src}, {w.src}, {k.src}, RANK, SUIT, SORT_KEY)", list_of(list_of(CARD)))


# ---- the effects ------------------------------------------------------------------------------------
def _effect(kind):
    keys = ("from", "to", "cards", "wild") + (("index",) if kind == "lay_off" else ())

    def lines(game, comp, body, path, params):
        if not isinstance(body, dict) or any(k not in body for k in keys):
            comp.problem(path, f"{kind} takes {{{', '.join(keys)}}}" + (", and optionally fixed: BOOL"
                                                                         if kind == "lay_off" else ""))
            return None
        src = comp.code(body["from"], path + ("from",), params, (list_of(CARD),))
        dst = comp.code(body["to"], path + ("to",), params, (list_of(list_of(CARD)),))
        cards = comp.code(body["cards"], path + ("cards",), params, (list_of(CARD),))
        wild = comp.code(body["wild"], path + ("wild",), params, (list_of(CARD),))
        if None in (src, dst, cards, wild):
            return None
        if not (zone_arg(game, comp, src, path + ("from",), f"{kind}'s from:")
                & zone_arg(game, comp, dst, path + ("to",), f"{kind}'s to:", melds=True)):
            return None
        ns = comp.ns
        ns.update(_m_fx_meld=fx_meld, _m_fx_lay_off=fx_lay_off)
        if kind == "meld":
            return [f"_m_fx_meld(s, {src.src}, {dst.src}, {cards.src}, {wild.src})"]
        idx = comp.code(body["index"], path + ("index",), params, (INT,))
        if idx is None:
            return None
        fixed = comp.code(body["fixed"], path + ("fixed",), params, (BOOL,)) if "fixed" in body else None
        if "fixed" in body and fixed is None:
            return None
        return [f"_m_fx_lay_off(s, {src.src}, {dst.src}, {idx.src}, {cards.src}, {wild.src}"
                + (f", {fixed.src})" if fixed is not None else ")")]
    return lines


def _wild_to_low_end_effect(game, comp, body, path, params):
    """``wild_to_low_end: {to: ZONE_OF_MELDS, index: N, wild: WILD}`` (module doc)."""
    keys = ("to", "index", "wild")
    if not isinstance(body, dict) or any(k not in body for k in keys):
        comp.problem(path, "wild_to_low_end takes {to, index, wild}")
        return None
    dst = comp.code(body["to"], path + ("to",), params, (list_of(list_of(CARD)),))
    idx = comp.code(body["index"], path + ("index",), params, (INT,))
    wild = comp.code(body["wild"], path + ("wild",), params, (list_of(CARD),))
    if None in (dst, idx, wild) or not zone_arg(game, comp, dst, path + ("to",), "wild_to_low_end's to:", melds=True):
        return None
    comp.ns.update(_m_fx_wild_to_low_end=fx_wild_to_low_end)
    return [f"_m_fx_wild_to_low_end(s, {dst.src}, {idx.src}, {wild.src})"]


EXTRA_EFFECTS["meld"] = _effect("meld")
EXTRA_EFFECTS["lay_off"] = _effect("lay_off")
EXTRA_EFFECTS["wild_to_low_end"] = _wild_to_low_end_effect


@builtin("join")
def _join(comp, n, args):
    """``join(a, b)``: the cards of ``a`` then those of ``b`` (a meld with cards laid off on it)."""
    _argc(comp, n, args, 2)
    a, b = _cards_arg(comp, args[0], "join"), _cards_arg(comp, args[1], "join")
    return Code(f"(tuple({a.src}) + tuple({b.src}))", list_of(CARD))


@builtin("fits_in_place")
def _fits_in_place(comp, n, args):
    """``fits_in_place(meld, cards, wild)``: laying ``cards`` off on ``meld`` keeps every card of the meld in
    its place but a wild that a natural card of ``cards`` displaces (``fixed_layout``)."""
    _argc(comp, n, args, 3)
    m, c, w = (_cards_arg(comp, a, "fits_in_place") for a in args)
    if comp.env.ns is not None:
        comp.env.ns.update(_m_fixed_layout=fixed_layout)
    return Code(f"(_m_fixed_layout(tuple({m.src}), tuple({c.src}), {w.src}, RANK, SUIT, SORT_KEY) is not None)", BOOL)


@builtin("wild_moves_low")
def _wild_moves_low(comp, n, args):
    """``wild_moves_low(meld, wild)``: the card on ``meld``'s high end is a wild that could stand on its
    low end instead (``wild_to_low_end``)."""
    _argc(comp, n, args, 2)
    m, w = (_cards_arg(comp, a, "wild_moves_low") for a in args)
    if comp.env.ns is not None:
        comp.env.ns.update(_m_wild_to_low_end=wild_to_low_end)
    return Code(f"(_m_wild_to_low_end(tuple({m.src}), {w.src}, RANK, SUIT) is not None)", BOOL)


@builtin("wild_goes_high")
def _wild_goes_high(comp, n, args):
    """``wild_goes_high(meld, cards, wild)``: laying ``cards`` off on ``meld`` with its wilds in place puts a
    wild (displaced, or one of ``cards``) on the high end while the low end is free too (``fixed_layout``'s
    choice: the player may then move it there)."""
    _argc(comp, n, args, 3)
    m, c, w = (_cards_arg(comp, a, "wild_goes_high") for a in args)
    if comp.env.ns is not None:
        comp.env.ns.update(_m_fixed_layout=fixed_layout)
    return Code(f"(_m_fixed_layout(tuple({m.src}), tuple({c.src}), {w.src}, RANK, SUIT, SORT_KEY) or (0, False))[1]",
                BOOL)
