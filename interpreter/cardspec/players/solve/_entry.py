"""``solve(state, seconds, method)``: the entry of the command and the bots; for the proof-number methods, the
two questions ("can the side to move force a win?", then "can the other side?") combined into a ``Result``.
"""
from __future__ import annotations

import gc
import time

from ...engine.effects import FrozenPositions
from ._alphabeta import Solver
from ._dfpn import KidCache, dfpn
from ._pns import prove
from ._result import DRAW, LOSS, WIN, Result, SolveError, check_solvable


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
    root.positions = FrozenPositions(root.positions)   # the root's repetition history only (the package's doc)
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
