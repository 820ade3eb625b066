"""``cardspec serve --http``: the table protocol over WebSocket, a small HTTP API and the browser table.

An ASGI app (Starlette) served by uvicorn:

- ``GET /`` — the browser table (``cardspec/web/``: plain HTML, CSS and JS), ``/static/…`` its files;
- ``WS /ws`` — the protocol of ``cardspec.protocol``: one JSON message per WebSocket text frame;
- ``GET /api/rulesets`` — the built-in rulesets (the ``rulesets`` message);
- ``GET /api/tables`` — open tables, public facts only (the ``tables`` message);
- ``POST /api/tables`` — create a table: the body is a ``create`` message without ``type``;
  201 with the ``created`` message (one secret token per person seat), or an ``error`` message
  with a 4xx/5xx status;
- ``GET /api/tables/{id}`` — one table's public facts.

The engine's work (creating a table, an action and its judgement, views with their legal actions,
bot moves) runs off the event loop in ``EngineRunner``: one thread per call, one call per table at
a time, a fair share of threads per owner, and a CPU budget per call (``max_call_seconds``); the
work whose cost a client controls (bot moves, legal-action listings, rules typed during play) runs
from those threads in worker processes (``cardspec.workers``), each call within the CPU budget and
a memory bound (``max_call_memory``), so no client can freeze the others by holding this process's
GIL. Bots play server-side, one move per ``bot_delay`` seconds per table.
Tables idle for
``idle_timeout`` seconds are closed by a reaper task. Messages over ``max_message_bytes`` get a
``message/too_large`` error; frames over 16× that close the connection (WebSocket code 1009).
"""
from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import logging
import queue
import socket
import sys
import threading
import time
from collections import deque
from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .protocol import (Limits, ProtocolError, Registry, Session, _validator, encode, internal_error, parse_message,
                       ruleset_catalogue, schemas)
from .workers import RemoteEngine, WorkerPool, wall_limit

WEB_DIR = Path(__file__).resolve().parent / "web"

#: HTTP status of each error code on the HTTP API.
HTTP_STATUS = {"json/malformed": 400, "message/invalid": 400, "message/unknown_type": 400,
               "message/too_large": 413, "table/not_found": 404, "table/limit": 503, "table/invalid": 400,
               "ruleset/unknown": 400, "ruleset/invalid": 400, "auth/bad_token": 403, "server/internal": 500,
               "table/over_budget": 503}

MAX_OUTBOX = 1000


class OverBudget(BaseException):
    """Raised inside a worker thread whose engine call ran past its CPU budget (``EngineRunner``).

    A ``BaseException`` so that no ``except Exception`` in the engine or a bot swallows it."""


class _Job:
    """One engine call, run by a ``_Pool`` thread: its result goes to an asyncio future; ``cpu()`` reads the
    CPU time its thread has spent on it; ``interrupt()`` raises ``OverBudget`` in it (at its next bytecode)."""

    def __init__(self, fn, loop):
        self.fn, self.loop = fn, loop
        self.future = loop.create_future()
        self.guard = threading.Lock()
        self.running = False
        self.finished = False
        self.ident = self.clock = None
        self.cpu0 = 0.0

    def run(self):
        """In a pool thread. Never raises (an ``OverBudget`` that lands late is swallowed here)."""
        result = exc = None
        try:
            try:
                self.ident = threading.get_ident()
                try:
                    self.clock = time.pthread_getcpuclockid(self.ident)
                    self.cpu0 = time.clock_gettime(self.clock)
                except (AttributeError, OSError):   # not on this platform: the wall-clock limit still applies
                    self.clock = None
                with self.guard:
                    self.running = True
                result = self.fn()
            finally:
                with self.guard:
                    self.running = False
        except BaseException as e:  # noqa: BLE001 - handed to the event loop
            exc = e
        self.finished = True
        try:
            self.loop.call_soon_threadsafe(self._settle, result, exc)
        except RuntimeError:   # the loop has closed (server shutting down)
            pass

    def _settle(self, result, exc):
        if not self.future.done():
            if exc is None:
                self.future.set_result(result)
            else:
                self.future.set_exception(exc)

    def cpu(self) -> float:
        if self.clock is None:
            return 0.0
        try:
            return time.clock_gettime(self.clock) - self.cpu0
        except OSError:   # the thread has ended
            return 0.0

    def interrupt(self):
        with self.guard:
            if self.running and self.ident is not None:
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.ident), ctypes.py_object(OverBudget))


class _Pool:
    """Daemon threads that run ``_Job``s from a queue (a thread per call cost ~0.5 ms). ``lost()`` replaces a
    thread whose interrupted job never returned (stuck in C code), so the pool keeps its size."""

    def __init__(self):
        self.queue = queue.SimpleQueue()
        self.threads = 0

    def submit(self, job: _Job, want: int):
        while self.threads < want:
            self._start()
        self.queue.put(job)

    def lost(self):
        self._start()

    def _start(self):
        self.threads += 1
        threading.Thread(target=self._main, name="cardspec-engine", daemon=True).start()

    def _main(self):
        while True:
            job = self.queue.get()
            try:
                job.run()
            except BaseException:  # noqa: BLE001 - an OverBudget delivered after the job's own handler
                pass


class EngineRunner:
    """Runs the engine's work off the event loop, within budgets, fairly.

    Every call that reads or changes a game state — creating a table (loading its game, dealing), an
    action with its judgement (a rule typed at run time), a view with its legal actions, a bot's
    search — runs in a worker thread (a pool of ``workers``), so the event loop keeps answering everyone
    else. Each call:

    - waits for its table (one call per table at a time, queued on the loop, no thread blocked);
    - waits for a slot: at most ``per_owner`` calls at once for the tables of one owner (the address,
      or connection, that created them) and ``workers`` in all, so one client's slow tables cannot take
      every thread;
    - gets ``budget`` CPU seconds (``Limits.max_call_seconds``, the thread's own CPU clock; and, as a
      backstop, ``cardspec.workers.wall_limit(budget)`` + 5 s of wall time: a thread waiting for a worker
      process uses no CPU, and the worker has its own limits). Past it the call is interrupted (``OverBudget`` raised in its thread) and
      ``ProtocolError`` ``table/over_budget`` raised here; a call that changes the state (``mutates``)
      may have left it half done, so its table is closed (reason ``over_budget``).
    """

    def __init__(self, registry: Registry, workers: int = 4, per_owner: int = 2):
        self.registry = registry
        self.workers, self.per_owner = workers, per_owner
        self._slots = None
        self._owners: dict = {}   # owner -> [Semaphore, users]
        self._tables: dict = {}   # table id -> [Lock, users]
        self._pool = _Pool()
        self.interrupted = 0

    @staticmethod
    async def _enter(pool: dict, key, make):
        entry = pool.get(key)
        if entry is None:
            entry = pool[key] = [make(), 0]
        entry[1] += 1
        try:
            await entry[0].acquire()
        except BaseException:
            EngineRunner._leave(pool, key)
            raise

    @staticmethod
    def _leave(pool: dict, key, release: bool = False):
        entry = pool[key]
        if release:
            entry[0].release()
        entry[1] -= 1
        if entry[1] == 0:
            del pool[key]

    async def run(self, table, fn, mutates: bool = False, owner=None, budget: float | None = None):
        """``fn()`` in a worker thread (see the class doc). Returns its result or raises its exception."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        if owner is None and table is not None:
            owner = table.address or table.client or table.id
        tid = table.id if table is not None else None
        if tid is not None:
            await self._enter(self._tables, tid, asyncio.Lock)
        try:
            if table is not None and table.closed is not None:
                raise ProtocolError("table/not_found", f"table {table.id} has closed ({table.closed})")
            await self._enter(self._owners, owner, lambda: asyncio.Semaphore(self.per_owner))
            try:
                async with self._slots:
                    return await self._call(table, fn, mutates, budget or self.registry.limits.max_call_seconds)
            finally:
                self._leave(self._owners, owner, release=True)
        finally:
            if tid is not None:
                self._leave(self._tables, tid, release=True)

    async def _call(self, table, fn, mutates, budget):
        loop = asyncio.get_running_loop()
        job = _Job(fn, loop)
        self._pool.submit(job, self.workers)
        # A backstop only (the thread's CPU clock is the budget): a thread waiting for a worker process uses
        # no CPU, and the worker has its own limits (cardspec.workers), which answer first.
        wall = loop.time() + wall_limit(budget) + 5
        since = [None]   # when the job was interrupted

        def watch():   # every 0.1 s while the job runs: its CPU time against the budget
            if job.future.done():
                return
            now = loop.time()
            if since[0] is None:
                if job.cpu() > budget or now > wall:
                    since[0] = now
                    self.interrupted += 1
                    job.interrupt()
            elif now - since[0] > 2.0:   # stuck in C code: give its thread up, another takes its place
                self._pool.lost()
                job.future.set_exception(OverBudget())
                return
            timer[0] = loop.call_later(0.1, watch)

        timer = [loop.call_later(0.1, watch)]
        try:
            return await job.future
        except OverBudget:
            pass
        finally:
            timer[0].cancel()
        if table is not None and (mutates or not job.finished) and table.closed is None:
            self.registry.close(table, "over_budget")
        what = "the action" if mutates else "the request"
        raise ProtocolError("table/over_budget", f"{what} took more than {budget:g} s of CPU, the most one call "
                            "may take on this server (max_call_seconds): a rule, a bot or a listing too costly"
                            + ("; the table is closed" if table is not None and table.closed else ""))


class BotRunner:
    """Plays the bot seats of every table: one asyncio task per table while a bot is to act, every
    move in the ``EngineRunner`` (a search within the budget; past it a random legal move)."""

    def __init__(self, registry: Registry, engine: EngineRunner):
        self.registry = registry
        self.engine = engine
        self.running: dict[str, asyncio.Task] = {}
        self.errors = 0

    def changed(self, table):
        if table.closed is None and table.id not in self.running and table.bot_to_act() is not None:
            self.running[table.id] = asyncio.get_running_loop().create_task(self._run(table))

    #: seconds between two tries to claim a table whose bots another server process moves (shared store)
    claim_retry = 1.0

    def _prepare(self, t):
        """In an engine thread: ``(seat, decision number)`` of the bot to act (None: no bot to act;
        "elsewhere": another server process sharing the store moves this table's bots)."""
        seat = t.bot_to_act()
        if seat is None:
            return None
        if t.store is not None and not t.store.claim(t.id):
            return "elsewhere"
        return seat, len(t.applied)

    @staticmethod
    def _choose(t, seat):
        """``("move" | "timeout", action)``: in a worker process (``Table.remote_bot_move``: the search within
        the CPU budget, past it a random legal move from (seed, seat, decision)), or here without one."""
        if t.remote is not None:
            return t.remote_bot_move(seat)
        return "move", t.bot_choice(seat, t.bot_for(seat))

    def _play(self, t, seat, action, decision):
        if t.closed is None and t.bot_to_act() == seat:
            if action is None:   # the search ran out of time: a random legal move, from (seed, seat, decision)
                action = t.timeout_move(seat)
            t.act(seat, action, self.registry.clock(), decision=decision)

    async def _run(self, t):
        try:
            while t.closed is None and t.bot_to_act() is not None:
                await asyncio.sleep(t.bot_delay)
                if t.closed is not None:
                    break
                job = await self.engine.run(t, lambda: self._prepare(t))
                if job is None:
                    break
                if job == "elsewhere":   # the process that holds the claim moves them; take over if it dies
                    await asyncio.sleep(self.claim_retry)
                    continue
                seat, decision = job
                try:
                    kind, action = await self.engine.run(t, lambda: self._choose(t, seat))
                except ProtocolError as e:
                    if e.code != "table/over_budget" or t.closed is not None:
                        raise
                    if t.remote is not None:   # not even a random legal move could be listed: the table ends
                        self.registry.close(t, "over_budget")
                        raise
                    kind, action = "timeout", None
                if kind == "timeout":
                    self.engine.interrupted += 1
                await self.engine.run(t, lambda: self._play(t, seat, action, decision), mutates=True)
        except ProtocolError as e:
            if e.code not in ("table/not_found", "table/over_budget"):   # else: the table closed meanwhile
                self.errors += 1
                print(f"cardspec serve: table {t.id}: bot error: {e.code}: {e.message}", file=sys.stderr)
        except Exception as e:  # noqa: BLE001 - a bot's bug must not take the server down
            self.errors += 1
            print(f"cardspec serve: table {t.id}: bot error: {type(e).__name__}: {e}", file=sys.stderr)
        finally:
            self.running.pop(t.id, None)


class StoreFollower:
    """Pushes the changes other server processes make to a shared store (PostgreSQL) to this process's
    clients: each note (``cardspec.store.parse_note``) of an action appended to a table open here has
    the table read the actions it missed (``Table.catch_up``, in the ``EngineRunner``, so it is ordered
    with this process's own calls on the table), which tells its followers as any change does; a table
    closed elsewhere is closed here too. Notes that arrive while a table is catching up are folded into
    one more read."""

    def __init__(self, registry: Registry, engine: EngineRunner):
        self.registry, self.engine = registry, engine
        self.pending: dict = {}   # table id -> another note came while catching up
        self.caught = 0           # actions applied from other processes (for tests and operators)

    def note(self, payload: str):
        """On the event loop: one notification's payload."""
        from .store import parse_note
        try:
            got = parse_note(payload)
        except ValueError:
            got = None
        if got is None:
            return
        tid, what, _origin, reason = got
        if tid == "*":
            for t in list(self.registry.tables.values()):
                self._catch(t)
            return
        t = self.registry.tables.get(tid)
        if t is None or t.closed is not None:
            return
        if what == "closed":
            self.registry.close(t, reason or "closed", stored=False)
        elif what >= len(t.applied):
            self._catch(t)

    def _catch(self, t):
        if t.id in self.pending:
            self.pending[t.id] = True
            return
        self.pending[t.id] = False
        asyncio.get_running_loop().create_task(self._run(t))

    async def _run(self, t):
        try:
            while True:
                self.caught += await self.engine.run(t, lambda: t.catch_up(self.registry.clock()), mutates=True)
                if not self.pending.get(t.id):
                    break
                self.pending[t.id] = False
        except ProtocolError as e:
            if e.code != "table/not_found" and t.closed is None:   # rows that cannot be applied here
                print(f"cardspec serve: table {t.id}: {e.code}: {e.message}", file=sys.stderr, flush=True)
                self.registry.close(t, e.code, stored=False)
        except Exception as e:  # noqa: BLE001 - one table's trouble must not take the server down
            internal_error(e, f" following table {t.id}")
        finally:
            self.pending.pop(t.id, None)


def _error_response(err: ProtocolError) -> JSONResponse:
    return JSONResponse(err.to_message(), status_code=HTTP_STATUS.get(err.code, 409))


def _guarded(handler):
    """An HTTP handler whose ``ProtocolError`` becomes its coded reply and any other exception a
    ``server/internal`` reply (status 500) with one line on stderr — never a traceback or plain text."""
    @functools.wraps(handler)
    async def run(request):
        try:
            return await handler(request)
        except ProtocolError as e:
            return _error_response(e)
        except Exception as e:  # noqa: BLE001
            return _error_response(internal_error(e, f" at {request.method} {request.url.path}"))
    return run


class _RepeatFilter(logging.Filter):
    """A logging filter that lets the same message through at most once per ``period`` seconds, then says
    how many were held back: a flood of connections can never flood the log (uvicorn's "Exceeded
    concurrency limit.", "Invalid HTTP request received.", asyncio's accept errors)."""

    def __init__(self, period: float = 10.0):
        super().__init__()
        self.period, self.last, self.held = period, {}, {}

    def filter(self, record) -> bool:
        key = (record.name, record.msg if isinstance(record.msg, str) else repr(record.msg))
        now = time.monotonic()
        if now - self.last.get(key, -1e9) < self.period:
            self.held[key] = self.held.get(key, 0) + 1
            return False
        self.last[key] = now
        n = self.held.pop(key, 0)
        if n:
            record.msg = f"{record.getMessage()} (and {n} more like it in the last {self.period:g} s)"
            record.args = ()
        record.exc_info = record.exc_text = None   # one line, no traceback
        return True


def _address_counts(server_state) -> dict:
    counts = getattr(server_state, "cardspec_connections", None)
    if counts is None:
        counts = server_state.cardspec_connections = {}
    return counts


def guarded_http_protocol(limits: Limits):
    """uvicorn's h11 protocol with connection limits (a class for ``uvicorn.Config(http=…)``).

    - a connection that has not sent a whole request within ``connection_timeout`` seconds is closed
      (uvicorn arms its keep-alive timer only after a first response, so a connection that sends
      nothing, or half a request, would stay open for ever);
    - over ``max_connections`` connections in all, or ``max_connections_per_address`` from one
      address, a new connection is closed at once (before any byte is read), so descriptors never run
      out and nothing is logged for each one.
    """
    from uvicorn.protocols.http.h11_impl import H11Protocol

    import h11

    class GuardedH11Protocol(H11Protocol):
        _ip = None
        _deadline = None

        def connection_made(self, transport):
            super().connection_made(transport)
            counts = _address_counts(self.server_state)
            ip = self.client[0] if self.client else None
            if len(self.connections) > limits.max_connections or \
                    counts.get(ip, 0) >= limits.max_connections_per_address:
                transport.abort()
                return
            self._ip = ip
            counts[ip] = counts.get(ip, 0) + 1
            self._arm()

        def _arm(self):
            if self._deadline is not None:
                self._deadline.cancel()
            self._deadline = self.loop.call_later(limits.connection_timeout, self._too_slow)

        def _too_slow(self):
            self._deadline = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.abort()   # no whole request line and headers in time

        def handle_events(self):
            super().handle_events()
            if self._deadline is not None and self.conn.their_state is not h11.IDLE:
                self._deadline.cancel()   # the headers are in (a body has its own time limit)
                self._deadline = None

        def on_response_complete(self):
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()   # the next request on a kept-alive connection gets the same time

        def _release(self):
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            if self._ip is not None:
                counts = _address_counts(self.server_state)
                counts[self._ip] -= 1
                if counts[self._ip] <= 0:
                    del counts[self._ip]
                self._ip = None

        def connection_lost(self, exc):
            self._release()
            super().connection_lost(exc)

        def handle_websocket_upgrade(self, event):
            self._release()   # the WebSocket endpoint counts its own connections
            super().handle_websocket_upgrade(event)

    return GuardedH11Protocol


def uvicorn_config(app, limits: Limits | None = None, log_level: str = "warning"):
    """The ``uvicorn.Config`` of ``cardspec serve --http``: uvicorn's own limits set from ``limits``
    (``limit_concurrency``, message size, queue, ping timeouts that close half-open WebSockets,
    header size, no proxy headers: the peer address is the TCP peer's) plus ``guarded_http_protocol``,
    and a filter that keeps repeated warnings from flooding the log."""
    import uvicorn
    limits = limits or Limits()
    config = uvicorn.Config(app, log_level=log_level, lifespan="on", http=guarded_http_protocol(limits),
                            ws_max_size=max(16 * limits.max_message_bytes, 1 << 16), ws_max_queue=16,
                            ws_ping_interval=20.0, ws_ping_timeout=20.0, limit_concurrency=limits.max_connections,
                            timeout_keep_alive=max(1, int(limits.connection_timeout)),
                            h11_max_incomplete_event_size=16384, proxy_headers=False, server_header=False,
                            access_log=False, backlog=256)
    flt = _RepeatFilter()   # after uvicorn configured its loggers
    for name in ("uvicorn.error", "asyncio"):
        lg = logging.getLogger(name)
        if not any(isinstance(f, _RepeatFilter) for f in lg.filters):
            lg.addFilter(flt)
    return config


def origin_allowed(origin: str | None, host: str | None, allow: tuple = ()) -> bool:
    """Whether a WebSocket handshake's ``Origin`` may connect.

    No ``Origin`` header (a program, not a browser page): yes. ``allow`` lists origins
    (``https://cards.example.org``) or ``*`` (any). With no list, only the page's own host: the
    Origin's ``host[:port]`` must equal the request's ``Host`` header — so a page on another site
    cannot open a socket with a visitor's browser (cross-site WebSocket hijacking).
    """
    if origin is None:
        return True
    origin = origin.strip().rstrip("/").lower()
    if allow:
        return "*" in allow or origin in {a.strip().rstrip("/").lower() for a in allow}
    scheme, sep, rest = origin.partition("://")
    return bool(sep) and scheme in ("http", "https") and host is not None and rest == host.strip().lower()


def _warm_up():
    ruleset_catalogue()
    for name in schemas():
        _validator(name)


def create_app(limits: Limits | None = None, allow_origins=(), store=None) -> Starlette:
    """The ASGI app with its own table registry (``app.state.registry``) and bot runner.

    ``allow_origins``: the Origins a browser page may open ``/ws`` from (``origin_allowed``; default:
    the same host only). ``store``: a ``cardspec.store.Store``; its open tables are replayed when the app
    starts, and every table and action is written to it before it is acknowledged (docs/protocol.md).
    """
    allow_origins = tuple(allow_origins or ())
    registry = Registry(limits, store=store)
    ws_counts: dict = {}
    engine = EngineRunner(registry)
    workers = WorkerPool(engine.workers, memory=registry.limits.max_call_memory)
    registry.remote = RemoteEngine(workers, registry.limits)
    runner = BotRunner(registry, engine)
    follower = StoreFollower(registry, engine)
    lim = registry.limits
    loops = []

    def soon(fn, *args):
        """Call ``fn`` on the event loop (tables change in worker threads; asyncio is not thread-safe)."""
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if loops and here is not loops[0]:
            loops[0].call_soon_threadsafe(fn, *args)
        else:
            fn(*args)

    registry.on_change = lambda t: soon(runner.changed, t)

    def background(fn):
        """Store writes of a closing table run in a thread: never on the event loop."""
        if loops:
            loops[0].call_soon_threadsafe(loops[0].run_in_executor, None, fn)
        else:
            fn()
    registry.background = background

    async def reaper():
        period = max(0.05, min(lim.idle_timeout / 4, 30.0))
        while True:
            await asyncio.sleep(period)
            registry.reap()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        loops[:] = [asyncio.get_running_loop()]
        await asyncio.to_thread(_warm_up)   # read every built-in, build every schema check, before the first message
        # the worker processes (cardspec.workers) start meanwhile: the first call that needs one waits for it
        threading.Thread(target=workers.start, name="cardspec-workers-start", daemon=True).start()
        if store is not None:
            done = registry.restore()
            print(f"cardspec: store {store.url}: {len(done['restored'])} open tables restored"
                  + (f", {len(done['refused'])} refused" if done["refused"] else ""), file=sys.stderr, flush=True)
            for tid, why in done["refused"].items():
                print(f"cardspec: table {tid} not restored: {why}", file=sys.stderr, flush=True)
            for tid in done["restored"]:
                runner.changed(registry.tables[tid])     # a bot to act moves on
        unlisten = None
        if store is not None and store.shared:   # other processes' actions reach this one's clients
            unlisten = store.listen(lambda payload: loops[0].call_soon_threadsafe(follower.note, payload))
        task = loops[0].create_task(reaper())
        try:
            yield
        finally:
            if unlisten is not None:
                unlisten()
            task.cancel()
            for t in list(runner.running.values()):
                t.cancel()
            await asyncio.to_thread(workers.shutdown)

    async def index(request):
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    async def api_rulesets(request):
        return JSONResponse(Session(registry).handle('{"type":"list_rulesets"}')[0])

    async def api_tables(request):
        return JSONResponse(Session(registry).handle('{"type":"list_tables"}')[0])

    async def api_create(request):
        async def read():
            body = b""
            async for chunk in request.stream():
                body += chunk
                if len(body) > lim.max_message_bytes:
                    return None
            return body
        try:   # a body sent a byte at a time is cut off (wait_for, not asyncio.timeout: Python 3.10 too)
            body = await asyncio.wait_for(read(), lim.connection_timeout)
        except asyncio.TimeoutError:   # (on 3.10 not the builtin TimeoutError)
            return _error_response(ProtocolError("message/invalid", "the request body did not arrive within "
                                                 f"{lim.connection_timeout:g} s"))
        if body is None:
            return _error_response(ProtocolError("message/too_large", "request body over "
                                                 f"{lim.max_message_bytes} bytes"))
        msg = parse_message(body, lim.max_message_bytes)
        ip = request.client.host if request.client else None
        reply = (await Session(registry, address=ip).handle_async({**msg, "type": "create"}, engine.run))[0]
        if reply["type"] == "error":
            return JSONResponse(reply, status_code=HTTP_STATUS.get(reply["code"], 409))
        return JSONResponse(reply, status_code=201)

    async def api_table(request):
        await registry.ensure(request.path_params["table"], engine.run)
        return JSONResponse(registry.get(request.path_params["table"]).info())

    async def ws_endpoint(websocket: WebSocket):
        if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), allow_origins):
            await websocket.close(code=1008, reason="origin not allowed")   # before accept: HTTP 403
            return
        ip = websocket.client.host if websocket.client else None
        if ws_counts.get(ip, 0) >= lim.max_connections_per_address:
            await websocket.close(code=1008, reason="too many connections from your address")   # HTTP 403
            return
        ws_counts[ip] = ws_counts.get(ip, 0) + 1
        try:
            await _ws_session(websocket, ip)
        finally:
            ws_counts[ip] -= 1
            if ws_counts[ip] <= 0:
                del ws_counts[ip]

    async def _ws_session(websocket: WebSocket, ip):
        await websocket.accept()
        session = Session(registry, address=ip)
        wake = asyncio.Event()
        outbox: deque = deque()
        session.on_dirty = lambda: soon(wake.set)

        async def writer():
            while True:
                await wake.wait()
                wake.clear()
                while outbox:
                    await websocket.send_text(encode(outbox.popleft()))
                closed, todo = session.pending()
                for m in closed:
                    await websocket.send_text(encode(m))
                for key, sub in todo:   # each view (with its legal actions) is built off the loop
                    try:
                        m = await engine.run(sub.table, functools.partial(session.update_for, key, sub))
                    except ProtocolError as e:
                        m = None if e.code == "table/not_found" else e.to_message()
                    except Exception as e:  # noqa: BLE001 - a bug in one update must not end the connection
                        m = internal_error(e, " building an update").to_message()
                    if m is not None:
                        await websocket.send_text(encode(m))

        wtask = asyncio.get_running_loop().create_task(writer())
        try:
            while True:
                try:   # a connection that follows no table and says nothing for idle_timeout is closed
                    msg = await asyncio.wait_for(websocket.receive(), None if session.subs else lim.idle_timeout)
                except asyncio.TimeoutError:
                    await websocket.close(code=1000, reason="idle")
                    break
                if msg["type"] == "websocket.disconnect":
                    break
                data = msg.get("text")
                if data is None:
                    data = msg.get("bytes") or b""
                outbox.extend(await session.handle_async(data, engine.run))
                if len(outbox) > MAX_OUTBOX:   # a client that sends without reading
                    await websocket.close(code=1008, reason="too many unread replies")
                    break
                wake.set()
                if wtask.done():
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            session.close()
            wtask.cancel()

    routes = [
        Route("/", index),
        Route("/api/rulesets", _guarded(api_rulesets)),
        Route("/api/tables", _guarded(api_tables), methods=["GET"]),
        Route("/api/tables", _guarded(api_create), methods=["POST"]),
        Route("/api/tables/{table}", _guarded(api_table)),
        WebSocketRoute("/ws", ws_endpoint),
        Mount("/static", StaticFiles(directory=WEB_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.registry = registry
    app.state.bots = runner
    app.state.engine = engine
    app.state.follower = follower
    app.state.workers = workers
    return app


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8000`` for IPv6) → (host, port). Raises ``ValueError`` with a hint."""
    host, sep, port = str(text).rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"'{text}' is not HOST:PORT (e.g. 127.0.0.1:8000; port 0 picks a free port)")
    return host.strip("[]"), int(port)


def serve_http(address: str, limits: Limits | None = None, log_level: str = "warning", out=None,
               allow_origins=(), store=None) -> int:
    """Serve the app on ``address`` (``HOST:PORT``) until interrupted (``uvicorn_config``; WebSockets from
    the ``allow_origins`` pages, default the same host: ``origin_allowed``).

    Binds first, then prints ``cardspec: serving http://HOST:PORT/`` (the real port when 0 was
    asked) on ``out`` (stdout). Raises ``ValueError`` for a bad address, ``OSError`` when the
    address cannot be bound.
    """
    import gc
    import uvicorn
    host, port = parse_address(address)
    limits = limits or Limits()
    info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(info[0], socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(info[4])
    sock.listen(256)
    real = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    print(f"cardspec: serving http://{shown}:{real}/", file=out or sys.stdout, flush=True)
    config = uvicorn_config(create_app(limits, allow_origins, store), limits, log_level)
    # The event loop shares the GIL with the engine's threads: take it back within 1 ms (not 5), and keep
    # the cyclic collector's full passes (100-150 ms over the millions of objects of a 464 k-action listing,
    # with the GIL held) rare: the code and data loaded so far are frozen out of them.
    sys.setswitchinterval(0.001)
    gc.freeze()
    gc.set_threshold(700, 10, 1000)
    uvicorn.Server(config).run(sockets=[sock])
    return 0

