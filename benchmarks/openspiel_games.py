"""OpenSpiel random-playout speed, the C++ reference point of the benchmark.

Plays whole games of an OpenSpiel game through its Python API
(``state.legal_actions()`` / ``state.apply_action()``): chance outcomes are
sampled by their probabilities, players pick uniformly among legal actions,
both with a Python ``random.Random`` so runs are seeded.  OpenSpiel is
imported lazily; ``pip install open_spiel`` provides it.

Usage: ``python benchmarks/openspiel_games.py [--seconds 3]`` prints games/s
for OpenSpiel ``hearts`` and ``oh_hell`` and for the hand-written Hearts.
"""

from __future__ import annotations

import random
import time
from typing import Callable

__all__ = [
    "OpenSpielMissing", "load_pyspiel", "games_per_second",
    "openspiel_random_game", "openspiel_games_per_second",
]


class OpenSpielMissing(ImportError):
    """OpenSpiel's Python package (module ``pyspiel``) is not installed."""


def load_pyspiel():
    try:
        import pyspiel  # noqa: PLC0415 - lazy on purpose
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise OpenSpielMissing(
            "OpenSpiel is not installed (module 'pyspiel' not found); "
            "install it with `pip install open_spiel`") from exc
    return pyspiel


def games_per_second(fn: Callable[[random.Random], object], seconds: float = 3.0,
                     seed: int = 0) -> float:
    """Call ``fn(rng)`` repeatedly for about ``seconds``; return games/s.

    One ``random.Random(seed)`` is shared by all calls.  Whole games only:
    the clock is read between games, and at least one game is played.
    """
    rng = random.Random(seed)
    clock = time.perf_counter
    n = 0
    t0 = clock()
    deadline = t0 + seconds
    now = t0
    while True:
        fn(rng)
        n += 1
        now = clock()
        if now >= deadline:
            break
    return n / (now - t0)


def openspiel_random_game(game, rng: random.Random) -> list[float]:
    """Play one whole game of ``game`` (a pyspiel.Game) at random.

    Returns ``state.returns()`` of the terminal state.
    """
    state = game.new_initial_state()
    rand = rng.random
    choice = rng.choice
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            r = rand()
            action = outcomes[-1][0]
            acc = 0.0
            for a, p in outcomes:
                acc += p
                if r < acc:
                    action = a
                    break
        else:
            action = choice(state.legal_actions())
        state.apply_action(action)
    return state.returns()


def openspiel_games_per_second(game_name: str, seconds: float = 3.0,
                               seed: int = 0) -> float:
    """Random playouts per second of OpenSpiel's ``game_name`` (default params)."""
    pyspiel = load_pyspiel()
    game = pyspiel.load_game(game_name)
    return games_per_second(lambda rng: openspiel_random_game(game, rng),
                            seconds, seed)


def _main() -> None:
    import argparse
    import sys
    from pathlib import Path

    ap = argparse.ArgumentParser(description="random-playout games/s")
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from handwritten_hearts import play_random_game  # noqa: PLC0415

    for _ in range(args.repeat):
        gps = games_per_second(play_random_game, args.seconds, args.seed)
        print(f"handwritten hearts : {gps:10,.0f} games/s")
        for name in ("hearts", "oh_hell"):
            gps = openspiel_games_per_second(name, args.seconds, args.seed)
            print(f"openspiel {name:9s}: {gps:10,.0f} games/s")


if __name__ == "__main__":
    _main()
