"""The ``score`` step: a value per seat (an expression of ``seat``) into a counter, added to a total."""
from __future__ import annotations

import re

from ...lang import INT
from ..compiler import _STRING, hoist_invariants, inline_calls
from .base import Step, step_type
from .. import teams as _teams


@step_type("score")
class Score(Step):
    """Score the deal: ``value`` (an expression of ``seat``) into ``counter``, then added to ``add_to``.

    All seats' values are computed before any is stored, so a value may look at
    every seat's cards. Into a ``by: team`` or ``by: side`` counter the value is kept once per
    team: its first seat's (engine/teams.py). Emits ``deal_score`` with the points and the totals
    (unless ``report: false``, for an intermediate step).
    """

    def __init__(self, game, comp, body, path):
        super().__init__(game, comp, body, path)
        value = comp.code(body.get("value", 0), path + ("value",), (("seat", INT),), (INT,))
        # Every seat's value in one generated function (no call per seat): each definition without
        # parameters evaluated at most once for all seats (_shared_once), and the parts that do not
        # depend on the seat computed once before the loop (compiler.hoist_invariants).
        src = _shared_once(value.src, getattr(game.env, "def_src", {})) if value is not None else "0"
        hoisted, src = hoist_invariants(src, "p_seat", lazy="_lz")
        memo = ["_m = {}"] if "_m[" in src or any("_m[" in part for _, part in hoisted) else []
        memo += ["_lz = {}"] if "_lz[" in src else []
        self.values = comp.function("", (), statements=memo + [f"{name} = {part}" for name, part in hoisted] + [
            f"return [{src} for p_seat in range({game.n})]"])
        self.counter = self._counter(game, comp, body.get("counter"), path + ("counter",))
        self.add_to = self._counter(game, comp, body.get("add_to"), path + ("add_to",))
        self.report = bool(body.get("report", True))
        # by: team / side counters keep the value once per team (its first seat's; engine/teams.py)
        self._by = tuple(game.counters[i].by if i is not None else "seat" for i in (self.counter, self.add_to))
        self._value_src = value.src if value is not None else "0"

    def check(self, game, comp):
        """A warning when ``counter:`` names the counter that decides the match (``match: score``, kept over
        the match) and the value does not read it: each deal would replace the match totals with the deal's
        points, and a match played to a target would never end by it (issue 38 item 2: five of eight
        outside rulesets wrote ``counter: score`` where ``add_to: score`` was meant)."""
        c = self.counter
        total = game.score_counter
        if c is None or total is None or c != total.index or total.per != "match" or self.add_to == c:
            return
        if _reads_counter(self._value_src, c, getattr(game.env, "def_src", {})):
            return   # the value reads the total itself (score[seat] + …): replacing it is meant
        try:   # a match of one deal: its totals are that deal's points either way
            one_deal = game.match_deals(None) == 1 and game.match_end is None and game.rounds is None
        except Exception:  # noqa: BLE001 - the number of deals depends on the state: more than one may be played
            one_deal = False
        if one_deal:
            return
        path = self.path + (self.kind,)
        body = self.body if isinstance(self.body, dict) else {}
        w = comp.pos.problem(
            path + ("counter",) if "counter" in body else path,
            f"counter: {total.name} replaces the match's totals with this deal's points at every deal "
            f"(the totals never grow{', and match: end may never hold' if game.match_end is not None else ''})",
            f"to add the deal's points to the totals: add_to: {total.name} (and counter: a per-deal counter, or "
            f"no counter:); to mean it, read {total.name} in the value ({total.name}[seat] + …)", key=True)
        w.severity, w.code = "warning", "score/replaces-totals"
        game.warnings.append(w)

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
            by = self._by[0]
            s.c[self.counter] = list(vals) if by == "seat" else _teams.keep_once(s, vals, by)
        if self.add_to is not None:
            by = self._by[1]
            tot = s.c[self.add_to]
            for i, x in enumerate(vals if by == "seat" else _teams.keep_once(s, vals, by)):
                tot[i] += x
        if not self.report or s.events is None:
            return
        ev = {"type": "deal_score", "deal": s.v[2], "points": {str(i): x for i, x in enumerate(vals)}}
        if self.add_to is not None:
            row = s.c[self.add_to]
            if self._by[1] != "seat":   # each seat's team total
                row = _teams.totals(s, row, self._by[1])
            ev["totals"] = {str(i): x for i, x in enumerate(row)}
        s.emit(ev)


def _reads_counter(src: str, index: int, defs: dict) -> bool:
    """Whether generated ``src`` reads counter ``index`` (``s.c[index]``), itself or in a definition it calls."""
    seen, todo = set(), [src]
    while todo:
        text = todo.pop()
        if re.search(rf"\bs\.c\[{index}\]", text):
            return True
        for name in re.findall(r"\b_d_\w+", text):
            if name in defs and name not in seen:
                seen.add(name)
                todo.append(defs[name][1])
    return False


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
