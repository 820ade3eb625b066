"""The expression language: parse with Lark, check names and types, generate Python.

An author's expression (``"card.suit == led_suit or not any(c in hand where c.suit == led_suit)"``)
is parsed by the LALR grammar in ``grammar.lark`` (``syntax``, ``fastparse``), then walked once by
``checker._Compiler``: every name is resolved (to a context parameter, a ruleset
definition, a state slot, an option's value, a suit, rank or card literal) and
every operation is type-checked. The result is a small Python expression over
the state's slots (``SUIT[card] == s.v[3]``) that the engine compiles, with all
the ruleset's other expressions, into one module: author text is never given
to ``eval``; only code generated from the checked tree runs.

Evaluation is bounded by construction: no loops but comprehensions over finite
collections, no recursion (a definition may use only earlier definitions), no
exponentiation, integer division by zero yields 0.

Types: ``int`` (seats are ints), ``bool``, ``card``, ``suit``, ``color``,
``str``, and ``list[T]``.

Modules, by job: ``types`` (the types, ``Code``, ``Binding``, ``Env``, ``DslError``),
``syntax`` (parsing and syntax errors), ``names`` (which names from YAML may reach
generated code), ``bounds`` (cost and size bounds), ``checker`` (names and types checked
and Python generated, one walk), ``builtins`` (the built-in functions), ``combinatorics`` (counting over lists of numbers: subsets adding
to a total, pairs, runs), ``runtime`` (what
generated code calls during play). This layer knows no ruleset and no game; the layers
above take its names from here (``from cardspec.lang import compile_expr, Env, INT``), not
from the module that defines them.
"""
from .types import ANY, BOOL, CARD, COLOR, INT, STR, SUIT, Binding, Code, DslError, EngineText, Env, elem, list_of
from .names import UnsafeName, literal_src, name_problem, py_param
from .runtime import NoZone, RuleFault, rank_strength_helper, runtime_helpers
from .syntax import parse
from .builtins import BUILTINS, builtin
from . import combinatorics  # noqa: F401  (registers sum_ways, pairs, runs, tail_same, tail_run)
from . import arrangement  # noqa: F401  (registers deadwood, melds_of)
from .checker import compile_expr, inline_body

__all__ = ["ANY", "BOOL", "BUILTINS", "CARD", "COLOR", "INT", "STR", "SUIT", "Binding", "Code", "DslError", "EngineText", "Env",
           "NoZone", "RuleFault", "UnsafeName", "builtin", "compile_expr", "elem", "inline_body", "list_of",
           "literal_src", "name_problem", "parse", "py_param", "rank_strength_helper", "runtime_helpers"]
