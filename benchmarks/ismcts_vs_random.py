"""ISMCTS in one seat against three random bots at Hearts, one deal per match.

    python benchmarks/ismcts_vs_random.py [--deals 500] [--iterations 200] [--workers 2] [--seed 1] [--json]

Plays the same deals (same seeds, so the same shuffles) twice: once with
ISMCTS in seat 0 and random bots in seats 1-3, once with four random bots, and
prints mean penalty points per deal for each seat with 95 % confidence
intervals (normal approximation, mean ± 1.96 sd/√n). Lower is better. The
ISMCTS bot sees only its view and log (cardspec.players.take_turn).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interpreter"))

from cardspec.play.simulate import simulate  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    out = {"ruleset": "hearts", "options": {"deals": 1}, "deals": a.deals, "iterations": a.iterations,
           "workers": a.workers, "seed": a.seed}
    for label, bots in (("ismcts_vs_random", f"ismcts:{a.iterations},random"), ("all_random", "random")):
        t0 = time.perf_counter()
        res = simulate("hearts", a.deals, 4, bots, None, a.workers, a.seed, {"deals": 1})
        secs = time.perf_counter() - t0
        out[label] = {"seconds": round(secs, 1), "bots": res["bots"], "seats": [
            {"seat": s["side"], "bot": s["bot"], "mean_points": s["score"]["mean"],
             "ci95": s["score"]["mean_ci"], "sd": s["score"]["sd"], "win_rate": s["win_rate"]}
            for s in res["sides"]]}
    if a.json:
        print(json.dumps(out, indent=1))
        return
    print(f"Hearts, one deal per match, {a.deals} deals, ISMCTS {a.iterations} iterations/decision, "
          f"{a.workers} workers, seed {a.seed}")
    for label in ("ismcts_vs_random", "all_random"):
        r = out[label]
        print(f"\n{label} ({r['seconds']} s): mean penalty points per deal (95 % CI), lower is better")
        for s in r["seats"]:
            lo, hi = s["ci95"]
            print(f"  seat {s['seat']} {s['bot']:<12} {s['mean_points']:6.2f}  [{lo:5.2f}, {hi:5.2f}]  "
                  f"wins {100 * s['win_rate']:.1f}%")


if __name__ == "__main__":
    main()
