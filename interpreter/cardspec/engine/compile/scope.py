"""Pass 2 of compiling (``engine/compile``): the names every expression may use, before the author's own.

Reads: ``ruleset``, ``n``, ``options``, ``data``. Adds: ``ns`` (the namespace the generated code runs in),
``env`` (the names expressions may use, with their types and generated code) and ``comp`` (the
``Compiler`` that checks and generates every expression and collects problems at file:line:col). Binds
the engine's names: the system values (``dealer``, ``leader``, …), ``trump`` (a constant ``no_suit``
unless the ruleset sets a trump), ``players``, ``seats``, the trick in progress, ``no_suit``/``none``/
``no_card``, ``sits_out`` (a constant -1 without a ``sits_out`` step) and every option's value as a
constant. A key of ``zones:``, ``counters:``, ``vars:`` or ``options:`` that is not a name is a problem.
"""
from __future__ import annotations

from ..compiler import INTS, Compiler
from ..slots import SYSTEM_VARS
from ..steps.sitout import sits_out_steps
from ..steps.trumps import sets_trump
from ...lang import BOOL, CARD, INT, STR, SUIT, Binding, Env, list_of, literal_src, name_problem
from ...lang.builtins import BUILTINS, _argc
from ...lang.types import Code
from .caps import shown

ADDS = ("ns", "env", "comp")

#: Sections whose keys are names expressions use (docs/rulesets.md): each must pass ``lang.names.name_problem``.
NAME_SECTIONS = ("zones", "counters", "vars", "options")


def _next_player_fn(comp, n, args):
    """``next_player(S)``: the seat after S in play order (``match: next_player``; default left_of(S))."""
    _argc(comp, n, args, 1)
    a = comp.c(args[0])
    comp.want(args[0], a, INT)
    return Code(f"_next_player(s, {a.src})", INT)


BUILTINS["next_player"] = _next_player_fn


def run(g):
    g.ns = {}
    g.env = env = Env(players=g.n, ns=g.ns)
    g.comp = comp = Compiler(g.ruleset, env, g.ns)
    _check_names(comp, g.data)
    _base_names(g, env, comp)
    return g


def _check_names(comp: Compiler, data: dict):
    """A problem at each key of zones:, counters:, vars:, options: that is not a name (``lang.names.name_problem``)."""
    for section in NAME_SECTIONS:
        entries = data.get(section)
        if not isinstance(entries, dict):
            continue
        for name in entries:
            why = name_problem(name)
            if why is not None:
                comp.problem((section, name), f"{section}: {why}", "a name is letters, digits and _ "
                             "(not starting with a digit), e.g. won_tricks")


def _base_names(g, env: Env, comp: Compiler):
    n = g.n
    for i, (name, t, _) in enumerate(SYSTEM_VARS):
        env.names[name] = Binding(f"s.v[{i}]", t)
    # Only a `trump` step or effect sets the trump suit: without one it is no_suit for the whole match,
    # a constant the expressions fold away (`card.suit == trump` is false for every card).
    if not sets_trump(g.data):
        env.names["trump"] = Binding("-1", SUIT, const=True)
    env.names["players"] = Binding(str(n), INT, const=True)
    env.names["seats"] = Binding(f"range({n})", INTS, const=True)
    # The trick in progress (docs/tricks.md): its cards and their seats in play order, its first card.
    env.names["trick"] = Binding("[_p[1] for _p in s.plays]", list_of(CARD))
    env.names["trick_seats"] = Binding("[_p[0] for _p in s.plays]", INTS)
    env.names["led_card"] = Binding("(s.plays[0][1] if s.plays else -1)", CARD)
    env.names["no_suit"] = Binding("-1", SUIT, const=True)
    env.names["none"] = Binding("-1", INT, const=True)
    env.names["no_card"] = Binding("-1", CARD, const=True)
    g.ns["_next_player"] = g.next_player
    # A seat that sits out a deal (steps/sitout.py): without a sits_out step nobody ever does.
    if not sits_out_steps(g.data.get("deal") or []):
        env.names["sits_out"] = Binding("-1", INT, const=True)
    env.engine = dict(env.names)   # the engine's own bindings (EngineText reads them; options may hide them)
    for name, value in g.options.items():
        t = {"int": INT, "bool": BOOL, "list": list_of(STR)}.get(
            (g.ruleset.options.get(name) or {}).get("type", "int"), STR)
        try:
            src = literal_src(value)
        except ValueError as e:
            comp.problem(("options", name), f"option '{shown(name)}': {e}")
            src = "0"
        env.names[name] = Binding(src, t, const=True)
