"""Random-playout speed: cardspec against OpenSpiel and a hand-written engine, ratios from one run.

    python benchmarks/playouts.py [--json] [--seconds S] [--only hearts,oh-hell]

For every built-in ruleset it measures whole games (matches) per second:

- ``cardspec_loop``: cardspec's own fastest random-playout loop
  (``Game.new_state(record=False).random_playout()``: internal moves, no
  text, no event log);
- ``cardspec_api``: the public step API from Python (``legal_actions()`` and
  ``apply(text)``), a uniformly random legal action each step;
- ``openspiel``: OpenSpiel's same game through its Python API with random
  actions (hearts, oh-hell), when ``open_spiel`` is installed;
- ``handwritten``: ``benchmarks/handwritten_hearts.py``, a plain hand-written
  Python Hearts (the floor a Python interpreter can approach).

Hearts and Oh Hell are measured as single deals (``deals=1``), like
OpenSpiel's games; other rulesets as whole matches with their defaults and the
minimum player count (Oh Hell: a random hand size per deal, like OpenSpiel).
The machines here are noisy: compare the ratios printed by one run, not
figures from different runs.

    python benchmarks/playouts.py --callgrind N [--only red-dog,red-dog-casino]

instead counts instructions (valgrind's callgrind, ``PYTHONHASHSEED=0``), which do not move with
the machine's load: each ruleset's loop and API (the same matches as above, ``random.Random(7)``)
run for N and for 2N matches in a child process (``--play NAME ENGINE N``), and
(instructions(2N) - instructions(N)) / N is the cost of one match (loading and starting cancel
out). It prints instructions per match for both and api / loop (at least 1: the loop is no slower
than the public API). Loop and API draw differently, so they play different matches: where match
lengths vary a lot (Red Dog), use a large N (40) before reading api / loop.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "interpreter"))

import cardspec  # noqa: E402
from cardspec.rules import builtin_names  # noqa: E402

# Ruleset → (players, options) used for the measurement.
SETTINGS = {
    "hearts": (4, {"deals": 1}),
    "oh-hell": (4, {"deals": 1}),
    "sheepshead": (5, {}),
    "briscola-chiamata": (5, {}),
    # the five-player team games, one deal (Goninkan: one round, one to three deals)
    "napoleon": (5, {"deals": 1}),
    "briscola-bugiarda": (5, {"deals": 1}),
    "goninkan": (5, {"rounds": 1}),
}
OPENSPIEL = {"hearts": "hearts", "oh-hell": "oh_hell(players=4)"}


def games_per_second(play_one, seconds: float, seed: int = 0) -> float:
    """Call ``play_one(i)`` for about ``seconds``; whole games only. Returns games/s."""
    clock = time.perf_counter
    n = 0
    t0 = clock()
    deadline = t0 + seconds
    while True:
        play_one(n + seed * 1_000_003)
        n += 1
        now = clock()
        if now >= deadline:
            return n / (now - t0)


def loop_player(game):
    rng = random.Random(7)

    def play(i):
        game.new_state(record=False, rng=rng).random_playout()
    return play


def api_player(game):
    rng = random.Random(7)

    def play(i):
        s = game.new_state(rng=rng)
        while not s.terminal:
            legal = s.legal_actions()
            s.apply(legal[int(rng.random() * len(legal))])
    return play


def play(name: str, engine: str, n: int) -> None:
    """Play ``n`` matches of ``name`` (SETTINGS) with ``engine`` (``loop`` or ``api``): the child that
    ``--callgrind`` counts."""
    players, options = SETTINGS.get(name, (None, {}))
    game = cardspec.load(name, players, options)
    run = (loop_player if engine == "loop" else api_player)(game)
    for i in range(n):
        run(i)


def _instructions(name: str, engine: str, n: int) -> int:
    """Instructions (callgrind's Ir) of ``playouts.py --play NAME ENGINE N`` in this interpreter."""
    import re
    import subprocess
    env = dict(os.environ, PYTHONHASHSEED="0",
               PYTHONPATH=os.pathsep.join([os.path.join(HERE, "..", "interpreter"), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          os.path.abspath(__file__), "--play", name, engine, str(n)],
                         env=env, capture_output=True, text=True)
    m = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode != 0 or m is None:
        raise RuntimeError(f"callgrind of {name} {engine}: {out.stderr.strip()[-500:]}")
    return int(m.group(1))


def callgrind(names, n: int) -> int:
    """Print instructions per match of the loop and the API of each ruleset (``n`` and ``2n`` matches)."""
    print(f"instructions per match (callgrind, {n} and {2 * n} matches, PYTHONHASHSEED=0)")
    print(f"{'ruleset':34} {'loop':>14} {'api':>14} {'api/loop':>9}")
    for name in names:
        per = {e: (_instructions(name, e, 2 * n) - _instructions(name, e, n)) / n for e in ("loop", "api")}
        print(f"{name:34} {per['loop']:>14,.0f} {per['api']:>14,.0f} {per['api'] / per['loop']:>9.2f}", flush=True)
    return 0


def measure(names, seconds, rounds=1):
    """games/s per engine and ruleset: the best of ``rounds`` interleaved measurements.

    Interference on a shared machine only ever slows a measurement down, so the
    best of several short rounds, taken in turn for every engine, is the figure
    least disturbed by it (the same reason ``timeit`` reports a minimum time).
    """
    results = {}
    for name in names:
        players, options = SETTINGS.get(name, (None, {}))
        try:
            game = cardspec.load(name, players, options)
        except cardspec.RulesetError as e:
            print(f"{name}: cannot load: {e}", file=sys.stderr)
            continue
        engines = {"cardspec_loop": lambda s: games_per_second(loop_player(game), s),
                   "cardspec_api": lambda s: games_per_second(api_player(game), s)}
        if name in OPENSPIEL:
            try:
                from openspiel_games import load_pyspiel, openspiel_games_per_second
                load_pyspiel()
                engines["openspiel"] = lambda s: openspiel_games_per_second(OPENSPIEL[name], s)
            except ImportError as e:
                print(f"{name}: openspiel skipped ({e})", file=sys.stderr)
        if name == "hearts":
            from handwritten_hearts import play_random_game
            rng = random.Random(0)
            engines["handwritten"] = lambda s: games_per_second(lambda i: play_random_game(rng), s)
        row = {}
        for _ in range(max(rounds, 1)):
            for key, run in engines.items():
                row[key] = max(row.get(key, 0.0), run(seconds / max(rounds, 1)))
        results[name] = {k: (round(v, 1) if v >= 10 else float(f"{v:.3g}")) for k, v in row.items()}
    return results


def _rate(x: float, width: int) -> str:
    """A games/s cell: whole numbers, but two significant digits below 10 (a long match: 0.31, not 0)."""
    return f"{x:>{width}.0f}" if not x < 10 else f"{x:>{width}.2g}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print JSON only")
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds per engine and ruleset (split over the rounds)")
    ap.add_argument("--only", default="", help="comma-separated ruleset names")
    ap.add_argument("--rounds", type=int, default=5,
                    help="interleaved rounds per ruleset; each engine's best round is reported")
    ap.add_argument("--callgrind", type=int, metavar="N",
                    help="count instructions per match of loop and API over N and 2N matches instead")
    ap.add_argument("--play", nargs=3, metavar=("NAME", "ENGINE", "N"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.play:
        return play(args.play[0], args.play[1], int(args.play[2]))
    names = [n for n in args.only.split(",") if n] or builtin_names()
    if args.callgrind:
        return callgrind(names, args.callgrind)
    results = measure(names, args.seconds, args.rounds)
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"{'ruleset':34} {'loop':>9} {'api':>9} {'openspiel':>10} {'handwritten':>12}   games/s")
    for name, row in results.items():
        cells = [_rate(row.get(k, float('nan')), 9) for k in ("cardspec_loop", "cardspec_api")]
        cells.append(_rate(row['openspiel'], 10) if "openspiel" in row else f"{'-':>10}")
        cells.append(_rate(row['handwritten'], 12) if "handwritten" in row else f"{'-':>12}")
        print(f"{name:34} " + " ".join(cells))
    h = results.get("hearts")
    if h and "openspiel" in h and "handwritten" in h:
        print("\nhearts targets (from this run):")
        print(f"  loop / openspiel   = {h['cardspec_loop'] / h['openspiel']:.2f}  (target >= 1.0)")
        print(f"  loop / handwritten = {h['cardspec_loop'] / h['handwritten']:.2f}  (target >= 0.5)")
        print(f"  api  / openspiel   = {h['cardspec_api'] / h['openspiel']:.2f}  (target >= 0.5)")


if __name__ == "__main__":
    sys.exit(main())
