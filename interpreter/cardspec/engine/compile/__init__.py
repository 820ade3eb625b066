"""Compiling a ruleset into a ``Game``: a pipeline of passes, one module each, data flowing one way.

    read → scope → deck → names → declarations → definitions → flow → checks → generate → (frozen Game)

==============  ==================================================================================
``read``        the ruleset read (``cardspec.rules``), its player count and option values fixed,
                ``by_option`` resolved
``scope``       the namespace and the ``Compiler``; the engine's names (system values, options, …)
``deck``        the deck and the card tables expressions index
``names``       no declared name hides an engine name or another declaration
``declarations`` zones, counters, vars, the deck's effective suits, sides
``definitions`` ``define:`` in dependency order, then what reads definitions (vars' visibility, sides)
``flow``        play order, the deal's steps (``engine.steps``), how a match goes on and ends
``checks``      checks of the whole game: steps, ``log:`` templates, listing bounds
``generate``    every problem raised at once, or the generated code compiled; the State's tables and class
==============  ==================================================================================

Each pass is a module with ``run(game) -> game`` (``read.run`` also takes the ruleset, players and options)
and ``ADDS``, the attributes it gives the ``Game`` being compiled; it reads only what earlier passes added
(tests/test_compile_passes.py checks that each adds exactly its ``ADDS`` and changes none of the earlier
ones). The ``Game`` is then frozen: play never changes it (``Game.__setattr__``). Problems are collected
by the ``Compiler`` (``game.comp``) with their file:line:col and raised together by ``generate``; a
problem that stops a pass at once (an unreadable file, players out of range, a deck that cannot be made)
raises its ``RulesetError`` there.

docs/architecture.md draws the pipeline among the package's layers.
"""
from __future__ import annotations

import threading

from . import checks, deck, declarations, definitions, flow, generate, names, read, scope

#: The passes after ``read``, in order.
PASSES = (scope, deck, names, declarations, definitions, flow, checks, generate)

#: Held while a Game compiles: one compile at a time in a process. Compiling parses generated code with
#: ast.parse, and CPython 3.11's AST constructor keeps its recursion depth per interpreter, not per thread,
#: so two threads compiling at once may fail with "SystemError: AST constructor recursion depth mismatch"
#: (CPython gh-106905; seen with simulate's thread executor).
COMPILING = threading.RLock()


def compile_into(game, ruleset, players: int | None = None, options: dict | None = None):
    """Run every pass on ``game`` (a new, empty ``Game``) for ``ruleset`` (a ``Ruleset``, built-in name or
    path), ``players`` seats and ``options`` (name → value). Raises ``RulesetError`` for any problem."""
    with COMPILING:
        game = read.run(game, ruleset, players, options)
        for p in PASSES:
            game = p.run(game)
        del game._pending_vis   # (a hand-over between two passes, not part of the Game)
    return game


__all__ = ["COMPILING", "PASSES", "compile_into", "read"]
