"""How far `cardspec solve` reaches on Svoyi Koziri endings: cards per hand vs seconds (docs/solve.md).

    python benchmarks/solve_reach.py [--sizes 3,4,5,6,7,8] [--positions 5] [--seconds 10] [--method dfpn|pns|alphabeta]

Each position: 32-card deck, k random cards per hand (seat 0 owns spades trump + clubs and leads; seat 1
diamonds trump + hearts; the rest out of play). Prints per size: proven / tried, median wall seconds and
positions visited (proven ones), and CPU seconds (wall time depends on the machine's load).
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

import cardspec
from cardspec.players.solve import solve


def position(game, k, seed):
    rng = random.Random(seed)
    deck = [r + s for s in "SHDC" for r in "789TJQKA"]
    rng.shuffle(deck)
    s = game.new_state(seed=1, dealer=1, deal=None)
    for a in ("own hearts diamonds", "trump diamonds", "trump spades"):
        s.apply(a)
    hz = game.zone["hand"].index
    s.z[hz][0] = [game.deck.face(c) for c in deck[:k]]
    s.z[hz][1] = [game.deck.face(c) for c in deck[k:2 * k]]
    s.z[game.stock] = [game.deck.face(c) for c in deck[2 * k:]]
    s._cache = None
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="3,4,5,6,7,8")
    ap.add_argument("--positions", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--method", default="dfpn")
    a = ap.parse_args()
    game = cardspec.load("svoyi-koziri", 2)
    print(f"{'k':>2} {'proven':>7} {'median s':>9} {'median cpu s':>12} {'median positions':>17}  values")
    for k in [int(x) for x in a.sizes.split(",")]:
        wall, cpu, nodes, vals = [], [], [], []
        for seed in range(a.positions):
            s = position(game, k, seed)
            t0, c0 = time.perf_counter(), time.process_time()
            r = solve(s, a.seconds, a.method)
            if r.proven:
                wall.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
                nodes.append(r.nodes)
            vals.append({1: "W", 0: "D", -1: "L"}.get(r.value, "?"))
        med = (lambda xs: f"{statistics.median(xs):.2f}" if xs else "-")
        print(f"{k:>2} {len(wall):>3}/{a.positions:<3} {med(wall):>9} {med(cpu):>12} "
              f"{(statistics.median(nodes) if nodes else '-'):>17}  {''.join(vals)}", flush=True)


if __name__ == "__main__":
    main()
