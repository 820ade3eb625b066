"""Tables survive a restart (issue 22, "Fault tests"): a real server process with a store, part of a deal
played through WebSocket with a seat token and bots, SIGKILL, restart, rejoin with the same token — the
view, the version and the events are identical and play goes on to the end. A damaged last row is
reported and the table refused, never replayed as a different game. On SQLite and on PostgreSQL.
"""
from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

pytest.importorskip("uvicorn")
from websockets.sync.client import connect  # noqa: E402

from _stores import pg_url, store_url  # noqa: E402,F401  (fixtures)


class Server:
    def __init__(self, store):
        self.proc = subprocess.Popen([sys.executable, "-m", "cardspec.cli", "serve", "--http", "127.0.0.1:0",
                                      "--store", store, "--bot-delay", "0"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("cardspec: serving "):
            self.proc.kill()
            raise AssertionError(f"server did not start: {line}{self.proc.stderr.read()}")
        self.url = line.split()[-1].replace("http://", "ws://") + "ws"

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        return self.proc.stderr.read()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        return self.proc.stderr.read()


class Client:
    def __init__(self, url):
        self.cm = connect(url, open_timeout=10, origin=None)
        self.ws = self.cm.__enter__()

    def send(self, m):
        self.ws.send(json.dumps(m))

    def recv(self, timeout=30):
        return json.loads(self.ws.recv(timeout=timeout))

    def ask(self, m, want):
        self.send(m)
        while True:
            r = self.recv()
            if r["type"] in (want, "error"):
                return r

    def close(self):
        self.cm.__exit__(None, None, None)


def _wait_my_turn(c, table, seat, seen):
    """Updates until ``seat`` is to act or the match is over; ``seen`` collects events. Returns the update."""
    while True:
        m = c.recv()
        if m["type"] == "error":
            raise AssertionError(m)
        if m["type"] != "update" or m["table"] != table:
            continue
        seen.extend(m["events"])
        v = m["view"]
        if v.get("terminal") or (v.get("to_act") == seat and v.get("legal_actions")):
            return m


def _play(c, table, token, seat, rng, turns, seen, m=None):
    """Play ``turns`` of our turns (random legal actions) from the update ``m`` (default: the next one where
    we are to act); returns the last update (our turn, or the end)."""
    m = m or _wait_my_turn(c, table, seat, seen)
    for _ in range(turns):
        if m["view"].get("terminal"):
            break
        c.send({"type": "act", "table": table, "token": token, "action": rng.choice(m["view"]["legal_actions"])})
        m = _wait_my_turn(c, table, seat, seen)
    return m


CASES = [("hearts", 4, {"deals": 1}, 5), ("burraco", 4, {"target": 300}, 3)]


@pytest.mark.parametrize("ruleset, players, options, turns", CASES, ids=[c[0] for c in CASES])
def test_sigkill_then_restart_loses_nothing_and_play_goes_on(store_url, ruleset, players, options, turns):
    rng = random.Random(1)
    s = Server(store_url)
    try:
        c = Client(s.url)
        created = c.ask({"type": "create", "ruleset": ruleset, "players": players, "options": options, "seed": 7,
                         "bots": {str(k): "random" for k in range(1, players)}, "bot_delay": 0}, "created")
        assert created["type"] == "created", created
        table, token = created["table"], created["tokens"]["0"]
        assert c.ask({"type": "join", "table": table, "token": token}, "joined")["seat"] == 0
        seen = []
        before = _play(c, table, token, 0, rng, turns, seen)
        assert not before["view"].get("terminal") and before["version"] > turns
        c.close()
    finally:
        s.kill()                                     # no shutdown, no flush: what was acknowledged must be stored
    s = Server(store_url)
    try:
        c = Client(s.url)
        assert c.ask({"type": "join", "table": table, "token": token}, "joined")["seat"] == 0
        again = []
        after = _wait_my_turn(c, table, 0, again)
        assert after["version"] == before["version"]
        assert after["view"] == before["view"]
        assert again == seen                         # the whole log from the start, event for event
        wrong = c.ask({"type": "join", "table": table, "token": token[:-1] + ("x" if token[-1] != "x" else "y")},
                      "joined")
        assert wrong["type"] == "error" and wrong["code"] == "auth/bad_token"
        end = _play(c, table, token, 0, rng, 10_000, again, after)
        assert end["view"]["terminal"]
        c.close()
    finally:
        log = s.stop()
    assert "1 open tables restored" in log


def _damage_last_action(url):
    sql = "UPDATE cardspec_actions SET action = action || ' ' WHERE n = (SELECT MAX(n) FROM cardspec_actions)"
    if url.startswith("sqlite"):
        c = sqlite3.connect(url[len("sqlite:///"):])
        c.execute(sql)
        c.commit()
        c.close()
    else:
        import psycopg
        with psycopg.connect(url, autocommit=True) as c:
            c.execute(sql)


def test_a_damaged_last_write_is_reported_and_the_table_refused(store_url):
    s = Server(store_url)
    try:
        c = Client(s.url)
        created = c.ask({"type": "create", "ruleset": "hearts", "players": 4, "options": {"deals": 1}, "seed": 3,
                         "bots": {"1": "random", "2": "random", "3": "random"}, "bot_delay": 0}, "created")
        table, token = created["table"], created["tokens"]["0"]
        c.ask({"type": "join", "table": table, "token": token}, "joined")
        _play(c, table, token, 0, random.Random(2), 2, [])
        c.close()
    finally:
        s.kill()
    _damage_last_action(store_url)
    s = Server(store_url)
    try:
        c = Client(s.url)
        r = c.ask({"type": "join", "table": table, "token": token}, "joined")
        assert r["type"] == "error" and r["code"] == "table/unavailable"
        assert "does not match its digest" in r["message"]
        c.close()
    finally:
        log = s.stop()
    assert f"table {table} not restored" in log and "1 refused" in log
