"""Several server processes sharing tables on PostgreSQL (issue 22, "Scale-out ... several server processes
behind a load balancer share tables"): an action applied through one process reaches the clients of another
(LISTEN/NOTIFY), a table opened on one process can be joined through another, and two processes that both
take the next action of a table are serialized by the store (the key (table, number) picks the first; the
other re-reads the rows it missed and tries its action again on the new state). Bots of a shared table are
moved by one process only (an advisory lock), and another takes over when it dies.

Real PostgreSQL (tests/_stores.py; CI must not skip) and, for the push, real server processes on loopback.
"""
from __future__ import annotations

import json
import random
import threading
import time

import pytest

from _stores import pg_url  # noqa: F401  (fixture)
from cardspec.serve.protocol import ProtocolError, Registry
from cardspec.serve.store import open_store, parse_note


def _hearts(reg, bots=None, seed=5):
    return reg.create({"type": "create", "ruleset": "hearts", "players": 4, "options": {"deals": 1}, "seed": seed,
                       "bots": bots or []})


def test_two_processes_one_table_the_store_serializes_their_actions(pg_url):
    """Process B opens a table process A created; A plays; B, not yet told, plays the same action for the
    same seat: B's write loses on the key (table, number), B re-reads A's action, tries again and is refused
    (the card is gone); both end with the same actions in the same order, and the store's chain holds."""
    a, b = Registry(store=open_store(pg_url)), Registry(store=open_store(pg_url))
    t = _hearts(a)
    tb = b.adopt(b.load_stored(t.id))
    assert tb.state.history == t.state.history and tb is b.tables[t.id]
    seat = t.state.to_act
    first = t.state.legal_actions()[0]
    assert t.act(seat, first, 0.0) == first
    assert len(tb.applied) == 0                       # B has not heard of it yet
    with pytest.raises(ProtocolError) as e:
        tb.act(seat, first, 0.0)                      # same seat, same number: the store says A was first
    assert e.value.code == "action/illegal"
    assert tb.applied == t.applied == [(seat, first)] and tb.state.history == t.state.history
    # B goes on from the new state; A, stale now, catches up the same way
    s2 = tb.state.to_act
    tb.act(s2, tb.state.legal_actions()[0], 0.0)
    assert t.catch_up() == 1 and t.applied == tb.applied and t.version == tb.version == 2
    stored = a.store.load(t.id)
    assert stored.damaged is None and stored.actions == t.applied


def test_the_loser_plays_its_action_on_the_new_state_when_it_is_still_legal(pg_url):
    """The retry is a real replay: in Hearts a seat passes its three cards one at a time, so when A stores
    seat 1's "pass" of one card and B, not yet told, seat 1's "pass" of another, B loses the write, re-reads
    A's pass and plays its own after it: both passes stand, in the store's order."""
    a, b = Registry(store=open_store(pg_url)), Registry(store=open_store(pg_url))
    t = _hearts(a)
    tb = b.adopt(b.load_stored(t.id))
    seat = t.state.to_act
    mine, theirs = t.state.legal_actions()[0], tb.state.legal_actions()[-1]
    assert mine.startswith("pass ") and theirs.startswith("pass ") and mine != theirs
    t.act(seat, mine, 0.0)
    assert tb.act(seat, theirs, 0.0) == theirs
    assert tb.applied == [(seat, mine), (seat, theirs)]
    assert t.catch_up() == 1 and t.applied == tb.applied and t.state.history == tb.state.history


def test_a_bot_move_made_elsewhere_is_dropped_not_replayed(pg_url):
    """A bot's move is chosen for one decision number: when another process stored that decision first,
    the move is dropped (None), never applied to a later decision."""
    a, b = Registry(store=open_store(pg_url)), Registry(store=open_store(pg_url))
    t = _hearts(a, bots=[0, 1, 2, 3])
    tb = b.adopt(b.load_stored(t.id))
    decision = len(tb.applied)
    t.play_bot(0.0)
    seat = tb.bot_to_act()
    bot_move = tb.state.legal_actions()[0]
    assert tb.act(seat, bot_move, 0.0, decision=decision) is None
    assert tb.applied == t.applied


def test_one_process_moves_a_tables_bots_and_another_takes_over_when_it_dies(pg_url):
    s1, s2 = open_store(pg_url), open_store(pg_url)
    assert s1.claim("tX") and s1.claim("tX")          # the holder keeps it
    assert not s2.claim("tX")
    assert s2.claim("tY")
    s1.shutdown()                                     # its connection ends: the lock goes with it
    for _ in range(100):                              # (the server ends the session just after the client)
        if s2.claim("tX"):
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the lock of a closed connection was never released")
    s2.release("tX")
    s3 = open_store(pg_url)
    assert s3.claim("tX") and not s2.claim("tX")      # released: the next asker gets it
    s2.shutdown()
    s3.shutdown()


def test_appends_and_closes_are_announced_to_the_other_processes(pg_url):
    """NOTIFY on commit: the other store's listener gets "table n origin" and "table closed origin reason";
    its own notes are not delivered to itself."""
    s1, s2 = open_store(pg_url), open_store(pg_url)
    got, ready = [], threading.Event()

    def deliver(p):
        got.append(p)
        ready.set()
    stop = s2.listen(deliver)
    own = []
    stop_own = s1.listen(own.append)
    try:
        reg = Registry(store=s1)
        time.sleep(1.0)                               # the listeners are connected
        t = _hearts(reg)
        t.act(t.state.to_act, t.state.legal_actions()[0], 0.0)
        assert ready.wait(10)
        reg.close(t, "idle")
        for _ in range(100):
            if len(got) >= 2:
                break
            time.sleep(0.1)
        notes = [parse_note(p) for p in got]
        assert notes[0][:2] == (t.id, 0) and notes[0][2] == s1.origin
        assert notes[1][:2] == (t.id, "closed") and notes[1][3] == "idle"
        assert own == []
    finally:
        stop()
        stop_own()


# ---- two real server processes on loopback --------------------------------------------------------------
pytest.importorskip("uvicorn")
from test_store_restart import Client, Server  # noqa: E402


def _follow(c, table, seat, seen, until):
    """Read updates of ``seat`` at ``table`` (collecting events) until ``until(update)``; returns it."""
    while True:
        m = c.recv()
        if m["type"] == "error":
            raise AssertionError(m)
        if m["type"] == "update" and m["table"] == table and m["seat"] == seat:
            seen.extend(m["events"])
            if until(m):
                return m


def test_a_client_on_one_process_sees_the_actions_applied_through_another(pg_url):
    """Two `cardspec serve --store postgresql://…` processes: the table is created on A; seat 0 plays through
    A, seat 1 through B (it joins a table B never created), two bots. Each client sees every action of the
    other as updates, and at the end both have the same whole log as a spectator of the other process."""
    A, B = Server(pg_url), Server(pg_url)
    try:
        ca, cb = Client(A.url), Client(B.url)
        created = ca.ask({"type": "create", "ruleset": "hearts", "players": 4, "options": {"deals": 1}, "seed": 9,
                          "bots": {"2": "random", "3": "random"}, "bot_delay": 0}, "created")
        assert created["type"] == "created", created
        table, toks = created["table"], created["tokens"]
        assert ca.ask({"type": "join", "table": table, "token": toks["0"]}, "joined")["seat"] == 0
        assert cb.ask({"type": "join", "table": table, "token": toks["1"]}, "joined")["seat"] == 1
        rng = random.Random(3)
        seen = {0: [], 1: []}
        clients = {0: ca, 1: cb}
        last = {}
        turns = 0
        while True:
            # each client reads its updates until it is to act or the match is over
            done = True
            for seat, c in clients.items():
                m = _follow(c, table, seat, seen[seat],
                            lambda m: m["view"]["terminal"] or m["view"].get("to_act") in (0, 1))
                last[seat] = m
                done = done and m["view"]["terminal"]
            if done:
                break
            to_act = last[0]["view"]["to_act"]
            assert last[1]["view"]["to_act"] == to_act and last[0]["version"] == last[1]["version"]
            v = last[to_act]["view"]
            clients[to_act].send({"type": "act", "table": table, "token": toks[str(to_act)],
                                  "action": rng.choice(v["legal_actions"])})
            turns += 1
        assert turns > 20 and last[0]["version"] == last[1]["version"]
        # the whole log of each seat, asked of the other process, is what the client received
        for seat, c in ((0, cb), (1, ca)):
            r = c.ask({"type": "get_view", "table": table, "token": toks[str(seat)], "since": 0}, "view")
            assert r["events"] == seen[seat] and r["version"] == last[0]["version"]
        stored = open_store(pg_url).load(table)
        assert stored.damaged is None and len(stored.actions) == last[0]["version"]
        ca.close()
        cb.close()
    finally:
        errs = A.stop() + B.stop()
    assert "error" not in errs.lower(), errs


def test_the_same_action_sent_to_two_processes_at_once_is_played_once(pg_url):
    """Both processes receive seat 0's action at the same moment (a player's two tabs behind a balancer):
    exactly one is accepted, the other refused (its card was passed already), and the table has one action more
    on both."""
    A, B = Server(pg_url), Server(pg_url)
    try:
        ca, cb = Client(A.url), Client(B.url)
        created = ca.ask({"type": "create", "ruleset": "hearts", "players": 4, "options": {"deals": 1}, "seed": 4,
                          "bots": [], "bot_delay": 0}, "created")
        table, toks = created["table"], created["tokens"]
        seat = created["to_act"]
        v = ca.ask({"type": "get_view", "table": table, "token": toks[str(seat)]}, "view")
        assert cb.ask({"type": "get_view", "table": table, "token": toks[str(seat)]}, "view")["version"] == 0
        action = v["view"]["legal_actions"][0]
        msg = json.dumps({"type": "act", "table": table, "token": toks[str(seat)], "action": action, "id": 1})
        barrier = threading.Barrier(2)
        replies = {}

        def go(name, c):
            barrier.wait()
            c.ws.send(msg)
            while True:
                r = c.recv()
                if r.get("id") == 1:
                    replies[name] = r
                    return
        th = [threading.Thread(target=go, args=(n, c)) for n, c in (("a", ca), ("b", cb))]
        for x in th:
            x.start()
        for x in th:
            x.join(30)
        kinds = sorted(r["type"] for r in replies.values())
        assert kinds == ["accepted", "error"], replies
        err = next(r for r in replies.values() if r["type"] == "error")
        assert err["code"] == "action/illegal"        # the pass of that card is done: it is not in the hand
        for c in (ca, cb):
            r = c.ask({"type": "get_view", "table": table}, "view")
            for _ in range(50):
                if r["version"] == 1:
                    break
                r = c.ask({"type": "get_view", "table": table}, "view")
            assert r["version"] == 1
        stored = open_store(pg_url).load(table)
        assert stored.damaged is None and stored.actions == [(seat, action)]
        ca.close()
        cb.close()
    finally:
        A.stop()
        B.stop()
