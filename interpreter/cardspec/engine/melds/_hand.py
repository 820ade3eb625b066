"""A hand split once for the searches of ``_search``: its naturals and wild cards counted, and the quick tests
(``_Hand.possible``, ``units``, ``joins``) that say which card sets cannot hold the cards chosen so far.

Hands and wild-card faces are kept between searches (``_hand_of``, ``_faces``): one decision asks the melds
and each lay-off of one hand.
"""
from __future__ import annotations

from ._layout import ACE, MAX_PLACES


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


#: The hands split last (``_hand_of``): one decision asks the melds and each lay-off of one hand.
_HANDS = {}


def _hand_of(hand, wild, RANK, SUIT):
    """The ``_Hand`` of ``hand`` (a tuple) with these wild cards and tables, kept by the hand (at most 8
    hands; the wild cards are compared, the tables by identity)."""
    try:
        h = _HANDS.get(hand)
    except TypeError:   # a card that is a list
        return _Hand(hand, wild, RANK, SUIT)
    if h is not None and h.RANK is RANK and h.SUIT is SUIT and (h.wild_arg is wild or h.wild_arg == wild):
        return h
    h = _Hand(hand, wild, RANK, SUIT)
    if len(_HANDS) >= 8:
        _HANDS.clear()
    _HANDS[hand] = h
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

    __slots__ = ("nat", "wl", "wild", "n_wl", "places", "twos", "by_rank", "by_suit", "RANK", "SUIT", "wild_arg")

    def __init__(self, hand, wild, RANK, SUIT):
        # as given when it cannot change (_hand_of compares it: a list, copied, never equals one again)
        self.wild_arg = wild if isinstance(wild, (tuple, frozenset)) else tuple(wild)
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
        left = _minus(self.nat, xn) if xn else self.nat   # (only read below)
        wl = _minus(self.wl, xw) if xw else self.wl
        if left is None or wl is None:
            return ()
        w_left = self.n_wl - len(xw)
        have = len(cn) + len(cw)
        room = maxw - len(cw)
        out = []
        if cn:
            r0, s0 = RANK[cn[0]], SUIT[cn[0]]
            same_rank, one_suit = r0 >= rank_floor, s0 >= 0   # every natural of rank r0 / of suit s0
            ranks = set()
            for c in cn:
                r = RANK[c]
                ranks.add(r)
                if r != r0:
                    same_rank = False
                if SUIT[c] != s0:
                    one_suit = False
            cnt = self.by_rank.get(r0, 0) - len(xn) if same_rank else 0
            set_nat = same_rank and room >= 0 and have + cnt + min(w_left, room) >= 3
            set_wild = same_rank and room >= 1 and have + 1 + cnt + min(w_left - 1, room - 1) >= 3
            run = one_suit and len(ranks) == len(cn) and min(ranks) >= 1
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
