"""Play N random Hearts deals with one engine and exit: the driver for instruction counts (docs/performance.md).

    valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/hearts_games.py N ENGINE

ENGINE: ``loop`` (cardspec's random-playout loop), ``api`` (``legal_actions()`` + ``apply(text)``),
``handwritten`` (benchmarks/handwritten_hearts.py) or ``openspiel`` (pyspiel's ``hearts``). Run it
for N games and for 0 games: (instructions(N) - instructions(0)) / N is the cost of one game, the
same on a loaded machine as on a quiet one (wall clock is not). Use the real interpreter binary,
not a pyenv shim, under valgrind.
"""
from __future__ import annotations

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main(n: int, engine: str) -> None:
    rng = random.Random(7)
    if engine in ("loop", "api"):
        import cardspec
        game = cardspec.load("hearts", 4, options={"deals": 1})
        if engine == "loop":
            for _ in range(n):
                game.new_state(record=False, rng=rng).random_playout()
        else:
            for _ in range(n):
                s = game.new_state(rng=rng)
                while not s.terminal:
                    legal = s.legal_actions()
                    s.apply(legal[int(rng.random() * len(legal))])
    elif engine == "handwritten":
        import handwritten_hearts
        for _ in range(n):
            handwritten_hearts.play_random_game(rng)
    elif engine == "openspiel":
        import openspiel_games
        game = openspiel_games.load_pyspiel().load_game("hearts")
        for _ in range(n):
            openspiel_games.openspiel_random_game(game, rng)
    else:
        sys.exit(f"unknown engine '{engine}': loop, api, handwritten or openspiel")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(int(sys.argv[1]), sys.argv[2])
