"""Seeded games of rulesets, hashed part by part: what a change to the engine must leave as it was.

A game here is a ruleset at one player count played from one seed by actions drawn from a second,
seeded ``random.Random``; each of four drivers plays it and hashes what it sees:

- ``text``: ``legal_actions()`` and ``apply(text)``, with ``legal_choices()`` at each decision;
- ``views``: every seat's and a spectator's ``view(seat)`` at each decision (logs left out);
- ``logs``: every seat's and a spectator's ``log(seat)`` at the end, and ``log_all()``;
- ``ids``: ``legal_action_ids()`` and ``apply_id(id)`` (when the game has an integer action space);
- ``playout``: ``random_playout()`` with the log on and with it off (scores, history, events).

Each part's digest is separate, so a change that should alter one thing (say, what a seat's log shows)
can be seen to alter only that. ``python tests/_seeded_games.py --out FILE`` writes the digests of every
built-in ruleset at every player count it allows; ``--compare FILE`` prints the games whose digests
differ from FILE's (exit 1 when any does). Used by tests/test_frozen_corpus.py for rulesets kept
frozen, and by hand around a change of the engine that must not change any game (issue 33).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

import cardspec
from cardspec.errors import CardspecError

ROOT = Path(__file__).resolve().parent.parent

#: Decisions a game is played for at most (a long rummy match is cut there: enough to compare).
MAX_DECISIONS = 400


def _h(x) -> str:
    return hashlib.sha256(json.dumps(x, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _pick(rng, items):
    return items[rng.randrange(len(items))]


def play_text(game, seed: int, views: bool = False) -> dict:
    """The text driver: ``{"text": digest, "scores": …}`` (and ``views`` when asked)."""
    s = game.new_state(seed=seed)
    rng = random.Random(seed * 7919 + 1)
    trail, seen = [], []
    for _ in range(MAX_DECISIONS):
        if s.terminal:
            break
        legal = s.legal_actions()
        choices = s.legal_choices()
        a = _pick(rng, legal)
        trail.append((s.to_act, list(legal), choices, a))   # (a lazy listing hashed as the list it reads as)
        if views:
            seen.append([s.view(p) for p in [None, *range(s.n)]])
        s.apply(a)
    out = {"text": _h([trail, s.scores(), s.terminal, s.history])}
    if views:
        out["views"] = _h([seen, [s.view(p) for p in [None, *range(s.n)]]])
        out["logs"] = _h([[s.log(p) for p in [None, *range(s.n)]], s.log_all()])
    return out


def play_ids(game, seed: int) -> dict:
    try:
        game.actions
    except CardspecError:
        return {"ids": "none"}
    s = game.new_state(seed=seed)
    rng = random.Random(seed * 104729 + 3)
    trail = []
    for _ in range(MAX_DECISIONS * 4):
        if s.terminal:
            break
        ids = s.legal_action_ids()
        i = _pick(rng, ids)
        trail.append((s.to_act, ids, i))
        s.apply_id(i)
    return {"ids": _h([trail, s.scores(), s.history])}


def play_out(game, seed: int) -> dict:
    out = []
    for record in (True, False):
        s = game.new_state(seed=seed, record=record)
        s.random_playout(random.Random(seed + 17))
        out.append([s.scores(), s.terminal, s.history, s.log_all() if record else None])
    return {"playout": _h(out)}


def digests(ruleset, players: int, seed: int, parts=("text", "ids", "playout")) -> dict:
    """Digest of each part of one seeded game (module doc); a part that fails gives its error's text."""
    game = cardspec.load(ruleset, players=players)
    out = {}
    for part, fn in (("text", lambda: play_text(game, seed, views="views" in parts)),
                     ("ids", lambda: play_ids(game, seed)), ("playout", lambda: play_out(game, seed))):
        if part not in parts:
            continue
        try:
            out.update(fn())
        except CardspecError as e:
            out[part] = f"error: {str(e).splitlines()[0]}"
    return out


def builtin_games(seeds=range(2)):
    """``(name, players, seed)`` of every built-in ruleset at each player count it allows."""
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        rs = cardspec.read_ruleset(str(path))
        lo, hi = rs.players
        for n in range(lo, hi + 1):
            for seed in seeds:
                yield str(path), rs.name, n, seed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="write the digests (JSON) here")
    ap.add_argument("--compare", help="compare with the digests in this file")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--only", help="comma-separated ruleset names")
    ap.add_argument("--views", action="store_true", help="also hash every view and log (slower)")
    a = ap.parse_args(argv)
    only = set(a.only.split(",")) if a.only else None
    parts = ("text", "ids", "playout", "views") if a.views else ("text", "ids", "playout")
    got = {}
    for path, name, n, seed in builtin_games(range(a.seeds)):
        if only and name not in only:
            continue
        got[f"{name}/{n}/{seed}"] = digests(path, n, seed, parts)
        print(f"{name}/{n}/{seed}", got[f"{name}/{n}/{seed}"], file=sys.stderr, flush=True)
    if a.out:
        Path(a.out).write_text(json.dumps(got, indent=1, sort_keys=True))
    if a.compare:
        old = json.loads(Path(a.compare).read_text())
        bad = 0
        for k, v in got.items():
            w = old.get(k)
            if w is None:
                print(f"{k}: not in {a.compare}")
                continue
            diff = [p for p in v if w.get(p) != v[p]]
            if diff:
                bad += 1
                print(f"{k}: differs in {', '.join(diff)}")
        print(f"{len(got)} games, {bad} differ")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
