"""Pass 1 of compiling (``engine/compile``): the ruleset read, its players and options fixed.

Reads: the ruleset (a ``Ruleset``, a built-in name or a path), the player count and the option values
asked for. Adds: ``ruleset``, ``name``, ``n`` (seats), ``options`` (every option's value, defaults
filled), ``data`` (the ruleset's data with every ``by_option`` replaced by the chosen case) and
``_options_named`` (filled by later passes: the options a step field names).

Raises ``RulesetError`` (code ``players/out_of_range``) for a player count outside the ruleset's range.
"""
from __future__ import annotations

from ...errors import RulesetError
from ...rules import Ruleset, is_by_option, read_ruleset

ADDS = ("ruleset", "name", "options", "_options_named", "n", "data")


def run(g, ruleset, players: int | None = None, options: dict | None = None):
    if not isinstance(ruleset, Ruleset):
        ruleset = read_ruleset(str(ruleset))
    g.ruleset = rs = ruleset
    g.name = rs.name
    lo, hi = rs.players
    if players is None:
        players = rs.default_players
    g.options = rs.option_values(options)
    g._options_named = set()   # options a step field names (option_named), for options_read
    if not (lo <= players <= hi):
        count = f"{lo}" if lo == hi else f"{lo} to {hi}"
        err = RulesetError(rs.problem(("players",), f"{rs.name} is for {count} players, not {players}"))
        err.code = "players/out_of_range"
        raise err
    g.n = players
    g.data = resolve_by_option(rs.data, g.options)
    return g


def _case_text(x) -> str:
    """A ``by_option`` case key or option value as text: a bool option's ``true`` matches the key
    ``true`` (YAML may hand the key over as text, the option's value is a bool)."""
    return ("true" if x else "false") if isinstance(x, bool) else str(x)


def resolve_by_option(data, options):
    """Replace every ``{by_option: NAME, cases: {...}, default: …}`` with the chosen case
    (``{by_option: NAME}`` alone: the option's value itself)."""
    if isinstance(data, dict):
        if is_by_option(data):
            value = options.get(data["by_option"])
            if "cases" not in data:
                return value
            cases = data["cases"]
            for k, v in cases.items():
                if _case_text(k) == _case_text(value):
                    return resolve_by_option(v, options)
            return resolve_by_option(data.get("default"), options)
        return {k: resolve_by_option(v, options) for k, v in data.items()}
    if isinstance(data, list):
        return [resolve_by_option(v, options) for v in data]
    return data
