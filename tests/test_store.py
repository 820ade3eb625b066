"""The event-sourced table store (issue 22): what is written, what comes back, and what is refused.

Every test runs on SQLite and on the real PostgreSQL server (tests/_stores.py).
"""
import sqlite3

import pytest

from cardspec.serve.store import (StoreConflict, StoreError, TableRecord, open_store, ruleset_hash, token_hash)

from _stores import pg_url, store_url  # noqa: F401  (fixtures)


def _rec(tid="t1", **kw):
    base = dict(id=tid, ruleset="hearts", ruleset_hash=ruleset_hash("x"), options={"deals": 1}, players=4,
                seed="123", token_hashes={0: token_hash("secret-token")}, bots={1: "random", 2: "random",
                                                                                3: "ismcts:50"},
                version="0.1.0", meta={"bot_delay": 0.0})
    base.update(kw)
    return TableRecord(**base)


def test_a_table_and_its_actions_come_back_in_order(store_url):
    s = open_store(store_url)
    s.create(_rec())
    for n, (seat, a) in enumerate([(0, "pass 2C 3C 4C"), (1, "pass 5D 6D 7D"), (0, "2C")]):
        s.append("t1", n, seat, a)
    s.shutdown()
    s = open_store(store_url)              # a new process would do the same
    [t] = s.open_tables()
    assert t.damaged is None
    assert t.actions == [(0, "pass 2C 3C 4C"), (1, "pass 5D 6D 7D"), (0, "2C")]
    assert t.record.options == {"deals": 1} and t.record.bots == {1: "random", 2: "random", 3: "ismcts:50"}
    assert t.record.token_hashes == {0: token_hash("secret-token")}
    s.append("t1", 3, 1, "3C")             # a reopened store continues the chain
    assert s.load("t1").actions[-1] == (1, "3C") and s.load("t1").damaged is None


def test_tokens_are_never_stored(store_url, tmp_path):
    s = open_store(store_url)
    s.create(_rec())
    s.shutdown()
    if store_url.startswith("sqlite"):
        raw = (tmp_path / "tables.db").read_bytes() + (tmp_path / "tables.db-wal").read_bytes() \
            if (tmp_path / "tables.db-wal").exists() else (tmp_path / "tables.db").read_bytes()
        assert b"secret-token" not in raw


def test_a_second_writer_of_the_same_action_number_is_a_conflict(store_url):
    a, b = open_store(store_url), open_store(store_url)
    a.create(_rec())
    a.append("t1", 0, 0, "2C")
    b.load("t1")
    b.append("t1", 1, 1, "3C")
    with pytest.raises(StoreConflict, match="action 1 was stored by another writer"):
        a.append("t1", 1, 1, "4C")
    assert [x for _s, x in a.load("t1").actions] == ["2C", "3C"]
    with pytest.raises(StoreError, match="expects action 2, not 5"):
        a.append("t1", 5, 0, "5C")


def test_closed_tables_are_not_replayed(store_url):
    s = open_store(store_url)
    s.create(_rec("a"))
    s.create(_rec("b"))
    s.close("a", "game over")
    assert [t.record.id for t in s.open_tables()] == ["b"]
    assert s.stats() == {"tables": 1, "closed": 1, "actions": 0}


def _tamper(url, sql, args=()):
    if url.startswith("sqlite"):
        c = sqlite3.connect(url[len("sqlite:///"):])
        c.execute(sql, args)
        c.commit()
        c.close()
    else:
        import psycopg
        with psycopg.connect(url, autocommit=True) as c:
            c.execute(sql.replace("?", "%s"), args)


@pytest.mark.parametrize("damage, expect", [
    ("UPDATE cardspec_actions SET action = 'QS' WHERE n = 1", "action 1 does not match its digest"),
    ("UPDATE cardspec_actions SET digest = substr(digest, 1, 10) WHERE n = 2", "action 2 does not match"),
    ("DELETE FROM cardspec_actions WHERE n = 1", "action 1 is missing"),
    ("UPDATE cardspec_tables SET seed = '999'", "action 0 does not match"),
])
def test_a_changed_or_torn_row_is_reported_not_replayed(store_url, damage, expect):
    s = open_store(store_url)
    s.create(_rec())
    for n, a in enumerate(["2C", "3C", "4C"]):
        s.append("t1", n, n % 4, a)
    s.shutdown()
    _tamper(store_url, damage)
    [t] = open_store(store_url).open_tables()
    assert t.damaged and expect in t.damaged


def test_bad_urls_are_clear_errors(tmp_path):
    with pytest.raises(StoreError, match="unknown store URL 'mysql://u:\\*\\*\\*@h/db'"):
        open_store("mysql://u:pw@h/db")
    with pytest.raises(StoreError, match="no folder"):
        open_store(f"sqlite:///{tmp_path}/nowhere/x.db")
    with pytest.raises(StoreError, match="cannot connect to postgresql://u:\\*\\*\\*@127.0.0.1:1/db"):
        open_store("postgresql://u:pw@127.0.0.1:1/db?connect_timeout=1")
