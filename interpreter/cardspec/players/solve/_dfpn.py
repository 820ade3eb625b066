"""``method="dfpn"`` (the default): depth-first proof-number search (``dfpn``) and its children cache
(``KidCache``), with its two settings ``CACHE_STATES`` and ``FORCED_CHAIN``.
"""
from __future__ import annotations

import sys
import time

from ._key import _search_fns
from ._pns import _INF, _shedding_estimate
from ._result import DRAW, LOSS, WIN, terminal_value

CACHE_STATES = 500_000   # dfpn's children cache: at most this many children (States) held
FORCED_CHAIN = 16        # dfpn plays up to this many forced moves (one legal move) in a row inside one child


class KidCache(dict):
    """``dfpn``'s children cache: position key -> list of children ``(key or None, State or None, moves,
    value)``, least recently used first, with ``held`` the number of children it holds (their States are
    most of its memory, so ``held`` bounds it). Put entries with ``add``, read them with ``use``."""

    __slots__ = ("held",)

    def __init__(self):
        super().__init__()
        self.held = 0

    def use(self, key):
        """The children of ``key`` (now the most recently used), or None."""
        kids = self.pop(key, None)
        if kids is not None:
            self[key] = kids
        return kids

    def add(self, key, kids, limit: int):
        """Hold ``kids`` for ``key`` (not held yet); past ``limit`` children in all, drop the least recently
        used entries holding half of them (emptying the whole cache made long searches regenerate it)."""
        self[key] = kids
        self.held += len(kids)
        if self.held > limit:
            target = self.held // 2
            freed = 0
            drop = []
            for k, ks in self.items():
                if self.held - freed <= target:
                    break
                drop.append(k)
                freed += len(ks)
            for k in drop:
                del self[k]
            self.held -= freed

    def discard(self, key):
        """Forget ``key``'s children if held."""
        kids = self.pop(key, None)
        if kids is not None:
            self.held -= len(kids)


class _DfpnTimeout(Exception):
    pass


def dfpn(state, attacker: int, deadline: float, max_nodes: int = 50_000_000, won: set | None = None,
         lost: set | None = None, eps: float = 0.25, kid_cache: KidCache | None = None,
         cache_states: int | None = None, table: dict | None = None, hint: dict | None = None):
    """Depth-first proof-number search (df-pn, with the 1+ε threshold trick): can ``attacker`` force a win?

    The same question, leaves and start numbers as ``prove`` (a shedding estimate; a position that recurs on
    the line searched is "not a win"), but depth first under proof/disproof thresholds, with a transposition
    table ``key -> [pn, dn, clean]`` instead of an explicit tree, so memory is one entry per position and
    re-searching a subtree costs no tree walk from the root. A proof never leans on a repetition, so a proven
    entry holds on any path; a disproof that used a repetition is kept with ``clean = False`` (the caller
    re-checks such a result with ``prove(..., dag=False)``). ``won``/``lost``: keys already known won/not
    won for ``attacker`` (``won`` is filled with every proof found; ``lost`` with clean disproofs).
    ``table``: a dict to use (and fill) as the transposition table. ``hint``: the other side's question's
    table: a position it disproved (its attacker cannot win there) starts with proof number 1 here, so
    the proof of a loss follows the refutations that the first search found (only the start changes,
    so the answer stays exact). Among children with equal numbers the search enters the one that looks
    worst for the other number (the first otherwise). Returns ``(answer, kids, nodes, clean)``: ``answer`` True/False/None (out of time or nodes); ``kids``
    the root's legal moves in order, each ``(pn, dn, clean)`` (``pn == 0``: that move wins; ``dn == 0``:
    it does not); ``clean``: the root's disproof used no repetition. ``kid_cache``: a ``KidCache`` to use
    (and fill; ``_solve_pn`` shares one between the two questions), holding at most ``cache_states``
    children (default ``CACHE_STATES``).
    """
    won = set() if won is None else won
    lost = set() if lost is None else lost
    seat_zones = [zn.index for zn in state.game.zones if zn.per_seat]
    tt = {} if table is None else table   # key -> [pn, dn, clean]
    cache_states = CACHE_STATES if cache_states is None else cache_states
    if kid_cache is None:
        kid_cache = KidCache()  # key -> list of children (key or None, state, moves, value for seat 0 if over)
    path = set()
    nodes = [0]
    clock = time.perf_counter
    INF = _INF
    one_eps = 1.0 + eps
    term = {WIN: (0, INF, True), LOSS: (INF, 0, True), DRAW: (INF, 0, True)} if attacker == 0 else \
        {LOSS: (0, INF, True), WIN: (INF, 0, True), DRAW: (INF, 0, True)}

    hint = hint or None
    canon = {}.setdefault
    forced_chain = FORCED_CHAIN
    # each step's move lister for a state it just stopped at (the turns step's fast path), by step index
    after = [getattr(st, "legal_after_apply", None) or st.legal for st in state.game.steps]
    keyof, copy = _search_fns(state.game)
    steps = state.game.steps

    def estimate(s, moves, ck=None):
        pn, dn = _shedding_estimate(s, seat_zones, attacker, len(moves))
        if hint is not None:
            h = hint.get(ck)
            if h is not None and h[1] == 0:   # the other question's search: its attacker cannot win here,
                pn = 1                        # so this one probably can: look here first
        return [pn, dn, True]

    def children(key, s, moves, cut=True):
        kids = kid_cache.use(key)
        if kids is None:
            kids = []
            mover = s.v[7]
            apply = steps[s.pc].apply   # State.apply_move without its call (a copy's _cache is None already)
            n = 0   # positions made here (added to nodes[0] at the end)
            for m in moves:
                c = copy(s)
                if apply(c, m):
                    c._finish_step()
                n += 1
                if not c.terminal:
                    mv = after[c.pc](c)
                    # a position with one legal move has that move's value: play it here instead of making
                    # the position a node of its own (a chain of them, up to FORCED_CHAIN moves)
                    j = 0
                    while len(mv) == 1 and j < forced_chain:
                        c.apply_move(mv[0])
                        n += 1
                        j += 1
                        if c.terminal:
                            break
                        mv = after[c.pc](c)
                if c.terminal:
                    v = terminal_value(c, 0)
                    if cut and v != DRAW and (v == WIN) == (mover == 0):   # the mover wins at once: decided
                        kids = [(None, None, None, v)]
                        break
                    kids.append((None, None, None, v))
                    continue
                # the moves as a tuple of shared objects: equal moves of different positions are one object
                # (a move list of fresh tuples weighed about as much as the child's State)
                kids.append((keyof(c), c, tuple(map(canon, mv, mv)), None))
            nodes[0] += n
            kid_cache.add(key, kids, cache_states)
        for ck, c, cm, _ in kids:
            if ck is not None and ck not in tt:
                tt[ck] = [0, INF, True] if ck in won else [INF, 0, True] if ck in lost else estimate(c, cm, ck)
        return kids

    def entry(k):
        ck = k[0]
        if ck is None:
            return term[k[3]]
        if ck in path:
            return _REP
        return tt[ck]

    def mid(key, s, moves, attack, thpn, thdn):
        if nodes[0] > max_nodes or clock() > deadline:
            raise _DfpnTimeout
        kids = children(key, s, moves)
        e = tt[key]
        path.add(key)
        try:
            while True:
                # numbers from the children; the best child (ties: the larger other number) and the second best
                best = None
                b1 = b2 = INF
                bo = -1
                total = 0
                clean = True
                if attack:
                    for k in kids:
                        ck = k[0]
                        ke = term[k[3]] if ck is None else _REP if ck in path else tt[ck]
                        p = ke[0]
                        total += ke[1]
                        if not ke[2]:
                            clean = False
                        if p < b1:
                            b2, b1, best, bo = b1, p, k, ke[1]
                        elif p < b2:
                            b2 = p
                            if p == b1 and ke[1] > bo:
                                best, bo = k, ke[1]
                        elif p == b1 and ke[1] > bo:
                            best, bo = k, ke[1]
                    pn, dn = b1, min(total, INF)
                    if dn == 0:
                        e[2] = clean
                else:
                    anyclean = False
                    for k in kids:
                        ck = k[0]
                        ke = term[k[3]] if ck is None else _REP if ck in path else tt[ck]
                        d = ke[1]
                        total += ke[0]
                        if d == 0 and ke[2]:
                            anyclean = True
                        if d < b1:
                            b2, b1, best, bo = b1, d, k, ke[0]
                        elif d < b2:
                            b2 = d
                            if d == b1 and ke[0] > bo:
                                best, bo = k, ke[0]
                        elif d == b1 and ke[0] > bo:
                            best, bo = k, ke[0]
                    pn, dn = min(total, INF), b1
                    if dn == 0:
                        e[2] = anyclean
                e[0], e[1] = pn, dn
                if pn >= thpn or dn >= thdn or not pn or not dn:
                    break
                ck, cs, cm, _ = best
                ce = tt[ck]
                cattack = cs.v[7] == attacker
                if attack:
                    cthpn = min(thpn, int(b2 * one_eps) + 1)
                    cthdn = thdn - dn + ce[1]
                else:
                    cthdn = min(thdn, int(b2 * one_eps) + 1)
                    cthpn = thpn - pn + ce[0]
                mid(ck, cs, cm, cattack, cthpn, cthdn)
        finally:
            path.discard(key)
        if pn == 0:
            won.add(key)
        elif dn == 0 and e[2]:
            lost.add(key)

    rkey = keyof(state)
    step = state.game.steps[state.pc]
    rmoves = step.legal(state)
    tt[rkey] = estimate(state, rmoves)
    answer = None
    if sys.getrecursionlimit() < 20000:
        sys.setrecursionlimit(20000)
    try:
        mid(rkey, state, rmoves, state.v[7] == attacker, INF, INF)
        answer = tt[rkey][0] == 0
    except _DfpnTimeout:
        pass
    except RecursionError:
        pass
    # mid refers to itself (a reference cycle that would keep the tables alive until the cyclic collector
    # runs, a second or more of collection after a big search): break it so the tables go when unused
    mid = None
    kids = children(rkey, state, rmoves, cut=False)
    if len(kids) != len(rmoves):       # cut short at an immediate win: list every root move
        kid_cache.discard(rkey)
        kids = children(rkey, state, rmoves, cut=False)
    out = [tuple(entry(k)) for k in kids]
    return answer, out, nodes[0], tt[rkey][2]


_REP = (_INF, 0, False)
