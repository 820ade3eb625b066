"""The ``redeal`` step: the deal is void when a condition holds after dealing, and the same dealer deals again.

YAML::

    - redeal: count(c in table where c.rank == K) >= 3     # a bool expression (no seat, no card)
    - redeal: {if: EXPR, reason: "three kings on the table"}

Where a deal can come out unplayable by the rules — three or four kings among the four table cards of a
fishing game (docs/rules/, "the deal is void and the same dealer shuffles and deals again"), a hand
with no trump or no court card that some games let a player throw in, all passes in an auction (which
the ``auction`` step's ``all_pass: redeal`` does the same way) — the step throws the deal in: the deal
number stays, ``redeals`` counts it (the match ends at ``match: max_deals`` deals and redeals, so a
condition that always holds cannot loop), per-deal counters and vars start again, and the deal's steps
run from the first. Emits ``{"type": "deal_end", "deal": N, "redeal": true, "reason": TEXT}``.

It is an automatic step: put it after the deal steps whose result it judges and before any decision
(a redeal after a decision would throw away what a seat chose; a ruleset that needs that writes the
condition into an auction's ``all_pass``).
"""
from __future__ import annotations

from .base import Step, step_type
from ..slots import DEAL_NUMBER, REDEALS
from ...lang import BOOL


@step_type("redeal")
class Redeal(Step):
    """Throw the deal in and deal again (same dealer, same deal number) when ``if`` holds."""

    def __init__(self, game, comp, body, path):
        super().__init__(game, comp, body, path)
        if isinstance(body, dict):
            cond, self.reason = body.get("if"), str(body.get("reason", ""))
            cpath = path + ("if",)
        else:
            cond, self.reason, cpath = body, "", path
        if cond is None or isinstance(cond, (dict, list)) or body == {}:
            comp.problem(path, "redeal takes a condition: redeal: EXPR or redeal: {if: EXPR, reason: TEXT}",
                         "e.g. redeal: count(c in table where c.rank == K) >= 3")
            cond = "false"
        if not self.reason:
            self.reason = f"{' '.join(str(cond).split())} holds"
        self.cond = comp.expr(cond, cpath, (), (BOOL,))

    def run(self, s):
        if not self.cond(s):
            return
        v = s.v
        v[REDEALS] += 1
        if s.events is not None:
            s.emit({"type": "deal_end", "deal": v[DEAL_NUMBER], "redeal": True, "reason": self.reason})
        if v[DEAL_NUMBER] + v[REDEALS] >= s.game.max_deals:   # (as the auction's all_pass: redeal)
            s._game_over()
            return
        s._start_deal()
        s.pc = -1   # the deal's first step is next (the step loop moves past this one)
