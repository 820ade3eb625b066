"""The common face of the kinds of an action's parameters: ``_Param`` (engine/steps/turns/).

A parameter is one kind of decision: a card of a zone (card.py), several cards (cards.py), a number
(number.py) or a value of a list (choice.py). Each kind is a subclass of ``_Param`` with the methods
below; actions.py makes the parameter of the kind its YAML key names, once at load, and compiles it
with ``compile``; core.py writes and reads its text (``writer``, ``parse``, ``why``) and search.py asks
it for its values and small-choice units (``domain``, ``matching``, ``units``, ``value``). The kind
decides through these methods and a few attributes set at load (``fixed``, ``merged``, ``cardset``,
``digits``), never through a test of ``kind`` in the step.

Small choices (docs/actions.md): a *unit* is one word of a parameter's value, a card of a card or cards
parameter, a value of a choice, a number, or one character of a number spelled in digits.
"""
from __future__ import annotations

import ast

from ....lang import Binding, DslError, compile_expr, py_param


class _Param:
    """One parameter of an action kind (actions.py): its name, what the kind compiled (``values``: the
    function ``(s, seat, *earlier params)`` giving what ``why`` names as legal) and its place in the
    small choices."""

    __slots__ = ("name", "type", "zone", "where", "kmin", "kmax", "lo", "hi", "step", "values", "count",
                 "elem", "ordered", "cands", "search", "srcs", "kmin_lit", "reason", "size", "digits",
                 "fixed", "merged", "cardset", "space", "empty")

    #: The YAML key of the kind (``card``, ``cards``, ``number``, ``choice``).
    kind = None

    def __init__(self, name, spec):
        self.name = name
        self.where = self.values = self.cands = self.search = self.srcs = self.kmin_lit = self.size = None
        self.space = self.empty = None
        self.ordered = False
        self.reason = " ".join(str(spec["reason"]).split()) if spec.get("reason") is not None else None
        self.digits = False   # a number spelled in digits (number.py)
        self.cardset = False  # an unordered set of cards: its units are kept in display order (cards.py)
        self.merged = True    # the action's first chunk carries this parameter's first word (``meld 7H``)
        self.fixed = 1        # units of a parameter of fixed size, else None

    # ---- load ----------------------------------------------------------------------------------------
    def compile(self, game, comp, spec, path, ctx, checks):
        """Compile the parameter from its YAML ``spec`` at ``path`` (``ctx``: the names bound before it):
        set ``type`` and ``values``, append the direct check's statements to ``checks`` and return the
        head of the loop listing its values (``for p_NAME in …:``), or None after recording a problem."""
        raise NotImplementedError

    # ---- text ----------------------------------------------------------------------------------------
    def writer(self, deck):
        """A function giving the words of one value of the parameter (the action's text, core.py)."""
        raise NotImplementedError

    def parse(self, a, j, words, i, deck):
        """``(value, next i)``: the value of the parameter (the ``j``-th of action ``a``) read from
        ``words[i:]``. Raises ``ValueError`` naming what is wrong."""
        raise NotImplementedError

    def why(self, s, name, v, bound):
        """Why value ``v`` is refused, naming the legal values (None when it is fine). ``name``: the
        action's text and the parameter's name; ``bound``: the acting seat and the earlier values."""
        raise NotImplementedError

    # ---- small choices (search.py) -------------------------------------------------------------------
    def words(self, game) -> list:
        """Every word a unit of the parameter can be written as (its part of the action space)."""
        raise NotImplementedError

    def unit_word(self, s, u) -> str:
        """The word of unit ``u``."""
        raise NotImplementedError

    def domain(self, s, a, j, seat, bound, memo):
        """Every value of the parameter (the ``j``-th of action ``a``) given the earlier ones ``bound``,
        kept in ``memo`` (None: card sets listed by search)."""
        raise NotImplementedError

    def matching(self, s, a, j, seat, bound, cur, memo):
        """The values consistent with the units ``cur`` chosen of it (a generator)."""
        raise NotImplementedError

    def value(self, s, seat, bound, cur):
        """The value the units ``cur`` make."""
        return cur[0]

    def units(self, s, a, j, seat, bound, cur, memo, cheap=False):
        """The units that may come next (before the feasibility check; ``cheap``: the cards of a
        ``candidates:`` parameter's pool, without listing its candidates)."""
        raise NotImplementedError

    def may_end(self, s, seat, bound, cur) -> bool:
        """Whether a parameter of variable size (``fixed`` None) may end with units ``cur`` as far as its
        size goes (search.py's ``_can_end`` checks the value)."""
        return bool(cur) and cur != ("-",)


def _literal(comp, text, path, want, params=()):
    """The value of expression ``text`` when it compiles to a Python literal (options and constants are folded
    at load time: ``if: repetition > 0`` is ``True`` for a ruleset whose option is 3), else None. Any
    problem is left to the ``comp.expr`` that compiles the same text."""
    try:
        code = compile_expr(text, comp.env, {name: Binding(py_param(name), t) for name, t in params}, want)
        value = ast.literal_eval(code.src)
    except (DslError, ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, (bool, int)) else None
