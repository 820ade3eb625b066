"""The long mutation fuzz run (opt-in; docs/fuzz.md): N seeded mutants of the built-in rulesets, each
validated and, when valid, played (tests/_mutants.py says what is checked).

    python benchmarks/fuzz_mutants.py -n 100000 --seed 1 --workers 2 [--out failures.txt]

Prints tried / rejected / validated (clean + refused) / failed, the time, and for each failure the
(seed, index) that rebuilds it, its base ruleset and the first lines of what went wrong (the mutant's
YAML too with --out). ``--show SEED:INDEX`` prints one mutant's YAML and its outcome.
Exit 1 when any mutant failed.
"""
from __future__ import annotations

import argparse
import collections
import multiprocessing as mp
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import _mutants  # noqa: E402

_STATE = {}


def _init():
    _STATE["srcs"] = srcs = _mutants.sources()
    _STATE["pool"] = _mutants.Pool(srcs)
    _STATE["dir"] = Path(tempfile.mkdtemp(prefix="cardspec-fuzz-"))


def _one(job):
    seed, i = job
    base, text = _mutants.nth_mutant(_STATE["srcs"], _STATE["pool"], seed, i)
    out = _mutants.check(text, _STATE["dir"], seed, name=f"m{i}")
    return i, base, out.kind, out.detail, out.seconds


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=10000, help="mutants to try")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first mutant index")
    ap.add_argument("--workers", "-w", type=int, default=2)
    ap.add_argument("--out", default=None, help="write each failure's YAML and detail here")
    ap.add_argument("--show", default=None, metavar="SEED:INDEX", help="print one mutant and its outcome")
    args = ap.parse_args(argv)
    if args.show:
        seed, i = map(int, args.show.split(":"))
        _init()
        base, text = _mutants.nth_mutant(_STATE["srcs"], _STATE["pool"], seed, i)
        print(f"# mutant {seed}:{i} of {base}\n{text}")
        out = _mutants.check(text, _STATE["dir"], seed, name=f"m{i}")
        print(f"# {out.kind} in {out.seconds:.2f} s\n{out.detail}")
        return 0
    jobs = [(args.seed, i) for i in range(args.start, args.start + args.n)]
    counts = collections.Counter()
    by_base = collections.defaultdict(collections.Counter)
    failures = []
    t0 = time.perf_counter()
    slowest = (0.0, None)
    with mp.Pool(args.workers, initializer=_init) as pool:
        for k, (i, base, kind, detail, secs) in enumerate(pool.imap_unordered(_one, jobs, chunksize=20), 1):
            counts[kind] += 1
            by_base[base][kind] += 1
            slowest = max(slowest, (secs, i))
            if kind == "failed":
                failures.append((i, base, detail))
                lines = detail.strip().splitlines() or [""]
                head = next((ln for ln in lines if "error" in ln or "Error" in ln), lines[-1])
                print(f"FAILED {args.seed}:{i} ({base}): {head.strip()[:300]}", flush=True)
            if k % 1000 == 0:
                print(f"... {k} tried, {dict(counts)}, {time.perf_counter() - t0:.0f} s", flush=True)
    secs = time.perf_counter() - t0
    validated = counts["clean"] + counts["refused"]
    print(f"\nseed {args.seed}, mutants {args.start}..{args.start + args.n - 1}, {args.workers} workers, {secs:.0f} s")
    print(f"tried {args.n}  rejected {counts['rejected']}  validated {validated} "
          f"(clean {counts['clean']}, refused at play {counts['refused']})  failed {counts['failed']}")
    print(f"slowest mutant: {slowest[1]} ({slowest[0]:.1f} s)")
    for base in sorted(by_base):
        c = by_base[base]
        print(f"  {base:34} {sum(c.values()):6} tried  {c['rejected']:6} rejected  {c['clean']:5} clean  "
              f"{c['refused']:4} refused  {c['failed']:3} failed")
    if args.out and failures:
        _init()
        with open(args.out, "w", encoding="utf-8") as f:
            for i, base, detail in failures:
                _, text = _mutants.nth_mutant(_STATE["srcs"], _STATE["pool"], args.seed, i)
                f.write(f"### {args.seed}:{i} ({base})\n{detail}\n{text}\n")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
