"""The ``score`` step: a value per seat (an expression of ``seat``) into a counter, added to a total."""
from __future__ import annotations

from ...lang import INT
from ..compiler import hoist_invariants
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
        # Every seat's value in one generated function (no call per seat); the parts that do not
        # depend on the seat are computed once before the loop (compiler.hoist_invariants).
        hoisted, src = hoist_invariants(value.src, "p_seat") if value is not None else ([], "0")
        self.values = comp.function("", (), statements=[f"{name} = {part}" for name, part in hoisted] + [
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
