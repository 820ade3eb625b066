"""Pass 8 of compiling (``engine/compile``): the checks that need the whole game built.

Reads: everything the earlier passes added. Adds: ``report`` (``match: report:`` for simulate: name →
(numerator counter, denominator counter, percent)). Problems: a players range or default that makes no
sense, a deal without steps, each step's own ``check``, a ``match: score`` that names no counter, the
``log:`` lines (``{field}`` templates, never ``str.format``: untrusted text, ``rules/loglines.py``) and
the worst-case size and cost of every decision's listing (``engine/listing.py``).
"""
from __future__ import annotations

from . import leaks
from ..listing import check_listings
from ...cards import RANK_VALUES
from ...rules import loglines

ADDS = ("report",)


def run(g):
    comp = g.comp
    _semantic_checks(g, comp)
    _rank_order(g, comp)
    loglines.check(comp, g.data)   # log: lines are {field} templates, never str.format (untrusted text)
    check_listings(g, comp)   # the worst-case size and cost of every decision's listing (issue 16)
    leaks.run(g)   # no value every seat sees reads cards some seat cannot see (issue 32)
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


def _rank_order(g, comp):
    """A warning at ``deck: ranks:`` when they are listed in an order of the author's own but a tricks step
    ranks cards by the default key, ``card.rank`` — the standard order 2 … 10 J Q K A, whatever the list
    says (issue 32 item 3: ``[2 … K, A, J]`` meant the jack highest, ``[A, 2 … K]`` a low ace; both were
    ignored without a word). A list written highest first (A K Q … 2) agrees with the default and says
    nothing. The default itself does not follow the list: a ruleset valid today keeps playing as it did
    (docs/rulesets.md, "Stability"); the warning names the two ways to say what is meant."""
    d = g.deck
    if len(d.ranks) < 2 or not any(st.kind == "tricks" and isinstance(st.body, dict) and "key" not in st.body
                                  for st in g.steps):
        return
    values = [1 if (r == "A" and d.ace == "low") else RANK_VALUES[r] for r in d.ranks]
    if values == sorted(values) or values == sorted(values, reverse=True):
        return
    low_ace = d.ranks[0] == "A" and d.ace != "low" and values[1:] == sorted(values[1:])
    listed = " ".join("10" if r == "T" else r for r in d.ranks)
    hint = ("for a low ace write ace: low (card.rank A = 1, below 2)" if low_ace else
            "to rank cards as listed, give the tricks step key: card.strength (the place in ranks:, lowest "
            "first; add 1000 for trumps as the default does), or list ranks: in the standard order")
    w = g.ruleset.positions.problem(("deck", "ranks"), f"ranks: {listed} are listed in an order of your own, "
                                    "but a trick without key: goes to the highest card.rank, the standard order "
                                    "2 3 … 10 J Q K A", hint)
    w.severity, w.code = "warning", "deck/rank-order"
    g.warnings.append(w)
