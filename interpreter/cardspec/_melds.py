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

Sequences (``run_wilds``): cards of one suit on consecutive places; the ace
is low (place 1, before the 2) or high (place 14, after the king), never
both and never around the corner (K-A-2 is not a sequence); at most 13
places. A card of ``wild`` of the sequence's suit whose rank is 2 may stand
naturally on place 2 (A-2-3, 2-3-4-5); every other card of ``wild`` stands in
for the natural card of the place it fills, so a wild always has a definite
place. At least one card must not be in ``wild``. Laying off a natural card
on the place a wild fills moves the wild to an end (9-10-★-Q + J → 9-10-J-Q-★):
validity depends only on the cards, so ``run_wilds(meld + cards, wild)`` is
the lay-off's check and the ``lay_off`` effect lays the meld out again.
Source of these rules: the partnership rummy digest in shared/rules/ ("Melds", "Moving a wild").

``melds_in`` and ``extensions`` never list every subset of the hand: they
walk each rank's cards (sets) and each suit's windows of consecutive places
(sequences), so the work grows with the hand's structure, not 2^len(hand).
They list candidates; the ruleset's ``legal:`` still decides.

Effects::

    - meld: {from: "hand[seat]", to: "table[team]", cards: cards, wild: wild_cards}
    - lay_off: {from: "hand[seat]", to: "table[team]", index: "meld - 1", cards: cards, wild: wild_cards}
"""
from __future__ import annotations

import itertools
from collections import Counter

from . import dsl
from ._effects import EXTRA_EFFECTS
from .dsl import CARD, INT, SUIT, Code, list_of

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


def _sets(nat, wild_by, maxw, RANK, only_rank=None):
    out = []
    groups = {}
    for c in nat:
        if RANK[c] >= 2 and (only_rank is None or RANK[c] == only_rank):
            groups.setdefault(RANK[c], Counter())[c] += 1
    for r, cnt in groups.items():
        for ns in _sub_multisets(cnt, 1, 99):
            for w in range(0, maxw + 1):
                for ws in wild_by.get(w, ()):
                    if len(ns) + w >= 3:
                        out.append(ns + ws)
    return out


def _runs(nat, wl, wild_by, maxw, RANK, SUIT, suits):
    """Every sequence multiset (3+ places) from naturals ``nat`` and stand-ins ``wl``."""
    out = []
    W = min(maxw, len(wl))
    for s in suits:
        at = {}
        for c in nat:
            if SUIT[c] == s:
                r = RANK[c]
                at.setdefault(r, c)
                if r == ACE:
                    at.setdefault(1, c)
        two = next((w for w in wl if SUIT[w] == s and RANK[w] == 2), None)
        if not at:
            continue
        for lo in range(1, 13):
            for hi in range(lo + 2, min(lo + MAX_PLACES - 1, 14) + 1):
                places = range(lo, hi + 1)
                have = [p for p in places if p in at]
                if not have:
                    continue
                L = hi - lo + 1
                if 1 in places and ACE in places:
                    continue
                if L - len(have) > W + (1 if two is not None and 2 in places and 2 not in at else 0):
                    continue
                # Choose which available naturals to use (the rest of the places take stand-ins).
                two_opts = (False, True) if (two is not None and 2 in places and 2 not in at) else (False,)
                for use_two in two_opts:
                    pool_w = Counter(wl)
                    if use_two:
                        pool_w[two] -= 1
                    wb = wild_by if not use_two else _wild_choices(+pool_w, W)
                    for k in range(len(have), 0, -1):
                        need = L - k - use_two
                        if need > W:
                            break
                        ws_list = wb.get(need, ())
                        if not ws_list:
                            continue
                        for keep in itertools.combinations(have, k):
                            if 1 in keep and ACE in keep:
                                continue
                            base = tuple(at[p] for p in keep) + ((two,) if use_two else ())
                            for ws in ws_list:
                                out.append(base + ws)
    return out


def melds_in(hand, wild, maxw, RANK, SUIT, SORT_KEY):
    """Every set and sequence of 3+ cards from ``hand`` with at most ``maxw`` stand-ins (module doc)."""
    nat, wl = _split(hand, wild)
    maxw = max(0, min(maxw, len(wl)))
    wild_by = _wild_choices(Counter(wl), maxw)
    found = _sets(nat, wild_by, maxw, RANK) + _runs(nat, wl, wild_by, maxw, RANK, SUIT, range(4))
    key = SORT_KEY.__getitem__
    return sorted({tuple(sorted(m, key=key)) for m in found}, key=lambda m: [key(c) for c in m])


def extensions(meld, hand, wild, maxw, RANK, SUIT, SORT_KEY):
    """Card sets of ``hand`` (1+ cards) that make ``meld`` a set or sequence again (module doc)."""
    mnat, mwl = _split(meld, wild)
    hnat, hwl = _split(hand, wild)
    maxw = max(0, maxw)
    out = set()
    key = SORT_KEY.__getitem__
    need = Counter(meld)
    ranks = {RANK[c] for c in mnat}
    suits = {SUIT[c] for c in mnat}
    wl = mwl + hwl
    k = min(maxw + len(mwl), len(wl))
    wild_by = _wild_choices(Counter(wl), k)
    found = []
    if len(ranks) == 1:
        found += _sets(mnat + hnat, wild_by, k, RANK, only_rank=next(iter(ranks)))
    if len(suits) == 1:
        found += _runs(mnat + [c for c in hnat if SUIT[c] in suits], wl, wild_by, k, RANK, SUIT, suits)
    for m in found:
        cm = Counter(m)
        if cm & need != need:
            continue
        add = cm - need
        if add:
            out.add(tuple(sorted(add.elements(), key=key)))
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


def fx_lay_off(s, src, dst, index, cards, wild):
    """Move ``cards`` from ``src`` onto meld ``index`` of ``dst`` and lay it out again."""
    ns = s.game.ns
    got = _take(src, cards)
    dst[index] = layout(tuple(dst[index]) + tuple(got), wild, ns["RANK"], ns["SUIT"], ns["SORT_KEY"])


# ---- the expression functions -------------------------------------------------------------------
def _install(comp):
    ns = comp.env.ns
    if ns is not None and "_m_run_wilds" not in ns:
        ns.update(_m_run_wilds=run_wilds, _m_melds_in=melds_in, _m_extensions=extensions)


def _cards_arg(comp, node, what):
    code = comp.c(node)
    if code.type not in (list_of(CARD), dsl.ANY, list_of(dsl.ANY)):
        comp.err(node, f"{what} needs a list of cards, found {code.type}")
    return code


@dsl.builtin("ranks")
def _ranks(comp, n, args):
    dsl._argc(comp, n, args, 1)
    a = _cards_arg(comp, args[0], "ranks")
    return Code(f"[RANK[_c] for _c in {a.src}]", list_of(INT))


@dsl.builtin("suits")
def _suits(comp, n, args):
    dsl._argc(comp, n, args, 1)
    a = _cards_arg(comp, args[0], "suits")
    return Code(f"[SUIT[_c] for _c in {a.src}]", list_of(SUIT))


@dsl.builtin("run_wilds")
def _run_wilds(comp, n, args):
    dsl._argc(comp, n, args, 2)
    a, w = _cards_arg(comp, args[0], "run_wilds"), _cards_arg(comp, args[1], "run_wilds")
    _install(comp)
    return Code(f"_m_run_wilds({a.src}, {w.src}, RANK, SUIT)", INT)


@dsl.builtin("melds_in")
def _melds_in(comp, n, args):
    dsl._argc(comp, n, args, 3)
    a, w = _cards_arg(comp, args[0], "melds_in"), _cards_arg(comp, args[1], "melds_in")
    k = comp.want(args[2], comp.c(args[2]), INT)
    _install(comp)
    return Code(f"_m_melds_in({a.src}, {w.src}, {k.src}, RANK, SUIT, SORT_KEY)", list_of(list_of(CARD)))


@dsl.builtin("extensions")
def _extensions(comp, n, args):
    dsl._argc(comp, n, args, 4)
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
            comp.problem(path, f"{kind} takes {{{', '.join(keys)}}}")
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
        return [f"_m_fx_lay_off(s, {src.src}, {dst.src}, {idx.src}, {cards.src}, {wild.src})"]
    return lines


EXTRA_EFFECTS["meld"] = _effect("meld")
EXTRA_EFFECTS["lay_off"] = _effect("lay_off")


@dsl.builtin("join")
def _join(comp, n, args):
    """``join(a, b)``: the cards of ``a`` then those of ``b`` (a meld with cards laid off on it)."""
    dsl._argc(comp, n, args, 2)
    a, b = _cards_arg(comp, args[0], "join"), _cards_arg(comp, args[1], "join")
    return Code(f"(tuple({a.src}) + tuple({b.src}))", list_of(CARD))
