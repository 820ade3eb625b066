"""Load test of `cardspec serve --http` on loopback (issue 10): many concurrent tables played to the end.

Starts `cardspec serve --http 127.0.0.1:0 --bot-delay 0` as a subprocess, then opens one
WebSocket per table (asyncio, `websockets`). Each table: seat 0 is played by this client
(a random legal action from each update), every other seat is a server-side random bot,
and the same connection also follows the table as a spectator. At the end it checks that
nothing was lost — the events received in updates are exactly the seat's and the
spectator's whole logs (fetched again with get_view since 0) — and that no error message
arrived. Reports actions per second (every action at every table, bots included).

``--store`` (issue 22) picks the server's table store: ``none`` (memory only, the default), ``sqlite``
(a fresh SQLite file in a temporary folder), ``postgresql`` (a fresh schema on ``--pg``, dropped after
the run) or any store URL; give it several times (``--store none --store sqlite --store postgresql``) to
compare. With a store, after the server has stopped the benchmark reads the store back: every table's
rows present and chained (``Store.load``: no gap, no digest mismatch), as many actions as the client saw,
and the actions replayed from the store give the very events the client received and a finished match.
It also times ``Store.append`` alone on the same back end (``--appends`` rows into a scratch table): the
store's cost per action, next to the difference in wall time per action with and without the store.

With ``--stores none,sqlite,postgresql`` (issue 37 item 5) it measures the store's cost fairly: in one run
it alternates the stores round by round (A/B/C/A/B/C …, ``--rounds`` of each), every round on a fresh
server and a fresh store with the same load (``--tables`` connections, each playing match after match for
``--round-seconds`` after ``--warmup`` s not counted), spread over ``--addresses`` loopback addresses (the
server runs at most two engine calls at once per address: with one address, the store's commit time caps
the throughput at two commits in flight). It prints per store the median throughput (actions
acknowledged per second: versions seen in spectator updates) and, for each persistent store, its cost
against ``none`` (1 − its throughput / the adjacent ``none`` round's), median and min–max over the rounds.
After each round with a store it checks that the store holds at least as many actions as were acknowledged.

With ``--hostile`` (issue 16) it measures what one client can do to another instead: a client
sends ``hello`` every 50 ms and times each reply (in a process of its own: it shares no event loop or
GIL with the attackers), first on a quiet server (``--baseline`` s), then
while a hostile client, on four connections at once, (1) creates an Eleusis table whose dealer types
a rule with four nested loops over the 104-card deck and has a child play (one judgement would take
minutes), (2) asks for bots ``ismcts:infs`` and ``ismcts:100000000`` and then fills six tables with
four searching bots at the server's caps, (3) deals Eleusis hands of 26 cards (hundreds of thousands
of legal actions) and follows every seat, (4) sends 200 ``create`` messages as fast as it can. It
prints the latency percentiles (target: every hello under 100 ms; exit status 1 otherwise) and what
each attack got.

With ``--bot-attack`` (issue 36 item 2) it measures a person's turn latency while other addresses' bots
search: a victim on 127.0.0.4 plays Hearts (seat 0, three random bots) and times each of his turns — from
sending his action to the update that asks him again — first alone (``--baseline`` s), then while two
attacking addresses (127.0.0.2 and .3) each keep ``--attack-tables`` tables of four ``--attack-bot`` bots
searching (a finished table is replaced). It prints the victim's turn latency quiet and under attack (target:
the median within 2× of the quiet one; exit status 1 otherwise) and how many moves he made.

A benchmark, not a test: it only sends to 127.0.0.1, is bounded by --timeout, and stops by
itself. Usage:

    python benchmarks/server_load.py                      # 50 Hearts matches
    python benchmarks/server_load.py --tables 50 --ruleset cancellation-black-lady --players 8 --json
    python benchmarks/server_load.py --store none --store sqlite --store postgresql   # the store's cost
    python benchmarks/server_load.py --stores none,sqlite,postgresql --rounds 4      # the same, A/B/A/B
    python benchmarks/server_load.py --hostile            # hello latency under attack
    python benchmarks/server_load.py --bot-attack         # a person's turn latency beside searching bots
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import os
import subprocess
import sys
import tempfile
import time
import uuid

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
        stats["seen"][tid] = {"version": r["version"], "events": got[None]}


INFO_LINES = ("cardspec: tables are kept in ", "cardspec: store ")


def _server_problems(err: str) -> str:
    """The server's stderr without the lines it always prints about its store."""
    return "\n".join(ln for ln in err.strip().splitlines() if not ln.startswith(INFO_LINES))


def _serve_quiet():
    """``(process, ws URL)`` of a new ``cardspec serve --http`` on loopback, no store, no bot delay."""
    proc = subprocess.Popen([sys.executable, "-m", "cardspec.cli", "serve", "--http", "127.0.0.1:0", "--store", "none",
                             "--bot-delay", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if not line.startswith("cardspec: serving "):
        raise SystemExit(f"server did not start: {line}{proc.stderr.read()}")
    return proc, line.split()[-1].replace("http://", "ws://") + "ws"


def _stop(proc) -> str:
    """Stop a server started here; its stderr."""
    proc.terminate()
    try:
        return proc.communicate(timeout=10)[1]
    except subprocess.TimeoutExpired:
        proc.kill()
        return ""


async def run(args, store="none"):
    proc = subprocess.Popen([sys.executable, "-m", "cardspec.cli", "serve", "--http", "127.0.0.1:0", "--store", store,
                             "--bot-delay",
                             "0", "--max-tables", str(max(args.tables, 1) + 10)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        if not line.startswith("cardspec: serving "):
            raise SystemExit(f"server did not start: {line}{proc.stderr.read()}")
        url = line.split()[-1].replace("http://", "ws://") + "ws"
        stats = {"tables": 0, "actions": 0, "mine": 0, "messages": 0, "errors": [], "lost": 0, "seen": {}}
        t0 = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*(play_table(url, args, i, stats) for i in range(args.tables))),
                               args.timeout)
        dt = time.perf_counter() - t0
    finally:
        err = _stop(proc)
    res = {"ruleset": args.ruleset, "players": args.players, "tables": args.tables, "store": store,
           "finished": stats["tables"], "actions": stats["actions"], "client_actions": stats["mine"],
           "messages": stats["messages"], "errors": len(stats["errors"]), "lost": stats["lost"],
           "seconds": round(dt, 2), "actions_per_second": round(stats["actions"] / dt, 1),
           "server_stderr": _server_problems(err)[-500:]}
    if store != "none":
        res["store_check"] = verify_store(store, stats["seen"])
        res["append_ms"] = time_appends(store, args.appends)
    return res


def verify_store(url: str, seen: dict) -> dict:
    """Read the store back after the run: for every table the client played, the rows are all there and
    chained (``Store.load``), their number is the version the client saw, and replaying them from the
    table's record gives the events the client received (spectator log) and a finished match."""
    from cardspec.serve.protocol import Table
    from cardspec.serve.store import open_store
    db = open_store(url)
    problems = []
    rows = 0
    try:
        for tid, mine in seen.items():
            st = db.load(tid)
            if st is None:
                problems.append(f"{tid}: not in the store")
                continue
            if st.damaged:
                problems.append(f"{tid}: {st.damaged}")
                continue
            rows += len(st.actions)
            if len(st.actions) != mine["version"]:
                problems.append(f"{tid}: {len(st.actions)} actions stored, the client saw {mine['version']}")
                continue
            rec, meta = st.record, st.record.meta
            t = Table(rec.id, rec.ruleset, rec.players, rec.options, meta.get("seed", rec.seed),
                      bool(meta.get("seed_given")), rec.bots, 0.0, 0.0, token_hashes=rec.token_hashes,
                      seed_salt=meta.get("seed_salt"))
            t.replay(st.actions)
            if not t.state.terminal:
                problems.append(f"{tid}: the stored actions do not finish the match")
            elif t.state.log(None) != mine["events"]:
                problems.append(f"{tid}: the replayed events differ from those the client received")
        stats = db.stats()
    finally:
        db.shutdown()
    return {"tables_checked": len(seen), "rows": rows, "problems": problems[:10], "bad": len(problems),
            "store_stats": stats}


def time_appends(url: str, n: int) -> dict:
    """``Store.append`` alone, ``n`` times into a scratch table of the same store (one writer, as a server
    thread writes): mean, p50, p95 and max in milliseconds. The scratch table is then closed."""
    from cardspec.serve.store import TableRecord, open_store
    db = open_store(url)
    tid = "bench-" + uuid.uuid4().hex[:8]
    try:
        db.create(TableRecord(tid, "hearts", "sha256:bench", {}, 4, "0", {0: "x"}, {}, "bench"))
        xs = []
        for i in range(n):
            t0 = time.perf_counter()
            db.append(tid, i, i % 4, f"play {i}")
            xs.append(time.perf_counter() - t0)
        db.close(tid, "benchmark")
    finally:
        db.shutdown()
    xs.sort()
    return {"n": n, "mean": round(1000 * sum(xs) / n, 3), "p50": round(1000 * xs[n // 2], 3),
            "p95": round(1000 * xs[int(0.95 * n)], 3), "max": round(1000 * xs[-1], 3)}


PG_DEFAULT = os.environ.get("CARDSPEC_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def _store_url(kind: str, args, cleanup: list) -> str:
    """The store URL for ``--store KIND``: a fresh SQLite file, a fresh PostgreSQL schema, or KIND itself."""
    if kind == "sqlite":
        folder = tempfile.mkdtemp(prefix="cardspec-load-")
        cleanup.append(lambda: __import__("shutil").rmtree(folder, ignore_errors=True))
        return f"sqlite:///{folder}/tables.db"
    if kind == "postgresql":
        import psycopg
        schema = "load_" + uuid.uuid4().hex[:10]
        with psycopg.connect(args.pg, autocommit=True) as c:
            c.execute(f"CREATE SCHEMA {schema}")

        def drop():
            with psycopg.connect(args.pg, autocommit=True) as c:
                c.execute(f"DROP SCHEMA {schema} CASCADE")
        cleanup.append(drop)
        return f"{args.pg}{'&' if '?' in args.pg else '?'}options=-csearch_path%3D{schema}"
    return kind


# ---- --stores: the stores alternated round by round in one run (issue 37 item 5) ---------------------
async def play_loop(url, args, idx, live, errors):
    """One connection playing match after match (seat 0 random, the other seats server bots, following the
    table as a spectator) until cancelled; ``live[idx]`` is the number of actions acknowledged so far (the
    finished tables' versions plus the current table's latest spectator version)."""
    rng = random.Random(idx)
    base, k = 0, 0
    local = (f"127.0.0.{10 + idx % args.addresses}", 0) if args.addresses > 1 else None
    async with connect(url, max_size=None, local_addr=local) as ws:
        while True:
            await ws.send(json.dumps({"type": "create", "ruleset": args.ruleset, "players": args.players,
                                      "seed": idx * 100000 + k, "bots": list(range(1, args.players)), "bot_delay": 0,
                                      "options": dict(o.split("=", 1) for o in args.option)}))
            k += 1
            created = await _recv_until(ws, lambda m: m["type"] in ("created", "error"))
            if created["type"] != "created":
                raise RuntimeError(f"connection {idx}: {created}")
            tid, tok = created["table"], created["tokens"]["0"]
            await ws.send(json.dumps({"type": "join", "table": tid}))
            await ws.send(json.dumps({"type": "join", "table": tid, "token": tok}))
            over = {None: False, 0: False}
            version = 0
            while not (over[None] and over[0]):
                m = json.loads(await ws.recv())
                if m["type"] == "error":
                    errors.append(m)
                    continue
                if m["type"] != "update" or m.get("table") != tid:
                    continue
                v = m["view"]
                if m["seat"] is None:
                    version = max(version, m["version"])
                    live[idx] = base + version
                if v["terminal"]:
                    over[m["seat"]] = True
                elif m["seat"] == 0 and v.get("legal_actions"):
                    await ws.send(json.dumps({"type": "act", "table": tid, "token": tok,
                                              "action": rng.choice(v["legal_actions"])}))
            base += version


async def timed_round(args, store):
    """One round on a fresh server with ``store``: ``--tables`` connections play for ``--warmup`` s (not
    counted) and then ``--round-seconds``; returns the actions acknowledged in the counted window."""
    proc = subprocess.Popen([sys.executable, "-m", "cardspec.cli", "serve", "--http", "127.0.0.1:0", "--store", store,
                             "--bot-delay", "0", "--max-tables", str(10 * args.tables + 10)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    live, errors, tasks = {i: 0 for i in range(args.tables)}, [], []
    try:
        line = proc.stdout.readline()
        if not line.startswith("cardspec: serving "):
            raise SystemExit(f"server did not start: {line}{proc.stderr.read()}")
        url = line.split()[-1].replace("http://", "ws://") + "ws"
        tasks = [asyncio.create_task(play_loop(url, args, i, live, errors)) for i in range(args.tables)]
        await asyncio.sleep(args.warmup)
        start, t0 = sum(live.values()), time.perf_counter()
        cpu0, pg0 = _cpu_seconds(proc.pid), _postgres_cpu()
        await asyncio.sleep(args.round_seconds)
        end, dt = sum(live.values()), time.perf_counter() - t0
        cpu1, pg1 = _cpu_seconds(proc.pid), _postgres_cpu()
        total = end
        failed = [t for t in tasks if t.done() and not t.cancelled() and t.exception() is not None]
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        err = _stop(proc)
    res = {"actions": end - start, "seconds": round(dt, 2), "actions_per_second": round((end - start) / dt, 1),
           "errors": len(errors) + len(failed), "acknowledged_total": total,
           "server_stderr": _server_problems(err)[-300:]}
    if cpu0 is not None and cpu1 is not None and end > start:
        res["server_cpu_ms_per_action"] = round(1000 * (cpu1 - cpu0) / (end - start), 3)
    if store.startswith("postgres") and pg0 is not None and pg1 is not None and end > start:
        res["postgres_cpu_ms_per_action"] = round(1000 * (pg1 - pg0) / (end - start), 3)
    if failed:
        res["failure"] = repr(failed[0].exception())[:300]
    if store != "none":
        from cardspec.serve.store import open_store
        db = open_store(store)
        try:
            res["stored_actions"] = db.stats()["actions"]
        finally:
            db.shutdown()
    return res


def _postgres_cpu():
    """User + system CPU seconds of every process named postgres on this machine (Linux /proc; None elsewhere):
    the database's share of a round when it runs here (other clients of a shared server count too)."""
    total = 0.0
    try:
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    with open(f"/proc/{pid}/stat") as f:
                        head, _, rest = f.read().rpartition(")")
                    if head.endswith("(postgres"):
                        fields = rest.split()
                        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
                except OSError:
                    continue
    except OSError:
        return None
    return total


def _spread(xs):
    xs = sorted(xs)
    n = len(xs)
    med = xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
    return med, xs[0], xs[-1]


def main_stores(args):
    kinds = [k.strip() for k in args.stores.split(",") if k.strip()]
    if "none" not in kinds:
        kinds.insert(0, "none")
    load0 = os.getloadavg()
    rounds = {k: [] for k in kinds}
    for r in range(args.rounds):
        order = kinds if r % 2 == 0 or not args.zigzag else kinds[::-1]
        for kind in order:
            cleanup = []
            try:
                res = asyncio.run(timed_round(args, _store_url(kind, args, cleanup)))
            finally:
                for fn in cleanup:
                    fn()
            res["round"], res["load_1min"] = r + 1, round(os.getloadavg()[0], 2)
            rounds[kind].append(res)
            if not args.json:
                print(f"round {r + 1} [{kind}] {res['actions']} actions in {res['seconds']} s = "
                      f"{res['actions_per_second']} actions/s (load {res['load_1min']:.1f})"
                      + (f"; CPU ms per action: server {res['server_cpu_ms_per_action']}"
                         if "server_cpu_ms_per_action" in res else "")
                      + (f", postgres {res['postgres_cpu_ms_per_action']}" if "postgres_cpu_ms_per_action" in res
                         else "")
                      + (f"; store holds {res['stored_actions']} >= {res['acknowledged_total']} acknowledged"
                         if "stored_actions" in res else "")
                      + (f"; {res['errors']} errors" if res["errors"] else "")
                      + (f"; {res['failure']}" if "failure" in res else "")
                      + (f"; server stderr: {res['server_stderr']}" if res["server_stderr"] else ""), flush=True)
    summary = {}
    mem = [x["actions_per_second"] for x in rounds["none"]]
    for kind in kinds:
        tput = [x["actions_per_second"] for x in rounds[kind]]
        med, lo, hi = _spread(tput)
        entry = {"median_actions_per_second": med, "min": lo, "max": hi, "per_round": tput}
        if kind != "none":
            costs = [1 - s / m for s, m in zip(tput, mem) if m > 0]
            c_med, c_lo, c_hi = _spread(costs)
            entry.update({"cost_median": round(c_med, 4), "cost_min": round(c_lo, 4), "cost_max": round(c_hi, 4),
                          "cost_of_medians": round(1 - med / _spread(mem)[0], 4),
                          "cost_per_round": [round(c, 4) for c in costs]})
        cpu = [x["server_cpu_ms_per_action"] + x.get("postgres_cpu_ms_per_action", 0) for x in rounds[kind]
               if "server_cpu_ms_per_action" in x]
        if cpu:
            entry["cpu_ms_per_action_median"], entry["cpu_ms_per_action_min"], entry["cpu_ms_per_action_max"] = \
                (round(v, 3) for v in _spread(cpu))
        summary[kind] = entry
    load1 = os.getloadavg()
    ok = all(not x["errors"] and not x["server_stderr"] and x.get("stored_actions", 1 << 62) >= x["acknowledged_total"]
             for rs in rounds.values() for x in rs)
    if args.json:
        print(json.dumps({"load_average_start": load0, "load_average_end": load1, "summary": summary,
                          "rounds": rounds, "ok": ok}, indent=1))
    else:
        print(f"{args.rounds} rounds of {args.round_seconds:g} s (+{args.warmup:g} s warm-up) per store, "
              f"{args.tables} connections from {args.addresses} address(es) of {args.ruleset} ({args.players} players), stores alternated "
              f"{'/'.join(kinds)} …")
        for kind in kinds:
            e = summary[kind]
            line = (f"  {kind:<10} median {e['median_actions_per_second']:7.1f} actions/s "
                    f"(min {e['min']:.1f}, max {e['max']:.1f})")
            if kind != "none":
                line += (f"; cost vs none: median {100 * e['cost_median']:.1f} % "
                         f"(min {100 * e['cost_min']:.1f} %, max {100 * e['cost_max']:.1f} % over {len(e['per_round'])} "
                         f"adjacent rounds; ratio of medians {100 * e['cost_of_medians']:.1f} %)")
            print(line)
        base_cpu = summary["none"].get("cpu_ms_per_action_median")
        for kind in kinds:
            e = summary[kind]
            if "cpu_ms_per_action_median" in e:
                print(f"  {kind:<10} CPU per action (server process" + (" + postgres" if kind.startswith("postgres")
                                                                         else "") +
                      f"): median {e['cpu_ms_per_action_median']} ms (min {e['cpu_ms_per_action_min']}, max "
                      f"{e['cpu_ms_per_action_max']})" +
                      (f"; {100 * (e['cpu_ms_per_action_median'] / base_cpu - 1):+.1f} % against none"
                       if kind != "none" and base_cpu else ""))
        print(f"load average (1, 5, 15 min): start {load0[0]:.1f} {load0[1]:.1f} {load0[2]:.1f}, "
              f"end {load1[0]:.1f} {load1[1]:.1f} {load1[2]:.1f}")
    sys.exit(0 if ok else 1)


# ---- --hostile: one client attacks, another measures its hello latency (issue 16) ----------------------
SLOW_RULE = ("count(x in deck where count(y in deck where count(z in deck where count(w in deck where "
             "x.rank + y.rank + z.rank + w.rank > card.rank) > 0) > 0) > 0) > 0")


async def _recv_until(ws, pred, limit=200):
    for _ in range(limit):
        m = json.loads(await ws.recv())
        if pred(m):
            return m
    raise RuntimeError("no such reply")


async def hostile_rule(url, report):
    """An Eleusis dealer types a rule with four loops over the 104-card deck, then a child plays."""
    async with connect(url, max_size=None, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "create", "ruleset": "eleusis-prophets", "players": 4, "seed": 1, "id": 1}))
        t = await _recv_until(ws, lambda m: m.get("id") == 1)
        toks = t["tokens"]
        t0 = time.perf_counter()
        await ws.send(json.dumps({"type": "act", "table": t["table"], "token": toks[str(t["to_act"])],
                                  "action": "write " + SLOW_RULE, "id": 2}))
        r = await _recv_until(ws, lambda m: m.get("id") == 2)
        if r["type"] == "error":
            report["slow rule"] = f"refused when typed in {time.perf_counter() - t0:.2f} s: {r['code']}: " \
                                  f"{r['message'][:120]}"
            return
        nxt = str((t["to_act"] + 1) % 4)
        await ws.send(json.dumps({"type": "get_view", "table": t["table"], "token": toks[nxt], "id": 3}))
        v = (await _recv_until(ws, lambda m: m.get("id") == 3))["view"]
        t0 = time.perf_counter()
        await ws.send(json.dumps({"type": "act", "table": t["table"], "token": toks[str(v["to_act"])],
                                  "action": v["legal_actions"][0], "id": 4}))
        r = await _recv_until(ws, lambda m: m.get("id") == 4)
        report["slow rule"] = f"judgement answered in {time.perf_counter() - t0:.2f} s: " + \
            (f"{r['code']}: {r['message'][:120]}" if r["type"] == "error" else r["type"])


async def hostile_bots(url, report):
    """Unbounded bot specs (refused), then tables of four bots at the caps, played as fast as allowed."""
    async with connect(url, max_size=None, ping_interval=None) as ws:
        got = []
        for i, spec in enumerate(["ismcts:infs", "ismcts:100000000"]):
            await ws.send(json.dumps({"type": "create", "ruleset": "hearts", "bots": {"1": spec}, "id": 10 + i}))
            r = await _recv_until(ws, lambda m: m.get("id") == 10 + i)
            got.append(f"{spec}: {r.get('code', r['type'])}")
        for i in range(6):
            await ws.send(json.dumps({"type": "create", "ruleset": "hearts", "bot_delay": 0, "id": 20 + i,
                                      "bots": {str(s): "ismcts:5000" if s % 2 else "ismcts:2s" for s in range(4)}}))
            r = await _recv_until(ws, lambda m: m.get("id") == 20 + i)
            got.append(r.get("code", r["type"]))
        report["bots"] = ", ".join(got[:2]) + f"; {got[2:].count('created')} tables of 4 searching bots at the caps"


async def hostile_legal(url, report):
    """Eleusis with 26-card hands: hundreds of thousands of legal actions for the seat to act."""
    async with connect(url, max_size=None, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "create", "ruleset": "eleusis-prophets", "players": 4, "seed": 2,
                                  "options": {"hand_size": 26}, "id": 30}))
        t = await _recv_until(ws, lambda m: m.get("id") == 30)
        if t["type"] == "error":
            report["legal"] = f"{t['code']}: {t['message'][:100]}"
            return
        toks = t["tokens"]
        await ws.send(json.dumps({"type": "act", "table": t["table"], "token": toks[str(t["to_act"])],
                                  "action": "rule colours_alternate", "id": 31}))
        await _recv_until(ws, lambda m: m.get("id") == 31)
        t0 = time.perf_counter()
        for s in range(4):
            await ws.send(json.dumps({"type": "join", "table": t["table"], "token": toks[str(s)]}))
        u = await _recv_until(ws, lambda m: m["type"] == "update" and "legal_actions" in m["view"], limit=50)
        size = len(json.dumps(u))
        report["legal"] = f"{u['view'].get('legal_count', len(u['view']['legal_actions']))} legal actions, update " \
                          f"of {size / 1024:.0f} KB after {time.perf_counter() - t0:.2f} s"


async def hostile_flood(url, report):
    """200 create messages as fast as one connection can send them (it does not answer pings meanwhile: the
    server stops reading a connection whose messages wait, so a client's keep-alive would give up)."""
    async with connect(url, max_size=None, ping_interval=None) as ws:
        t0 = time.perf_counter()
        for i in range(200):
            await ws.send(json.dumps({"type": "create", "ruleset": "hearts", "id": 100 + i}))
        sent = time.perf_counter() - t0
        codes = {}
        try:
            for _ in range(200):
                r = await _recv_until(ws, lambda m: m.get("id", 0) >= 100)
                k = r.get("code", r["type"])
                codes[k] = codes.get(k, 0) + 1
        except Exception as e:  # noqa: BLE001 - the server may close a connection that floods it
            codes[f"then closed by the server ({type(e).__name__}: {e})"] = 1
        report["flood"] = f"200 creates sent in {sent:.2f} s, answered in {time.perf_counter() - t0:.2f} s: " + \
            ", ".join(f"{v} {k}" for k, v in sorted(codes.items()))


async def measure_hello(url, stop, lat, period=0.05, ready=None):
    """Send hello every ``period`` s on one connection until ``stop`` is set; append each reply's latency (s)."""
    async with connect(url, max_size=None) as ws:
        if ready is not None:
            ready()
        i = 0
        while not stop.is_set():
            i += 1
            t0 = time.perf_counter()
            await ws.send(json.dumps({"type": "hello", "id": i}))
            await _recv_until(ws, lambda m: m.get("id") == i)
            lat.append(time.perf_counter() - t0)
            await asyncio.sleep(period)


def main_measure(args):
    """``--measure-hello URL``: the measuring client alone in its own process (it shares no event loop, and no
    GIL, with the attackers); prints the latencies as JSON on stdout."""
    lat = []

    async def go():
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_reader(sys.stdin.fileno(), stop.set)   # any line (or the end) on stdin: stop
        await measure_hello(args.measure_hello, stop, lat, ready=lambda: print("ready", flush=True))
    asyncio.run(go())
    print(json.dumps(lat))


async def _measurer(url):
    """Start the measuring client in a separate process; returns ``stop()``, a coroutine that stops it and
    gives its latencies (s)."""
    proc = await asyncio.create_subprocess_exec(sys.executable, __file__, "--measure-hello", url,
                                                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    await proc.stdout.readline()   # "ready": connected, the first hello goes now

    async def stop():
        out, _ = await proc.communicate(b"stop\n")
        return json.loads(out or b"[]")
    return stop


def _cpu_seconds(pid):
    """User + system CPU seconds of process ``pid`` so far (Linux /proc; None elsewhere): the server process
    alone, without its worker processes."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rpartition(")")[2].split()
        return round((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), 2)
    except (OSError, ValueError, IndexError):
        return None


def _stats(lat):
    xs = sorted(lat)
    pick = lambda q: xs[min(len(xs) - 1, int(q * len(xs)))] * 1000   # noqa: E731
    return {"n": len(xs), "p50_ms": round(pick(0.5), 1), "p95_ms": round(pick(0.95), 1),
            "max_ms": round(xs[-1] * 1000, 1)}


async def run_hostile(args):
    proc, url = _serve_quiet()
    try:
        report = {}
        stop = await _measurer(url)
        await asyncio.sleep(args.baseline)
        quiet = await stop()
        stop = await _measurer(url)
        t0 = time.perf_counter()
        chosen = {"rule": hostile_rule, "bots": hostile_bots, "legal": hostile_legal, "flood": hostile_flood}
        attacks = asyncio.gather(*(chosen[a](url, report) for a in args.attacks.split(",")), return_exceptions=True)
        try:
            res = await asyncio.wait_for(asyncio.shield(attacks), args.timeout)
        except asyncio.TimeoutError:
            res = ["the attack did not finish within --timeout"]
        await asyncio.sleep(max(0.0, args.attack - (time.perf_counter() - t0)))   # bots keep searching meanwhile
        loud = await stop()
        errors = [repr(r) for r in res if r is not None]
        server_cpu = _cpu_seconds(proc.pid)
    finally:
        err = _stop(proc)
    return {"baseline": _stats(quiet), "under_attack": _stats(loud), "attack": report, "attack_errors": errors,
            "load_average": os.getloadavg(), "server_process_cpu_s": server_cpu,
            "server_stderr_lines": len(err.strip().splitlines()), "server_stderr": err.strip()[-300:]}


async def victim(url, seconds, lat, addr="127.0.0.4"):
    """Play Hearts (seat 0, three random bots) for ``seconds``, recording each turn's latency (s) in ``lat``:
    from sending an action to the update that asks again (or ends the match)."""
    rng = random.Random(4)
    end = time.perf_counter() + seconds
    async with connect(url, max_size=None, local_addr=(addr, 0)) as ws:
        while time.perf_counter() < end:
            await ws.send(json.dumps({"type": "create", "ruleset": "hearts", "players": 4, "seed": rng.randrange(1 << 30),
                                      "bots": [1, 2, 3], "bot_delay": 0}))
            created = await _recv_until(ws, lambda m: m["type"] in ("created", "error"))
            if created["type"] != "created":
                raise RuntimeError(f"victim: {created}")
            tid, tok = created["table"], created["tokens"]["0"]
            await ws.send(json.dumps({"type": "join", "table": tid, "token": tok}))
            sent = None
            while time.perf_counter() < end:
                m = json.loads(await ws.recv())
                if m.get("type") != "update" or m.get("table") != tid:
                    continue
                v = m["view"]
                if v["terminal"] or v.get("legal_actions"):
                    if sent is not None:
                        lat.append(time.perf_counter() - sent)
                        sent = None
                    if v["terminal"]:
                        break
                    sent = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "table": tid, "token": tok,
                                              "action": rng.choice(v["legal_actions"])}))


async def bot_attacker(url, addr, tables, spec, stop, report):
    """Keep ``tables`` tables of four ``spec`` bots searching from address ``addr`` until ``stop`` is set."""
    made = 0
    async with connect(url, max_size=None, local_addr=(addr, 0)) as ws:
        live = set()
        while not stop.is_set():
            while len(live) < tables and not stop.is_set():
                await ws.send(json.dumps({"type": "create", "ruleset": "hearts", "players": 4, "seed": made,
                                          "bots": {str(s): spec for s in range(4)}, "bot_delay": 0}))
                m = await _recv_until(ws, lambda m: m["type"] in ("created", "error"))
                if m["type"] != "created":
                    report.setdefault(f"{addr} refused", m.get("code"))
                    await asyncio.sleep(1)
                    break
                live.add(m["table"])
                made += 1
                await ws.send(json.dumps({"type": "join", "table": m["table"]}))
            try:
                m = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
            except asyncio.TimeoutError:
                continue
            if m.get("type") == "update" and m["view"]["terminal"]:
                live.discard(m.get("table"))
    report[f"{addr} tables created"] = made


async def run_bot_attack(args):
    proc, url = _serve_quiet()
    try:
        quiet, loud, report = [], [], {}
        await victim(url, args.baseline, quiet)
        stop = asyncio.Event()
        attackers = [asyncio.create_task(bot_attacker(url, a, args.attack_tables, args.attack_bot, stop, report))
                     for a in ("127.0.0.2", "127.0.0.3")]
        await asyncio.sleep(3)        # the attack's searches under way
        await victim(url, args.attack, loud)
        stop.set()
        await asyncio.wait_for(asyncio.gather(*attackers, return_exceptions=True), 30)
    finally:
        err = _stop(proc)
    return {"quiet": _stats(quiet), "under_attack": _stats(loud), "attack": report,
            "load_average": os.getloadavg(), "server_stderr": _server_problems(err)[-300:]}


def main_bot_attack(args):
    res = asyncio.run(run_bot_attack(args))
    q, a = res["quiet"], res["under_attack"]
    ratio = a["p50_ms"] / q["p50_ms"] if q["p50_ms"] else float("inf")
    res["median_ratio"] = round(ratio, 2)
    if args.json:
        print(json.dumps(res, indent=1))
    else:
        print(f"victim's turn latency, quiet:        p50 {q['p50_ms']} ms, p95 {q['p95_ms']} ms, max {q['max_ms']} ms "
              f"({q['n']} turns in {args.baseline:g} s)")
        print(f"victim's turn latency, under attack: p50 {a['p50_ms']} ms, p95 {a['p95_ms']} ms, max {a['max_ms']} ms "
              f"({a['n']} turns in {args.attack:g} s)")
        print(f"median under attack / quiet: {ratio:.2f} (target: at most 2)")
        for k, v in res["attack"].items():
            print(f"  {k}: {v}")
        la = res["load_average"]
        print(f"load average (1, 5, 15 min) at the end: {la[0]:.1f} {la[1]:.1f} {la[2]:.1f}")
        if res["server_stderr"]:
            print("server stderr:", res["server_stderr"])
    sys.exit(0 if ratio <= 2 else 1)


def main_hostile(args):
    res = asyncio.run(run_hostile(args))
    if args.json:
        print(json.dumps(res, indent=1))
    else:
        b, a = res["baseline"], res["under_attack"]
        print(f"hello latency, quiet server:   p50 {b['p50_ms']} ms, p95 {b['p95_ms']} ms, max {b['max_ms']} ms "
              f"({b['n']} hellos)")
        print(f"hello latency, under attack:   p50 {a['p50_ms']} ms, p95 {a['p95_ms']} ms, max {a['max_ms']} ms "
              f"({a['n']} hellos)")
        for k, v in res["attack"].items():
            print(f"  {k}: {v}")
        for e in res["attack_errors"]:
            print("  attack error:", e)
        la = res["load_average"]
        print(f"load average (1, 5, 15 min) at the end: {la[0]:.1f} {la[1]:.1f} {la[2]:.1f}; the server process "
              f"(its workers not counted) used {res['server_process_cpu_s']} s of CPU")
        print(f"server stderr: {res['server_stderr_lines']} lines" +
              (f"; last: {res['server_stderr']}" if res["server_stderr"] else ""))
    sys.exit(0 if res["under_attack"]["max_ms"] < 100 else 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--ruleset", default="hearts")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--timeout", type=float, default=600, help="seconds before giving up")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--store", action="append", metavar="KIND",
                    help="none (default), sqlite (a fresh temporary file), postgresql (a fresh schema on --pg) or a "
                         "store URL; repeat to compare")
    ap.add_argument("--pg", default=PG_DEFAULT, help="the PostgreSQL server for --store postgresql")
    ap.add_argument("--appends", type=int, default=1000, help="rows of the Store.append timing after each run")
    ap.add_argument("--stores", metavar="KIND,KIND,…",
                    help="alternate these stores round by round in one run (none is added first if missing) and "
                         "print each one's cost against none with its spread")
    ap.add_argument("--rounds", type=int, default=4, help="--stores: rounds of each store")
    ap.add_argument("--round-seconds", type=float, default=10.0, help="--stores: counted seconds of a round")
    ap.add_argument("--warmup", type=float, default=2.0, help="--stores: seconds of a round not counted (first)")
    ap.add_argument("--addresses", type=int, default=10,
                    help="--stores: spread the connections over this many loopback addresses (127.0.0.10 …), as "
                         "players from several hosts (the server runs at most 2 engine calls at once per address)")
    ap.add_argument("--zigzag", action="store_true",
                    help="--stores: reverse the order every other round (A/B/C/C/B/A …)")
    ap.add_argument("--hostile", action="store_true",
                    help="one hostile client (slow typed rule, bots at the caps, huge legal lists, a table flood) "
                         "while another measures its hello latency")
    ap.add_argument("--attacks", default="rule,bots,legal,flood", help="--hostile: which attacks (comma-separated)")
    ap.add_argument("--baseline", type=float, default=3.0, help="--hostile: seconds of hellos before the attack")
    ap.add_argument("--attack", type=float, default=20.0, help="--hostile: seconds of hellos during the attack")
    ap.add_argument("--measure-hello", metavar="URL", help=argparse.SUPPRESS)   # the measuring process of --hostile
    ap.add_argument("--bot-attack", action="store_true",
                    help="a person's Hearts turn latency while two other addresses' tables of searching bots play")
    ap.add_argument("--attack-tables", type=int, default=16, help="--bot-attack: tables per attacking address")
    ap.add_argument("--attack-bot", default="ismcts:2s", help="--bot-attack: the attackers' bot (every seat)")
    args = ap.parse_args()
    if args.bot_attack:
        return main_bot_attack(args)
    if args.measure_hello:
        return main_measure(args)
    if args.hostile:
        args.timeout = min(args.timeout, 120.0)
        return main_hostile(args)
    if args.stores:
        return main_stores(args)
    results = []
    for kind in args.store or ["none"]:
        cleanup = []
        try:
            res = asyncio.run(run(args, _store_url(kind, args, cleanup)))
        finally:
            for fn in cleanup:
                fn()
        res["store"] = kind if kind in ("none", "sqlite", "postgresql") else res["store"]
        results.append(res)
    base = next((r for r in results if r["store"] == "none"), None)
    for res in results:
        if base is not None and res is not base and res["actions"] and base["actions"]:
            res["wall_ms_per_action_over_none"] = round(1000 * (1 / res["actions_per_second"]
                                                                 - 1 / base["actions_per_second"]), 3)
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"load_average": load, "runs": results}, indent=1))
    for res in results if not args.json else []:
        print(f"[store {res['store']}] {res['finished']}/{res['tables']} tables of {res['ruleset']} "
              f"({res['players']} players) played to "
              f"the end: {res['actions']} actions ({res['client_actions']} over the WebSocket) in {res['seconds']} s "
              f"= {res['actions_per_second']} actions/s; {res['messages']} messages, {res['errors']} errors, "
              f"{res['lost']} logs with lost events")
        if "store_check" in res:
            c, a = res["store_check"], res["append_ms"]
            print(f"  store read back: {c['tables_checked']} tables, {c['rows']} action rows, "
                  f"{c['bad']} with a problem" + (f" ({'; '.join(c['problems'])})" if c["problems"] else "")
                  + "; replayed: every match finished, events identical" * (not c["bad"]))
            print(f"  Store.append alone ({a['n']} rows): mean {a['mean']} ms, p50 {a['p50']} ms, p95 {a['p95']} ms, "
                  f"max {a['max']} ms" + (f"; wall time per action vs --store none: "
                                          f"{res['wall_ms_per_action_over_none']:+} ms"
                                          if "wall_ms_per_action_over_none" in res else ""))
        if res["server_stderr"]:
            print("  server stderr:", res["server_stderr"])
    if not args.json:
        print(f"load average (1, 5, 15 min) at the end: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    ok = all(r["finished"] == r["tables"] and not r["errors"] and not r["lost"] and not r["server_stderr"]
             and not r.get("store_check", {}).get("bad") for r in results)
    sys.exit(0 if ok else 1)

if __name__ == "__main__":
    main()
