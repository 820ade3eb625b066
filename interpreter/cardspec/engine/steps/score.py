"""The ``score`` step: a value per seat (an expression of ``seat``) into a counter, added to a total."""
from __future__ import annotations

import re

from ...lang import INT
from ..compiler import _STRING, hoist_invariants, inline_calls
from .base import Step, step_type


@step_type("score")
class Score(Step):
    """Score the deal: ``value`` (an expression of ``seat``) into ``counter``, then added to ``add_to``.

    All seats' values are computed before any is stored, so a value may look at
    every seat's cards. Emits ``deal_score`` with the points and the totals
    (unless ``report: false``, for an intermediate step).
    """

    def __init__(self, game, comp, body, path):
        super().__init__(game, comp, body, path)
        value = comp.code(body.get("value", 0), path + ("value",), (("seat", INT),), (INT,))
        # Every seat's value in one generated function (no call per seat): each definition without
        # parameters evaluated at most once for all seats (_shared_once), and the parts that do not
        # depend on the seat computed once before the loop (compiler.hoist_invariants).
        src = _shared_once(value.src, getattr(game.env, "def_src", {})) if value is not None else "0"
        hoisted, src = hoist_invariants(src, "p_seat")
        memo = ["_m = {}"] if "_m[" in src or any("_m[" in part for _, part in hoisted) else []
        self.values = comp.function("", (), statements=memo + [f"{name} = {part}" for name, part in hoisted] + [
            f"return [{src} for p_seat in range({game.n})]"])
        self.counter = self._counter(game, comp, body.get("counter"), path + ("counter",))
        self.add_to = self._counter(game, comp, body.get("add_to"), path + ("add_to",))
        self.report = bool(body.get("report", True))

    @staticmethod
    def _counter(game, comp, name, path):
        if name is None:
            return None
        c = game.counter.get(str(name))
        if c is None:
            import difflib
            close = difflib.get_close_matches(str(name), list(game.counter), n=1)
            comp.problem(path, f"unknown counter '{name}'", f"did you mean '{close[0]}'?" if close else
                         "counters: " + ", ".join(game.counter))
            return None
        return c.index

    def run(self, s):
        vals = self.values(s)
        if self.counter is not None:
            s.c[self.counter] = list(vals)
        if self.add_to is not None:
            tot = s.c[self.add_to]
            for i, x in enumerate(vals):
                tot[i] += x
        if not self.report or s.events is None:
            return
        ev = {"type": "deal_score", "deal": s.v[2], "points": {str(i): x for i, x in enumerate(vals)}}
        if self.add_to is not None:
            ev["totals"] = {str(i): x for i, x in enumerate(s.c[self.add_to])}
        s.emit(ev)


_NO_ARGS = re.compile(rf"({_STRING})|\b(_d_\w+)\(s\)")


def _shared_once(src: str, defs: dict) -> str:
    """``src`` (a value of ``p_seat``) with what does not depend on the seat computed once for all seats.

    ``defs``: generated function name → (parameter names, body source) of the ruleset's definitions.
    A call of a one-parameter definition with the seat (``deal_points(seat)``) is replaced by its body,
    the seat in place of the parameter; then every call of a definition without parameters
    (``made``, ``unit``) is read from the memo ``_m`` once made. The values are those of the plain
    expression: the state does not change while the seats' values are computed (expressions have no
    effects), and each definition is still first evaluated where the expression first needs it (so a
    definition the expression does not reach is not evaluated).
    """
    src = inline_calls(src, defs, "p_seat")
    keys: dict = {}

    def memo(m):
        name = m.group(2)
        if not name or defs.get(name, (None,))[0] != ():
            return m.group(0)
        k = keys.setdefault(name, len(keys))
        return f"(_m[{k}] if {k} in _m else _m.setdefault({k}, {name}(s)))"

    return _NO_ARGS.sub(memo, src)
