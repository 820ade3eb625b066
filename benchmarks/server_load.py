"""Load test of `cardspec serve --http` on loopback (issue 10): many concurrent tables played to the end.

Starts `cardspec serve --http 127.0.0.1:0 --bot-delay 0` as a subprocess, then opens one
WebSocket per table (asyncio, `websockets`). Each table: seat 0 is played by this client
(a random legal action from each update), every other seat is a server-side random bot,
and the same connection also follows the table as a spectator. At the end it checks that
nothing was lost — the events received in updates are exactly the seat's and the
spectator's whole logs (fetched again with get_view since 0) — and that no error message
arrived. Reports actions per second (every action at every table, bots included).

A benchmark, not a test: it only sends to 127.0.0.1, is bounded by --timeout, and stops by
itself. Usage:

    python benchmarks/server_load.py                      # 50 Hearts matches
    python benchmarks/server_load.py --tables 50 --ruleset cancellation-black-lady --players 8 --json
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import time

from websockets.asyncio.client import connect


async def play_table(url, args, idx, stats):
    rng = random.Random(idx)
    async with connect(url, max_size=None) as ws:
        async def ask(msg):
            await ws.send(json.dumps(msg))
        bots = list(range(1, args.players))
        await ask({"type": "create", "ruleset": args.ruleset, "players": args.players, "seed": idx,
                   "bots": bots, "bot_delay": 0, "options": dict(o.split("=", 1) for o in args.option)})
        created = json.loads(await ws.recv())
        if created["type"] != "created":
            raise RuntimeError(f"table {idx}: {created}")
        tid, tok = created["table"], created["tokens"]["0"]
        await ask({"type": "join", "table": tid})
        await ask({"type": "join", "table": tid, "token": tok})
        got = {None: [], 0: []}
        over = {None: False, 0: False}
        mine = 0
        while not (over[None] and over[0]):
            m = json.loads(await ws.recv())
            stats["messages"] += 1
            t = m["type"]
            if t == "error":
                stats["errors"].append(m)
                continue
            if t != "update":
                continue
            got[m["seat"]].extend(m["events"])
            v = m["view"]
            if v["terminal"]:
                over[m["seat"]] = True
            elif m["seat"] == 0 and v.get("legal_actions"):
                await ask({"type": "act", "table": tid, "token": tok, "action": rng.choice(v["legal_actions"])})
                mine += 1
        # nothing lost: the whole logs again, from the start
        for seat, token in ((None, None), (0, tok)):
            msg = {"type": "get_view", "table": tid, "since": 0}
            if token:
                msg["token"] = token
            await ask(msg)
            while True:
                r = json.loads(await ws.recv())
                if r["type"] == "view":
                    break
            if r["events"] != got[seat]:
                stats["lost"] += 1
        stats["actions"] += r["version"]
        stats["mine"] += mine
        stats["tables"] += 1


async def run(args):
    proc = subprocess.Popen([sys.executable, "-m", "cardspec.cli", "serve", "--http", "127.0.0.1:0", "--bot-delay",
                             "0", "--max-tables", str(max(args.tables, 1) + 10)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        if not line.startswith("cardspec: serving "):
            raise SystemExit(f"server did not start: {line}{proc.stderr.read()}")
        url = line.split()[-1].replace("http://", "ws://") + "ws"
        stats = {"tables": 0, "actions": 0, "mine": 0, "messages": 0, "errors": [], "lost": 0}
        t0 = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*(play_table(url, args, i, stats) for i in range(args.tables))),
                               args.timeout)
        dt = time.perf_counter() - t0
    finally:
        proc.terminate()
        try:
            _, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            err = ""
    return {"ruleset": args.ruleset, "players": args.players, "tables": args.tables,
            "finished": stats["tables"], "actions": stats["actions"], "client_actions": stats["mine"],
            "messages": stats["messages"], "errors": len(stats["errors"]), "lost": stats["lost"],
            "seconds": round(dt, 2), "actions_per_second": round(stats["actions"] / dt, 1),
            "server_stderr": err.strip()[-500:]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--ruleset", default="hearts")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--timeout", type=float, default=600, help="seconds before giving up")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    res = asyncio.run(run(args))
    if args.json:
        print(json.dumps(res, indent=1))
    else:
        print(f"{res['finished']}/{res['tables']} tables of {res['ruleset']} ({res['players']} players) played to "
              f"the end: {res['actions']} actions ({res['client_actions']} over the WebSocket) in {res['seconds']} s "
              f"= {res['actions_per_second']} actions/s; {res['messages']} messages, {res['errors']} errors, "
              f"{res['lost']} logs with lost events")
        if res["server_stderr"]:
            print("server stderr:", res["server_stderr"])
    ok = res["finished"] == res["tables"] and not res["errors"] and not res["lost"] and not res["server_stderr"]
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
