"""Solving positions of perfect-information two-player rulesets: the game-theoretic value and a best move.

``solve(state, seconds=10)`` searches the game tree below ``state`` with
alpha-beta over *bounds* (every node's value is an interval ``[lo, hi]`` in
{-1 loss, 0 draw, +1 win} that only ever narrows, so a depth-limited search
never guesses), a transposition table keyed by ``State.position_key()`` that
keeps proven bounds across iterations, iterative deepening (one more decision
per iteration, the table's best move tried first) and a time limit. It is
game-agnostic: it only uses the engine's fast internal API (``State.clone``,
``step.legal``, ``State.apply_move``) and the match result (``game_over``'s
``winner`` list: one seat wins, a tie is a draw). docs/solve.md has the
command, the output and measurements.

Repetition: a position that recurs on the line being searched counts as a
draw (the usual rule of solvers; a player who can force one return to a
position can force the ruleset's third one, e.g. a threefold-repetition
draw written in a ruleset). The repetitions before the root still count:
the search's states share the root's history as a ``FrozenPositions``
(read, never extended, so it is the same whatever path reached a state).
Results that lean on such a draw above the node are not stored in the table
(the graph-history interaction problem), so stored bounds hold whatever the path.
The cyclic garbage collector is off during a search (nothing it makes is cyclic). Chance inside
the search (a shuffle, a random draw) follows the position's seeded RNG.

``SolverBot`` plays any such ruleset from views: it solves positions up to a
number of cards in play and plays randomly (or as told) otherwise.
"""
from __future__ import annotations

import gc
import random
import weakref
from marshal import dumps as _dumps
import sys
import time
from dataclasses import dataclass, field

from ..engine.effects import FrozenPositions
from ..engine import State
from ..engine.slots import TURN
from ..engine.steps.turns import TURNS as _TS_TURNS
from .base import Bot, RandomBot
from ..errors import CardspecError

WIN, DRAW, LOSS = 1, 0, -1
_NO_REP = 1 << 30
VALUE_WORDS = {WIN: "win", DRAW: "draw", LOSS: "loss"}


def _key(state) -> bytes:
    """The search's key of a position: the parts of ``State.position_key()`` as bytes (``marshal`` format 0,
    which writes equal values of ints, strings, None, bools, tuples and lists as equal bytes whatever their
    sharing or interning — pickle does not: it back-references a repeated object — so equal keys iff equal
    position keys). About 400 bytes instead of about 1.5 KB of nested tuples per position in the tables, and
    bytes cache their hash (a tuple hashes all its parts at every table look-up). The same parts as
    ``position_key`` (``_KEY_PARTS`` of them; a test checks the two agree), marshalled from the state's own
    lists instead of tuple copies of them: about a quarter cheaper. The searches use ``_search_fns``'s copy
    of it written out for the game's zones (the same bytes)."""
    v = state.v
    ts = state.ts
    fl = state.flight
    if fl is not None:   # its entries are tuples or lists (a clone's), as position_key: tuples
        fl = [tuple(f) if f is not None else None for f in fl]
    return _dumps((state.pc, state.terminal,
                   [[sorted(h) for h in zone] if mode == 1 else zone if not mode or not zone
                    else (zone[-1], sorted(zone[:-1])) for mode, zone in zip(state.game.key_mode, state.z)],
                   state.c, v[:TURN], v[TURN + 1:], ts[:_TS_TURNS] + ts[_TS_TURNS + 1:] if ts is not None else None,
                   state.face_up, state.plays, fl, state.queue, state.carried), 0)


_FNS = weakref.WeakKeyDictionary()   # game -> (key, copy): _search_fns


def _search_fns(game):
    """``(key, copy)`` for the searches over ``game``'s positions: ``_key`` and ``State.clone(True)`` written
    out (generated once per game) for its zones (how many, which are per seat, how each is keyed), its seats
    and counters, without the loops, ``zip`` and per-zone tests of the general code; same results (``key``
    gives ``_key``'s bytes, a test checks it). ``copy`` also shares the action history (``apply_move``,
    all a search applies, never records one) and keeps no event log (the searches' states have none)."""
    fns = _FNS.get(game)
    if fns is not None:
        return fns
    n = game.n
    zones = []
    for i, mode in enumerate(game.key_mode):
        if mode == 1:
            zones.append("[" + ", ".join(f"sorted(z[{i}][{j}])" for j in range(n)) + "]")
        elif mode == 2:
            zones.append(f"((z{i}[-1], sorted(z{i}[:-1])) if (z{i} := z[{i}]) else z{i})")
        else:
            zones.append(f"z[{i}]")
    key = ("def key(state):\n"
           "    z = state.z\n"
           "    v = state.v\n"
           "    ts = state.ts\n"
           "    fl = state.flight\n"
           "    if fl is not None:\n"
           "        fl = [tuple(f) if f is not None else None for f in fl]\n"
           f"    return dumps((state.pc, state.terminal, [{', '.join(zones)}], state.c, v[:{TURN}], v[{TURN + 1}:], "
           f"ts[:{_TS_TURNS}] + ts[{_TS_TURNS + 1}:] if ts is not None else None, state.face_up, state.plays, fl, "
           "state.queue, state.carried), 0)\n")
    zc = ", ".join("[" + ", ".join(f"z[{i}][{j}].copy()" for j in range(n)) + "]" if per else f"z[{i}].copy()"
                   for i, per in enumerate(game.per_seat))
    cc = ", ".join(f"c[{i}].copy()" for i in range(len(game.counters)))
    copy = ("def copy(self):\n"
            "    s = new(State)\n"
            "    s.game = self.game\n"
            "    s.n = self.n\n"
            "    z = self.z\n"
            f"    s.z = [{zc}]\n"
            "    c = self.c\n"
            f"    s.c = [{cc}]\n"
            "    s.v = self.v.copy()\n"
            "    s.rng = self.rng\n"
            "    s.pc = self.pc\n"
            "    s.entered = self.entered\n"
            "    s.terminal = self.terminal\n"
            "    s.events = self.events.copy() if self.events is not None else None\n"
            "    s.face_up = self.face_up.copy()\n"
            "    s.plays = self.plays.copy()\n"
            "    fl = self.flight\n"
            "    s.flight = [list(f) if f is not None else None for f in fl] if fl is not None else None\n"
            "    s.queue = self.queue.copy()\n"
            "    s.carried = self.carried.copy()\n"
            "    s.history = self.history\n"
            "    s._stack_order = self._stack_order\n"
            "    s._result = self._result\n"
            "    s._deal_override = None\n"
            "    s._cache = None\n"
            "    ts = self.ts\n"
            "    s.ts = ts.copy() if ts is not None else None\n"
            "    s.positions = self.positions\n"
            "    s.nxt = self.nxt\n"
            "    s.partial = self.partial\n"
            "    s._chpos = self._chpos\n"
            "    return s\n")
    ns = {"dumps": _dumps, "new": State.__new__, "State": State}
    exec(compile(key + copy, "<solve._search_fns>", "exec"), ns)
    fns = _FNS[game] = (ns["key"], ns["copy"])
    return fns


_KEY_PARTS = 12   # the parts of State.position_key() that _key writes


class SolveError(CardspecError):
    """The position cannot be solved: not two players, hidden cards, or the match is over."""

    code = "solve/unsupported"


class _Timeout(Exception):
    pass


@dataclass
class Result:
    """What ``solve`` found, for the side to move (``seat``).

    ``value``: +1 win, 0 draw, -1 loss, or None when not proven in time (then ``lo``/``hi``
    bound it: e.g. ``lo=0, hi=1`` is "at least a draw"). ``best``: a best action's text (the
    first among equals; None when over). ``moves``: every legal action → its ``[lo, hi]``
    bounds after the last iteration. ``depth``: decisions searched in the last completed
    iteration; ``nodes``: positions visited; ``seconds``: wall time.
    """

    seat: int
    value: int | None
    lo: int
    hi: int
    best: str | None
    depth: int
    nodes: int
    seconds: float
    moves: dict = field(default_factory=dict)
    method: str = "alphabeta"

    @property
    def proven(self) -> bool:
        return self.value is not None

    def describe(self) -> str:
        """One line: ``win for seat 1 (the side to move); best move: lead 9S``."""
        if self.value is not None:
            what = f"{VALUE_WORDS[self.value]} for seat {self.seat} (the side to move)"
        else:
            what = f"not proven in time: between {VALUE_WORDS[self.lo]} and {VALUE_WORDS[self.hi]} " \
                   f"for seat {self.seat} (the side to move)"
        return what + (f"; best move: {self.best}" if self.best else "")

    def as_json(self) -> dict:
        return {"seat": self.seat, "value": VALUE_WORDS.get(self.value) if self.value is not None else None,
                "bounds": [VALUE_WORDS[self.lo], VALUE_WORDS[self.hi]], "best": self.best, "depth": self.depth,
                "nodes": self.nodes, "seconds": round(self.seconds, 3), "method": self.method,
                "moves": {k: [VALUE_WORDS[a], VALUE_WORDS[b]] for k, (a, b) in self.moves.items()}}


def check_solvable(state):
    """Raise ``SolveError`` unless ``state`` is a live two-player position with nothing hidden."""
    g = state.game
    if state.terminal:
        raise SolveError("the match is over: nothing to solve")
    if g.n != 2:
        raise SolveError(f"the solver handles two-player games; this one has {g.n} players")
    for zn in g.zones:
        cards = state.z[zn.index]
        held = any(cards) if zn.per_seat else bool(cards)
        if held and zn.visibility != "all":
            raise SolveError(f"not a perfect-information position: zone '{zn.name}' holds cards that are hidden "
                             f"(visibility: {zn.visibility})")


def terminal_value(state, seat: int) -> int:
    """+1 when ``seat`` won the finished match, -1 when it lost, 0 for a tie (``game_over``'s ``winner``)."""
    winners = (state.result or {}).get("winner") or []
    if len(winners) != 1:
        return DRAW
    return WIN if winners[0] == seat else LOSS


class Solver:
    """Iterative-deepening alpha-beta over value bounds with a transposition table (module doc).

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
        root.positions = FrozenPositions(root.positions)   # the root's repetition history only (module doc)
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


_INF = 1 << 40


class _Node:
    __slots__ = ("pn", "dn", "kids", "state", "key", "moves", "attack", "clean")


def prove(state, attacker: int, deadline: float, max_nodes: int = 2_000_000, won: set | None = None,
          lost: set | None = None, dag: bool = True):
    """Proof-number search: can ``attacker`` force a win from ``state``?

    Best first: always expands the leaf that most cheaply proves or disproves the root (proof and
    disproof numbers start from a shedding estimate: the squared count of cards each side holds in per-seat
    zones, times the mover's mobility for the number that sums; docs/solve.md). A position that recurs on its own line
    counts as "not a win" (a draw at best). ``won``: keys of positions already proven won for
    ``attacker`` (filled as proofs are found; a proof never leans on a repetition, so it holds on any
    path: the transposition table of this search). ``lost``: likewise, keys of positions disproven
    without any repetition in the disproof (so on any path). ``dag``: share one node per position
    (a transposition table for open positions too; a proof stays exact, and a disproof that leans on
    a repetition is marked ``clean = False`` so the caller can check it with ``dag=False``). Returns ``(answer, root, nodes)``: ``answer`` is
    True (proven), False (disproven: a draw or a loss is the best ``attacker`` can force) or None (out
    of time or nodes); ``root.kids[i]`` belongs to the root's ``i``-th legal move (``pn == 0``:
    that move wins; ``dn == 0``: it does not).
    """
    won = set() if won is None else won
    lost = set() if lost is None else lost
    seat_zones = [zn.index for zn in state.game.zones if zn.per_seat]
    keyof, copy = _search_fns(state.game)
    root = _node(state, keyof(state), attacker, seat_zones)
    table = {root.key: root} if dag else None
    nodes = 1
    clock = time.perf_counter
    while root.pn and root.dn:
        if not nodes & 255 and clock() > deadline or nodes > max_nodes:
            return None, root, nodes
        path = [root]
        on_line = {root.key}
        n = root
        cycle = False
        while n.kids is not None:
            kids = n.kids
            best = kids[0]
            if n.attack:
                for k in kids:
                    if k.pn < best.pn:
                        best = k
            else:
                for k in kids:
                    if k.dn < best.dn:
                        best = k
            if best.pn == 0 or best.dn == 0:   # settled through another parent: this one is stale
                cycle = True
                break
            if best.key in on_line:      # a shared node leads back into this line: a repetition here
                kids[kids.index(best)] = _leaf(best.key, _INF, 0, False)
                cycle = True
                break
            n = best
            path.append(n)
            on_line.add(n.key)
        if cycle:
            n = None
        s = n.state if n is not None else None
        kids = []
        for m in (n.moves if n is not None else ()):
            c = copy(s)
            c.apply_move(m)
            nodes += 1
            if c.terminal:
                k = _Node()
                k.kids = k.state = k.key = k.moves = None
                k.clean = True
                k.pn, k.dn = (0, _INF) if terminal_value(c, attacker) == WIN else (_INF, 0)
            else:
                key = keyof(c)
                if key in won or key in lost:
                    k = _Node()
                    k.kids = k.state = k.moves = None
                    k.clean = True
                    k.key, k.pn, k.dn = (key, 0, _INF) if key in won else (key, _INF, 0)
                elif key in on_line:          # back to a position of this line: a draw, not a win
                    k = _leaf(key, _INF, 0, False)   # this disproof holds on this line only
                else:
                    k = table.get(key) if dag else None
                    if k is None or (k.dn == 0 and not k.clean):
                        k = _node(c, key, attacker, seat_zones)
                        if dag:
                            table[key] = k
            kids.append(k)
        if n is not None:
            n.kids = kids
            n.state = n.moves = None
        for p in reversed(path):
            kids = p.kids
            if p.attack:
                pn = min([k.pn for k in kids])
                dn = min(sum([k.dn for k in kids]), _INF)
            else:
                pn = min(sum([k.pn for k in kids]), _INF)
                dn = min([k.dn for k in kids])
            if pn == p.pn and dn == p.dn and p is not n and not cycle:
                break                        # unchanged: the ancestors are too
            p.pn, p.dn = pn, dn
            if pn == 0:
                won.add(p.key)
                if p is not root:
                    p.kids = ()              # proven: the subtree is no longer needed
            elif dn == 0:
                if p.attack:
                    p.clean = all([k.clean for k in kids])
                else:
                    p.clean = any([k.dn == 0 and k.clean for k in kids])
                if p.clean:
                    lost.add(p.key)
                if p is not root:
                    p.kids = ()
    return root.pn == 0, root, nodes


def _leaf(key, pn, dn, clean):
    k = _Node()
    k.kids = k.state = k.moves = None
    k.key, k.pn, k.dn, k.clean = key, pn, dn, clean
    return k


def _node(s, key, attacker, seat_zones):
    k = _Node()
    k.kids = None
    k.state, k.key = s, key
    step = s.game.steps[s.pc]
    k.moves = step.legal_after_apply(s) if hasattr(step, "legal_after_apply") else step.legal(s)
    k.attack = s.v[7] == attacker
    k.clean = True
    k.pn, k.dn = _shedding_estimate(s, seat_zones, attacker, len(k.moves))
    return k


def _shedding_estimate(s, seat_zones, attacker, n_moves):
    """Initial ``(pn, dn)``: proving a win means the attacker must get rid of their cards, disproving it means
    the defender must (a shedding estimate over the per-seat zones; any positive start is correct, it only
    steers the search). Squared, times the mobility of the side to move for the number that sums."""
    a = d = 0
    for zi in seat_zones:
        z = s.z[zi]
        a += len(z[attacker])
        d += len(z[1 - attacker])
    a = a * a or 1
    d = d * d or 1
    nm = n_moves or 1
    if s.v[7] == attacker:
        return a, nm * d
    return nm * a, d


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


def solve(state, seconds: float = 10.0, method: str = "dfpn", max_depth: int | None = None) -> Result:
    """The game-theoretic value of ``state`` for the side to move and a best move.

    ``method``: ``"dfpn"`` (default; depth-first proof-number search, ``dfpn``) or ``"pns"`` (best-first
    proof-number search, ``prove``): "can the side to move force a win?", then, if not, "can the other
    side?"; neither = a draw (a draw whose disproofs leaned on a repetition is re-checked by ``prove``
    without transpositions); or ``"alphabeta"`` (``Solver``: iterative
    deepening over value bounds with a transposition table; ``max_depth`` caps its iterations).
    ``seconds``: the wall-clock limit (the answer so far is returned when it runs out).
    Raises ``SolveError`` for a position that cannot be solved (``check_solvable``) or a bad method.
    """
    if method not in ("pns", "dfpn", "alphabeta"):
        raise SolveError(f"unknown method '{method}': dfpn, pns or alphabeta")
    check_solvable(state)
    # The search makes hundreds of thousands of short-lived states and keeps many in its tables; none of it
    # forms reference cycles, so the cyclic garbage collector only re-scans the growing tables (it was half
    # the CPU time of a 7-cards-per-hand solve in docs/solve.md). Off during the search, restored after.
    was = gc.isenabled()
    gc.disable()
    try:
        if method == "alphabeta":
            return Solver(state, seconds, max_depth).solve()
        return _solve_pn(state, seconds, method)
    finally:
        if was:
            gc.enable()


def _solve_pn(state, seconds, method):
    t0 = time.perf_counter()
    deadline = t0 + seconds
    root = state.clone()
    root.events = None
    root.history = []
    root.positions = FrozenPositions(root.positions)   # the root's repetition history only (module doc)
    seat = root.v[7]
    step = root.game.steps[root.pc]
    moves = step.legal(root)
    texts = dict(zip(moves, step.texts(root, moves)))
    bounds = {m: [LOSS, WIN] for m in moves}
    won1 = set()
    tt1 = {}
    if method == "dfpn":
        cache = KidCache()    # both searches share the children (the engine's work) below the root

        def search(*args, **kw):
            return _search_dfpn(*args, kid_cache=cache, **kw)
    else:
        def search(*args, table=None, hint=None, **kw):
            return _search_pns(*args, **kw)
    answer, kids1, nodes, clean1 = search(root, seat, deadline, won=won1, table=tt1)
    answer2, kids2, clean2 = None, None, True
    sound1 = sound2 = True     # False: checked by the tree search (dag=False), where every disproof holds
    if answer is False:
        # A position proven won for the side to move is no win for the other side, on any path.
        answer2, kids2, n2, clean2 = search(root, 1 - seat, deadline, lost=won1, hint=tt1)
        nodes += n2
        if answer2 is False:   # a draw: both disproofs must hold; check one that leaned on a repetition
            if not clean1:
                answer, kids1, n3, clean1 = _search_pns(root, seat, deadline, dag=False)
                nodes += n3
                sound1 = False
            if not clean2 and answer is False:
                answer2, kids2, n4, clean2 = _search_pns(root, 1 - seat, deadline, dag=False)
                nodes += n4
                sound2 = False
    for m, (pn, dn, clean) in zip(moves, kids1 or ()):
        if pn == 0:
            bounds[m] = [WIN, WIN]
        elif dn == 0 and (clean or not sound1):
            bounds[m][1] = DRAW
    for m, (pn, dn, clean) in zip(moves, kids2 or ()):
        if pn == 0:
            bounds[m] = [LOSS, LOSS]
        elif dn == 0 and (clean or not sound2):
            bounds[m][0] = DRAW
    lo = max(b[0] for b in bounds.values())
    hi = max(b[1] for b in bounds.values())
    if answer is False and answer2 is False:
        lo = DRAW
    if answer is True:
        lo = hi = WIN
    elif answer is False and answer2 is True:
        lo = hi = LOSS
    order = sorted(moves, key=lambda m: (-bounds[m][0], -bounds[m][1], moves.index(m)))
    best = order[0] if moves else None
    if answer is False and answer2 is None and kids2:   # not proven: the move hardest for the other side
        best = max(zip(moves, kids2), key=lambda mk: (bounds[mk[0]][0], mk[1][0]))[0]
    return Result(seat, lo if lo == hi else None, lo, hi, texts[best] if best is not None else None, 0, nodes,
                  time.perf_counter() - t0, {texts[m]: tuple(b) for m, b in bounds.items()}, method)


def _search_pns(root, attacker, deadline, won=None, lost=None, dag=True):
    """``prove`` with ``dfpn``'s answer shape: ``(answer, [(pn, dn, clean) per root move], nodes, clean)``."""
    answer, tree, nodes = prove(root, attacker, deadline, won=won, lost=lost, dag=dag)
    kids = [(k.pn, k.dn, k.clean) for k in tree.kids] if tree.kids else None
    return answer, kids, nodes, tree.clean


def _search_dfpn(root, attacker, deadline, won=None, lost=None, kid_cache=None, table=None, hint=None):
    return dfpn(root, attacker, deadline, won=won, lost=lost, kid_cache=kid_cache, table=table, hint=hint)


def cards_in_play(state) -> int:
    """Cards in per-seat zones (hands) and on shared zones other than the stock: the solver's size measure."""
    g = state.game
    total = 0
    for zn in g.zones:
        if zn.per_seat:
            total += sum(len(h) for h in state.z[zn.index])
        elif zn.index != g.stock:
            total += len(state.z[zn.index])
    return total


def state_from_public_view(game, view: dict):
    """The exact State behind a view of a perfect-information position (every zone shown as cards).

    Rebuilds zones, counters, vars, system values, the trick and the ``turns`` step's position (turn
    seat, phase, actions in the phase; a ``next_seat`` set earlier in the same turn is not in the
    view and is taken as unset). The repetition history is not in a view: it starts empty.
    Raises ``SolveError`` when the view hides cards or the match is over.
    """
    from ..engine.slots import SYSTEM_VARS, TO_ACT
    if view.get("terminal"):
        raise SolveError("the match is over")
    s = game.new_state(seed=0, record=False)
    s.events = None
    deck = game.deck
    for zn in game.zones:
        z = view["zones"].get(zn.name)
        if zn.per_seat:
            for seat in range(game.n):
                cards = z.get(str(seat)) if isinstance(z, dict) else None
                if not isinstance(cards, list):
                    raise SolveError(f"the view hides zone '{zn.name}' of seat {seat}: not perfect information")
                s.z[zn.index][seat] = [deck.face(c) if not isinstance(c, list) else tuple(deck.face(x) for x in c)
                                       for c in cards]
        else:
            if not isinstance(z, list):
                if isinstance(z, dict) and z.get("count", 0) == 0:
                    s.z[zn.index] = []
                    continue
                raise SolveError(f"the view hides zone '{zn.name}': not perfect information")
            s.z[zn.index] = [deck.face(c) if not isinstance(c, list) else tuple(deck.face(x) for x in c) for c in z]
    for c in game.counters:
        s.c[c.index] = list(view["counters"][c.name])
    for var in game.vars:
        s.v[var.index] = view["vars"][var.name]
    for i, (name, _, _) in enumerate(SYSTEM_VARS):
        s.v[i] = view["system"][name]
    s.plays = [(seat, deck.face(c)) for seat, c in view.get("trick") or []]
    s.pc = view["step_index"]
    s.entered = True
    s.terminal = False
    turn = view.get("turn")
    if turn is not None:
        from ..engine.steps.turns import ACTOR, CNT, PH, SEAT, TURNS
        ts = [0, 0, -1, 0, 0, -1, -1]
        ts[PH], ts[CNT], ts[SEAT] = turn["phase"], turn["actions_in_phase"], turn["seat"]
        ts[TURNS] = turn["number"] - 1
        ts[ACTOR] = view["to_act"]
        s.ts = ts
    s.v[TO_ACT] = view["to_act"]
    s._cache = None
    return s


class SolverBot(Bot):
    """Plays a perfect-information two-player ruleset: solves the position when at most ``max_cards`` cards
    are in play (``cards_in_play``), within ``seconds`` per decision, else asks ``fallback`` (random).

    Sees only its view, like every bot (``cardspec.bots``); rebuilds the position with
    ``state_from_public_view``.
    """

    name = "solver"

    def __init__(self, game, max_cards: int = 16, seconds: float = 2.0, fallback: Bot | None = None, seed=None):
        self.game = game
        self.max_cards = max_cards
        self.seconds = seconds
        self.fallback = fallback or RandomBot(seed)
        self.last = None   # the last Result (None when the fallback answered)

    def act(self, view, legal):
        self.last = None
        try:
            s = state_from_public_view(self.game, view)
        except (SolveError, KeyError, ValueError):
            return self.fallback.act(view, legal)
        if cards_in_play(s) > self.max_cards or len(legal) == 1:
            return self.fallback.act(view, legal)
        res = solve(s, self.seconds)
        self.last = res
        return res.best if res.best in legal else self.fallback.act(view, legal)


def make(arg: str, seed=None, game=None, policy=None) -> SolverBot:
    """``make_bot``'s ``solver`` / ``solver:12`` (at most 12 cards in play): perfect-information two-player games.

    Raises ``ValueError`` without the game or for a bad parameter.
    """
    if game is None:
        raise ValueError("the solver bot needs the game's rules")
    try:
        return SolverBot(game, max_cards=int(arg) if arg else 16, seed=seed)
    except ValueError:
        raise ValueError(f"solver takes the most cards in play it solves (solver:12), not '{arg}'") from None
