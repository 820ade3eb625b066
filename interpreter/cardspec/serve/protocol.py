"""The table protocol: JSON messages that let any front end create tables, sit at a seat and play.

Transport-independent: ``Session.handle(line)`` takes one message (text or bytes, one JSON
object) and returns the replies; ``Session.updates()`` returns the pushed ``update``
messages of the tables it joined that changed since. ``serve_stdio`` runs it over
line-delimited JSON; ``cardspec.server`` runs it over WebSocket. docs/protocol.md describes
every message and schema/protocol/*.schema.json gives each one's JSON Schema (Draft 2020-12);
incoming messages are checked against those schemas.

Every failure is an ``error`` message ``{"type": "error", "code": ..., "message": ...}``
with a stable ``code`` (the ``CODES`` table) — never an exception or a traceback on the wire.

Secrets: creating a table returns one random token per person seat; a seat acts and sees
its own hand only with its token. Without a token a client is a spectator and gets
``State.view(None)`` / ``State.log(None)``: public facts only. The seed is kept secret until
the match is over (it would reveal every hand), even when the creator chose it: table infos
carry ``seed_sha256``, a salted commitment, and the seed and salt once the match is over.

Only the public engine API is used: ``cardspec.load``, ``Game.new_state``, ``State.to_act``,
``terminal``, ``legal_actions``, ``apply``, ``view``, ``log``, ``scores``; bots get a view
and the legal actions (``cardspec.bots``).
"""
from __future__ import annotations

import functools
import itertools
import json
import random
import secrets
import sys
import time
from dataclasses import dataclass, field

from .. import __version__
from ..players import RandomBot, make_bot
from ..errors import CardspecError, GameOver, IllegalAction
from .games import _check_option, _game, _load_game, ruleset_catalogue, ruleset_digest  # noqa: F401
from .legal import legal_head_of, legal_page_of, listing_or_none, random_action_of  # noqa: F401
from .limits import CpuBudgetExceeded, Limits, check_bot_spec, cpu_budget  # noqa: F401
from .messages import (CODES, PROTOCOL_VERSION, ProtocolError, _validator, check_message, encode,  # noqa: F401
                       internal_error, parse_message, schemas)
from .store import TableRecord, token_hash


def seed_commitment(seed, salt: str) -> str:
    """The public commitment to a table's seed: hex SHA-256 of the UTF-8 text ``SALT:SEED`` where SEED is
    the seed as JSON (``7``, ``"abc"``). The random salt keeps a small seed from being found by trying."""
    import hashlib
    return hashlib.sha256(f"{salt}:{json.dumps(seed)}".encode("utf-8")).hexdigest()


# ---- tables ----------------------------------------------------------------------------------
class Table:
    """One match: a State, a token per person seat, a Bot per bot seat.

    ``version`` grows by one at every change (an action, a bot move); subscribers compare it.
    """

    def __init__(self, table_id, ruleset, players, options, seed, seed_given, bots: dict, bot_delay: float,
                 now: float, max_legal: int = 500, token_hashes: dict | None = None, seed_salt: str | None = None):
        self.id = table_id
        self.client = self.address = None   # who created it (Registry.create)
        self.ruleset, self.players, self.options = ruleset, players, options
        self.seed, self.seed_given = seed, seed_given
        self.seed_salt = seed_salt or secrets.token_hex(16)
        self.seed_sha256 = seed_commitment(seed, self.seed_salt)
        self.store = None           # a cardspec.store.Store: every action is written before it is acknowledged
        self.applied = []           # (seat, canonical text) of every action, in order
        self.game = _load_game(ruleset, players, options)
        self.private = "_SR_RULES" in self.game.ns
        if self.private:   # rules typed at run time are compiled into their Game (cardspec._secret):
            self.game = _load_game(ruleset, players, options, private=True)   # a Game of its own, freed with the table
        #: None, or what runs this table's heavy calls elsewhere (``cardspec.workers.RemoteEngine``: the HTTP
        #: server's worker processes): legal-action listings, bot moves, and the first try of an action
        #: at a table with rules typed during play. ``remote.call(table, op, **args)`` raises ProtocolError.
        self.remote = None
        self.state = self.game.new_state(seed=seed)
        self.bot_specs = bots
        self.bots = {s: (RandomBot(seed=f"{seed}-bot-{s}") if spec == "random" else
                         make_bot(spec, seed=f"{seed}-bot-{s}", game=self.game)) for s, spec in bots.items()}
        if token_hashes is None:   # a new table: fresh tokens, told once to the creator
            self.tokens = {s: secrets.token_urlsafe(18) for s in range(players) if s not in bots}
            token_hashes = {s: token_hash(t) for s, t in self.tokens.items()}
        else:                      # a table restored from a store: only the tokens' hashes exist
            self.tokens = {}
        self.token_hashes = dict(token_hashes)
        self._seat_of = {h: s for s, h in self.token_hashes.items()}
        self.bot_delay = bot_delay
        self.created = self.touched = now
        self.version = 0
        self.actions = 0
        self.closed = None          # reason, once closed
        self.listeners = set()      # callables(table), told after each change
        self.max_legal = max_legal  # legal actions a view lists at most (the rest: get_legal)
        self._info = self._make_info()

    # -- seats
    def seat_for(self, token) -> int | None:
        """The seat of ``token`` (None for no token: a spectator). Raises ``auth/bad_token``."""
        if token is None:
            return None
        seat = self._seat_of.get(token_hash(token)) if isinstance(token, str) else None
        if seat is None:
            raise ProtocolError("auth/bad_token", f"that token is not a seat's token at table {self.id}")
        return seat

    def bot_to_act(self) -> int | None:
        s = self.state.to_act
        return s if s is not None and s in self.bots else None

    # -- changes
    def _changed(self, count: int = 1):
        self.version += count
        self.actions += count
        self._info = self._make_info()
        for cb in list(self.listeners):
            cb(self)

    def act(self, seat: int, action: str, now: float, decision: int | None = None) -> str | None:
        """Apply ``action`` for ``seat``. Returns the canonical text. Raises ``ProtocolError``.

        On a store shared by several server processes, another process may have stored the next action
        first (``StoreConflict``: the key ``(table, number)`` decides who was first). The action is then
        undone, the actions this table missed are read and applied (``catch_up``), and ``action`` is tried
        again on the new state, where it may be refused like any action (``action/not_your_turn``, …).
        ``decision``: the number of actions the move was chosen after (a bot's move): when the table has
        moved past it meanwhile, the move is dropped and None returned instead of trying it again.
        """
        from .store import StoreConflict
        for _ in range(8):
            if decision is not None and decision != len(self.applied):
                return None
            try:
                return self._act(seat, action, now)
            except StoreConflict:
                self.catch_up(now)
        raise ProtocolError("store/error", f"table {self.id}: the action lost to another server's eight times "
                            "in a row; try again")

    def _act(self, seat: int, action: str, now: float) -> str:
        self.touched = now
        st = self.state
        if st.terminal:
            raise ProtocolError("action/game_over", "the match is over", scores=st.scores())
        if st.to_act != seat:
            raise ProtocolError("action/not_your_turn", f"seat {seat}: not your turn (seat {st.to_act} is to act)",
                                to_act=st.to_act)
        if self.private and self.remote is not None:
            # A rule typed now is compiled, and a card judged, by a worker first: this process applies only an
            # action the worker accepted (``cardspec.workers``), so a costly rule never runs here.
            tried = self.remote.call(self, "try_act", seat=seat, action=action, limit=self.max_legal)
            if tried[0] == "over":
                raise ProtocolError("action/game_over", "the match is over", scores=tried[1])
            if tried[0] == "illegal":
                self._illegal(tried[1], tried[2], tried[3])
            action = tried[1]
        try:
            st.apply(action, seat)   # a look-up when the legal actions are listed, else parsed (no listing)
        except GameOver:
            raise ProtocolError("action/game_over", "the match is over", scores=st.scores()) from None
        except IllegalAction as e:
            count, head = self.legal_head(seat)
            self._illegal(str(e), count, head)
        text = st.history[-1]
        if self.store is not None:
            self._persist(seat, text)
        self.applied.append((seat, text))
        self._changed()
        return text

    def _illegal(self, msg: str, count: int | None, head: list):
        """Raise the ``action/illegal`` error: the message, at most ``max_legal`` legal actions, and their
        number (``legal_count``) when there are more (None: too many to count)."""
        extra = {"legal_count": count} if count is not None and count > self.max_legal else {}
        if len(msg) > 2000:
            msg = msg[:2000] + f"… ({count if count is not None else 'too many'} legal actions; get_legal lists them)"
        raise ProtocolError("action/illegal", msg, legal=head[:self.max_legal], **extra) from None

    def legal_head(self, seat) -> tuple[int | None, list]:
        """``(number of legal actions, the first max_legal)`` of ``seat`` ((0, []) unless it is to act); in a
        worker process when the table has one (``remote``). The number is None when they are too many to
        list (``legal_head_of``)."""
        if seat is None or self.state.to_act != seat:
            return 0, []
        if self.remote is not None:
            count, head = self.remote.call(self, "legal_head", seat=seat, limit=self.max_legal)
            return count, head
        return legal_head_of(self.state, seat, self.max_legal, listing_or_none(self.state))

    def _persist(self, seat: int, text: str):
        """Write the action just applied to the store before it is acknowledged; if the write fails, the
        state goes back to the stored actions (nothing is acknowledged that is not stored). Raises
        ``StoreConflict`` (state rolled back) when another process stored this action number first."""
        from .store import StoreConflict, StoreError
        try:
            self.store.append(self.id, len(self.applied), seat, text)
        except StoreError as e:
            self.state = self.game.new_state(seed=self.seed)
            self.replay(self.applied)
            if isinstance(e, StoreConflict):
                raise
            raise ProtocolError("store/error", f"the action was not stored, so it was not played: {e}") from None

    def replay(self, actions):
        """Apply stored ``(seat, text)`` actions to a fresh table (restart). Raises ``ProtocolError``
        ``store/diverged`` when one is not legal any more (the rules or the engine changed)."""
        self._apply_stored(actions, 0, "replayed")
        self.applied = list(actions)
        self.version = self.actions = len(self.applied)
        self._info = self._make_info()

    def _apply_stored(self, actions, start: int, verb: str, applied: list | None = None) -> None:
        """Apply stored ``(seat, text)`` actions numbered from ``start``; each one applied is appended to
        ``applied`` when given. Raises ``ProtocolError`` ``store/diverged`` at the first that is not legal."""
        st = self.state
        for i, (seat, text) in enumerate(actions):
            try:
                st.apply(text, seat)
            except (IllegalAction, GameOver, CardspecError) as e:
                raise ProtocolError("store/diverged", f"table {self.id}: stored action {start + i} ({seat}: {text}) "
                                    f"cannot be {verb}: {e}") from None
            if applied is not None:
                applied.append((seat, text))

    def catch_up(self, now: float | None = None) -> int:
        """Apply the actions another server process stored for this table since this one's last (a shared
        store: docs/protocol.md "Several servers"). Returns how many; listeners are told once. Raises
        ``ProtocolError`` ``store/diverged`` when one cannot be applied, ``store/error`` when the rows
        cannot be read or are damaged."""
        from .store import StoreError
        if self.store is None:
            return 0
        start = len(self.applied)
        try:
            new = self.store.since(self.id, start)
        except StoreError as e:
            raise ProtocolError("store/error", f"table {self.id}: {e}") from None
        self._apply_stored(new, start, "applied", self.applied)
        if new:
            if now is not None:
                self.touched = now
            self._changed(len(new))
        return len(new)

    def play_bot(self, now: float) -> str | None:
        """One move of the bot to act (None when a person or nobody is to act, or when another server
        process sharing the store made this move first)."""
        seat = self.bot_to_act()
        if seat is None:
            return None
        if self.remote is not None:
            action = self.remote_bot_move(seat)[1]
        else:
            action = self.bot_choice(seat, self.bot_for(seat))
        return self.act(seat, action, now, decision=len(self.applied))

    def bot_choice(self, seat: int, bot) -> str:
        """The action ``bot`` (``bot_for(seat)``) chooses for ``seat`` (reads the state, changes nothing)."""
        if type(bot) is RandomBot:   # it ignores the view: pick with its own RNG, as simulations do
            return random_action_of(self.state, bot.rng)
        view = self.state.view(seat, log=bot.wants_log)
        return bot.act(view, view["legal_actions"])

    def timeout_move(self, seat: int) -> str:
        """The move of a bot whose search ran out of time: a random legal action from (seed, seat, decision
        number) alone, so a replayed table goes on the same way."""
        return random_action_of(self.state, random.Random(f"{self.seed}-timeout-{seat}-{len(self.applied)}"))

    def remote_bot_move(self, seat: int) -> tuple[str, str]:
        """The move of the bot to act at ``seat``, made in a worker process (``remote``): ``("move", text)``,
        or ``("timeout", text)`` when its search ran past the CPU budget (``timeout_move``'s move, chosen
        there too). Seeded as ``bot_for``, so the move is the one this process would have made. Raises
        ``ProtocolError`` (``table/over_budget``: even the timeout move could not be listed)."""
        decision = len(self.applied)
        spec = "random" if type(self.bots[seat]) is RandomBot else self.bot_specs[seat]
        return tuple(self.remote.call(self, "bot", seat=seat, spec=spec, seed=f"{self.seed}-bot-{seat}-{decision}",
                                      timeout_seed=f"{self.seed}-timeout-{seat}-{decision}"))

    def bot_for(self, seat: int):
        """The bot that makes ``seat``'s next decision, seeded from (seed, seat, decision number) alone, so
        a table replayed from a store after a restart goes on exactly as it would have."""
        decision = f"{self.seed}-bot-{seat}-{len(self.applied)}"
        if type(self.bots[seat]) is RandomBot:
            return RandomBot(seed=decision)
        return make_bot(self.bot_specs[seat], seed=decision, game=self.game)

    def play_bots(self, now: float, limit: int = 1_000_000) -> int:
        """Bots move until a person must act or the match ends. Returns the number of moves."""
        n = 0
        while n < limit and self.bot_to_act() is not None:
            self.play_bot(now)
            n += 1
        return n

    # -- reading
    def info(self) -> dict:
        """Public facts about the table (``_make_info``), as of the last change: reading it never touches
        the state, so a server may answer it while a worker is changing the state."""
        return dict(self._info)

    def _make_info(self) -> dict:
        """Public facts about the table: no token, and no seed until the match is over (the seed rebuilds
        every hand, even one the creator chose): ``seed_sha256`` commits to it, and at the end ``seed``
        and ``seed_salt`` let anyone check that commitment (``seed_commitment``)."""
        st = self.state
        out = {"table": self.id, "ruleset": self.ruleset, "players": self.players, "options": self.options,
               "bots": sorted(self.bots), "to_act": st.to_act, "terminal": st.terminal,
               "version": self.version, "scores": st.scores(), "bot_delay": self.bot_delay,
               "seed_sha256": self.seed_sha256}
        if st.terminal:
            out["seed"] = self.seed
            out["seed_salt"] = self.seed_salt
        return out

    def view(self, seat) -> dict:
        """``State.view(seat)`` with at most ``max_legal`` legal actions: a longer list (a play of several
        ordered cards from a long hand: 255 k-879 k actions) is cut, and ``legal_count`` gives its
        length and ``legal_more`` is true; ``get_legal`` pages through it (``legal_page``)."""
        st = self.state
        v = st.view(seat, legal=False)
        if seat is not None and st.to_act == seat:
            count, head = self.legal_head(seat)
            v["legal_actions"] = head
            if count is None:         # too many to list: the first found through the small choices
                v["legal_more"] = True
            elif count > self.max_legal:
                v["legal_count"] = count
                v["legal_more"] = True
        return v

    def legal_page(self, seat, offset: int = 0, limit: int | None = None, prefix: str = "") -> dict:
        """The legal actions of ``seat`` (empty unless it is to act) that start with ``prefix``
        (case-insensitive), ``limit`` (at most ``max_legal``) from ``offset``: ``{count, offset, actions}``."""
        limit = self.max_legal if limit is None else max(0, min(limit, self.max_legal))
        if self.remote is not None:
            if seat is None or self.state.to_act != seat:
                return {"count": 0, "offset": offset, "actions": []}
            return self.remote.call(self, "legal_page", seat=seat, offset=offset, limit=limit, prefix=prefix)
        st = self.state
        if seat is None or st.to_act != seat:
            return {"count": 0, "offset": offset, "actions": []}
        return legal_page_of(st, seat, offset, limit, prefix, listing_or_none(st))

    def update(self, seat, since: int) -> tuple[dict, list, int]:
        """(view, events after ``since``, new cursor) for ``seat`` (None: spectator)."""
        log = self.state.log(seat)
        return self.view(seat), log[since:], len(log)


# ---- registry --------------------------------------------------------------------------------
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
        self.store = store          # cardspec.store.Store, or None: tables live in memory only
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
        if len(self.tables) >= lim.max_tables:
            raise ProtocolError("table/limit", f"this server holds {lim.max_tables} tables already; "
                                "try again when one has closed")
        tables = list(self.tables.values())
        if client is not None and sum(t.client == client for t in tables) >= lim.max_tables_per_client:
            raise ProtocolError("table/limit", f"this connection has {lim.max_tables_per_client} open tables, the most "
                                "one client may hold (max_tables_per_client); finish or leave one first")
        if address is not None and sum(t.address == address for t in tables) >= lim.max_tables_per_address:
            raise ProtocolError("table/limit", f"{lim.max_tables_per_address} tables are open from your address, the "
                                "most one address may hold (max_tables_per_address)")
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
                raise ProtocolError("store/error", f"the table could not be stored, so it was not opened: {e}") from None
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
            raise ProtocolError("store/error", str(e)) from None
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

    def reap(self) -> list:
        """Close tables idle for ``idle_timeout`` seconds. Returns the closed ids."""
        now = self.clock()
        gone = [t for t in self.tables.values() if now - t.touched > self.limits.idle_timeout]
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


# ---- one client ---------------------------------------------------------------------------------
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
        event loop within a time budget (``cardspec.server.EngineRunner``). Never raises."""
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
        server does (``cardspec.server.EngineRunner``)."""
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


def serve_stdio(inp=None, out=None, limits: Limits | None = None, store=None) -> int:
    """Line-delimited JSON on ``inp``/``out`` (binary stdin, text stdout by default) until end of input.

    One message per line in, one per line out. Bots move at once. A line longer than
    ``max_message_bytes`` is skipped with a ``message/too_large`` error. ``store``: as for the HTTP
    server (tables restored first, every action written before it is answered). Returns 0.
    """
    inp = inp if inp is not None else sys.stdin.buffer
    out = out if out is not None else sys.stdout
    registry = Registry(limits, store=store)
    done = registry.restore()
    if store is not None:
        print(f"cardspec: store {store.url}: {len(done['restored'])} open tables restored", file=sys.stderr,
              flush=True)
    session = Session(registry, inline_bots=True, budget=registry.limits.max_call_seconds)
    cap = registry.limits.max_message_bytes

    def write(m):
        out.write(encode(m, ascii_only=True) + "\n")

    while True:
        line = inp.readline(cap + 2)
        if not line:
            break
        size = len(line) - line.endswith(b"\n")
        if size > cap:
            while line and not line.endswith(b"\n"):
                line = inp.readline(65536)
                size += len(line)
            write(ProtocolError("message/too_large", f"message of {size} bytes or more; the limit is "
                                f"{cap}").to_message())
            out.flush()
            continue
        line = line.rstrip(b"\r\n")
        if not line.strip():
            continue
        for m in session.handle(line):
            write(m)
        try:   # nothing a client sends may end the process (every table would be lost)
            registry.reap()
            for m in session.updates():
                write(m)
        except Exception as e:  # noqa: BLE001
            write(internal_error(e, " sending updates").to_message())
        out.flush()
    return 0
