"""``Session``: one client's conversation: each message parsed, checked and answered (``handle``; ``handle_async``
for a server that runs the engine's work off its event loop), the seats it joined, and the ``update`` messages of
their tables when they change. Over stdio bots move inline and every engine call has a CPU budget (``cpu_budget``).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from .. import __version__
from ..players import RandomBot
from .games import ruleset_catalogue
from .limits import CpuBudgetExceeded, cpu_budget
from .messages import PROTOCOL_VERSION, ProtocolError, check_message, internal_error, parse_message
from .registry import Registry
from .table import Table


_SESSION_KEYS = itertools.count(1)

@dataclass
class _Sub:
    table: Table
    seat: int | None
    cursor: int = 0          # events of this seat's log already sent (the ``next`` of messages)
    raw: int | None = None   # State.event_count when they were sent (None: not known yet)
    sent: int = -1


@dataclass
class Session:
    """One client connection: parses messages, answers, and keeps the tables it joined.

    ``inline_bots``: bots move at once after each change (stdio); otherwise the transport
    runs them (``Registry.on_change``). ``on_dirty`` is called when a joined table changed.
    """

    registry: Registry
    inline_bots: bool = False
    on_dirty: object = None
    subs: dict = field(default_factory=dict)
    address: str | None = None   # the peer's IP (None: stdio); tables are charged to it and to this session
    key: int = field(default_factory=lambda: next(_SESSION_KEYS))
    budget: float | None = None  # CPU seconds per engine call made in this thread (stdio: ``cpu_budget``)

    def handle(self, data) -> list:
        """Replies to one message (``str`` or ``bytes``, or an already parsed dict). Never raises."""
        msg_id = None
        try:
            msg = self._parse(data)
            msg_id = msg.get("id") if type(msg.get("id")) in (str, int) else None
            check_message(msg)
            return self._with_id(getattr(self, "_on_" + msg["type"])(msg), msg_id)
        except ProtocolError as e:
            return [e.to_message(msg_id)]
        except Exception as e:  # noqa: BLE001 - the protocol never lets an exception reach the wire
            return [internal_error(e).to_message(msg_id)]

    #: messages whose handler reads or changes a game state (a server runs them off its event loop)
    ENGINE_MESSAGES = frozenset({"get_view", "act", "get_legal"})

    async def handle_async(self, data, run) -> list:
        """``handle`` for a server: cheap messages are answered at once; the engine's work (``create``'s game
        and deal, ``ENGINE_MESSAGES``) is ``await run(table, fn, mutates=…, owner=…)``, which runs ``fn`` off the
        event loop within a time budget (``cardspec.serve.runner.EngineRunner``). Never raises."""
        msg_id = None
        try:
            msg = self._parse(data)
            msg_id = msg.get("id") if type(msg.get("id")) in (str, int) else None
            check_message(msg)
            kind = msg["type"]
            if "table" in msg and self.registry.store is not None and self.registry.store.shared:
                await self.registry.ensure(msg["table"], run)
            if kind == "create":
                plan = self.registry.plan(msg, client=None if self.address is None else self.key,
                                          address=self.address)
                t = await run(None, lambda: self.registry.store_new(self.registry.build(plan)),
                              owner=self.address or self.key)
                out = [self._created(self.registry.register(t))]
            elif kind in self.ENGINE_MESSAGES:
                t = self.registry.get(msg["table"])
                out = await run(t, lambda: getattr(self, "_on_" + kind)(msg), mutates=kind == "act")
            else:
                out = getattr(self, "_on_" + kind)(msg)
            return self._with_id(out, msg_id)
        except ProtocolError as e:
            return [e.to_message(msg_id)]
        except Exception as e:  # noqa: BLE001
            return [internal_error(e).to_message(msg_id)]

    def _parse(self, data) -> dict:
        return data if isinstance(data, dict) else parse_message(data, self.registry.limits.max_message_bytes)

    @staticmethod
    def _with_id(out, msg_id):
        if msg_id is not None:
            for m in out[:1]:
                m["id"] = msg_id
        return out

    # -- message handlers
    def _on_hello(self, msg):
        return [{"type": "welcome", "protocol": PROTOCOL_VERSION, "server": f"cardspec {__version__}",
                 "limits": self.registry.limits.public()}]

    def _on_list_rulesets(self, msg):
        return [{"type": "rulesets", "rulesets": ruleset_catalogue()}]

    def _on_list_tables(self, msg):
        return [{"type": "tables", "tables": self.registry.listing()}]

    def _limited(self, table, fn):
        """``fn()`` within ``budget`` CPU seconds (none when ``budget`` is None). Past it: the table (if any) is
        closed (the call may have left its state half changed) and ``table/over_budget`` raised, as the HTTP
        server does (``cardspec.serve.runner.EngineRunner``)."""
        if self.budget is None:
            return fn()
        try:
            with cpu_budget(self.budget):
                return fn()
        except CpuBudgetExceeded:
            if table is not None and table.closed is None:
                self.registry.close(table, "over_budget")
            raise ProtocolError("table/over_budget", f"the call took more than {self.budget:g} s of CPU, the most "
                                "one call may take on this server (max_call_seconds): a rule, a bot or a listing "
                                "too costly" + ("; the table is closed" if table is not None else "")) from None

    def _play_bots(self, t):
        """Inline bots (stdio) move until a person must act or the match ends; with a ``budget``, each move
        as over HTTP: a search past the budget plays ``Table.timeout_move``, a move that cannot even be
        listed within it closes the table."""
        if self.budget is None:
            t.play_bots(self.registry.clock())
            return
        while t.closed is None and t.bot_to_act() is not None:
            seat = t.bot_to_act()
            bot = t.bot_for(seat)
            if type(bot) is RandomBot:
                action = self._limited(t, lambda: t.bot_choice(seat, bot))
            else:
                view = self._limited(t, lambda: t.state.view(seat, log=bot.wants_log))
                try:
                    with cpu_budget(self.budget):   # the search reads a copy: stopping it harms nothing
                        action = bot.act(view, view["legal_actions"])
                except CpuBudgetExceeded:
                    action = self._limited(t, lambda: t.timeout_move(seat))
            decision = len(t.applied)
            self._limited(t, lambda: t.act(seat, action, self.registry.clock(), decision=decision))

    def _on_create(self, msg):
        client = None if self.address is None else self.key
        if self.budget is None:
            t = self.registry.create(msg, client=client, address=self.address)
        else:
            plan = self.registry.plan(msg, client=client, address=self.address)
            t = self.registry.register(self._limited(None, lambda: self.registry.build(plan)))
        if self.inline_bots:
            self._play_bots(t)
        return [self._created(t)]

    @staticmethod
    def _created(t):
        return {"type": "created", **t.info(), "tokens": {str(s): tok for s, tok in t.tokens.items()}}

    def _on_join(self, msg):
        t = self.registry.get(msg["table"])
        seat = t.seat_for(msg.get("token"))
        key = (t.id, seat)
        if key not in self.subs:
            if len(self.subs) >= self.registry.limits.max_joined:
                raise ProtocolError("session/limit", f"a connection may join {self.registry.limits.max_joined} "
                                    "seats at most")
            self.subs[key] = _Sub(t, seat, cursor=int(msg.get("since", 0)))
            t.listeners.add(self._dirty)
        t.touched = self.registry.clock()
        self._dirty(t)
        return [{"type": "joined", "table": t.id, "seat": seat, "info": t.info()}]

    def _on_leave(self, msg):
        tid = msg["table"]
        mine = [k for k in self.subs if k[0] == tid]
        if not mine:
            raise ProtocolError("table/not_found", f"this connection has not joined table {tid!r}")
        for k in mine:
            del self.subs[k]
        if not any(k[0] == tid for k in self.subs):
            t = self.registry.tables.get(tid)
            if t is not None:
                t.listeners.discard(self._dirty)
        return [{"type": "left", "table": tid}]

    def _on_get_view(self, msg):
        t = self.registry.get(msg["table"])
        seat = t.seat_for(msg.get("token"))
        t.touched = self.registry.clock()
        view, events, nxt = self._limited(t, lambda: t.update(seat, int(msg.get("since", 0))))
        return [{"type": "view", "table": t.id, "seat": seat, "version": t.version, "view": view,
                 "events": events, "next": nxt}]

    def _on_get_legal(self, msg):
        t = self.registry.get(msg["table"])
        seat = t.seat_for(msg.get("token"))
        t.touched = self.registry.clock()
        page = self._limited(t, lambda: t.legal_page(seat, msg.get("offset", 0), msg.get("limit"),
                                                     msg.get("prefix", "")))
        return [{"type": "legal", "table": t.id, "seat": seat, "version": t.version, **page}]

    def _on_act(self, msg):
        t = self.registry.get(msg["table"])
        seat = t.seat_for(msg["token"])
        text = self._limited(t, lambda: t.act(seat, msg["action"], self.registry.clock()))
        if self.inline_bots:
            self._play_bots(t)
        return [{"type": "accepted", "table": t.id, "seat": seat, "action": text}]

    # -- pushed updates
    def _dirty(self, table):
        if self.on_dirty is not None:
            self.on_dirty()

    def updates(self) -> list:
        """``update`` (or ``closed``) messages for joined seats whose table changed since the last call."""
        out, todo = self.pending()
        for key, sub in todo:
            try:
                m = self._limited(sub.table, lambda: self.update_for(key, sub))
            except ProtocolError as e:
                m = e.to_message()
            if m is not None:
                out.append(m)
        return out

    def pending(self) -> tuple[list, list]:
        """``(closed messages, [(key, sub), …] to update)``: the cheap half of ``updates`` (no state read);
        the tables that closed are forgotten."""
        closed, todo = [], []
        for key, sub in list(self.subs.items()):
            t = sub.table
            if t.closed is not None:
                closed.append({"type": "closed", "table": t.id, "reason": t.closed})
                del self.subs[key]
            elif sub.sent != t.version:
                todo.append((key, sub))
        return closed, todo

    def update_for(self, key, sub) -> dict | None:
        """The ``update`` of one joined seat (reads the state: a server calls it off its event loop, one
        call per table at a time); None when nothing changed or the seat was left."""
        t = sub.table
        if self.subs.get(key) is not sub or sub.sent == t.version or t.closed is not None:
            return None
        st = t.state
        if sub.raw is None:
            events = st.log(sub.seat)[sub.cursor:]
        else:   # only the events recorded since the last update: no re-filtering of the whole log
            events = st.log(sub.seat, since=sub.raw)
        sub.raw = st.event_count
        sub.cursor += len(events)
        view = t.view(sub.seat)
        sub.sent = t.version
        return {"type": "update", "table": t.id, "seat": sub.seat, "version": t.version,
                "view": view, "events": events, "next": sub.cursor}

    def close(self):
        """Forget every joined table (the connection went away)."""
        for sub in self.subs.values():
            sub.table.listeners.discard(self._dirty)
        self.subs.clear()
