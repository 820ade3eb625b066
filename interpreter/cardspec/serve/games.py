"""The rulesets and games a server's tables are made of: the catalogue of built-in rulesets clients choose from
(``ruleset_catalogue``), the check of a ``create`` message's option values (``_check_option``), the Game shared
by every table with the same ruleset, players and options (``_load_game``), and the digest of a ruleset a stored
table is bound to (``ruleset_digest``).
"""
from __future__ import annotations

import functools
import json

from ..players import offered_opponents
from ..errors import CardspecError
from .messages import ProtocolError
from .store import ruleset_hash


@functools.lru_cache(maxsize=1)
def ruleset_catalogue() -> list:
    """Built-in rulesets: ``[{"name", "title", "players": {"min", "max"}, "options": {name: spec}}]``, with
    ``teams`` (lists of seats, when the ruleset fixes partnerships), ``score`` (the counter of match totals) and ``log`` (event type → the ruleset's
    ``{field}`` line for it) when the ruleset has them.

    A built-in file that does not load (a ruleset being written) is left out.
    """
    from ..rules import builtin_names, read_ruleset
    out = []
    for name in builtin_names():
        try:
            rs = read_ruleset(name)
        except CardspecError:
            continue
        lo, hi = rs.players
        opts = {k: {kk: vv for kk, vv in v.items() if kk in ("type", "default", "min", "max", "values", "help")}
                for k, v in (rs.options or {}).items()}
        entry = {"name": name, "title": rs.title, "players": {"min": lo, "max": hi, "default": rs.default_players},
                 "options": opts}
        teams = (rs.data.get("match") or {}).get("teams")
        if isinstance(teams, list) and all(isinstance(t, list) and all(type(x) is int for x in t) for t in teams):
            entry["teams"] = teams          # fixed partnerships: a client labels team scores and melds by them
        score = (rs.data.get("match") or {}).get("score")
        if isinstance(score, str):          # the counter holding the match totals (the scores a view carries)
            entry["score"] = score
        log = rs.data.get("log")
        if isinstance(log, dict):           # the ruleset's own log lines ({field} templates) for its events
            entry["log"] = {str(k): str(v) for k, v in log.items()}
        entry["bots"] = offered_bots(rs)
        out.append(entry)
    return out


def offered_bots(rs) -> list:
    """The opponents a lobby offers for ruleset ``rs`` (``players.offered_opponents``), the first the default."""
    return offered_opponents(rs.data)


@functools.lru_cache(maxsize=64)
def _game(ruleset: str, players: int, options_json: str):
    from .. import load
    return load(ruleset, players, json.loads(options_json))


def _load_game(ruleset, players, options, private: bool = False):
    """The Game, shared by every table with the same ruleset, players and options (an LRU cache of 64), or a
    ``private`` one (a table where rules are typed at run time). Raises ``ProtocolError`` ``ruleset/invalid``."""
    try:
        if private:
            from .. import load
            return load(ruleset, players, options)
        return _game(ruleset, players, json.dumps(options, sort_keys=True))
    except CardspecError as e:
        raise ProtocolError("ruleset/invalid", str(e)) from None


#: Integer options without a ``max`` in their ruleset are still refused past this (protocol input).
MAX_OPTION_INT = 10 ** 9


def _check_option(key: str, spec: dict, value) -> None:
    """A ``create`` option value of exactly the option's JSON type: an ``int`` option takes an integer
    (``4.0`` and ``true`` are refused), a ``bool`` option ``true``/``false``, others a string or one of
    their ``values``. Raises ``ProtocolError`` ``ruleset/invalid``; the ruleset checks ranges after."""
    t = spec.get("type", "int")
    values = spec.get("values")
    if values is not None:
        ok = value in values and type(value) in {type(v) for v in values} or \
            type(value) is str and value in [str(v) for v in values]
        want = "one of " + ", ".join(json.dumps(v) for v in values)
    elif t == "int":
        ok = type(value) is int and -MAX_OPTION_INT <= value <= MAX_OPTION_INT
        want = f"an integer from {-MAX_OPTION_INT} to {MAX_OPTION_INT}"
    elif t == "bool":
        ok, want = type(value) is bool, "true or false"
    else:
        ok, want = type(value) is str, "a string"
    if not ok:
        shown = json.dumps(value)
        raise ProtocolError("ruleset/invalid", f"option '{key}' takes {want}; got {shown[:60]}")


@functools.lru_cache(maxsize=64)
def ruleset_digest(name: str) -> str:
    """The content hash a stored table is bound to: of the merged ruleset (its extends: chain included), so a
    change in a base file counts too. Raises ``ProtocolError`` when the ruleset cannot be read."""
    from ..rules import read_ruleset
    try:
        rs = read_ruleset(name)
    except CardspecError as e:
        raise ProtocolError("ruleset/invalid", str(e)) from None
    return ruleset_hash(json.dumps(rs.data, sort_keys=True, default=str))
