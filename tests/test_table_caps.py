"""Table slots that several addresses of one client cannot exhaust (issue 36 item 1).

Issue 36 measured: "The only cap is 64 tables per address: connections from 127.0.0.2…127.0.0.6 took all
200 slots; a legitimate client then gets table/limit for 30 minutes (the idle timeout)." Addresses are now
also charged to their network (/24, /64: ``max_tables_per_network``), and a full server closes an idle
table of the most crowded network to seat a client from another (``evict_idle_after``).
"""
from __future__ import annotations

from cardspec.serve.protocol import Limits
from cardspec.serve.registry import Registry, network_of
from test_protocol import Client


def _client(reg, address):
    c = Client(registry=reg)
    c.session.address = address
    return c


def _create(c):
    return c.one({"type": "create", "ruleset": "hearts", "bots": [1, 2, 3]})


def test_network_of():
    assert network_of("127.0.0.5") == "127.0.0.0/24" == network_of("127.0.0.2")
    assert network_of("10.0.1.7") != network_of("10.0.2.7")
    assert network_of("2001:db8::1") == network_of("2001:db8::ffff") == "2001:db8::/64"
    assert network_of("unix-socket") == "unix-socket" and network_of(None) is None


def test_five_loopback_addresses_cannot_take_every_slot():
    """The issue's reproduction, scaled (20 slots, 8 per address, 12 per network): 127.0.0.2-6 flood; the
    network cap stops them with slots left, and a client elsewhere is seated at once."""
    reg = Registry(Limits(max_tables=20, max_tables_per_client=8, max_tables_per_address=8,
                          max_tables_per_network=12))
    made = 0
    for k in range(2, 7):
        for _ in range(3):
            c = _client(reg, f"127.0.0.{k}")
            for _ in range(8):
                made += _create(c)["type"] == "created"
    assert made == 12 and len(reg.tables) == 12
    refused = _create(_client(reg, "127.0.0.9"))
    assert refused["code"] == "table/limit" and "max_tables_per_network" in refused["message"]
    assert "127.0.0.0/24" in refused["message"]
    assert _create(_client(reg, "192.0.2.10"))["type"] == "created"


def test_a_full_server_evicts_the_crowded_networks_idle_table_for_another_network():
    """A full server (the flood came from two networks, each under its cap): a client from a third network
    gets a table once the most crowded network's oldest table has been idle evict_idle_after seconds; before
    that it is refused; a table of its own network is never evicted for it."""
    now = [1000.0]
    reg = Registry(Limits(max_tables=10, max_tables_per_client=10, max_tables_per_address=10,
                          max_tables_per_network=10, evict_idle_after=60.0))
    reg.clock = lambda: now[0]
    a, b = _client(reg, "198.51.100.1"), _client(reg, "203.0.113.1")
    for _ in range(7):
        assert _create(a)["type"] == "created"
    for _ in range(3):
        assert _create(b)["type"] == "created"
    for t in reg.tables.values():
        t.touched = now[0]
    newcomer = _client(reg, "192.0.2.7")
    assert _create(newcomer)["code"] == "table/limit"            # nothing idle long enough yet
    now[0] += 61
    oldest = min((t for t in reg.tables.values() if t.address == "198.51.100.1"), key=lambda t: t.touched)
    got = _create(newcomer)
    assert got["type"] == "created" and oldest.closed == "evicted" and len(reg.tables) == 10
    assert sum(t.address == "198.51.100.1" for t in reg.tables.values()) == 6
    # the crowded network's own next client is not seated by evicting its neighbours
    assert _create(_client(reg, "198.51.100.2"))["code"] == "table/limit"


def test_limits_are_published_and_settable_from_the_command_line():
    from click.testing import CliRunner
    from cardspec.cli import main
    assert Limits().public()["max_tables_per_network"] == 96
    out = CliRunner().invoke(main, ["serve", "--help"])
    assert "--max-tables-per-network" in out.output and "--evict-idle-after" in out.output


def test_a_table_nobody_sits_at_is_evicted_first_and_idle_limits_shrink_with_pressure():
    """Issue 36 Deliver: "an idle timeout that scales with pressure, and tables with no seated human closed
    first". On a full server the crowded network's tables where every seat is a bot (idle past
    evict_idle_after) go before its older tables where a person plays; the idle limit is idle_timeout up to half full, then shrinks with the slots
    taken down to a quarter of it when full; past half full a bots-only table is reaped at evict_idle_after."""
    now = [1000.0]
    lim = Limits(max_tables=10, max_tables_per_client=10, max_tables_per_address=10, max_tables_per_network=10,
                 evict_idle_after=60.0, idle_timeout=1000.0)
    reg = Registry(lim)
    reg.clock = lambda: now[0]
    a = _client(reg, "198.51.100.1")
    person = [_create(a)["table"] for _ in range(4)]                        # a person at seat 0
    robots = [a.one({"type": "create", "ruleset": "hearts", "bots": [0, 1, 2, 3]})["table"] for _ in range(3)]
    assert abs(reg.idle_limit() - 600.0) < 1e-6                             # 7 of 10: 1000 * (1 - 0.7) * 2
    b = _client(reg, "203.0.113.1")
    for _ in range(3):
        _create(b)
    for i, t in enumerate(reg.tables.values()):
        t.touched = now[0] - (100 if t.id in person else 70)              # the person's tables idle longer
    got = _create(_client(reg, "192.0.2.7"))
    assert got["type"] == "created"
    closed = [tid for tid in person + robots if tid not in reg.tables]
    assert sorted(closed) == sorted(robots)                 # the bots-only tables went (idle past 60 s), not a person's
    assert abs(reg.idle_limit() - 400.0) < 1e-6                             # 8 of 10 after the reap
    d = _client(reg, "192.0.2.99")
    _create(d), _create(d)
    assert len(reg.tables) == 10 and reg.idle_limit() == 250.0              # full: a quarter of idle_timeout
    # Past half full (6 of 10: the limit is 800 s), a bots-only table idle 70 s is reaped, a person's not.
    now2 = [5000.0]
    reg2 = Registry(lim)
    reg2.clock = lambda: now2[0]
    c = _client(reg2, "198.51.100.9")
    persons = [_create(c)["table"] for _ in range(4)]
    bots = [c.one({"type": "create", "ruleset": "hearts", "bots": [0, 1, 2, 3]})["table"] for _ in range(2)]
    for t in reg2.tables.values():
        t.touched = now2[0] - 70
    assert abs(reg2.idle_limit() - 800.0) < 1e-6
    assert sorted(reg2.reap()) == sorted(bots) and all(p in reg2.tables for p in persons)
