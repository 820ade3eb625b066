"""Load + compile time of every built-in ruleset (issue 2: target under 50 ms each).

For each ruleset: read (YAML with positions, ``extends:`` merge, schema) and
compile (``Game``: deck tables, names, every expression, the steps) for its
smallest player count, from a cold cache of the YAML each time (the parser,
grammar and schema are built once per process, as in real use). Prints the
median of ``--repeat`` runs in milliseconds, or JSON with ``--json``.

    python benchmarks/load_compile.py [--repeat 15] [--json]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "interpreter"))

from cardspec.lang import parse  # noqa: E402
from cardspec.engine import Game  # noqa: E402
from cardspec.rules import builtin_names, read_ruleset  # noqa: E402

TARGET_MS = 50.0


def measure(name: str, repeat: int) -> dict:
    read_ms, total_ms = [], []
    rs = read_ruleset(name)
    players = rs.players[0]
    Game(rs, players)   # warm-up: grammar, schema validator, imports
    for _ in range(repeat):
        parse.cache_clear()   # no expression parsed by an earlier run
        t0 = time.perf_counter()
        rs = read_ruleset(name)
        t1 = time.perf_counter()
        Game(rs, players)
        t2 = time.perf_counter()
        read_ms.append((t1 - t0) * 1000)
        total_ms.append((t2 - t0) * 1000)
    return {"ruleset": name, "players": players, "load_ms": round(statistics.median(read_ms), 2),
            "compile_ms": round(statistics.median(total_ms) - statistics.median(read_ms), 2),
            "total_ms": round(statistics.median(total_ms), 2), "under_target": statistics.median(total_ms) < TARGET_MS}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15, help="runs per ruleset (median reported)")
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args(argv)
    rows = [measure(n, args.repeat) for n in builtin_names()]
    if args.json:
        print(json.dumps({"target_ms": TARGET_MS, "repeat": args.repeat, "rulesets": rows}, indent=2))
        return
    print(f"{'ruleset':36} {'players':>7} {'load ms':>8} {'compile ms':>10} {'total ms':>9}")
    for r in rows:
        flag = "" if r["under_target"] else f"  (over {TARGET_MS:.0f} ms)"
        print(f"{r['ruleset']:36} {r['players']:>7} {r['load_ms']:>8.2f} {r['compile_ms']:>10.2f} "
              f"{r['total_ms']:>9.2f}{flag}")


if __name__ == "__main__":
    main()
