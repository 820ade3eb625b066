"""Learning front ends against OpenSpiel, for Hearts (issue 21, item 6): ratios from one run.

Two comparisons, each over whole deals with uniformly random legal actions:

1. **PettingZoo env steps/s**: ``cardspec.pettingzoo.env("hearts", options={"deals": 1})`` against
   OpenSpiel's C++ ``hearts`` wrapped for PettingZoo by Shimmy (``OpenSpielCompatibilityV0``). A step
   is one ``env.step(action)`` of an agent that acts (after ``env.last()``: observation and mask),
   the agents' final dead steps not counted.
2. **Action-id API steps/s**: cardspec's ``State.legal_action_ids()`` / ``State.apply_id(i)``
   against OpenSpiel's Python API ``state.legal_actions()`` / ``state.apply_action(a)`` (chance
   outcomes sampled, not counted as steps).

Both sides play one Hearts deal with a pass (OpenSpiel's ``hearts`` is one deal; cardspec's
``hearts`` ruleset matches it deal for deal, tests/test_hearts_openspiel.py). Each measurement runs
about ``--seconds`` of whole deals; the ratio is cardspec / OpenSpiel (above 1: cardspec is faster).

Usage: ``python benchmarks/rl.py [--seconds 5]`` (needs ``cardspec[rl]`` and ``open_spiel``).
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
    from cardspec.pettingzoo import env
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


def cardspec_api_steps(seconds: float) -> tuple[float, int]:
    import cardspec
    game = cardspec.load("hearts", options={"deals": 1})
    rng = random.Random(0)
    seeds = random.Random(1)

    def play():
        s = game.new_state(seed=seeds.getrandbits(32), record=False)
        steps = 0
        while not s.terminal:
            ids = s.legal_action_ids()
            s.apply_id(ids[int(rng.random() * len(ids))])
            steps += 1
        return steps
    return _timed(play, seconds)


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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time per measurement (default 5)")
    args = ap.parse_args(argv)
    rows = []
    for label, a, b in (("PettingZoo env steps/s", cardspec_env_steps, shimmy_env_steps),
                        ("legal_action_ids/apply_id vs legal_actions/apply_action steps/s",
                         cardspec_api_steps, openspiel_api_steps)):
        mine, md = a(args.seconds)
        theirs, td = b(args.seconds)
        rows.append((label, mine, md, theirs, td))
    print(f"hearts, one deal, random legal actions, {args.seconds:g} s per measurement")
    print(f"{'measure':<66} {'cardspec':>10} {'OpenSpiel':>10} {'ratio':>7}")
    for label, mine, md, theirs, td in rows:
        print(f"{label:<66} {mine:>10,.0f} {theirs:>10,.0f} {mine / theirs:>7.2f}   ({md} / {td} deals)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
