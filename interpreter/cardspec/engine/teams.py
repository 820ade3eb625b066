"""Team-level counters: one value per team or side, read by any of its seats (docs/teams.md).

YAML::

    counters:
      score:  {per: match, by: team, label: Score}   # match: teams fixes the partnerships
      tricks: {per: deal, by: team}                   # add: {counter: tricks, seat: winner} adds to the winner's team
      side_points: {per: deal, by: side}              # sides: (formed during a deal): the declarer's side, the rest

A counter declared ``by: team`` (or ``by: side``) holds what each seat put into it — an ``add:`` with a
``seat:``, a ``score`` step's value — and is **read by team**: ``tricks[p]`` is the total of ``p``'s team,
the same for both partners, so a side's tricks are added once and read once, never kept twice nor
copied into a variable before scoring. The teams:

- ``by: team``: the partnerships of ``match: teams`` (fixed by seating); a seat in no team is a team of
  its own.
- ``by: side``: the sides of ``sides:`` (docs/sides.md) as they stand when read: the declarer with the
  partner, against every other seat; with no declarer each seat is a side of its own.

Writing: ``add: {counter: C, seat: S, value: V}`` adds V to S's team once; ``add:`` without ``seat:`` adds
once per team; ``set: {C[S]: V}`` makes S's team's total V; a ``score`` step evaluates its value for every
seat and keeps it once per team (its first seat's value, the first seat in seat order). A view's
``counters`` keeps each seat's own part (so a side formed in secret is not shown by a total that grows
when the hidden partner takes a trick); ``display`` shows a ``by: team`` counter one value per team, and
the match totals (``State.scores``) of a ``by: team`` score counter are the teams' totals.

Where the rule comes from: partnership scoring, where both partners' tricks decide the deal, and the
sides formed during a deal, whose card points are the declarer's side's — the games and their digests are
in docs/teams.md.
"""
from __future__ import annotations

#: ``by:`` values of a counter.
BY = ("seat", "team", "side")


def groups(s, by: str) -> tuple:
    """The teams of ``by`` now, each a tuple of seats in seat order, every seat in exactly one (tuple)."""
    g = s.game
    n = s.n
    if by == "team":
        return g.team_groups
    sides = g.sides
    side = sides.team(s) if sides is not None else ()
    if not side:
        return tuple((i,) for i in range(n))
    rest = tuple(i for i in range(n) if i not in side)
    return (side, rest) if rest else (side,)


def fixed_groups(game) -> tuple:
    """The partnerships of ``match: teams`` with a one-seat team for each seat in none (tuple of tuples)."""
    teams = [tuple(sorted(t)) for t in (game.teams or [])]
    seen = {x for t in teams for x in t}
    out = teams + [(i,) for i in range(game.n) if i not in seen]
    return tuple(sorted(out))


def totals(s, row, by: str) -> list:
    """Each seat's team total of the per-seat parts ``row`` (list[int], one entry per seat)."""
    if by == "team":
        return team_totals(s, row)
    out = list(row)
    for grp in groups(s, by):
        if len(grp) > 1:
            t = 0
            for i in grp:
                t += row[i]
            for i in grp:
                out[i] = t
    return out


def team_totals(s, row) -> list:
    """``totals(s, row, "team")``: the partnerships are fixed (``Game.team_groups``), read without
    ``groups``; generated code reading a ``by: team`` counter calls it (``_team_totals``)."""
    out = list(row)
    for grp in s.game.team_groups:
        if len(grp) > 1:
            t = 0
            for i in grp:
                t += row[i]
            for i in grp:
                out[i] = t
    return out


def side_totals(s, row) -> list:
    """``totals(s, row, "side")`` without making the groups: every seat the rest's total, then the side's
    seats (``Sides.team``) the side's; a team of one seat gets its own part, its total. The rest's total
    is the row's less the side's (exact: the parts are ints). Generated code reading a ``by: side``
    counter calls it (``_side_totals``). Raises what ``Sides.team`` raises (a declarer that is no seat)."""
    sides = s.game.sides
    side = sides.team(s) if sides is not None else ()
    if not side:
        return list(row)
    t = 0
    for i in side:
        t += row[i]
    out = [sum(row) - t] * len(row)
    for i in side:
        out[i] = t
    return out


def fixed_totals(groups: tuple, n: int):
    """``team_totals`` for the fixed partnerships ``groups`` (``fixed_groups``) of ``n`` seats, as one
    function ``f(s, row) -> list`` building the list at once: each seat's entry the sum of its team's
    parts, written out (``[row[0] + row[2], row[1] + row[3], …]``: no loop, no call per team). The same
    list as ``team_totals`` for every row of ``n`` ints. Its source holds seat numbers only. None when a
    team names a seat outside ``0 .. n - 1`` (then ``team_totals`` answers)."""
    if not all(type(i) is int and 0 <= i < n for grp in groups for i in grp):
        return None
    out = [f"row[{i}]" for i in range(n)]
    for grp in groups:   # team_totals' loop, on the terms
        if len(grp) > 1:
            t = " + ".join(f"row[{i}]" for i in grp)
            for i in grp:
                out[i] = t
    return eval(compile(f"lambda s, row: [{', '.join(out)}]", "<team totals>", "eval"), {"__builtins__": {}})


def keep_once(s, vals, by: str) -> list:
    """A score step's per-seat values kept once per team: each team's first seat's value, 0 for the rest."""
    out = [0] * len(vals)
    for grp in groups(s, by):
        out[grp[0]] = vals[grp[0]]
    return out


def set_total(s, index: int, seat: int, value: int, by: str) -> None:
    """``set: {C[seat]: value}``: seat's team's total becomes ``value`` (the seat holds it, the rest 0)."""
    row = s.c[index]
    for grp in groups(s, by):
        if seat in grp:
            for i in grp:
                row[i] = 0
    row[seat] = value


def firsts(s, by: str) -> list:
    """The first seat of every team (an ``add:`` without ``seat:`` adds once per team)."""
    return [grp[0] for grp in groups(s, by)]


def install(game) -> None:
    """Put the run-time helpers generated code calls into ``game.ns``."""
    ns = game.ns
    ns["_team_totals"] = team_totals
    ns["_side_totals"] = side_totals
    ns["_team_set"] = set_total
    ns["_team_firsts"] = firsts


def read_src(c) -> str:
    """Generated source that reads counter ``c`` (a ``model.Counter``) as expressions see it."""
    if c.by == "team":
        return f"_team_totals(s, s.c[{c.index}])"
    if c.by == "side":
        return f"_side_totals(s, s.c[{c.index}])"
    return f"s.c[{c.index}]"


def check(game, comp) -> None:
    """Problems with ``by:`` (after ``match:`` is read): ``by: team`` needs ``match: teams``, ``by: side``
    needs ``sides:``; sets ``game.team_groups``."""
    game.team_groups = fixed_groups(game)
    fast = fixed_totals(game.team_groups, game.n)
    if fast is not None:   # generated code reads a by: team counter through it (read_src)
        game.ns["_team_totals"] = fast
    for c in game.counters:
        if c.by == "team" and not game.teams:
            comp.problem(("counters", c.name, "by"), "by: team needs match: teams (the seats of each team)",
                         "e.g. match: {teams: [[0, 2], [1, 3]]}; sides formed during a deal: by: side")
        if c.by == "side" and game.sides is None:
            comp.problem(("counters", c.name, "by"), "by: side needs sides: (docs/sides.md)",
                         "fixed partnerships: by: team with match: teams")
        if c.by == "team" and c.show:   # shown, it is one value per team (each seat holds only its part)
            c.show = "teams"


__all__ = ["BY", "groups", "totals", "keep_once", "install", "read_src", "check"]
