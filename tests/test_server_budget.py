"""issue 16 Found 5 / Deliver 5: a server no client can freeze (cardspec.serve.server.EngineRunner, capped views).

The engine's work runs off the event loop with a CPU budget per call; these tests check what a
client sees (an error naming the budget, a closed table) and that others are answered meanwhile —
by the order of replies, never by timing.
"""
from __future__ import annotations

import asyncio
import json
import time

import pytest

pytest.importorskip("uvicorn")

from cardspec.serve.protocol import Limits, Registry, Session, check_message  # noqa: E402
from cardspec.serve.server import EngineRunner  # noqa: E402

from test_server import Server  # noqa: E402


def _spin(seconds_of_cpu):
    end = time.thread_time() + seconds_of_cpu
    n = 0
    while time.thread_time() < end:
        n += 1
    return n


def test_a_call_over_its_cpu_budget_is_interrupted_and_its_table_closed():
    reg = Registry(Limits(max_call_seconds=0.3))
    c = Session(reg)
    t = reg.get(c.handle({"type": "create", "ruleset": "hearts", "bots": [1, 2, 3]})[0]["table"])
    engine = EngineRunner(reg)
    order = []

    async def hostile():
        try:
            await engine.run(t, lambda: _spin(1000), mutates=True)
        except Exception as e:  # noqa: BLE001
            order.append(("hostile", getattr(e, "code", type(e).__name__), getattr(e, "message", str(e))))

    async def other():
        await asyncio.sleep(0.05)
        order.append(("other", await engine.run(None, lambda: 7, owner="someone else"), ""))

    async def main():
        await asyncio.gather(hostile(), other())
    asyncio.run(main())
    assert order[0] == ("other", 7, "")                    # answered while the hostile call ran
    who, code, message = order[1]
    assert (who, code) == ("hostile", "table/over_budget") and "0.3 s of CPU" in message and "closed" in message
    assert t.closed == "over_budget" and t.id not in reg.tables
    assert engine.interrupted == 1


def test_a_read_over_budget_leaves_the_table_open():
    reg = Registry(Limits(max_call_seconds=0.2))
    c = Session(reg)
    t = reg.get(c.handle({"type": "create", "ruleset": "hearts", "bots": [1, 2, 3]})[0]["table"])
    engine = EngineRunner(reg)

    async def main():
        with pytest.raises(Exception) as e:
            await engine.run(t, lambda: _spin(1000))
        assert e.value.code == "table/over_budget"
        return await engine.run(t, lambda: t.state.to_act)
    assert asyncio.run(main()) == t.state.to_act and t.closed is None


def test_one_owner_cannot_take_every_worker():
    """Calls for one owner's tables share per_owner threads; another owner's call starts at once."""
    import threading
    reg = Registry()
    engine = EngineRunner(reg, workers=3, per_owner=2)
    started, gate = [], threading.Event()

    def held(i):
        started.append(i)
        gate.wait(20)          # holds its thread (no CPU) until the test lets it go
        return i

    async def main():
        flood = [asyncio.create_task(engine.run(None, lambda i=i: held(i), owner="flood")) for i in range(6)]
        while len(started) < 2:
            await asyncio.sleep(0.01)
        mine = await engine.run(None, lambda: len(started), owner="me")   # runs while the flood waits
        gate.set()
        return mine, await asyncio.gather(*flood)
    mine, done = asyncio.run(main())
    assert mine == 2 and done == list(range(6))


def test_searching_bots_of_many_owners_leave_a_slot_for_a_person():
    """Issue 36 item 2: bot searches of two owners (two attacking addresses, each within its per_owner
    share) filled every slot, so a person's call waited for a search to end. A bot's search may take only
    workers - 1 slots: the person's call starts at once while four searches wait."""
    import threading
    reg = Registry()
    engine = EngineRunner(reg, workers=4, per_owner=2)
    started, gate = [], threading.Event()

    def search(i):
        started.append(i)
        gate.wait(20)          # a long search holding its thread
        return i

    async def main():
        bots = [asyncio.create_task(engine.run(None, lambda i=i: search(i), owner=f"attacker{i % 2}", bot=True))
                for i in range(8)]
        while len(started) < 3:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        held = len(started)                                                  # searches holding slots
        mine = await engine.run(None, lambda: len(started), owner="person")   # an action of a person
        gate.set()
        return held, mine, await asyncio.gather(*bots)
    held, mine, done = asyncio.run(main())
    assert held == 3 and mine == 3 and sorted(done) == list(range(8))


def _slow_rule():
    # four loops over the 104-card deck: minutes per judgement (three loops: about a second)
    return ("count(x in deck where count(y in deck where count(z in deck where count(w in deck where "
            "x.rank + y.rank + z.rank + w.rank > card.rank) > 0) > 0) > 0) > 0")


def test_a_slow_typed_rule_does_not_freeze_other_tables():
    """issue 16 Found 5: an Eleusis dealer typed a rule with nested loops over the deck; one judgement took
    8 s on the event loop and another connection's hello waited 29.8 s. Now the rule is refused (cost bound)
    or its judgement runs off the loop and is stopped at the budget with a clear error; others are answered."""
    s = Server(max_call_seconds=1.0)
    try:
        hostile, other = s.ws(), s.ws()
        t = hostile.ask({"type": "create", "ruleset": "eleusis-prophets", "players": 4, "seed": 1})
        tid, toks = t["table"], t["tokens"]
        dealer = str(t["to_act"])
        r = hostile.ask({"type": "act", "table": tid, "token": toks[dealer], "action": "write " + _slow_rule()})
        if r["type"] == "error":         # refused when typed (a cost bound): nothing slow ever runs
            assert r["code"] == "action/illegal", r
            return
        v = hostile.ask({"type": "get_view", "table": tid, "token": toks[str((int(dealer) + 1) % 4)]})["view"]
        hostile.send({"type": "act", "table": tid, "token": toks[str(v["to_act"])], "action": v["legal_actions"][0]})
        time.sleep(0.1)
        assert other.ask({"type": "hello"})["type"] == "welcome"            # while the judgement runs
        r = hostile.recv(timeout=30)
        assert r["type"] == "error" and r["code"] == "table/over_budget" and "1 s of CPU" in r["message"], r
        assert tid not in s.registry.tables
        assert other.ask({"type": "list_tables"})["tables"] == []
    finally:
        s.stop()


def test_huge_legal_action_lists_are_cut_in_views():
    """issue 16 Found 5: Eleusis hands of 22-28 cards make 255 k-879 k legal actions (views of 7-25 MB, built
    on the event loop at every update). A view lists at most max_legal_listed; get_legal pages the rest."""
    reg = Registry(Limits(max_legal_listed=50))
    c = Session(reg)
    t = c.handle({"type": "create", "ruleset": "eleusis-prophets", "players": 4, "seed": 1,
                  "options": {"hand_size": 14}})[0]
    tid, toks = t["table"], t["tokens"]
    c.handle({"type": "act", "table": tid, "token": toks[str(t["to_act"])], "action": "rule colours_alternate"})
    table = reg.get(tid)
    seat = table.state.to_act
    full = table.state.legal_actions()
    assert len(full) > 1000
    v = c.handle({"type": "get_view", "table": tid, "token": toks[str(seat)]})[0]
    check_message(v, "server")
    assert v["view"]["legal_actions"] == full[:50] and v["view"]["legal_count"] == len(full) and v["view"]["legal_more"]
    assert len(json.dumps(v)) < 20000
    page = c.handle({"type": "get_legal", "table": tid, "token": toks[str(seat)], "offset": 100, "limit": 30})[0]
    check_message(page, "server")
    assert page["count"] == len(full) and page["actions"] == full[100:130]
    some = full[777]
    prefix = " ".join(some.split()[:2])
    page = c.handle({"type": "get_legal", "table": tid, "token": toks[str(seat)], "prefix": prefix.lower(),
                     "limit": 1000})[0]
    want = [a for a in full if a.startswith(prefix)]
    assert page["count"] == len(want) and page["actions"] == want[:50]
    r = c.handle({"type": "act", "table": tid, "token": toks[str(seat)], "action": "play QQ"})[0]
    assert r["code"] == "action/illegal" and len(r["legal"]) == 50 and r["legal_count"] == len(full)
    check_message(r, "server")
    last = c.handle({"type": "act", "table": tid, "token": toks[str(seat)], "action": full[-1]})[0]
    assert last["type"] == "accepted"
    spectator = c.handle({"type": "get_legal", "table": tid})[0]
    assert spectator["count"] == 0 and spectator["actions"] == []


def test_a_bot_out_of_time_plays_a_random_legal_move():
    s = Server(max_call_seconds=0.2)
    try:
        ws = s.ws()
        t = ws.ask({"type": "create", "ruleset": "hearts", "options": {"deals": 1}, "bots": {"1": "ismcts:5000"},
                    "bot_delay": 0})
        tid, toks = t["table"], t["tokens"]
        ws.ask({"type": "join", "table": tid})
        deadline = time.time() + 60
        while s.registry.get(tid).state.to_act != 1 and time.time() < deadline:
            st = s.registry.get(tid).state
            legal = st.legal_actions()
            ws.ask({"type": "act", "table": tid, "token": toks[str(st.to_act)], "action": legal[0]})
        before = s.registry.get(tid).version
        while s.registry.get(tid).version == before and time.time() < deadline:
            time.sleep(0.05)
        assert s.registry.get(tid).version > before and s.registry.get(tid).closed is None
        assert s.app.state.engine.interrupted >= 1 and s.app.state.bots.errors == 0
    finally:
        s.stop()
