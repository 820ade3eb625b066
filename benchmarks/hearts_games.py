"""Play N random Hearts deals with one engine and exit: the driver for instruction counts (docs/performance.md).

    valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/hearts_games.py N ENGINE

ENGINE: ``loop`` (cardspec's random-playout loop), ``api`` (``legal_actions()`` + ``apply(text)``),
``handwritten`` (benchmarks/handwritten_hearts.py), ``handwritten_ids``
(benchmarks/handwritten_hearts_ids.py: the same deal as ``ids`` behind a hand-written state API) or ``openspiel`` (pyspiel's ``hearts``, chance
sampled by ``chance_outcomes()``, the pass direction drawn as OpenSpiel draws it: no pass in a
quarter of the deals). The action-id API against OpenSpiel's, like with like (issue 21):
``ids`` (``legal_action_ids()`` + ``apply_id(i)``, event log off), ``ids_log`` (the same, event log
on) and ``openspiel_ids`` (``legal_actions()`` + ``apply_action(a)``, the pass direction fixed to
left as cardspec's ``first_pass: left``, each deal chance node a uniform pick of
``legal_actions()``, the cheapest random deal through its Python API): each deal is 12 one-card
passes and 52 plays on both sides. Run it
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
    elif engine in ("ids", "ids_log"):
        import cardspec
        game = cardspec.load("hearts", 4, options={"deals": 1})
        game.actions   # the codec, built once outside the measured work
        record = engine == "ids_log"
        rnd = rng.random
        for _ in range(n):
            s = game.new_state(rng=rng, record=record)
            while not s.terminal:
                ids = s.legal_action_ids()
                s.apply_id(ids[int(rnd() * len(ids))])
    elif engine == "openspiel_ids":
        import openspiel_games
        game = openspiel_games.load_pyspiel().load_game("hearts")
        rnd = rng.random
        for _ in range(n):
            s = game.new_initial_state()
            s.apply_action(1)   # pass left, as cardspec's hearts deal 1
            while not s.is_terminal():
                legal = s.legal_actions()   # chance nodes too: the 52 deal outcomes are equally likely
                s.apply_action(legal[int(rnd() * len(legal))])
    elif engine == "handwritten_ids":
        import handwritten_hearts_ids
        rnd = rng.random
        for _ in range(n):
            s = handwritten_hearts_ids.HeartsState(rng)
            while not s.terminal:
                ids = s.legal_action_ids()
                s.apply_id(ids[int(rnd() * len(ids))])
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
        sys.exit(f"unknown engine '{engine}': loop, api, ids, ids_log, handwritten, handwritten_ids, openspiel or openspiel_ids")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(int(sys.argv[1]), sys.argv[2])
