"""A match that ends the moment its end condition holds (``match: end_at_once: true``; docs/rulesets.md,
"A match won at once").

Without it, ``match: end:`` is checked when a deal is over. With it, it is checked again after every effect
that changes a counter or a var it reads (``add``, ``set``, ``transfer``; an effect on anything else,
such as a running count when the end reads the scores, needs no check) and after every automatic step (a
``do`` or ``score`` step): when it holds the match is over there and then, and nothing after that moment runs — the
effects after it in the same list, the rest of the deal. A win the rules grant "the moment a score
reaches the target, even in the middle of the play" is exactly this: points pegged strictly in order, a
card of the play, then each hand shown, the first to the target winning at once (docs/rulesets.md, "A match
won at once", names the games).

Inside a ``turns`` step the end goes through the step's own ``end: match`` machinery (the turn loop stops and
ends the match); elsewhere the state's ``_game_over`` is called at once.
"""
from __future__ import annotations

import re

#: Effects that change a counter or a var: the end condition is checked after each of them.
CHANGING = frozenset({"add", "set", "transfer"})

#: The ``end:`` level of a match (effects.END_LEVELS["match"]).
_MATCH = 4


def _reason(game) -> str:
    m = game.data.get("match") or {}
    return str(m.get("end_reason") or "the match's end condition is met")


def _over_in_turns(s) -> bool:
    """In a turns step: mark the match over for the turn loop (as ``end: match``) when the end holds."""
    g = s.game
    if g.match_end is not None and g.match_end(s):
        ts = s.ts
        if ts[3] < _MATCH and len(ts) > 7:
            ts[7] = (_MATCH, _reason(g))
        ts[3] = max(ts[3], _MATCH)
        return True
    return False


def _over(s) -> bool:
    """Anywhere else: end the match now when the end holds (``State._game_over``)."""
    g = s.game
    if not s.terminal and g.match_end is not None and g.match_end(s):
        s._game_over()
        return True
    return False


def _touches(reads, body) -> bool:
    """Whether an effect's statements ``body`` name a slot the end condition reads (``reads``: ``(var slots,
    counter indices)`` from the flow pass; None: it reads more than slots, so every change counts)."""
    if reads is None:
        return True
    text = "\n".join(body)
    vs = {int(x) for x in re.findall(r"\bs\.v\[(\d+)\]", text)}
    cs = {int(x) for x in re.findall(r"\bs\.c\[(\d+)\]", text)}
    return bool(vs & set(reads[0]) or cs & set(reads[1]))


def check_lines(game, comp, kind: str, body=()) -> list:
    """Statements to put after an effect of ``kind`` (its statements ``body``) when ``game`` ends at once
    (else none): when the match is over, the effects after it do not run. An effect that changes nothing
    the end condition reads (a var of the count when the end reads the scores) is not followed by a check."""
    if not getattr(game, "end_at_once", False) or kind not in CHANGING:
        return []
    if not _touches(getattr(game, "_end_reads", None), body):
        return []
    if getattr(comp, "turn_effects", False):
        comp.ns["_at_once_turns"] = _over_in_turns
        return ["if _at_once_turns(s): return   # match: end_at_once"]
    comp.ns["_at_once"] = _over
    return ["if _at_once(s): return   # match: end_at_once"]


def after_step(s) -> bool:
    """After an automatic step: end the match when ``end_at_once`` and the end condition holds."""
    return s.game.end_at_once and _over(s)
