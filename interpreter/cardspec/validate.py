"""``cardspec validate``: every problem of a ruleset, each with file:line:col.

A ruleset is read (YAML, ``extends:``, schema), then compiled for every
supported player count, and for each a first deal is dealt (so a deck that
cannot be dealt to some player count is reported at the deal step).
"""
from __future__ import annotations

from .engine import Game, State
from .errors import Problem, RulesetError
from .loader import read_ruleset


def validate_ruleset(name_or_path: str, options: dict | None = None):
    """Returns ``(problems, status)``: status 0 valid, 1 invalid, 2 unusable (missing file)."""
    try:
        rs = read_ruleset(name_or_path)
    except RulesetError as e:
        return e.problems, (2 if getattr(e, "code", "") == "ruleset/not_found" else 1)
    problems = []
    seen = set()
    lo, hi = rs.players
    if lo < 1 or hi < lo or hi > 64:
        return [rs.problem(("players",), f"players: min {lo}, max {hi} is not a usable range (1 to 64)")], 1
    for n in range(lo, hi + 1):
        try:
            game = Game(rs, n, options)
        except RulesetError as e:
            for p in e.problems:
                key = (p.file, p.line, p.col, p.message)
                if key not in seen:
                    seen.add(key)
                    problems.append(p)
            if any(p.code.startswith("option/") for p in e.problems):
                break
            continue
        try:
            State(game, seed=0)
        except RulesetError as e:
            for p in e.problems:
                problems.append(p)
        except Exception as e:  # noqa: BLE001 - a ruleset that crashes its first deal
            step = getattr(e, "step", None)
            path = getattr(step, "path", ("deal",))
            problems.append(rs.problem(path, f"with {n} players the first deal fails: {e}"))
    return problems, (1 if problems else 0)
