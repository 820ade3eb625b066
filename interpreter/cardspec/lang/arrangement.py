"""Arranging a hand into melds (docs/dsl.md, "Arranging a hand into melds"): the least deadwood of a hand
over every way to split it into disjoint melds (``deadwood``), one such arrangement (``melds_of``), and the
least deadwood when cards may also be laid off on melds already on the table (``deadwood(cards, melds)``).

A meld is the rummy family's: a **set**, 3 or more cards of one rank, or a **run**, 3 or more cards of one
suit whose places in the deck's ``ranks:`` list follow each other (the order as written: ``ranks: [A, 2,
…, K]`` makes the ace low only, ``[2, …, K, A]`` high only; never around the corner). A card is in at most
one meld. Deadwood is what is left; its count is the sum of ``card.points`` (the deck's ``points:``).
Cards outside the ranks (jokers, special cards) are never in a meld: this arrangement knows no wild cards
(wild melds are ``melds_in``'s, engine/melds). A card laid off extends a table meld: a run at either end,
card after card (a card laid off may itself be extended), or a set by a card of its rank; laid-off cards
count 0 and none is both in the hand's own meld and laid off.

Where the rules come from: knocking games count a hand's least deadwood to decide whether a player may
knock, and the defender's after his lay-offs on the knocker's melds; others count it when the stock runs
out, or test whether a hand can be laid out entirely (``deadwood(hand) == 0``) — docs/dsl.md, "Arranging a
hand into melds", names the games.

Cost: the search keeps, for every subset of the hand's cards still to place, its least deadwood: at most
``2**N`` subsets, trying the melds (and lay-off groups) through one card each, charged as ``N**2`` (N the
most cards the list can hold). The load-time bound charges that (docs/dsl.md, "Bounds"), so a list bounded
by a zone's ``max:`` (a hand of 10–11 cards) is cheap, and an unbounded one is refused at load with the
cost named.
"""
from __future__ import annotations

import itertools

from .builtins import _argc, builtin
from .types import ANY, CARD, INT, Code, list_of

#: The fewest cards of a set and of a run.
SHORTEST = 3


def _melds(cards, STRENGTH, SUIT):
    """Every meld of ``cards`` (a list of card ids) as a bitmask over their positions, and per position the
    masks of the melds through it. Sets: every subset of 3+ cards of one rank (place); runs: every stretch
    of 3+ consecutive places of one suit, one card per place (repeated cards of a two-pack deck give each
    choice)."""
    by_place, by_suit = {}, {}
    for i, c in enumerate(cards):
        p = STRENGTH[c]
        if p <= 0:
            continue
        by_place.setdefault(p, []).append(i)
        by_suit.setdefault(SUIT[c], {}).setdefault(p, []).append(i)
    out = set()
    for group in by_place.values():
        for k in range(SHORTEST, len(group) + 1):
            for sub in itertools.combinations(group, k):
                out.add(sum(1 << i for i in sub))
    for places in by_suit.values():
        for lo in sorted(places):
            hi = lo
            while hi + 1 in places:
                hi += 1
                if hi - lo + 1 >= SHORTEST:
                    for pick in itertools.product(*(places[p] for p in range(lo, hi + 1))):
                        out.add(sum(1 << i for i in pick))
    melds = sorted(out)
    through = [[m for m in melds if m >> i & 1] for i in range(len(cards))]
    return through


def _search(cards, STRENGTH, SUIT, POINTS):
    """``(least deadwood, melds of one arrangement reaching it)``, each meld a tuple of card ids. Among equal
    arrangements the one found first: a card is tried as deadwood last, its melds in increasing bitmask."""
    n = len(cards)
    through = _melds(cards, STRENGTH, SUIT)
    value = [POINTS[c] for c in cards]
    memo = {0: (0, None)}

    def best(mask):
        got = memo.get(mask)
        if got is not None:
            return got[0]
        i = (mask & -mask).bit_length() - 1
        low, how = None, None
        for m in through[i]:
            if m & mask == m:
                v = best(mask & ~m)
                if low is None or v < low:
                    low, how = v, m
        v = value[i] + best(mask & ~(1 << i))
        if low is None or v < low:
            low, how = v, 0
        memo[mask] = (low, how)
        return low

    full = (1 << n) - 1
    least = best(full)
    melds, mask = [], full
    while mask:
        how = memo[mask][1]
        if how:
            melds.append(tuple(cards[j] for j in range(n) if how >> j & 1))
            mask &= ~how
        else:
            mask &= mask - 1
    return least, melds


class _Deck:
    """A deck's melds as bitmasks over its card ids, and the least deadwood of every set of cards asked so
    far (a hand changes by a card a turn, so most questions of a game were asked before; kept up to
    ``_MEMO`` entries, then started again). A question is answered from the melds inside the set: none
    (the common case) leaves every card deadwood; else the heaviest choice of disjoint ones is searched."""

    __slots__ = ("tables", "starting", "value", "weight", "memo")

    def __init__(self, STRENGTH, SUIT, POINTS):
        self.tables = (STRENGTH, SUIT, POINTS)
        ids = list(range(len(STRENGTH)))
        through = _melds(ids, STRENGTH, SUIT)
        self.value = [POINTS[c] for c in ids]
        # the melds whose lowest card is each card: each meld is met once when a set's cards are walked
        self.starting = [tuple(m for m in through[i] if (m & -m).bit_length() - 1 == i) for i in ids]
        self.weight = {m: sum(self.value[j] for j in ids if m >> j & 1) for ms in through for m in ms}
        self.memo = {}

    def best(self, mask: int) -> int:
        got = self.memo.get(mask)
        if got is not None:
            return got
        value, starting = self.value, self.starting
        total = 0
        inside = []
        rest = mask
        while rest:
            low = rest & -rest
            i = low.bit_length() - 1
            rest ^= low
            total += value[i]
            for m in starting[i]:
                if m & mask == m:
                    inside.append(m)
        least = total - self._heaviest(inside, 0, 0) if inside else total
        if len(self.memo) > _MEMO:
            self.memo.clear()
        self.memo[mask] = least
        return least

    def _heaviest(self, melds, k, used) -> int:
        """The most points covered by disjoint melds of ``melds[k:]`` avoiding the cards ``used``."""
        best = 0
        weight = self.weight
        for j in range(k, len(melds)):
            m = melds[j]
            if not m & used:
                v = weight[m] + self._heaviest(melds, j + 1, used | m)
                if v > best:
                    best = v
        return best


#: Least-deadwood results kept per deck (``_Deck.memo``).
_MEMO = 200_000

#: The ``_Deck`` of each game's tables (by identity: a game's tables never change).
_DECKS: dict = {}


#: 1 << k for the card ids of any deck (a pack of several decks' faces stays under this).
_POW2 = tuple(1 << k for k in range(4096))

#: The last ``_Deck`` asked for (one game's questions come in a row).
_LAST: list = [None]


def _deck(STRENGTH, SUIT, POINTS) -> _Deck:
    d = _LAST[0]
    if d is not None and d.tables[0] is STRENGTH and d.tables[1] is SUIT and d.tables[2] is POINTS:
        return d
    key = (id(STRENGTH), id(SUIT), id(POINTS))
    d = _DECKS.get(key)
    if d is None or d.tables[0] is not STRENGTH or d.tables[1] is not SUIT or d.tables[2] is not POINTS:
        if len(_DECKS) > 64:
            _DECKS.clear()
        d = _DECKS[key] = _Deck(STRENGTH, SUIT, POINTS)
    _LAST[0] = d
    return d


def deadwood(cards, STRENGTH, SUIT, POINTS) -> int:
    """The least deadwood count of ``cards`` over every arrangement into disjoint melds (the module's doc).
    Cards of one pack (no card twice) are looked up in the deck's table of results; repeated cards (two
    packs) are searched by position.

    >>> S = tuple(c % 13 + 1 for c in range(52)); U = tuple(c // 13 for c in range(52))   # A..K: 1..13
    >>> P = tuple(min(c % 13 + 1, 10) for c in range(52))
    >>> deadwood([0, 1, 2, 12], S, U, P)   # A 2 3 of one suit and a king: 10
    10
    """
    cards = list(cards)
    mask = sum(map(_POW2.__getitem__, cards))
    if mask.bit_count() != len(cards):   # a card twice
        return _search(cards, STRENGTH, SUIT, POINTS)[0]
    d = _deck(STRENGTH, SUIT, POINTS)
    got = d.memo.get(mask)
    return d.best(mask) if got is None else got


def melds_of(cards, STRENGTH, SUIT, POINTS) -> list:
    """The melds of one least-deadwood arrangement of ``cards`` (a list of tuples of card ids)."""
    return _search(list(cards), STRENGTH, SUIT, POINTS)[1]


def _lay_off_groups(cards, onto, STRENGTH, SUIT, RANK) -> list:
    """The groups of ``cards`` (bitmasks over their positions) that can be laid off together on one of the
    table melds ``onto``: on a run, the cards of one end's next places, card after card (7♠, or 7♠ 8♠ on
    4♠ 5♠ 6♠); on a set, cards of its rank. A group's legality depends on its own cards only, so the
    lay-offs join the melds as one more kind of group in the search."""
    at = {}
    for i, c in enumerate(cards):
        if STRENGTH[c] > 0:
            at.setdefault((SUIT[c], STRENGTH[c]), []).append(i)
    groups = set()
    for m in onto:
        m = list(m)
        if len(m) < SHORTEST:
            continue
        if len({RANK[c] for c in m}) == 1:
            same = [i for i, c in enumerate(cards) if RANK[c] == RANK[m[0]] and STRENGTH[c] > 0]
            for k in range(1, len(same) + 1):
                for sub in itertools.combinations(same, k):
                    groups.add(sum(1 << i for i in sub))
            continue
        suits = {SUIT[c] for c in m}
        if len(suits) != 1:
            continue
        suit = suits.pop()
        places = [STRENGTH[c] for c in m]
        for start, step in ((max(places) + 1, 1), (min(places) - 1, -1)):
            chain = []
            p = start
            while (suit, p) in at:
                chain.append(at[(suit, p)])
                for pick in itertools.product(*chain):
                    groups.add(sum(1 << i for i in pick))
                p += step
    return sorted(groups)


def deadwood_after_lay_offs(cards, onto, STRENGTH, SUIT, RANK, POINTS) -> int:
    """The least deadwood count of ``cards`` when, besides its own melds, cards may be laid off on the
    melds ``onto`` (a list of card lists, e.g. a zone of melds); a card is in one of its own melds or laid
    off, not both."""
    cards = list(cards)
    n = len(cards)
    groups = [[m for m in ms] for ms in _melds(cards, STRENGTH, SUIT)]
    for g in _lay_off_groups(cards, onto, STRENGTH, SUIT, RANK):
        for i in range(n):
            if g >> i & 1:
                groups[i].append(g)
    value = [POINTS[c] for c in cards]
    memo = {0: 0}

    def best(mask):
        got = memo.get(mask)
        if got is not None:
            return got
        i = (mask & -mask).bit_length() - 1
        low = value[i] + best(mask & ~(1 << i))
        for g in groups[i]:
            if g & mask == g:
                v = best(mask & ~g)
                if v < low:
                    low = v
        memo[mask] = low
        return low

    return best((1 << n) - 1)


_HELPERS = {"_ar_deadwood": deadwood, "_ar_melds_of": melds_of, "_ar_lay_offs": deadwood_after_lay_offs}


def _install(comp):
    ns = comp.env.ns
    if ns is not None and "_ar_deadwood" not in ns:
        ns.update(_HELPERS)


def _cards(comp, node, fname):
    code = comp.c(node)
    if code.type not in (list_of(CARD), ANY, list_of(ANY)):
        comp.err(node, f"{fname} needs a list of cards, found {code.type}", f"e.g. {fname}(hand[seat])")
    return code, comp.bound_of(code)


def _most_points(comp) -> int:
    ns = comp.env.ns or {}
    pts = ns.get("POINTS") or (0,)
    return max([abs(int(p)) for p in pts] + [1])


def _work(n: float) -> float:
    """The load-time cost of one evaluation over a list of at most ``n`` cards (the module's doc)."""
    n = min(n, 200.0)
    return (2.0 ** n) * n * n


@builtin("deadwood")
def _deadwood(comp, n, args):
    """``deadwood(CARDS)``: the least deadwood count of CARDS over its arrangements into melds;
    ``deadwood(CARDS, MELDS)``: the same when cards may also be laid off on MELDS (a list of card lists,
    e.g. a zone of melds)."""
    _argc(comp, n, args, 1, 2)
    code, k = _cards(comp, args[0], "deadwood")
    _install(comp)
    mag = (0, 0, int(min(k, 10 ** 6) * _most_points(comp)))
    if len(args) == 1:
        comp.charge(_work(k))
        return Code(f"_ar_deadwood({code.src}, STRENGTH, SUIT, POINTS)", INT, mag=mag)
    onto = comp.c(args[1])
    if onto.type not in (list_of(list_of(CARD)), ANY, list_of(ANY)):
        comp.err(args[1], f"deadwood's second argument is a list of melds (card lists), found {onto.type}",
                 "e.g. deadwood(hand[seat], laid[knocker]) with laid a zone of melds")
    comp.charge(_work(k) + k * comp.bound_of(onto))
    return Code(f"_ar_lay_offs({code.src}, {onto.src}, STRENGTH, SUIT, RANK, POINTS)", INT, mag=mag)


@builtin("melds_of")
def _melds_of(comp, n, args):
    """``melds_of(CARDS)``: the melds (card lists) of one least-deadwood arrangement of CARDS."""
    _argc(comp, n, args, 1)
    code, k = _cards(comp, args[0], "melds_of")
    comp.charge(_work(k))
    _install(comp)
    return Code(f"_ar_melds_of({code.src}, STRENGTH, SUIT, POINTS)", list_of(list_of(CARD)),
                size=max(1.0, k / SHORTEST))



