"""``cardspec validate``: every problem of a ruleset, each with file:line:col.

A ruleset is read (YAML, ``extends:``, schema — schema problems are kept, not
raised), then compiled for every supported player count (expressions, names,
types, zones, counters, steps), and for each count a first deal is dealt, so
a deck that cannot be dealt to some player count is reported at the deal
step. Problems that several player counts share are reported once; a problem
at a place the schema already complained about is not repeated.
"""
from __future__ import annotations

import dataclasses

from .errors import BUG_HINT, Problem, RulesetError, _detail

MAX_PLAYERS = 64


def validate_ruleset(name_or_path: str, options: dict | None = None):
    """Check one ruleset (a file path or a built-in name).

    Returns ``(problems, status)``: a list of ``Problem`` sorted by file
    position, and 0 (valid), 1 (invalid) or 2 (unusable input: missing file,
    a folder, not text). Never raises: an unexpected exception (a bug in
    cardspec) becomes one problem with code ``internal/error`` and a bug-report
    hint, status 1.
    """
    try:
        return _validate(name_or_path, options)
    except Exception as e:  # noqa: BLE001 - no Python exception reaches a user
        return [internal_problem(str(name_or_path), e)], 1


def internal_problem(file: str, e: BaseException, line: int = 0, col: int = 0, during: str = "") -> Problem:
    """A ``Problem`` (code ``internal/error``) for an unexpected exception ``e``: its type and text, and
    the bug-report hint of ``cardspec.cli.BUG_HINT``."""
    detail = _detail(e)
    return Problem(file, line, col, f"internal error{during}: unexpected {type(e).__name__}"
                   + (f": {detail}" if detail else ""), BUG_HINT, code="internal/error")


def _validate(name_or_path: str, options: dict | None = None):
    from .engine import Game, State
    from .rules import read_ruleset

    try:
        rs = read_ruleset(name_or_path, strict=False)
    except RulesetError as e:
        return e.problems, (2 if getattr(e, "code", "") == "ruleset/not_found" else 1)
    except RecursionError:
        return [Problem(str(name_or_path), 1, 1, "the ruleset is nested too deeply to read")], 1
    problems = list(rs.problems)
    schema_failed = bool(problems)
    lo, hi = rs.players
    counts = range(lo, hi + 1)
    if lo < 1 or hi < lo or hi > MAX_PLAYERS:
        if hi < lo or not schema_failed:   # the schema reports min < 1 and max > 64 itself
            problems.append(rs.problem(("players",), f"players: min {lo} is above max {hi}" if hi < lo else
                                       f"players: min {lo}, max {hi} is not a usable range",
                                       f"1 <= min <= max <= {MAX_PLAYERS}"))
        # Still compile once, so that problems elsewhere are reported too.
        n = min(max(lo, 1), MAX_PLAYERS)
        rs = dataclasses.replace(rs, data={**rs.data, "players": {"min": n, "max": n}})
        counts = [n]
    # An option default of the wrong type (``default: three`` for an int) is reported by the reader;
    # dealing with it would only add a Python-worded consequence of the same mistake.
    bad_default = any(p.message.startswith("bad default: ") for p in rs.problems)
    deal_failed = set()
    for n in counts:
        try:
            game = Game(rs, n, options)
        except RulesetError as e:
            problems.extend(e.problems)
            if any(p.code.startswith("option/") for p in e.problems):
                break
            continue
        except (Exception, RecursionError) as e:  # noqa: BLE001
            if schema_failed:   # a consequence of a value the schema rejected
                break
            if bad_default:
                break
            problems.append(rs.problem((), f"with {n} players the ruleset cannot be compiled: "
                                           f"{type(e).__name__}: {e}"))
            break
        if bad_default:
            continue
        try:
            State(game, seed=0)
        except RulesetError as e:
            problems.extend(e.problems)
        except Exception as e:  # noqa: BLE001 - a ruleset that crashes its first deal
            step = getattr(e, "step", None)
            path = tuple(getattr(step, "path", ("deal",)))
            if path in deal_failed:
                continue
            deal_failed.add(path)
            problems.append(rs.problem(path, f"with {n} players the first deal fails: {e}",
                                       "check the deck size, the deal sizes and the players range"))
    return _dedupe(problems, schema_failed and len(rs.problems)), (1 if problems else 0)


def _dedupe(problems, n_schema) -> list:
    """Drop repeats (same place and message) and compile problems where the schema already complained."""
    out, seen, schema_at = [], set(), set()
    for i, p in enumerate(problems):
        key = (p.file, p.line, p.col, p.message)
        if key in seen:
            continue
        if n_schema and i >= n_schema and (p.file, p.line, p.col) in schema_at:
            continue
        seen.add(key)
        if n_schema and i < n_schema:
            schema_at.add((p.file, p.line, p.col))
        out.append(p)
    return sorted(out, key=lambda p: (p.file, p.line, p.col))
