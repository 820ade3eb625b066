"""Hand-written Svoyi Koziri endings: the solver's speed baseline and an independent check of its values.

The rules (../shared/rules/svoyi-koziri.md, "Play" and "End") written directly over bit masks, apart from the
ruleset and the engine:

* a position is ``(hand0, hand1, table, top, seat, respond)``: two hands and the table as 32-bit masks (card
  ``suit * 8 + rank``, suits S H D C, ranks 7 8 9 T J Q K A = 0..7), the card to beat (``top``, -1 for none),
  the seat to act and whether it leads (``respond`` 0) or answers a lead (1). The table's order below its top
  is not kept: with "pick up everything" the rules never read it (the ruleset's ``order: top_only``);
* the leader leads any card; the responder beats with a higher card of the led suit or any card of their own
  trump when the led suit is not that trump, and then leads; or picks up the whole table, and the leader
  leads again; a player who empties their hand by leading or beating wins at once.

Two solvers over it:

* ``retrograde(root)``: every position reachable from ``root``, then backward induction from the immediate
  wins (a position neither side can force to a win is a draw: play forever, or a repetition). Exact and
  cycle-proof, but it enumerates the whole graph: about 0.2 M positions for 5 cards per hand and 2.5 M
  for 6 (7: ~35 M, 8: ~500 M by the same growth), so it is for tests and small endings.
* ``dfpn_solve(root, ...)``: the same depth-first proof-number search as ``cardspec.players.solve.dfpn`` (the
  squared shedding estimate times mobility, the 1+ε threshold, ties by the other number, forced chains of up
  to 16 moves, a repetition on the line is "not a win", the second question started from the first one's
  refutations), counting positions the same way (moves applied). It is the hand-written engine the
  interpreter's solver is measured against, and shows how far the algorithm itself reaches.

    python benchmarks/handwritten_svoyi.py [--sizes 6,7,8] [--positions 5] [--first 0] [--seconds 10]
                                           [--max-positions N] [--skip-engine]

prints, per size, for the hand-written search and for ``cardspec.players.solve.solve`` on the same endings
(``benchmarks/solve_reach.py``'s ``position``, seeds ``--first`` on): how many were proven, the median positions
searched (moves applied) of the proven ones, positions per CPU second over all of them, and each ending's value
for the side to move (W win, L loss, D draw, ? not proven in the limit); then the ratio of the two rates.
``--max-positions`` bounds the hand-written search in positions (both questions together) as well as in
seconds, for counts that do not depend on the machine's load.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import deque

SUITS = "SHDC"
RANKS = "789TJQKA"
INF = 1 << 40
FORCED_CHAIN = 16
WIN = "W"          # a child that ended the match: (WIN, winner)


def card(code: str) -> int:
    """``'TS'`` -> its bit index (suit * 8 + rank)."""
    return SUITS.index(code[1]) * 8 + RANKS.index(code[0])


def mask(codes) -> int:
    m = 0
    for c in codes:
        m |= 1 << card(c)
    return m


def _bits(m):
    while m:
        b = m & -m
        yield b.bit_length() - 1
        m ^= b


class Rules:
    """The play of one ending: ``trumps[seat]`` is that seat's own trump suit (an index into ``SUITS``)."""

    def __init__(self, trumps=(0, 2)):
        self.trumps = tuple(trumps)
        # beats[p][top] = mask of the cards with which seat p beats ``top``
        self.beats = [[0] * 32 for _ in range(2)]
        for p in range(2):
            tr = self.trumps[p]
            for top in range(32):
                ts, trk = divmod(top, 8)
                m = 0
                for c in range(32):
                    cs, cr = divmod(c, 8)
                    if (cs == ts and cr > trk) or (cs == tr and ts != tr):
                        m |= 1 << c
                self.beats[p][top] = m

    @staticmethod
    def root(hand0, hand1, seat: int = 0):
        """The position with ``seat`` to lead onto an empty table; hands as card codes or masks."""
        h0 = hand0 if isinstance(hand0, int) else mask(hand0)
        h1 = hand1 if isinstance(hand1, int) else mask(hand1)
        return (h0, h1, 0, -1, seat, 0)

    def children(self, pos):
        """The positions after each legal move, in card order (a lead or a beat), then a pick-up; a move that
        empties the mover's hand gives ``(WIN, mover)``."""
        h0, h1, tab, top, who, respond = pos
        h = h1 if who else h0
        # a beat leaves the beater to lead; a lead leaves the other seat to answer
        nxt, phase = (who, 0) if respond else (1 - who, 1)
        out = []
        for c in _bits(h & self.beats[who][top] if respond else h):
            nh = h & ~(1 << c)
            if not nh:
                out.append((WIN, who))
            elif who:
                out.append((h0, nh, tab | 1 << c, c, nxt, phase))
            else:
                out.append((nh, h1, tab | 1 << c, c, nxt, phase))
        if respond:   # or pick up the table; the leader leads again
            out.append((h0, h1 | tab, 0, -1, 0, 0) if who else (h0 | tab, h1, 0, -1, 1, 0))
        return out


def retrograde(rules: Rules, root):
    """``(value, positions)``: the value of ``root`` for the side to act (1 win, 0 draw, -1 loss) by backward
    induction over every position reachable from it, and how many there are."""
    index = {root: 0}
    order = [root]
    succ = []
    i = 0
    while i < len(order):
        kids = []
        for c in rules.children(order[i]):
            if c[0] == WIN:
                kids = WIN
                break
            j = index.get(c)
            if j is None:
                j = index[c] = len(order)
                order.append(c)
            kids.append(j)
        succ.append(kids)
        i += 1
    n = len(order)
    val = [0] * n
    left = [0] * n
    preds = [[] for _ in range(n)]
    queue = deque()
    for i, kids in enumerate(succ):
        if kids == WIN:            # the mover empties their hand at once
            val[i] = 1
            queue.append(i)
            continue
        left[i] = len(kids)
        for j in kids:
            preds[j].append(i)
    while queue:
        j = queue.popleft()
        for i in preds[j]:
            if val[i]:
                continue
            v = val[j] if order[i][4] == order[j][4] else -val[j]   # the child's value for i's mover
            if v == 1:
                val[i] = 1
                queue.append(i)
            else:
                left[i] -= 1
                if left[i] == 0:
                    val[i] = -1
                    queue.append(i)
    return val[0], n


class _Stop(Exception):
    pass


def dfpn(rules: Rules, root, attacker: int, deadline: float, max_positions: int = 10 ** 9,
         hint: dict | None = None, lost=frozenset(), eps: float = 0.25):
    """Can ``attacker`` force a win from ``root``? ``(answer True/False/None, positions, table)``;
    the algorithm of ``cardspec.players.solve.dfpn`` (its docstring), without the children cache's bound."""
    tt = {}
    cache = {}
    path = set()
    count = [0]
    one_eps = 1.0 + eps
    children = rules.children
    clock = time.perf_counter

    def estimate(pos, n_moves):
        a = (pos[1] if attacker else pos[0]).bit_count()
        d = (pos[0] if attacker else pos[1]).bit_count()
        a = a * a or 1
        d = d * d or 1
        e = [a, n_moves * d] if pos[4] == attacker else [n_moves * a, d]
        if hint is not None:
            h = hint.get(pos)
            if h is not None and h[1] == 0:
                e[0] = 1
        return e

    def kids_of(pos):
        ks = cache.get(pos)
        if ks is not None:
            return ks
        ks = []
        mover = pos[4]
        for c in children(pos):
            count[0] += 1
            mv = None
            if c[0] != WIN:
                mv = children(c)
                j = 0
                while len(mv) == 1 and j < FORCED_CHAIN:   # a forced move: played inside this child
                    c = mv[0]
                    count[0] += 1
                    j += 1
                    if c[0] == WIN:
                        break
                    mv = children(c)
            if c[0] == WIN:
                if c[1] == mover:          # the mover wins at once: nothing else matters
                    ks = [c]
                    break
                ks.append(c)
                continue
            ks.append(c)
            if c not in tt:
                tt[c] = [INF, 0] if c in lost else estimate(c, len(mv))
        cache[pos] = ks
        return ks

    def numbers(k):
        if k[0] == WIN:
            return (0, INF) if k[1] == attacker else (INF, 0)
        if k in path:
            return (INF, 0)                # a repetition on the line: not a win
        return tt[k]

    def mid(pos, thpn, thdn):
        if count[0] > max_positions or clock() > deadline:
            raise _Stop
        ks = kids_of(pos)
        e = tt[pos]
        attack = pos[4] == attacker
        path.add(pos)
        while True:
            best = None
            b1 = b2 = INF
            bo = -1
            total = 0
            for k in ks:
                ke = numbers(k)
                p, o = (ke[0], ke[1]) if attack else (ke[1], ke[0])
                total += o
                if p < b1:
                    b2, b1, best, bo = b1, p, k, o
                elif p < b2:
                    b2 = p
                    if p == b1 and o > bo:
                        best, bo = k, o
                elif p == b1 and o > bo:
                    best, bo = k, o
            pn, dn = (b1, min(total, INF)) if attack else (min(total, INF), b1)
            e[0], e[1] = pn, dn
            if pn >= thpn or dn >= thdn or not pn or not dn:
                break
            ce = tt[best]
            if attack:
                mid(best, min(thpn, int(b2 * one_eps) + 1), thdn - dn + ce[1])
            else:
                mid(best, thpn - pn + ce[0], min(thdn, int(b2 * one_eps) + 1))
        path.discard(pos)

    tt[root] = estimate(root, len(children(root)))
    if sys.getrecursionlimit() < 100000:
        sys.setrecursionlimit(100000)
    try:
        mid(root, INF, INF)
        return tt[root][0] == 0, count[0], tt
    except _Stop:
        return None, count[0], tt


def dfpn_solve(rules: Rules, root, seconds: float = 10.0, max_positions: int = 10 ** 9):
    """``(value, positions)`` for the side to act: 1, -1, 0 (both questions disproved; a disproof may lean on
    a repetition, which ``cardspec.players.solve`` re-checks and this baseline does not) or None (out of time)."""
    deadline = time.perf_counter() + seconds
    me = root[4]
    a1, n1, t1 = dfpn(rules, root, me, deadline, max_positions)
    if a1 is not False:
        return (1 if a1 else None), n1
    won = frozenset(k for k, v in t1.items() if v[0] == 0)
    a2, n2, _ = dfpn(rules, root, 1 - me, deadline, max_positions - n1, hint=t1, lost=won)
    return (None if a2 is None else -1 if a2 else 0), n1 + n2


def ending(k: int, seed: int):
    """The hands of ``benchmarks/solve_reach.py``'s ``position(game, k, seed)``: ``(hand0, hand1)`` codes."""
    rng = random.Random(seed)
    deck = [r + s for s in "SHDC" for r in "789TJQKA"]
    rng.shuffle(deck)
    return deck[:k], deck[k:2 * k]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="6,7,8")
    ap.add_argument("--positions", type=int, default=5)
    ap.add_argument("--first", type=int, default=0, help="the first seed")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--max-positions", type=int, default=10 ** 9,
                    help="the hand-written search's limit in positions (moves applied), besides --seconds")
    ap.add_argument("--skip-engine", action="store_true", help="only the hand-written search")
    a = ap.parse_args()
    rules = Rules((0, 2))          # solve_reach.py: seat 0 owns spades (trump), seat 1 diamonds (trump)
    engine = None
    if not a.skip_engine:
        sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
        import cardspec
        from cardspec.players.solve import solve
        from solve_reach import position
        engine = cardspec.load("svoyi-koziri", 2)
    letters = {1: "W", 0: "D", -1: "L", None: "?"}
    print(f"{'k':>2} {'search':>12} {'proven':>7} {'median pos':>11} {'pos/cpu s':>10}  values")
    for k in [int(x) for x in a.sizes.split(",")]:
        rows = {"hand-written": [], "cardspec": []}
        for seed in range(a.first, a.first + a.positions):
            h0, h1 = ending(k, seed)
            c0 = time.process_time()
            v, n = dfpn_solve(rules, Rules.root(h0, h1), a.seconds, a.max_positions)
            rows["hand-written"].append((v, n, time.process_time() - c0))
            if engine is not None:
                s = position(engine, k, seed)
                c0 = time.process_time()
                r = solve(s, a.seconds)
                rows["cardspec"].append((r.value, r.nodes, time.process_time() - c0))
        rates = {}
        for name, rs in rows.items():
            if not rs:
                continue
            done = [n for v, n, _ in rs if v is not None]
            rates[name] = sum(n for _, n, _ in rs) / max(1e-9, sum(c for _, _, c in rs))
            med = f"{statistics.median(done):.0f}" if done else "-"
            print(f"{k:>2} {name:>12} {len(done):>3}/{len(rs):<3} {med:>11} {rates[name]:>10.0f}  "
                  f"{''.join(letters[v] for v, _, _ in rs)}", flush=True)
        if len(rates) == 2:
            print(f"{k:>2} {'cardspec / hand-written positions per CPU second':>12}: "
                  f"{rates['cardspec'] / rates['hand-written']:.2f}", flush=True)


if __name__ == "__main__":
    main()
