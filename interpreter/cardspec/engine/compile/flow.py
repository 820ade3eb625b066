"""Pass 7 of compiling (``engine/compile``): the flow of a match — play order, the deal's steps, how a match
goes on and ends.

Reads: ``data`` (``match:``, ``deal:``), ``comp``, ``env``, ``n``, ``counter``/``counters``, ``ruleset``.
Adds: the play order (``next_expr``, ``_order_key``, ``_order_cache``: ``match: next_player``), ``steps``
(one ``engine.steps`` step per item of ``deal:``; the ``sits_out`` steps first, since whether a seat may sit
out, ``may_sit_out``, decides how the others are built) and the match structure: ``match_deals``,
``match_end``, ``first_dealer``, ``rotate``, ``next_dealer``, ``rounds``, ``round_end``, ``ranking``,
``loser``, ``match_winner``, ``match_loser``, ``score_counter``, ``max_deals``, ``teams``, ``team_groups``
(the teams of ``by: team`` counters, engine/teams.py), ``match_stake``, ``end_at_once`` (set before the steps are built: their
effects check the end after each change, engine/at_once.py).
"""
from __future__ import annotations

import re

from .. import teams as _teams
from ..compiler import INTS, Compiler
from ..steps import base as _steps
from ..steps.sitout import sits_out_steps
from ...lang import BOOL, INT
from .caps import MAX_DEALS, capped

ADDS = ("next_expr", "_order_key", "_order_cache", "may_sit_out", "steps", "match_deals", "match_end",
        "first_dealer", "rotate", "next_dealer", "rounds", "round_end", "ranking", "loser", "match_winner",
        "match_loser", "score_counter", "max_deals", "teams", "team_groups", "end_at_once", "_end_reads", "match_stake")


def run(g):
    comp, data, n = g.comp, g.data, g.n
    # Play order (docs/rulesets.md, "match"): next_player gives the seat after `seat` for dealing,
    # auctions and tricks (a table per State, recomputed as each decision step begins).
    m = data.get("match") or {}
    g.next_expr = None
    g._order_key, g._order_cache = None, {}
    if "next_player" in m:
        code = comp.code(m["next_player"], ("match", "next_player"), (("seat", INT),), (INT,))
        g.next_expr = comp.function(code.src, (("seat", INT),)) if code is not None else \
            comp.expr(m["next_player"], ("match", "next_player"), (("seat", INT),), (INT,))
        if code is not None:
            g._order_key = _slots_read(code.src, getattr(g.env, "def_src", {}))
    # match: end_at_once (engine/at_once.py): read before the steps are built, whose effects check it.
    g.end_at_once = m.get("end_at_once") is True
    g._end_reads, early_end = None, None
    if g.end_at_once and "end" not in m:
        comp.problem(("match", "end_at_once"), "end_at_once: true checks match: end: at once, and there is no end:",
                     "e.g. end: max(score[s] for s in seats) >= target")
    elif g.end_at_once:   # compiled before the steps: their effects check it only after changing what it reads
        code = comp.code(m["end"], ("match", "end"), (), (BOOL,))
        if code is not None:
            g._end_reads = _slots_read(code.src, getattr(g.env, "def_src", {}))
            early_end = comp.function(code.src, ())
    # Steps of a deal and the match structure. The sits_out steps are built first: whether a seat may
    # sit out at this player count (`may_sit_out`) decides how the other steps are compiled.
    deal_spec = data.get("deal") or []
    early = {i: _steps.build(g, comp, deal_spec[i], ("deal", i)) for i in sits_out_steps(deal_spec)}
    #: Whether a ``sits_out`` step may name a seat in this game (docs/rulesets.md): play orders skip it.
    g.may_sit_out = any(st is not None and not st.never for st in early.values())
    g.steps = []
    for i, spec in enumerate(deal_spec):
        step = early[i] if i in early else _steps.build(g, comp, spec, ("deal", i))
        if step is not None:
            g.steps.append(step)
    m = data.get("match") or {}
    g.match_deals = comp.expr(m.get("deals", 0 if "rounds" in m else 1), ("match", "deals"), (), (INT,))
    g.match_end = early_end if early_end is not None else \
        comp.expr(m["end"], ("match", "end"), (), (BOOL,)) if "end" in m else None
    g.first_dealer = int(m.get("first_dealer", 0)) % n
    g.rotate = m.get("rotate", "left")
    g.next_dealer = comp.expr(m["next_dealer"], ("match", "next_dealer"), (), (INT,)) \
        if "next_dealer" in m else None
    g.rounds = comp.expr(m["rounds"], ("match", "rounds"), (), (INT,)) if "rounds" in m else None
    g.round_end = comp.expr(m["round_end"], ("match", "round_end"), (), (BOOL,)) if "round_end" in m else None
    g.ranking = m.get("ranking", "highest")
    g.loser = m.get("loser")
    if g.ranking == "none":
        for key in ("winner", "loser"):
            if key in m:
                comp.problem(("match", key), f"match: ranking: none has no {key} (each player plays against "
                                             f"the house: the result is each seat's net)",
                             "leave out ranking: none, or this key")
    # match: winner / loser as expressions (a seat or a list of seats), evaluated once the match is over.
    # match: stake (docs/rulesets.md, "How a match ends"): the games the win is worth, read at game over
    g.match_stake = comp.expr(m["stake"], ("match", "stake"), (), (INT,)) if "stake" in m else None
    if g.match_stake is not None and g.ranking == "none":
        comp.problem(("match", "stake"), "match: ranking: none has no winner whose win a stake could be worth",
                     "leave out ranking: none, or stake:")
    g.match_winner = _seat_list(g, comp, m, "winner")
    g.match_loser = _seat_list(g, comp, m, "loser") if g.loser not in (None, "highest", "lowest") else None
    g.score_counter = g.counter.get(m.get("score", "score"))
    g.max_deals = capped(comp, m.get("max_deals", 1000), ("match", "max_deals"), 1, MAX_DEALS,
                         "the most deals a match may have")
    g.teams = None
    if m.get("teams"):
        g.teams = [list(t) for t in m["teams"]]
        seen: set = set()
        low = g.ruleset.players[0]
        for i, team in enumerate(g.teams):
            for j, seat in enumerate(team):
                if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < low:
                    comp.problem(("match", "teams", i, j),
                                 f"team seat {seat!r} is not a seat of every game: seats are 0 to {low - 1} "
                                 f"with the fewest players ({low})")
                elif seat in seen:
                    comp.problem(("match", "teams", i, j), f"seat {seat} is in two teams (or twice in one)")
                seen.add(seat)
    for c in g.counters:
        if c.show == "teams" and not g.teams:
            comp.problem(("counters", c.name, "show"), "show: teams needs match: teams (the seats of each team)")
            c.show = "seats"
    _teams.check(g, comp)
    return g


def _seat_list(g, comp: Compiler, m: dict, key: str):
    """``match: winner/loser`` compiled to a function giving a list of seats (None when absent)."""
    if key not in m:
        return None
    path = ("match", key)
    code = comp.code(m[key], path, (), (INT, INTS))
    if code is None:
        return None
    n = g.n
    body = code.src if code.type == INTS else f"({code.src},)"
    f = comp.function(f"[_x for _x in {body} if 0 <= _x < {n}]", ())
    return f


def _slots_read(src: str, defs: dict):
    """``(var slots, counter indices)`` that generated expression ``src`` reads, following the definitions it
    calls (``defs``: function name → (parameters, body)); None when it reads anything else of the state
    (a zone, the trick, a helper given the state) or a string literal might hide a name."""
    vs, cs, seen, todo = set(), set(), set(), [src]
    while todo:
        text = todo.pop()
        if "'" in text or '"' in text:
            return None
        for m in re.finditer(r"\b_d_\w+(?=\(s\b)", text):
            if m.group(0) not in defs:
                return None
            if m.group(0) not in seen:
                seen.add(m.group(0))
                todo.append(defs[m.group(0)][1])
        vs.update(int(x) for x in re.findall(r"\bs\.v\[(\d+)\]", text))
        cs.update(int(x) for x in re.findall(r"\bs\.c\[(\d+)\]", text))
        rest = re.sub(r"\bs\.[vc]\[\d+\]|\b_d_\w+\(s\b", "", text)
        if re.search(r"\bs\b", rest):
            return None
    return tuple(sorted(vs)), tuple(sorted(cs))
