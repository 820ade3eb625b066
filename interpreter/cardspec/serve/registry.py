"""``Registry``: every table of one server, within its ``Limits``: a table created from a ``create`` message (its
checks, the caps per client and per address, its game built, registered and stored), found by id, closed when idle
or on demand, restored from the store after a restart, and opened here when another server process sharing the
store opened it.
"""
from __future__ import annotations

import functools
import ipaddress
import secrets
import sys
import time

from .. import __version__
from ..players import make_bot
from .games import _check_option, _load_game, ruleset_catalogue, ruleset_digest
from .limits import Limits, check_bot_spec
from .messages import ProtocolError
from .store import TableRecord, seed_problem
from .table import Table


def network_of(address):
    """The network an address is charged to: its /24 (IPv4) or /64 (IPv6), as text; the address itself when
    it is not an IP address; None for none."""
    if address is None:
        return None
    try:
        ip = ipaddress.ip_address(str(address))
    except ValueError:
        return str(address)
    return str(ipaddress.ip_network(f"{ip}/{24 if ip.version == 4 else 64}", strict=False))


class Registry:
    """Every table of one server, within ``Limits``. Not thread-safe: one event loop (or one thread) drives it.

    ``on_change(table)``, if set, is called after every change of any table (the WebSocket
    server uses it to run bots with a delay); ``clock`` gives seconds (monotonic).
    """

    def __init__(self, limits: Limits | None = None, clock=time.monotonic, store=None):
        self.limits = limits or Limits()
        self.tables: dict[str, Table] = {}
        self.clock = clock
        self.on_change = None
        self.on_close = None
        self.store = store          # cardspec.serve.store.Store, or None: tables live in memory only
        self.unavailable = {}       # table id -> why a stored table was not restored
        self.remote = None          # given to every table (Table.remote): the HTTP server's worker processes

    def create(self, msg: dict, client=None, address=None) -> Table:
        """A new table from a ``create`` message (already schema-checked). Raises ``ProtocolError``.

        ``client`` (any hashable: one connection) and ``address`` (the peer's IP) are charged with the
        table while it is open: ``table/limit`` past ``max_tables_per_client`` / ``_per_address``, so
        one client cannot fill the server and lock everyone else out. The three parts (``plan``:
        checks, ``build``: loads the game and deals, ``register``) let a server build off its event loop.
        """
        return self.register(self.build(self.plan(msg, client, address)))

    def plan(self, msg: dict, client=None, address=None) -> dict:
        """Every check of ``create`` that needs no game (cheap). Returns the table's parameters."""
        self.reap()
        lim = self.limits
        if len(self.tables) >= lim.max_tables and not self._evict_for(address):
            raise ProtocolError("table/limit", f"this server holds {lim.max_tables} tables already; "
                                "try again when one has closed")
        tables = list(self.tables.values())
        if client is not None and sum(t.client == client for t in tables) >= lim.max_tables_per_client:
            raise ProtocolError("table/limit", f"this connection has {lim.max_tables_per_client} open tables, the most "
                                "one client may hold (max_tables_per_client); finish or leave one first")
        if address is not None and sum(t.address == address for t in tables) >= lim.max_tables_per_address:
            raise ProtocolError("table/limit", f"{lim.max_tables_per_address} tables are open from your address, the "
                                "most one address may hold (max_tables_per_address)")
        net = network_of(address)
        if net is not None and sum(network_of(t.address) == net for t in tables) >= lim.max_tables_per_network:
            raise ProtocolError("table/limit", f"{lim.max_tables_per_network} tables are open from your network "
                                f"({net}), the most one network may hold (max_tables_per_network)")
        cat = {r["name"]: r for r in ruleset_catalogue()}
        name = msg["ruleset"]
        if name not in cat:
            raise ProtocolError("ruleset/unknown", f"unknown ruleset {name!r}; built-in: {', '.join(cat)}")
        lo, hi = cat[name]["players"]["min"], cat[name]["players"]["max"]
        players = msg.get("players", cat[name]["players"].get("default", lo))
        if not lo <= players <= hi:
            count = f"{lo}" if lo == hi else f"{lo} to {hi}"
            raise ProtocolError("table/invalid", f"{name} is for {count} players, not {players}")
        options = msg.get("options") or {}
        for key, value in options.items():
            spec = cat[name]["options"].get(key)
            if spec is not None:
                _check_option(key, spec, value)
        bots = msg.get("bots", [])
        if isinstance(bots, list):
            bots = {int(s): "random" for s in bots}
        else:
            try:
                bots = {int(k): v for k, v in bots.items()}
            except ValueError:
                raise ProtocolError("table/invalid", "bots: keys must be seat numbers") from None
        for s, spec in bots.items():
            if not 0 <= s < players:
                raise ProtocolError("table/invalid", f"bots: no seat {s} with {players} players")
            if spec != "random":
                check_bot_spec(spec, lim, f"bots: seat {s}")
        delay = msg.get("bot_delay", lim.bot_delay)
        if not 0 <= delay <= lim.max_bot_delay:
            raise ProtocolError("table/invalid", f"bot_delay must be 0-{lim.max_bot_delay} seconds")
        seed_given = "seed" in msg
        seed = msg["seed"] if seed_given else secrets.randbits(48)
        why = seed_problem(seed)   # the same for every store, and without one (docs/protocol.md)
        if why is not None:
            raise ProtocolError("table/invalid", f"seed: {why}")
        return {"id": "t" + secrets.token_hex(5), "ruleset": name, "players": players, "options": options,
                "seed": seed, "seed_given": seed_given, "bots": bots, "bot_delay": float(delay),
                "client": client, "address": address}

    def build(self, plan: dict) -> Table:
        """The Table of a ``plan``: loads (or reuses) the game, makes the bots, deals. Touches no shared
        state of the registry, so it may run in a worker thread. Raises ``ProtocolError``."""
        name, players, options = plan["ruleset"], plan["players"], plan["options"]
        for s, spec in plan["bots"].items():
            if spec != "random":
                try:
                    make_bot(spec, seed=0, game=_load_game(name, players, options))
                except ValueError as e:
                    raise ProtocolError("table/invalid", f"bots: seat {s}: {e}") from None
        t = Table(plan["id"], name, players, options, plan["seed"], plan["seed_given"], plan["bots"],
                  plan["bot_delay"], self.clock(), max_legal=self.limits.max_legal_listed)
        t.client, t.address = plan["client"], plan["address"]
        t.remote = self.remote
        return t

    def register(self, t: Table) -> Table:
        """Open a built table: stored (when the registry has a store, unless ``store_new`` did it already),
        listed, followed, its bots started."""
        self.store_new(t)
        self.tables[t.id] = t
        if self.on_change is not None:
            t.listeners.add(self.on_change)
            self.on_change(t)
        return t

    def store_new(self, t: Table) -> Table:
        """Write a built table to the store (nothing without a store, or when done). Touches no shared
        state of the registry, so a server calls it off its event loop. Raises ``ProtocolError``
        ``store/error`` (then the table is not opened)."""
        if self.store is not None and t.store is None:
            from .store import StoreError
            rec = TableRecord(id=t.id, ruleset=t.ruleset, ruleset_hash=ruleset_digest(t.ruleset),
                              options=t.options, players=t.players, seed=str(t.seed), token_hashes=t.token_hashes,
                              bots=t.bot_specs, version=__version__,
                              meta={"seed": t.seed, "seed_given": t.seed_given, "seed_salt": t.seed_salt,
                                    "bot_delay": t.bot_delay})
            try:
                self.store.create(rec)
            except StoreError as e:
                raise ProtocolError("store/error", e.public("the table could not be stored, so it was not opened")) \
                    from None
            t.store = self.store
        return t

    def restore(self) -> dict:
        """Replay every open table of the store (a restart). Returns ``{"restored": [ids], "refused":
        {id: why}}``: a table whose rows are damaged, whose ruleset changed since it was created (its stored
        hash differs) or whose actions no longer replay is refused with the reason, never replayed wrongly;
        a client asking for it gets ``table/unavailable`` with that reason."""
        out = {"restored": [], "refused": {}}
        if self.store is None:
            return out
        for stored in self.store.open_tables():
            t, why = self._from_stored(stored)
            if t is None:
                self.unavailable[stored.record.id] = why
                out["refused"][stored.record.id] = why
                continue
            self._adopt(t)
            out["restored"].append(t.id)
        return out

    def _from_stored(self, stored) -> tuple:
        """``(Table, None)`` rebuilt from a ``StoredTable`` (its actions replayed), or ``(None, why not)``."""
        rec = stored.record
        why = None
        if stored.damaged:
            return None, f"its stored actions are damaged ({stored.damaged})"
        try:
            now_hash = ruleset_digest(rec.ruleset)
        except ProtocolError as e:
            return None, f"its ruleset cannot be loaded any more: {e.message}"
        if now_hash != rec.ruleset_hash:
            return None, (f"its ruleset {rec.ruleset!r} changed since the table was created (stored "
                          f"{rec.ruleset_hash[:19]}…, now {now_hash[:19]}…); it is not replayed under other rules")
        meta = rec.meta
        try:
            t = Table(rec.id, rec.ruleset, rec.players, rec.options, meta.get("seed", rec.seed),
                      bool(meta.get("seed_given")), rec.bots, float(meta.get("bot_delay", 0.0)),
                      self.clock(), max_legal=self.limits.max_legal_listed,
                      token_hashes=rec.token_hashes, seed_salt=meta.get("seed_salt"))
            t.remote = self.remote
            t.replay(stored.actions)
        except ProtocolError as e:
            return None, e.message
        return t, why

    def _adopt(self, t: Table) -> None:
        t.store = self.store
        self.tables[t.id] = t
        if self.on_change is not None:
            t.listeners.add(self.on_change)

    def load_stored(self, table_id: str) -> Table | None:
        """A table another server process sharing the store opened, read and replayed from the store (None
        when the store has no such open table). Touches no shared state of the registry, so it may run in
        a worker thread; ``adopt`` then opens it here. Raises ``ProtocolError`` ``table/unavailable``
        (damaged, or another ruleset) or ``table/limit``."""
        from .store import StoreError
        if self.store is None or not self.store.shared or not isinstance(table_id, str) or len(table_id) > 64:
            return None
        if len(self.tables) >= self.limits.max_tables:
            raise ProtocolError("table/limit", f"this server holds {self.limits.max_tables} tables already")
        try:
            stored = self.store.load(table_id)
        except StoreError as e:
            raise ProtocolError("store/error", e.public(f"table {table_id} could not be read")) from None
        if stored is None or stored.record.closed is not None:
            return None
        t, why = self._from_stored(stored)
        if t is None:
            raise ProtocolError("table/unavailable", f"table {table_id} cannot be opened here: {why}")
        return t

    def adopt(self, t: Table) -> Table:
        """Open here a table ``load_stored`` read (the one already open wins if two loads raced)."""
        if t.id in self.tables:
            return self.tables[t.id]
        self._adopt(t)
        if self.on_change is not None:
            self.on_change(t)
        return t

    async def ensure(self, table_id, run) -> None:
        """Make sure a table that another process sharing the store opened is open here too (a client may
        join it through any server behind a load balancer): read it off the event loop with ``run``
        (``EngineRunner.run``). Nothing when the table is here already or the store is not shared."""
        if (self.store is None or not self.store.shared or not isinstance(table_id, str)
                or table_id in self.tables):
            return
        t = await run(None, lambda: self.load_stored(table_id), owner=("load", table_id))
        if t is not None:
            self.adopt(t)

    def get(self, table_id) -> Table:
        t = self.tables.get(table_id) if isinstance(table_id, str) else None
        if t is None and table_id in self.unavailable:
            raise ProtocolError("table/unavailable", f"table {table_id} was not restored: {self.unavailable[table_id]}")
        if t is None:
            raise ProtocolError("table/not_found", f"no table {table_id!r} (it may have closed after "
                                f"{self.limits.idle_timeout:g} s idle)")
        return t

    def _evict_for(self, address) -> bool:
        """Make room on a full server for a client of another network: close the longest-idle table (idle
        at least ``evict_idle_after`` seconds) of the network holding the most tables, when that network
        holds more than a quarter of ``max_tables`` and more than the requester's network would. True when a table was closed (issue 36: five loopback
        addresses took all 200 slots and locked a legitimate client out for the 30-minute idle timeout)."""
        lim = self.limits
        by_net: dict = {}
        for t in self.tables.values():
            by_net.setdefault(network_of(t.address), []).append(t)
        mine = network_of(address)
        have = len(by_net.get(mine, ())) + 1   # the requester's network, with the table it asks for
        crowded = [(len(ts), n) for n, ts in by_net.items() if n is not None and n != mine
                   and len(ts) > lim.max_tables // 4 and len(ts) > have]
        if not crowded:
            return False
        now = self.clock()
        _, net = max(crowded, key=lambda x: (x[0], str(x[1])))
        idle = [t for t in by_net[net] if now - t.touched >= lim.evict_idle_after]
        if not idle:
            return False
        # a table nobody sits at (every seat a bot) goes before one where a person plays; then the longest idle
        self.close(min(idle, key=lambda t: (_has_person(t), t.touched)), "evicted")
        return True

    def idle_limit(self) -> float:
        """The seconds a table where a person sits may stay idle now: ``idle_timeout`` while the server is at
        most half full, then shrinking with the slots taken, to a quarter of it (at least
        ``evict_idle_after``) when it is full (issue 36: an idle timeout that scales with pressure; a person
        thinking over a move keeps a few minutes). A table where nobody sits (every seat a bot) gets
        ``evict_idle_after`` once the server is more than half full (``reap``)."""
        lim = self.limits
        fill = len(self.tables) / max(1, lim.max_tables)
        if fill <= 0.5:
            return lim.idle_timeout
        floor = max(min(lim.evict_idle_after, lim.idle_timeout), lim.idle_timeout / 4)
        return max(floor, lim.idle_timeout * (1.0 - fill) * 2.0)

    def reap(self) -> list:
        """Close tables idle longer than ``idle_limit()`` (the shortest limit, ``evict_idle_after``, for a
        table nobody sits at once the server is half full). Returns the closed ids."""
        now = self.clock()
        lim = self.limits
        limit = self.idle_limit()
        crowded = len(self.tables) > lim.max_tables / 2
        unseated = min(lim.evict_idle_after, lim.idle_timeout)   # the limit of a bots-only table when crowded
        gone = [t for t in self.tables.values()
                if now - t.touched > (unseated if crowded and not _has_person(t) else limit)]
        for t in gone:
            self.close(t, "idle")
        return [t.id for t in gone]

    def close(self, table: Table, reason: str, stored: bool = True):
        """Close a table: marked closed in the store (unless ``stored`` is False: another process closed it
        there already), dropped, its followers told."""
        table.closed = reason
        if table.store is not None:
            self.background(functools.partial(self._store_closed, table.store, table.id, reason, stored))
        self.tables.pop(table.id, None)
        if table.remote is not None:
            table.remote.forget(table)
        table.version += 1
        table._info = {**table._info, "version": table.version}
        for cb in list(table.listeners):
            cb(table)
        table.listeners.clear()

    #: how ``close`` runs its store write: at once (stdio), or off the event loop (the HTTP server sets it)
    background = staticmethod(lambda fn: fn())

    @staticmethod
    def _store_closed(store, table_id, reason, stored):
        from .store import StoreError
        try:
            if stored:
                store.close(table_id, reason)
            else:
                store.release(table_id)
        except StoreError as e:   # closing is bookkeeping: the table is gone from memory either way
            print(f"cardspec serve: {e}", file=sys.stderr, flush=True)

    def listing(self) -> list:
        return [t.info() for t in self.tables.values()]


def _has_person(t) -> bool:
    """Whether a person may sit at table ``t``: some seat is not a bot."""
    return len(t.bot_specs) < t.state.n

