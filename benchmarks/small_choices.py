"""Small choices (issue 21, item 6, engine side): random matches before and after, and the id API against OpenSpiel.

    python benchmarks/small_choices.py [--baseline REV] [--seconds S] [--rounds R] [--json]

Prints, from one run:

- ``random matches``: whole random matches per second of eleusis-prophets and burraco through
  ``Game.new_state(record=False).random_playout()`` (``cardspec_loop`` of ``benchmarks/playouts.py``),
  with this checkout's engine (``after``) and with the engine of git revision ``--baseline`` (``before``:
  the commit before small choices, default ``5ae8859``; its ``interpreter/`` and ``rulesets/`` are
  unpacked with ``git archive`` into a temporary folder and measured in a subprocess, interleaved with
  ``after``), and the ratio (targets: eleusis-prophets >= 20, burraco >= 10). The random player of
  ``after`` draws each small choice uniformly among the legal ones (docs/actions.md), ``before`` drew
  uniformly among the whole legal actions: the matches differ, so games/s compares the two random
  players as well as the engines.
- ``hearts ids``: random Hearts deals (``deals: 1``) played through ``legal_action_ids()`` and
  ``apply_id()`` against OpenSpiel's ``hearts`` through its Python API (``legal_actions()`` /
  ``apply_action()``, chance outcomes sampled), games/s and the ratio (target >= 1.0).

The machines here are noisy: each figure is the best of ``--rounds`` interleaved rounds; compare the
ratios of one run, not figures of different runs.

``--play RULESET N`` only plays N random matches (seeds 1..N, ``random_playout``, ``record=False``): run
it under ``valgrind --tool=callgrind`` with N and with 0 (``PYTHONHASHSEED=0``)
and divide the difference of the instruction counts by N (per match; by the matches' turns, per turn); the
figure does not move with the machine's load (docs/performance.md, "Random burraco matches").
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "interpreter"))

MATCHES = ("eleusis-prophets", "burraco")
TARGETS = {"eleusis-prophets": 20.0, "burraco": 10.0}
BASELINE = "5ae8859"

#: Measures random_playout games/s of one ruleset for SECONDS; prints the figure. Run with the
#: baseline's interpreter on PYTHONPATH (and the current one for ``after``).
_LOOP = """
import random, sys, time
import cardspec
game = cardspec.load(sys.argv[1])
rng = random.Random(7)
seconds = float(sys.argv[2])
n = 0
t0 = time.perf_counter()
while True:
    game.new_state(record=False, rng=rng).random_playout()
    n += 1
    now = time.perf_counter()
    if now - t0 >= seconds:
        break
print(n / (now - t0))
"""


def _loop_rate(pythonpath: str, name: str, seconds: float) -> float:
    env = dict(os.environ, PYTHONPATH=pythonpath)
    out = subprocess.run([sys.executable, "-c", _LOOP, name, str(seconds)], env=env, capture_output=True,
                         text=True, timeout=max(600, seconds * 20))
    if out.returncode != 0:
        raise RuntimeError(f"{name}: {out.stderr.strip()[-500:]}")
    return float(out.stdout.strip())


def _unpack(rev: str, into: str) -> str:
    """``interpreter/``, ``rulesets/`` and ``schema/`` of git revision ``rev`` under ``into``; returns its interpreter path."""
    arch = subprocess.run(["git", "-C", ROOT, "archive", rev, "interpreter", "rulesets", "schema"], capture_output=True,
                          check=True).stdout
    subprocess.run(["tar", "-x", "-C", into], input=arch, check=True)
    return os.path.join(into, "interpreter")


def matches(baseline: str, seconds: float, rounds: int) -> dict:
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        before_path = _unpack(baseline, tmp)
        after_path = os.path.join(ROOT, "interpreter")
        for name in MATCHES:
            best = {"before": 0.0, "after": 0.0}
            for _ in range(rounds):
                best["before"] = max(best["before"], _loop_rate(before_path, name, seconds / rounds))
                best["after"] = max(best["after"], _loop_rate(after_path, name, seconds / rounds))
            best["ratio"] = best["after"] / best["before"] if best["before"] else float("inf")
            out[name] = best
    return out


def hearts_ids_rate(seconds: float) -> float:
    """Random Hearts deals/s through legal_action_ids / apply_id."""
    import cardspec
    game = cardspec.load("hearts", 4, {"deals": 1})
    game.actions   # built once, outside the clock
    rng = random.Random(0)
    rnd = rng.random
    n = 0
    t0 = time.perf_counter()
    while True:
        s = game.new_state(rng=rng)
        while not s.terminal:
            ids = s.legal_action_ids()
            s.apply_id(ids[int(rnd() * len(ids))])
        n += 1
        now = time.perf_counter()
        if now - t0 >= seconds:
            return n / (now - t0)


def hearts_openspiel_rate(seconds: float) -> float:
    from openspiel_games import openspiel_games_per_second
    return openspiel_games_per_second("hearts", seconds)


def hearts(seconds: float, rounds: int) -> dict:
    best = {"cardspec_ids": 0.0}
    try:
        from openspiel_games import load_pyspiel
        load_pyspiel()
        best["openspiel"] = 0.0
    except ImportError as e:
        print(f"openspiel skipped ({e})", file=sys.stderr)
    for _ in range(rounds):
        best["cardspec_ids"] = max(best["cardspec_ids"], hearts_ids_rate(seconds / rounds))
        if "openspiel" in best:
            best["openspiel"] = max(best["openspiel"], hearts_openspiel_rate(seconds / rounds))
    if best.get("openspiel"):
        best["ratio"] = best["cardspec_ids"] / best["openspiel"]
    return best


def play(name: str, n: int) -> None:
    """N random matches of ``name`` through ``random_playout`` (seeds 1..N, ``record=False``)."""
    import cardspec
    game = cardspec.load(name)
    game.new_state(record=False, rng=random.Random(0))   # built once, outside the count
    for seed in range(1, n + 1):
        game.new_state(record=False, rng=random.Random(seed)).random_playout()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default=BASELINE, help="git revision of the engine before small choices")
    ap.add_argument("--seconds", type=float, default=6.0, help="seconds per engine and ruleset (split over rounds)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--play", nargs=2, metavar=("RULESET", "N"), help="only play N seeded random matches")
    args = ap.parse_args(argv)
    if args.play:
        play(args.play[0], int(args.play[1]))
        return
    res = {"matches": matches(args.baseline, args.seconds, args.rounds), "hearts": hearts(args.seconds, args.rounds)}
    if args.json:
        print(json.dumps(res, indent=1))
        return
    print(f"random matches (games/s; before = {args.baseline})")
    print(f"  {'ruleset':20} {'before':>9} {'after':>9} {'ratio':>7} {'target':>7}")
    for name, row in res["matches"].items():
        print(f"  {name:20} {row['before']:9.3g} {row['after']:9.3g} {row['ratio']:7.1f} {TARGETS[name]:7.0f}")
    h = res["hearts"]
    print("hearts deals/s: legal_action_ids/apply_id " + f"{h['cardspec_ids']:.0f}"
          + (f", openspiel python API {h['openspiel']:.0f}, ratio {h['ratio']:.2f} (target >= 1.0)"
             if "ratio" in h else ""))


if __name__ == "__main__":
    main()
