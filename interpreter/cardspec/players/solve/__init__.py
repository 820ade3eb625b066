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

The package's parts, each importing only those above it (and the engine, and ``players.base``)::

    _result.py     the values and their words, Result, SolveError, check_solvable, terminal_value
    _key.py        the searches' key of a position, and the key and copy written out per game
    _alphabeta.py  Solver: iterative-deepening alpha-beta (method "alphabeta")
    _pns.py        prove: best-first proof-number search (method "pns"), and the start numbers
    _dfpn.py       dfpn and its children cache, KidCache (method "dfpn", the default)
    _entry.py      solve: the methods behind one call, the two proof-number questions combined
    _bot.py        SolverBot and make (bot spec ``solver``), state_from_public_view, cards_in_play

The names of the one module it was are names of this package too; a setting that a search reads
(``CACHE_STATES``, ``FORCED_CHAIN``) is read in its part (``_dfpn``): change it there.
"""
from __future__ import annotations

from ._result import DRAW, LOSS, VALUE_WORDS, WIN, Result, SolveError, check_solvable, terminal_value
from ._key import _KEY_PARTS, _key, _search_fns   # noqa: F401  (tests compare the key with position_key)
from ._alphabeta import Solver
from ._pns import prove
from ._dfpn import CACHE_STATES, FORCED_CHAIN, KidCache, dfpn
from ._entry import solve
from ._bot import SolverBot, cards_in_play, make, state_from_public_view

__all__ = ["WIN", "DRAW", "LOSS", "VALUE_WORDS", "Result", "SolveError", "check_solvable", "terminal_value", "Solver",
           "prove", "dfpn", "KidCache", "CACHE_STATES", "FORCED_CHAIN", "solve", "SolverBot", "cards_in_play",
           "state_from_public_view", "make"]
