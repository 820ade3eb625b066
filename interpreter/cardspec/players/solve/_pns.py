"""``method="pns"``: best-first proof-number search (``prove``), and the proof and disproof numbers a search
starts from (``_shedding_estimate``), which ``_dfpn`` shares.
"""
from __future__ import annotations

import time

from ._key import _search_fns
from ._result import WIN, terminal_value

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
