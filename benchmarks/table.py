"""Every built-in ruleset in one table (issue 37): loop, API, per decision, instructions — one command.

    python benchmarks/table.py                                  # wall clock only, about 2 min
    python benchmarks/table.py --callgrind 1                    # with instructions per decision (long: see below)
    python benchmarks/table.py --callgrind 1 --write docs/performance.md     # and replace the table there

For each built-in ruleset (at playouts.py's ``SETTINGS``, else its default player count), measured in this
one run and normalised by Hearts (4 players, one deal) of the same run:

- ``loop``: random whole matches per second of ``random_playout`` (playouts.py ``loop_player``);
- ``API``: random whole matches per second through ``legal_actions()`` / ``apply(text)`` (``api_player``);
- ``per decision``: decisions per second through the API at the ruleset's default player count
  (decisions.py ``decisions_per_second``), ÷ Hearts's: the issue's "≥ 0.8× Hearts per decision", by the clock;
- ``instructions``: with ``--callgrind N``, instructions per decision under valgrind's callgrind (decisions.py's
  method: N and 2N matches, Hearts 4N and 8N, ``PYTHONHASHSEED=0``) and Hearts's ÷ the ruleset's — the
  load-independent figure the target is judged by. A ruleset named in ``--skip-callgrind`` (default: the
  Eleusis ruleset, whose decisions list up to ~150,000 plays: about 45 min for one match under callgrind)
  says "not measured".

The clock columns are the best of ``--rounds`` interleaved rounds (playouts.py ``measure``): read the ratios,
which come from one run, not the rates across runs. ``--write FILE`` replaces the text between the lines
``<!-- table.py:begin -->`` and ``<!-- table.py:end -->`` of FILE with the table, the command and the date.
"""
from __future__ import annotations

import argparse
import datetime
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "interpreter"))

import cardspec  # noqa: E402
import decisions  # noqa: E402
import playouts  # noqa: E402
from cardspec.rules import builtin_names  # noqa: E402

BEGIN, END = "<!-- table.py:begin -->", "<!-- table.py:end -->"
TARGET = 0.8


def rows(names, seconds: float, rounds: int, callgrind: int, skip: set) -> list:
    """One dict per ruleset: ``name, players, loop, api, loop_x, api_x, dps, dps_x, ipd, ipd_x`` (rates per
    second, ``_x`` the ratio to Hearts of this run; ``ipd`` instructions per decision or None)."""
    names = ["hearts"] + [n for n in names if n != "hearts"]
    rates = playouts.measure(names, seconds, rounds)
    hearts = decisions.BASE
    games = {n: (cardspec.load(*hearts) if n == "hearts" else cardspec.load(n)) for n in names}
    dps = {}
    per = seconds / max(rounds, 1)
    for _ in range(max(rounds, 1)):
        for n, g in games.items():
            dps[n] = max(dps.get(n, 0.0), decisions.decisions_per_second(g, per))
    ipd = {}
    if callgrind:
        for n in names:
            if n in skip:
                continue
            k = 4 * callgrind if n == "hearts" else callgrind
            d1, i1 = decisions._instructions(n, k)
            d2, i2 = decisions._instructions(n, 2 * k)
            ipd[n] = (i2 - i1) / (d2 - d1)
            print(f"  {n}: {ipd[n]:,.0f} instructions per decision", file=sys.stderr, flush=True)
    h = rates["hearts"]
    out = []
    for n in names:
        r = rates.get(n)
        if r is None:
            continue
        players = playouts.SETTINGS.get(n, (None, {}))[0] or games[n].n
        x = ipd.get(n)
        out.append({"name": n, "players": players, "loop": r["cardspec_loop"], "api": r["cardspec_api"],
                    "loop_x": r["cardspec_loop"] / h["cardspec_loop"], "api_x": r["cardspec_api"] / h["cardspec_api"],
                    "dps": dps[n], "dps_x": dps[n] / dps["hearts"],
                    "ipd": x, "ipd_x": (ipd["hearts"] / x) if x and "hearts" in ipd else None})
    return out


def markdown(table: list, callgrind: int) -> str:
    """The table as Markdown, with the rulesets below the target named after it."""
    lines = ["| ruleset | players | loop matches/s (× Hearts) | API matches/s (× Hearts) | API decisions/s "
             "(× Hearts) | instructions per decision (Hearts ÷ it) |",
             "|---|---|---|---|---|---|"]
    for r in table:
        ins = ("not measured" if r["ipd"] is None else f"{r['ipd']:,.0f} ({r['ipd_x']:.3f})")
        lines.append(f"| {r['name']} | {r['players']} | {playouts._rate(r['loop'], 0).strip()} ({r['loop_x']:.3g}) | "
                     f"{playouts._rate(r['api'], 0).strip()} ({r['api_x']:.3g}) | {r['dps']:,.0f} ({r['dps_x']:.2f}) | "
                     f"{ins} |")
    key = "ipd_x" if callgrind else "dps_x"
    below = [r["name"] for r in table if r[key] is not None and r[key] < TARGET]
    by = "instructions" if callgrind else "the clock (decisions/s)"
    lines.append("")
    lines.append(f"Below {TARGET}× Hearts per decision by {by}: " + (", ".join(below) if below else "none") + ".")
    return "\n".join(lines)


def write(path: str, text: str) -> None:
    """Replace the text between ``BEGIN`` and ``END`` in ``path``. Raises ``SystemExit`` when they are missing."""
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        raise SystemExit(f"table.py: {path} has no {BEGIN} … {END} lines to replace")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + BEGIN + "\n" + text + "\n" + END + tail)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="comma-separated ruleset names (default: every built-in)")
    ap.add_argument("--seconds", type=float, default=1.0, help="clock seconds per engine and ruleset (split over rounds)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--callgrind", type=int, default=0, metavar="N",
                    help="also instructions per decision over N and 2N matches (valgrind)")
    ap.add_argument("--skip-callgrind", default="eleusis-prophets", metavar="NAMES",
                    help="rulesets left out of --callgrind (comma-separated)")
    ap.add_argument("--write", metavar="FILE", help="replace the table between the table.py markers in FILE")
    args = ap.parse_args(argv)
    names = [n for n in args.only.split(",") if n] or builtin_names()
    try:
        table = rows(names, args.seconds, args.rounds, args.callgrind, set(filter(None, args.skip_callgrind.split(","))))
    except RuntimeError as e:   # valgrind missing or failing
        print(f"table.py: {e}", file=sys.stderr)
        return 2
    cmd = "python benchmarks/table.py" + "".join(f" {a}" for a in (argv if argv is not None else sys.argv[1:])
                                                 if a != "--write" and not a.endswith(".md"))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    text = (f"`{cmd}` — {datetime.date.today().isoformat()}, load average {load:.1f} at the end\n\n"
            + markdown(table, args.callgrind))
    print(text)
    if args.write:
        write(args.write, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
