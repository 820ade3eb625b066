"""``method="alphabeta"``: iterative-deepening alpha-beta over value bounds with a transposition table
(``Solver``; the package's doc says how repetitions count).
"""
from __future__ import annotations

import time

from ...engine.effects import FrozenPositions
from ._key import _key
from ._result import DRAW, LOSS, WIN, Result, check_solvable, terminal_value

_NO_REP = 1 << 30


class _Timeout(Exception):
    pass


class Solver:
    """Iterative-deepening alpha-beta over value bounds with a transposition table (the package's doc).

    Parameters:
        state: the position (not changed).
        seconds: wall-clock limit (float seconds); the answer so far is returned when it runs out.
        max_depth: stop after an iteration of this many decisions (None: until proven or out of time).
    Raises ``SolveError`` (see ``check_solvable``).
    """

    def __init__(self, state, seconds: float = 10.0, max_depth: int | None = None):
        check_solvable(state)
        root = state.clone()
        root.events = None      # no log in the search
        root.history = []
        root.positions = FrozenPositions(root.positions)   # the root's repetition history only (the package's doc)
        self.root = root
        self.seat = root.v[7]   # TO_ACT
        self.seconds = seconds
        self.max_depth = max_depth
        self.tt = {}            # key -> [lo, hi, best move index]
        self.path = {}          # key -> ply, positions on the current line
        self.nodes = 0
        self.hist = {}          # internal move -> history score (cutoffs, weighted by depth)
        self._seat_zones = [zn.index for zn in root.game.zones if zn.per_seat]
        self._deadline = None

    def solve(self) -> Result:
        t0 = time.perf_counter()
        self._deadline = t0 + self.seconds
        root = self.root
        step = root.game.steps[root.pc]
        moves = step.legal_sorted(root)
        texts = step.texts(root, moves)
        children = []
        for m in moves:
            c = root.clone(True)   # no chance in the search costs nothing; chance draws from one RNG
            c.apply_move(m)
            children.append(c)
        bounds = [[LOSS, WIN] for _ in moves]
        rkey = _key(root)
        depth = 0
        done = 0
        try:
            while self.max_depth is None or depth < self.max_depth:
                depth += 1
                self.path = {rkey: 0}
                # Null windows: first "is it a win?" (0, 1); once no move can win, "is it a draw?" (-1, 0).
                lo = max(b[0] for b in bounds)
                hi = max(b[1] for b in bounds)
                alpha, beta = (DRAW, WIN) if hi == WIN and lo < WIN else (LOSS, DRAW)
                order = sorted(range(len(moves)), key=lambda i: (-bounds[i][1], -bounds[i][0]))
                for i in order:
                    lo, hi = bounds[i]
                    if lo == hi or hi <= alpha or lo >= beta:
                        continue
                    lo, hi, _ = self._search(children[i], depth - 1, alpha, beta, 1)
                    bounds[i] = [max(lo, bounds[i][0]), min(hi, bounds[i][1])]
                    if bounds[i][0] >= beta:
                        break
                done = depth
                lo = max(b[0] for b in bounds)
                hi = max(b[1] for b in bounds)
                if lo == hi:
                    break
        except _Timeout:
            pass
        lo = max(b[0] for b in bounds)
        hi = max(b[1] for b in bounds)
        best = max(range(len(moves)), key=lambda i: (bounds[i][0], bounds[i][1], -i)) if moves else None
        return Result(self.seat, lo if lo == hi else None, lo, hi, texts[best] if best is not None else None,
                      done, self.nodes, time.perf_counter() - t0,
                      {t: tuple(b) for t, b in zip(texts, bounds)})

    def _search(self, s, depth, alpha, beta, ply):
        """``(lo, hi, rep)``: bounds on the value of ``s`` for the root seat, and the shallowest ply of
        a position on the line that a repetition below returned to (``_NO_REP`` when none)."""
        self.nodes += 1
        if not self.nodes & 1023 and time.perf_counter() > self._deadline:
            raise _Timeout
        if s.terminal:
            v = terminal_value(s, self.seat)
            return v, v, _NO_REP
        key = _key(s)
        p = self.path.get(key)
        if p is not None:
            return DRAW, DRAW, p
        e = self.tt.get(key)
        if e is None:
            lo, hi, bi = LOSS, WIN, -1
        else:
            lo, hi, bi = e
        if lo == hi or lo >= beta or hi <= alpha or depth <= 0:
            return lo, hi, _NO_REP
        step = s.game.steps[s.pc]
        moves = step.legal(s)
        n = len(moves)
        if not n:
            return lo, hi, _NO_REP
        maximizing = s.v[7] == self.seat
        mover = s.v[7]
        # Children first: a move that ends the match in the mover's favour decides at once; then the
        # table's best move, then moves that leave the mover fewer cards of their own (a shedding
        # bias; any order is correct), then the history heuristic.
        kids = []
        hist = self.hist
        seat_zones = self._seat_zones
        for i, m in enumerate(moves):
            c = s.clone(True)
            c.apply_move(m)
            if c.terminal:
                v = terminal_value(c, self.seat)
                if (v == WIN) if maximizing else (v == LOSS):
                    self.tt[key] = (v, v, i)
                    return v, v, _NO_REP
                kids.append((-2 if i == bi else -1, 0, 0, i, c))
                continue
            own = 0
            for zi in seat_zones:
                own += len(c.z[zi][mover])
            kids.append((-2 if i == bi else 0, own, -hist.get(m, 0), i, c))
        kids.sort(key=lambda k: k[:4])
        self.path[key] = ply
        rep = _NO_REP
        best_lo = best_hi = -2 if maximizing else 2   # over the children searched so far
        best_i = -1
        cut = False
        last = len(kids) - 1
        try:
            for j, (_, _, _, i, c) in enumerate(kids):
                if maximizing:
                    clo, chi, crep = self._search(c, depth - 1, max(alpha, best_lo, lo), beta, ply + 1)
                    if clo > best_lo:
                        best_lo, best_i = clo, i
                    if chi > best_hi:
                        best_hi = chi
                else:
                    clo, chi, crep = self._search(c, depth - 1, alpha, min(beta, best_hi, hi), ply + 1)
                    if chi < best_hi:
                        best_hi, best_i = chi, i
                    if clo < best_lo:
                        best_lo = clo
                if crep < rep:
                    rep = crep
                if (best_lo >= beta or best_lo >= hi) if maximizing else (best_hi <= alpha or best_hi <= lo):
                    cut = j != last
                    hist[moves[i]] = hist.get(moves[i], 0) + depth * depth
                    break
        finally:
            del self.path[key]
        if maximizing:   # max over the children: a cut leaves the unsearched ones unknown (up to hi)
            nlo = max(lo, best_lo)
            nhi = hi if cut else min(hi, best_hi)
        else:
            nhi = min(hi, best_hi)
            nlo = lo if cut else max(lo, best_lo)
        if nlo > nhi:   # cannot happen with true bounds; keep the table consistent regardless
            nlo = nhi
        if rep >= ply:  # no repetition above this node was used: the bounds hold on any path
            self.tt[key] = (nlo, nhi, best_i)
            rep = _NO_REP
        return nlo, nhi, rep
