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
    extensions(meld, hand, wild, k)  list[list[card]]  card sets of ``hand`` that make ``meld``
                                              a larger set or sequence with at most ``k`` stand-ins
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
neighbourhood.

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
from .effects import EXTRA_EFFECTS
from ..lang import ANY, BOOL, CARD, INT, SUIT, Code, list_of

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
    wilds keep their places, ``fixed_layout``; the ruleset's ``legal:`` has checked that one exists)."""
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
        ns.update(_m_run_wilds=run_wilds, _m_melds_in=melds_in, _m_extensions=extensions)


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
    if None in (dst, idx, wild):
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
