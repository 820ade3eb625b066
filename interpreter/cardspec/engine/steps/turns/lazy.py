"""Lazy legal-action listings of a turns step (docs/turns.md): ``LazyTexts``, ``LazyMoves`` and what makes them.

A play of one to four ordered cards and a declaration has up to ~900,000 legal actions; making every text
to apply one of them costs ~0.1 s a decision. When each parameter's values do not depend on the earlier
parameters and ``legal:`` names no parameter (it is true, or hoisted: checked once), an action's legal
moves are the product of its parameters' values, in the lister's loop order (the last parameter fastest),
and its ``i``-th move is computed from ``i`` without listing the others: the values of a ``cards:``
parameter without ``candidates:`` are an ``Arrangements`` (the distinct sets, or sequences, of a sorted
pool, indexed by counting), every other parameter's values are the list its loop would walk.

``Listing`` joins the actions of a phase (and ``done``/``skip``) into one indexable listing; ``LazyTexts``
and ``LazyMoves`` are its read-only ``collections.abc.Sequence`` faces: the texts and the internal moves,
in exactly the order (and with exactly the errors) of ``Turns.legal``. Compiled per action at load
(``lazy_domains``, called by actions.py) and used by core.py for phases whose listing can be large.
"""
from __future__ import annotations

import itertools
import math
from bisect import bisect_right
from itertools import accumulate
import re
from collections.abc import Sequence

from ....lang import INT
from ..base import MAX_LISTED, _listing_too_large
from .moves import ACTOR, DONE, PH, SKIP

_LOOP = re.compile(r"for (p_\w+) in (.+):")

#: The most counts ``_count`` keeps (keyed by a histogram of multiplicities, a size and the kind): past it
#: the table is emptied and filled again.
_COUNT_MEMO = 4096
_counts: dict = {}


def lazy_domains(comp, loops, params, lsrc, what):
    """The functions ``(s, seat) -> values`` of an action's parameters, one per loop head of ``loops``
    (``for p_NAME in EXPR:``), when its listing is their product: ``lsrc`` (the condition checked per
    move) is ``True`` and no loop reads an earlier parameter. A ``cards:`` parameter's ``_t_perms`` /
    ``_t_combos`` becomes an ``Arrangements``. Returns ``(functions, what)`` (``what``: the words of the
    ``MAX_LISTED`` fault of several parameters) or None when the listing is not such a product."""
    if lsrc != "True" or len(loops) != len(params) or not any(
            h.split(" in ", 1)[-1].startswith(("_t_perms(", "_t_combos(")) for h, _ in loops):
        return None   # (without card sets, a listing is as long as its values' product: listed)
    fns = []
    earlier = []
    for head, _ in loops:
        m = _LOOP.fullmatch(head)
        if m is None:
            return None
        var, expr = m.groups()
        if any(re.search(r"\b" + e + r"\b", expr) for e in earlier + [var]):
            return None
        earlier.append(var)
        if expr.startswith("_t_perms("):
            expr = "_t_lperms(" + expr[len("_t_perms("):]
        elif expr.startswith("_t_combos("):
            expr = "_t_lcombos(" + expr[len("_t_combos("):]
        comp.ns.update(_t_lperms=_lperms, _t_lcombos=_lcombos)
        fns.append(comp.function(expr, (("seat", INT),)))
    return tuple(fns), what


def _lperms(pool, kmin, kmax, key):
    return Arrangements(pool, kmin, kmax, key, True)


def _lcombos(pool, kmin, kmax, key):
    return Arrangements(pool, kmin, kmax, key, False)


def _count(hist, r, ordered):
    """The distinct sequences (``ordered``) or multisets of ``r`` cards from faces whose multiplicities
    are counted by ``hist`` (``hist[c - 1]``: faces held ``c`` times)."""
    return _counts_of(hist, r, ordered)[r]


def _counts_of(hist, r, ordered):
    """``[n_0, …, n_r]`` (or longer): ``_count`` of every size up to ``r``. Kept per histogram
    (``_COUNT_MEMO``); a histogram is made from the one with a face of its most copies less."""
    v = _counts.get((hist, ordered))
    if v is not None and len(v) > r:
        return v
    r = max(r, 4)   # (the longer sizes asked next cost little more)
    top = len(hist)
    if top <= 1:   # every face once: k-permutations or k-combinations
        nf = hist[0] if hist else 0
        v = [(math.perm if ordered else math.comb)(nf, t) for t in range(r + 1)]
    else:   # one face of the most copies more: it takes j of the t cards (and j of the t places)
        less = list(hist)
        less[-1] -= 1
        while less and not less[-1]:
            less.pop()
        w = _counts_of(tuple(less), r, ordered)
        v = w[:r + 1]   # it takes none of them
        for j in range(1, min(top, r) + 1):
            for t in range(j, r + 1):
                v[t] += w[t - j] * math.comb(t, j) if ordered else w[t - j]
    if len(_counts) >= _COUNT_MEMO:
        _counts.clear()
    _counts[(hist, ordered)] = v
    return v


def _after(hist, c, r):
    """``_count`` of ``r`` cards in order once a face held ``c`` times is taken from ``hist``. Kept
    (with ``_count``'s, a key of three values)."""
    key = (hist, c, r)
    x = _counts.get(key)
    if x is None:
        x = _count(_less(hist, c), r, True)
        if len(_counts) >= _COUNT_MEMO:
            _counts.clear()
        _counts[key] = x
    return x


def _per_class(hist, r):
    """``[0, x_1, x_2, …]``: ``x_c`` the sequences of ``r`` more cards once a face held ``c`` times is taken
    from ``hist`` (0 for a class ``hist`` has no face of, and for a face held no more)."""
    return [0] + [_after(hist, c, r) if n else 0 for c, n in enumerate(hist, 1)]


def _less(hist, c):
    """``hist`` with one face of multiplicity ``c`` held once less."""
    h = list(hist)
    h[c - 1] -= 1
    if c > 1:
        h[c - 2] += 1
    while h and not h[-1]:
        h.pop()
    return tuple(h)


class NotIndexable(Exception):
    """A pool whose copies of a face are not side by side once sorted (two faces of one display position):
    ``phase_listing`` lists the phase as ``Turns.legal`` does."""


class Arrangements(Sequence):
    """The distinct card tuples of sizes ``kmin..kmax`` of ``pool`` — sequences when ``ordered`` (the
    permutations), else sets in display order (the combinations) — in the order and with the
    ``MAX_LISTED`` fault of cards.py's ``_distinct`` (by size, then in the pool's sorted order: a tuple
    of faces sorted by ``key``, identical faces once), indexed without listing them. ``a[i]`` (an
    ``IndexError`` out of range), ``rank(t)`` (the index of tuple ``t``, None when it is not one of them)."""

    __slots__ = ("pool", "kmin", "kmax", "key", "ordered", "faces", "mult", "hist", "ks", "starts", "n", "where",
                 "_suf")

    def __init__(self, pool, kmin, kmax, key, ordered):
        pool = sorted(pool, key=key)
        size = len(pool)
        count_of = math.perm if ordered else math.comb
        ks = range(max(kmin, 0), min(kmax, size) + 1)
        counts = [count_of(size, k) for k in ks]   # (with repeats: the tuples _distinct would make)
        if sum(counts) > MAX_LISTED:
            _listing_too_large(f"a cards parameter ({kmin} to {kmax} of {size} cards)")
        self.pool, self.kmin, self.kmax, self.key, self.ordered = pool, kmin, kmax, key, ordered
        self.ks, self.where, self._suf = list(ks), None, None
        if len(set(pool)) == size:   # no face twice: the sorted pool's permutations or combinations
            self.faces, self.mult, self.hist = pool, None, None
        else:
            faces = sorted(set(pool), key=key)
            if len(set(map(key, faces))) != len(faces):   # two faces of one sort key: copies apart
                raise NotIndexable("two faces of one display position")
            self.faces, self.mult = faces, list(map(pool.count, faces))
            self.hist = tuple(map(self.mult.count, range(1, max(self.mult) + 1)))
            v = _counts_of(self.hist, ks[-1] if ks else 0, ordered)
            counts = [v[k] for k in ks]
        self.starts = [0, *accumulate(counts)]
        self.n = self.starts.pop()

    def __len__(self):
        return self.n

    def __iter__(self):
        make = itertools.permutations if self.ordered else itertools.combinations
        pool = self.pool
        if self.mult is None:
            for k in self.ks:
                yield from make(pool, k)
            return
        seen = set()
        for k in self.ks:
            for t in make(pool, k):
                if t not in seen:
                    seen.add(t)
                    yield t

    def _block(self, i):
        j = len(self.starts) - 1
        while self.starts[j] > i:
            j -= 1
        return j

    def __getitem__(self, i):
        if i.__class__ is slice:
            return [self[j] for j in range(*i.indices(self.n))]
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError("arrangement index out of range")
        j = self._block(i)
        return (self._seq if self.ordered else self._set)(i - self.starts[j], self.ks[j])

    def _seq(self, i, k):
        if self.mult is None:   # no face twice: the i-th k-permutation, by arithmetic
            rest = list(self.faces)
            out = []
            for pos in range(k):
                x = math.perm(len(rest) - 1, k - pos - 1)
                j, i = divmod(i, x)
                out.append(rest.pop(j))
            return tuple(out)
        faces, mult, hist = self.faces, list(self.mult), self.hist
        out = []
        for pos in range(k):   # the first face whose sequences (those of the faces before it too) pass i
            cum = list(accumulate(map(_per_class(hist, k - pos - 1).__getitem__, mult)))
            fi = bisect_right(cum, i)
            if fi:
                i -= cum[fi - 1]
            c = mult[fi]
            out.append(faces[fi])
            mult[fi] = c - 1
            hist = _less(hist, c)
        return tuple(out)

    def _mults(self):
        """Copies of each face in the pool (ones when no face is there twice)."""
        return self.mult if self.mult is not None else [1] * len(self.faces)

    def _suffix(self):
        """``suf[fi][t]``: the multisets of ``t`` cards from faces ``fi…`` (their full multiplicities)."""
        if self._suf is None:
            top = max(self.ks, default=0)
            suf = [[1] + [0] * top]
            for c in reversed(self._mults()):
                nxt = suf[-1]
                suf.append([sum(nxt[t - j] for j in range(min(c, t) + 1)) for t in range(top + 1)])
            suf.reverse()
            self._suf = suf
        return self._suf

    def _with(self, fi, left, r):
        """Multisets of ``r`` cards from ``left`` more copies of face ``fi`` and every face after it."""
        nxt = self._suffix()[fi + 1]
        return sum(nxt[r - j] for j in range(min(left, r) + 1))

    def _set(self, i, k):
        faces, mult = self.faces, self._mults()
        out = []
        fi, used = 0, 0   # the face to try first, copies of it taken
        for pos in range(k):
            r = k - pos - 1
            while True:
                left = mult[fi] - used
                if left > 0:
                    x = self._with(fi, left - 1, r)
                    if i < x:
                        out.append(faces[fi])
                        used += 1
                        break
                    i -= x
                fi, used = fi + 1, 0
        return tuple(out)

    def rank(self, t):
        """The index of card tuple ``t``, or None when it is not one of the arrangements."""
        k = len(t)
        if k not in self.ks:
            return None
        base = self.starts[self.ks.index(k)]
        if self.ordered and self.mult is None:   # no face twice (as _seq)
            rest = list(self.faces)
            i = 0
            for pos, card in enumerate(t):
                try:
                    j = rest.index(card)
                except ValueError:   # not in the pool, or played twice
                    return None
                i += j * math.perm(len(rest) - 1, k - pos - 1)
                del rest[j]
            return base + i
        where = self.where
        if where is None:
            where = self.where = {f: i for i, f in enumerate(self.faces)}
        if self.ordered:
            mult, hist = list(self.mult), self.hist
            i = 0
            for pos, card in enumerate(t):
                fi = where.get(card)
                if fi is None or not mult[fi]:
                    return None
                i += sum(map(_per_class(hist, k - pos - 1).__getitem__, mult[:fi]))
                hist = _less(hist, mult[fi])
                mult[fi] -= 1
            return base + i
        mult = self._mults()
        i, fi, used = 0, 0, 0
        for pos, card in enumerate(t):
            fj = where.get(card)
            if fj is None or fj < fi:
                return None
            r = k - pos - 1
            while fi < fj:   # every set taking face fi here comes first
                left = mult[fi] - used
                if left > 0:
                    i += self._with(fi, left - 1, r)
                fi, used = fi + 1, 0
            if mult[fi] - used <= 0:
                return None
            used += 1
        return base + i


class _Product:
    """The moves of one action: ``(ai, args)`` for every combination of its parameters' values ``doms``
    (last fastest, as the lister's nested loops)."""

    __slots__ = ("ai", "doms", "sizes", "n", "write", "_ranks")

    def __init__(self, ai, doms, write):
        self.ai, self.doms, self.write = ai, doms, write
        self.sizes = [len(d) for d in doms]
        self.n = math.prod(self.sizes)
        self._ranks = [None] * len(doms)

    def move(self, i):
        args = [None] * len(self.doms)
        for j in range(len(self.doms) - 1, -1, -1):
            i, r = divmod(i, self.sizes[j])
            args[j] = self.doms[j][r]
        return self.ai, tuple(args)

    def rank(self, move):
        """The index of ``move`` in this product, or None."""
        ai, args = move
        if ai != self.ai or len(args) != len(self.doms):
            return None
        i = 0
        for j, (d, v) in enumerate(zip(self.doms, args)):
            if d.__class__ is Arrangements:
                r = d.rank(v) if v.__class__ is tuple else None
            else:
                ranks = self._ranks[j]
                if ranks is None:
                    ranks = {}
                    for x, y in enumerate(d):
                        try:
                            ranks.setdefault(y, x)
                        except TypeError:   # an unhashable value: look it up in the list
                            ranks = None
                            break
                    self._ranks[j] = ranks
                try:
                    r = ranks.get(v) if ranks is not None else d.index(v)
                except (TypeError, ValueError):
                    r = None
            if r is None:
                return None
            i = i * self.sizes[j] + r
        return i

    def __iter__(self):
        ai = self.ai
        for args in itertools.product(*self.doms):
            yield ai, args


class Listing:
    """A phase's legal moves, in ``Turns.legal``'s order: segments, each a ``_Product`` or a list of moves
    (an action listed by its lister, ``done``, ``skip``). ``text(move)`` writes a move; ``parse(text)``
    reads one (the step's ``parse``)."""

    __slots__ = ("segs", "ends", "n", "text", "parse", "last")

    def __init__(self, segs, text, parse):
        self.segs = [g for g in segs if (g.n if g.__class__ is _Product else len(g))]
        self.ends, n = [], 0
        for g in self.segs:
            n += g.n if g.__class__ is _Product else len(g)
            self.ends.append(n)
        self.n, self.text, self.parse = n, text, parse
        self.last = (None, None, None)   # (index, move, text) last read or found by LazyTexts

    def move(self, i):
        if i == self.last[0]:
            return self.last[1]
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError("list index out of range")
        start = 0
        for g, end in zip(self.segs, self.ends):
            if i < end:
                return g.move(i - start) if g.__class__ is _Product else g[i - start]
            start = end
        raise IndexError("list index out of range")   # pragma: no cover - ends[-1] == n

    def moves(self):
        for g in self.segs:
            yield from g

    def rank(self, move):
        """The index of internal ``move``, or None when it is not listed."""
        start = 0
        for g, end in zip(self.segs, self.ends):
            if g.__class__ is _Product:
                r = g.rank(move)
            else:
                try:
                    r = g.index(move)
                except ValueError:
                    r = None
            if r is not None:
                return start + r
            start = end
        return None


class LazyMoves(Sequence):
    """The internal moves of a ``Listing``, read-only: ``len``, indexing (a slice gives a list),
    iteration in listing order; ``==`` a list holding the same moves."""

    __slots__ = ("listing",)

    def __init__(self, listing):
        self.listing = listing

    def __len__(self):
        return self.listing.n

    def __getitem__(self, i):
        if i.__class__ is slice:
            return [self.listing.move(j) for j in range(*i.indices(self.listing.n))]
        return self.listing.move(i)

    def __iter__(self):
        return self.listing.moves()

    def __eq__(self, other):
        return isinstance(other, (list, LazyMoves)) and list(self) == list(other)

    __hash__ = None

    def __repr__(self):
        return f"LazyMoves({self.listing.n} moves)"


class LazyTexts(Sequence):
    """The legal actions' texts of a ``Listing``, read-only: ``len``, indexing (a slice gives a list of
    str), iteration in listing order, ``in`` and ``index(text)`` (the text read back and ranked: no
    listing), ``==`` a list holding the same texts. What ``State.legal_actions()`` returns for a phase
    whose listing is large (``list(...)`` makes the list)."""

    __slots__ = ("listing",)

    def __init__(self, listing):
        self.listing = listing

    def __len__(self):
        return self.listing.n

    def __getitem__(self, i):
        L = self.listing
        if i.__class__ is slice:
            return [L.text(L.move(j)) for j in range(*i.indices(L.n))]
        m = L.move(i)
        t = L.text(m)
        L.last = (i if i >= 0 else i + L.n, m, t)   # the text State.apply is given next (index)
        return t

    def __iter__(self):
        text = self.listing.text
        for m in self.listing.moves():
            yield text(m)

    def index(self, value, start=0, stop=None):
        """The index of text ``value`` (exactly as listed). Raises ``ValueError`` when it is not listed."""
        if start != 0 or stop is not None:
            return super().index(value, start, *(() if stop is None else (stop,)))
        L = self.listing
        if value == L.last[2]:   # just read: its index (each listed text names one move, parse's)
            return L.last[0]
        r = m = None
        if value.__class__ is str:
            try:
                m = L.parse(value)
                r = L.rank(m)
            except Exception:   # noqa: BLE001 - text that does not read as a move is not listed
                r = None
        if r is None or L.text(m) != value:   # (the move at r is m: another spelling is not listed)
            raise ValueError(f"{value!r} is not in the legal actions")
        L.last = (r, m, value)   # the move State.apply reads next (LazyMoves[r])
        return r

    def __contains__(self, value):
        try:
            self.index(value)
        except ValueError:
            return False
        return True

    def __eq__(self, other):
        return isinstance(other, (list, LazyTexts)) and list(self) == list(other)

    __hash__ = None

    def __repr__(self):
        return f"LazyTexts({self.listing.n} actions)"


#: A lazy listing of at most this many moves is made into lists (``phase_listing``): as fast to use, and
#: what ``legal_actions()`` returns for the small listings of every other phase.
LAZY_MIN = 1000


def lazy_phase(step, ph) -> bool:
    """Whether phase ``ph`` of turns step ``step`` is listed by ``phase_listing``: some action it allows has
    ``lazy`` domains (a card-set parameter). Kept per phase (``step._lazy``)."""
    r = step._lazy.get(ph)
    if r is None:
        kind, _, _, what, _ = step.phases[ph]
        r = step._lazy[ph] = kind != "do" and any(a.lazy is not None and not a.never
                                                   for a in step.actions if a.index in what)
    return r


def phase_listing(step, s):
    """``(texts, moves)`` of the phase ``s`` waits in (``Turns.legal``'s moves and their texts, in its
    order): ``LazyTexts``/``LazyMoves`` when they are more than ``LAZY_MIN``, else lists. The actions
    without ``lazy`` domains are listed by their listers. Raises what ``Turns.legal`` raises (the
    ``MAX_LISTED`` faults included)."""
    try:
        segs = _segments(step, s)
    except NotIndexable:   # listed as Turns.legal lists it
        moves = step.legal(s)
        return step.texts(s, moves), moves
    L = Listing(segs, lambda m: step.text(s, m), lambda t: step.parse(s, t))
    if L.n <= LAZY_MIN:
        moves = list(L.moves())
        return step.texts(s, moves), moves
    return LazyTexts(L), LazyMoves(L)


def _segments(step, s):
    """The segments of ``Listing`` for the phase ``s`` waits in (``phase_listing``)."""
    actor = s.ts[ACTOR]
    kind, _, _, what, _ = step.phases[s.ts[PH]]
    segs = []
    for a in step.actions:   # declaration order, as Turns._moves
        if a.index not in what or a.never:
            continue
        if a.lazy is None:
            segs.append(a.moves_fn(s, actor, a.index))
            continue
        if a.hoisted and not a.pre(s, actor):
            continue
        fns, why = a.lazy
        doms = []
        for f in fns:   # an empty one: the loops inside it never run (their values are not made)
            d = f(s, actor)
            if d.__class__ is not list and d.__class__ is not Arrangements:
                d = list(d)
            doms.append(d)
            if not len(d):
                break
        if len(doms) < len(fns) or not all(len(d) for d in doms):
            continue
        g = _Product(a.index, doms, a.write)
        if len(doms) > 1 and g.n > MAX_LISTED:
            _listing_too_large(why)
        segs.append(g)
    if kind == "any":
        segs.append([DONE])
    elif kind == "optional":
        segs.append([SKIP])
    return segs
