"""The ``sits_out`` step: one seat sits this deal out (docs/rulesets.md, "A seat that sits out a deal").

YAML::

    - sits_out: if players == 6 then dealer else none    # a seat expression; none: every seat plays

From this step to the end of the deal the seat it names sits out: it is dealt no cards and every
play order skips it — the ``deal`` step's per-seat dealing, ``auction``, ``bid``, ``pass``,
``tricks`` (a trick is complete with one card fewer) and ``turns`` — so it never acts. A step whose
first seat (``first_leader``, ``first``, ``start``) is the sitting-out seat starts at the next seat in
play order. Expressions read the seat as ``sits_out`` (``none``, -1, when every seat plays; every new
deal starts with ``none``). The seat is in no side unless the ruleset's expressions say so (a score
expression decides what it scores). Its view shows the table as a spectator's does.

Emits ``{"type": "sits_out", "seat": S}`` (public) when a seat sits out.

When the expression is the constant ``none`` for this player count (``if players == 6 then dealer
else none`` with five players), the game is compiled as if the step were not there: ``sits_out`` is
the constant ``none`` and the tricks step keeps its fixed-size code.
"""
from __future__ import annotations

from .base import Step, step_type
from ..slots import SITS_OUT
from ...lang import INT


@step_type("sits_out")
class SitsOut(Step):
    """Set the seat that sits out the rest of this deal (``none``: every seat plays); emits ``sits_out``."""

    def __init__(self, game, comp, body, path):
        super().__init__(game, comp, body, path)
        if body == {} or isinstance(body, (dict, list)) or body is None:
            comp.problem(path, "sits_out takes a seat expression (none: every seat plays), e.g. sits_out: dealer")
            body = "none"
        code = comp.code(body, path, (), (INT,))
        #: True when the expression is the constant none for this game (nobody ever sits out).
        self.never = code is None or (code.const and code.src.strip("() ") == "-1")
        self.seat = comp.function(code.src, ()) if not self.never else None

    def run(self, s):
        if self.seat is None:
            return
        seat = self.seat(s)
        seat = seat % s.n if seat >= 0 else -1
        s.v[SITS_OUT] = seat
        s.nxt = None   # the play order changes: made again when next asked (Game.next_player)
        if seat >= 0 and s.events is not None:
            s.emit({"type": "sits_out", "seat": seat})


def sits_out_steps(deal_spec) -> list:
    """Indexes of the ``sits_out`` items of a ruleset's ``deal:`` list."""
    if not isinstance(deal_spec, list):
        return []
    return [i for i, x in enumerate(deal_spec) if isinstance(x, dict) and "sits_out" in x]
