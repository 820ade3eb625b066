"""Pass 8 of compiling (``engine/compile``): the checks that need the whole game built.

Reads: everything the earlier passes added. Adds: ``report`` (``match: report:`` for simulate: name →
(numerator counter, denominator counter, percent)). Problems: a players range or default that makes no
sense, a deal without steps, each step's own ``check``, a ``match: score`` that names no counter, the
``log:`` lines (``{field}`` templates, never ``str.format``: untrusted text, ``rules/loglines.py``) and
the worst-case size and cost of every decision's listing (``engine/listing.py``).
"""
from __future__ import annotations

from ..listing import check_listings
from ...rules import loglines

ADDS = ("report",)


def run(g):
    comp = g.comp
    _semantic_checks(g, comp)
    loglines.check(comp, g.data)   # log: lines are {field} templates, never str.format (untrusted text)
    check_listings(g, comp)   # the worst-case size and cost of every decision's listing (issue 16)
    return g


def _semantic_checks(g, comp):
    rs = g.ruleset
    lo, hi = rs.players
    if lo < 1 or hi < lo:
        comp.problem(("players",), f"players: min {lo} and max {hi} make no sense")
    d = (g.data.get("players") or {}).get("default") if isinstance(g.data.get("players"), dict) else None
    if d is not None and not (isinstance(d, int) and lo <= d <= hi):
        comp.problem(("players", "default"), f"players: default {d} is not between min {lo} and max {hi}")
    if not g.steps:
        comp.problem(("deal",), "a deal needs at least one step")
    for step in g.steps:
        step.check(g, comp)
    if g.score_counter is None and "score" in (g.data.get("match") or {}):
        comp.problem(("match", "score"), f"no counter named '{g.data['match']['score']}'")
    # match.report: name -> (numerator counter index, denominator counter index, percent), for simulate.
    g.report = {}
    for rname, r in ((g.data.get("match") or {}).get("report") or {}).items():
        idx = [g.counter[r[k]].index if r.get(k) in g.counter else None for k in ("counter", "per")]
        for k, i in zip(("counter", "per"), idx):
            if i is None:
                comp.problem(("match", "report", rname, k), f"no counter named '{r.get(k)}'")
        if None not in idx:
            g.report[str(rname)] = (idx[0], idx[1], bool(r.get("percent")))
