"""The order in which waiting engine calls get a worker process (issue 36 item 2).

Issue 36 measured: "Two addresses each create 16 tables of four ismcts:2s bots; a Hearts player on a third
address waits 2.9 s median (4.5 s max, was 67 ms) for its turn ... The worker pool runs calls first come,
first served." serve/fairness.py orders them: a person's call before a bot's move, then the owner (address)
served least, then arrival. These tests check the order of grants deterministically, then a real pool of
one worker process.
"""
from __future__ import annotations

import threading
import time

from cardspec.serve.fairness import BOT, PERSON, FairTurns


def _grant_all(turns):
    order = []
    while turns.first() is not None:
        t = turns.first()
        order.append((t[0], t[2]))
        turns.leave(t, True)
    return order


def test_a_persons_call_goes_before_queued_bot_moves():
    turns = FairTurns()
    for _ in range(5):
        turns.enter(BOT, "10.0.0.1")
    turns.enter(PERSON, "192.0.2.9")
    assert _grant_all(turns)[0] == (PERSON, "192.0.2.9")


def test_bot_moves_of_busy_addresses_take_turns_with_a_quiet_one():
    """Two addresses queue 16 bot moves each before a third queues one: the third is served second, not
    33rd; the two busy ones alternate."""
    turns = FairTurns()
    for _ in range(16):
        turns.enter(BOT, "A")
        turns.enter(BOT, "B")
    turns.enter(BOT, "C")
    order = [owner for _, owner in _grant_all(turns)]
    assert order.index("C") <= 2
    busy = [o for o in order if o != "C"]
    assert all(busy[i] != busy[i + 1] for i in range(len(busy) - 1))


def test_an_owner_served_a_lot_yields_to_one_served_little():
    turns = FairTurns()
    for _ in range(10):
        t = turns.enter(BOT, "heavy")
        turns.leave(t, True)
    turns.enter(BOT, "heavy")
    turns.enter(BOT, "light")
    assert turns.first()[2] == "light"
    gave_up = turns.enter(BOT, "light")
    turns.leave(gave_up, False)                  # a call that gave up is not counted
    assert turns.served("light") == 0


def test_a_real_pool_of_one_worker_serves_the_person_first():
    """A pool of one worker process: while a bot's move holds it, two more bot moves and then a person's
    call wait; the person's call gets the worker next."""
    from cardspec.serve.workers import WorkerPool
    pool = WorkerPool(size=1, memory=None)
    pool.start()
    try:
        held = pool._acquire("t0", BOT, "A")           # the running bot move
        got = []

        def wait(tid, kind, owner):
            w = pool._acquire(tid, kind, owner)
            got.append(owner)
            pool._release(w)

        threads = [threading.Thread(target=wait, args=(f"t{k}", BOT, "A")) for k in (1, 2)]
        for th in threads:
            th.start()
        while len(pool.turns.waiting) < 2:
            time.sleep(0.01)
        person = threading.Thread(target=wait, args=("t9", PERSON, "P"))
        person.start()
        while len(pool.turns.waiting) < 3:
            time.sleep(0.01)
        pool._release(held)
        for th in threads + [person]:
            th.join(30)
        assert got[0] == "P" and sorted(got) == ["A", "A", "P"], got
    finally:
        pool.shutdown()


def test_a_clients_minute_of_bot_searches_is_bounded_and_refills():
    """Issue 36 Deliver: per-client and global budgets of bot search per minute (serve/fairness.py
    SearchBudget). An address that spent its 60 s in the last minute gets no more searches (its bots move at
    random) while another address still searches; the server's total bounds everyone; a minute later the
    budget is back."""
    from cardspec.serve.fairness import SearchBudget
    now = [0.0]
    b = SearchBudget(per_owner=60.0, total=100.0, clock=lambda: now[0])
    for _ in range(30):
        assert b.allows("attacker")
        b.spend("attacker", 2.0)
        now[0] += 1.0
    assert not b.allows("attacker") and b.used("attacker") == 60.0
    assert b.allows("victim")                     # another client still searches
    b.spend("victim", 40.0)
    assert not b.allows("third")                  # the server's 100 s are spent
    now[0] += 61.0
    assert b.allows("attacker") and b.allows("third") and b.used() == 0.0
    assert b.refused == 2


def test_the_server_publishes_its_bot_search_budgets():
    from cardspec.serve.protocol import Limits
    pub = Limits().public()
    assert pub["max_bot_seconds_per_minute"] == 60.0 and pub["max_bot_seconds_per_minute_total"] == 180.0
