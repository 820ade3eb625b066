"""Learning front ends against OpenSpiel, for Hearts (issue 21, item 6): ratios from one run.

Two comparisons, each over whole deals with uniformly random legal actions:

1. **PettingZoo env steps/s**: ``cardspec.rl.pettingzoo.env("hearts", options={"deals": 1})`` against
   OpenSpiel's C++ ``hearts`` wrapped for PettingZoo by Shimmy (``OpenSpielCompatibilityV0``). A step
   is one ``env.step(action)`` of an agent that acts (after ``env.last()``: observation and mask),
   the agents' final dead steps not counted.
2. **Action-id API steps/s**: cardspec's ``State.legal_action_ids()`` / ``State.apply_id(i)``
   against OpenSpiel's Python API ``state.legal_actions()`` / ``state.apply_action(a)`` (chance
   outcomes sampled, not counted as steps).

3. The same against ``benchmarks/handwritten_hearts_ids.py``: the deal behind a hand-written
   pure-Python state with the same API (the floor any Python engine can approach; its column is
   headed ``cardspec``).

Both sides play one Hearts deal with a pass (OpenSpiel's ``hearts`` is one deal; cardspec's
``hearts`` ruleset matches it deal for deal, tests/test_hearts_openspiel.py). Each measurement runs
about ``--seconds`` of whole deals; the ratio is cardspec / OpenSpiel (above 1: cardspec is faster).

Usage: ``python benchmarks/rl.py [--seconds 5]`` (needs ``cardspec[rl]`` and ``open_spiel``).

``python benchmarks/rl.py --callgrind N`` instead counts instructions (valgrind's callgrind, which do
not move with the machine's load) of the action-id API against OpenSpiel's, like with like: every
engine of ``benchmarks/hearts_games.py`` (``ids``, ``ids_log``, ``openspiel_ids``, ``openspiel``, and
``handwritten_ids``: the same deal behind a hand-written pure-Python state API,
``benchmarks/handwritten_hearts_ids.py``, the floor a Python engine can approach) run for N and 2N deals, (instructions(2N) - instructions(N)) / N per deal, and the ratios OpenSpiel /
cardspec (above 1: cardspec runs fewer instructions). Both sides pass left (12 one-card passes,
52 plays a deal); ``openspiel`` also draws the pass direction (no pass in a quarter of the deals)
and samples each deal card through ``chance_outcomes()``, as the earlier figures did.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

try:
    import cardspec  # noqa: F401  (PYTHONPATH or an installed cardspec first)
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "interpreter"))

import numpy as np  # noqa: E402


def _timed(play, seconds: float) -> tuple[float, int]:
    """Run ``play()`` (returns the steps it made) for about ``seconds``: (steps/s, deals)."""
    clock = time.perf_counter
    steps = deals = 0
    t0 = clock()
    while True:
        steps += play()
        deals += 1
        t = clock() - t0
        if t >= seconds:
            return steps / t, deals


def _pz_loop(env, rng):
    """One deal through a PettingZoo AEC env, random legal actions; returns the acting steps."""
    env.reset(seed=int(rng.integers(1 << 30)))
    steps = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]   # Shimmy: in info
        legal = np.flatnonzero(mask)
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps


def cardspec_env_steps(seconds: float) -> tuple[float, int]:
    from cardspec.rl.pettingzoo import env
    e = env("hearts", options={"deals": 1})
    rng = np.random.default_rng(0)
    return _timed(lambda: _pz_loop(e, rng), seconds)


def shimmy_env_steps(seconds: float) -> tuple[float, int]:
    import pyspiel
    from shimmy import OpenSpielCompatibilityV0

    class WholeDeal(OpenSpielCompatibilityV0):
        """Shimmy 2.0.1 counts chance nodes in its game length and truncates at the game's
        ``max_game_length()``: Hearts (53 chance nodes, max length 64) would stop after 11 plays.
        This drops only that truncation, so whole deals are played."""

        def _update_termination_truncation(self):
            limit = self.game_length
            self.game_length = 0
            try:
                super()._update_termination_truncation()
            finally:
                self.game_length = limit

    e = WholeDeal(env=pyspiel.load_game("hearts"))
    rng = np.random.default_rng(0)
    return _timed(lambda: _pz_loop(e, rng), seconds)


def _id_api_steps(new_state, seconds: float) -> tuple[float, int]:
    """Deals through ``legal_action_ids()`` / ``apply_id(i)`` of ``new_state(seed)``'s states (a random
    legal id each step) for about ``seconds``."""
    rng = random.Random(0)
    seeds = random.Random(1)

    def play():
        s = new_state(seeds.getrandbits(32))
        steps = 0
        while not s.terminal:
            ids = s.legal_action_ids()
            s.apply_id(ids[int(rng.random() * len(ids))])
            steps += 1
        return steps
    return _timed(play, seconds)


def cardspec_api_steps(seconds: float) -> tuple[float, int]:
    import cardspec
    game = cardspec.load("hearts", options={"deals": 1})
    return _id_api_steps(lambda seed: game.new_state(seed=seed, record=False), seconds)


def openspiel_api_steps(seconds: float) -> tuple[float, int]:
    import pyspiel
    game = pyspiel.load_game("hearts")
    rng = random.Random(0)

    def play():
        s = game.new_initial_state()
        steps = 0
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[int(rng.random() * len(outcomes))][0])   # all equally likely in hearts
                continue
            legal = s.legal_actions()
            s.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
        return steps
    return _timed(play, seconds)


def handwritten_api_steps(seconds: float) -> tuple[float, int]:
    """The same deals behind benchmarks/handwritten_hearts_ids.py's hand-written state (the floor)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import handwritten_hearts_ids as hw
    return _id_api_steps(lambda seed: hw.HeartsState(random.Random(seed)), seconds)


def _instructions(engine: str, deals: int) -> int:
    """Instructions (callgrind's Ir) of ``benchmarks/hearts_games.py DEALS ENGINE`` in this interpreter."""
    import os
    import re
    import subprocess
    here = Path(__file__).resolve().parent
    env = dict(os.environ, PYTHONHASHSEED="0",
               PYTHONPATH=os.pathsep.join([str(here.parent / "interpreter"), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          str(here / "hearts_games.py"), str(deals), engine], env=env, capture_output=True, text=True)
    m = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode != 0 or m is None:
        raise RuntimeError(f"callgrind of {engine}: {out.stderr.strip()[-500:]}")
    return int(m.group(1))


def callgrind(n: int) -> int:
    per = {}
    for engine in ("ids", "ids_log", "openspiel_ids", "openspiel", "handwritten_ids"):
        per[engine] = (_instructions(engine, 2 * n) - _instructions(engine, n)) / n
    print(f"hearts, one deal, random legal actions: instructions per deal (callgrind, {n} and {2 * n} deals)")
    for engine, x in per.items():
        print(f"  {engine:<15} {x:>12,.0f}")
    for mine in ("ids", "ids_log", "handwritten_ids"):
        for theirs in ("openspiel_ids", "openspiel"):
            print(f"  {theirs} / {mine}: {per[theirs] / per[mine]:.2f}")
    print(f"  handwritten_ids / ids: {per['handwritten_ids'] / per['ids']:.2f}   (the interpreter against a "
          "hand-written pure-Python state API of the same game)")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time per measurement (default 5)")
    ap.add_argument("--callgrind", type=int, metavar="N", help="count instructions over N and 2N deals instead")
    args = ap.parse_args(argv)
    if args.callgrind:
        return callgrind(args.callgrind)
    rows = []
    for label, a, b in (("PettingZoo env steps/s", cardspec_env_steps, shimmy_env_steps),
                        ("legal_action_ids/apply_id vs legal_actions/apply_action steps/s",
                         cardspec_api_steps, openspiel_api_steps),
                       ("hand-written Python state API (the floor) vs legal_actions/apply_action",
                        handwritten_api_steps, openspiel_api_steps)):
        mine, md = a(args.seconds)
        theirs, td = b(args.seconds)
        rows.append((label, mine, md, theirs, td))
    print(f"hearts, one deal, random legal actions, {args.seconds:g} s per measurement")
    print(f"{'measure':<72} {'cardspec':>10} {'OpenSpiel':>10} {'ratio':>7}")
    for label, mine, md, theirs, td in rows:
        print(f"{label:<72} {mine:>10,.0f} {theirs:>10,.0f} {mine / theirs:>7.2f}   ({md} / {td} deals)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
