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

Bots play server-side, one move per ``bot_delay`` seconds per table (random bots inline,
others in a worker thread so the event loop never waits on a search). Tables idle for
``idle_timeout`` seconds are closed by a reaper task. Messages over ``max_message_bytes`` get a
``message/too_large`` error; frames over 16× that close the connection (WebSocket code 1009).
"""
from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
import socket
import sys
from collections import deque
from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .players import RandomBot
from .protocol import Limits, ProtocolError, Registry, Session, encode, internal_error, parse_message

WEB_DIR = Path(__file__).resolve().parent / "web"

#: HTTP status of each error code on the HTTP API.
HTTP_STATUS = {"json/malformed": 400, "message/invalid": 400, "message/unknown_type": 400,
               "message/too_large": 413, "table/not_found": 404, "table/limit": 503, "table/invalid": 400,
               "ruleset/unknown": 400, "ruleset/invalid": 400, "auth/bad_token": 403, "server/internal": 500}

MAX_OUTBOX = 1000


class BotRunner:
    """Plays the bot seats of every table: one asyncio task per table while a bot is to act."""

    def __init__(self, registry: Registry):
        self.registry = registry
        self.running: dict[str, asyncio.Task] = {}
        self.errors = 0

    def changed(self, table):
        if table.closed is None and table.id not in self.running and table.bot_to_act() is not None:
            self.running[table.id] = asyncio.get_running_loop().create_task(self._run(table))

    async def _run(self, t):
        try:
            while t.closed is None and t.bot_to_act() is not None:
                await asyncio.sleep(t.bot_delay)
                seat = t.bot_to_act()
                if t.closed is not None or seat is None:
                    break
                bot = t.bot_for(seat)
                if isinstance(bot, RandomBot):
                    t.play_bot(self.registry.clock())
                else:
                    view = t.state.view(seat, log=bot.wants_log)
                    action = await asyncio.to_thread(bot.act, view, view["legal_actions"])
                    if t.closed is None and t.bot_to_act() == seat:
                        t.act(seat, action, self.registry.clock())
        except ProtocolError as e:  # a bot answered something illegal: a bug in the bot
            self.errors += 1
            print(f"cardspec serve: table {t.id}: bot error: {e.code}: {e.message}", file=sys.stderr)
        except Exception as e:  # noqa: BLE001 - a bot's bug must not take the server down
            self.errors += 1
            print(f"cardspec serve: table {t.id}: bot error: {type(e).__name__}: {e}", file=sys.stderr)
        finally:
            self.running.pop(t.id, None)


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


def create_app(limits: Limits | None = None, allow_origins=(), store=None) -> Starlette:
    """The ASGI app with its own table registry (``app.state.registry``) and bot runner.

    ``allow_origins``: the Origins a browser page may open ``/ws`` from (``origin_allowed``; default:
    the same host only). ``store``: a ``cardspec.store.Store``; its open tables are replayed when the app
    starts, and every table and action is written to it before it is acknowledged (docs/protocol.md).
    """
    allow_origins = tuple(allow_origins or ())
    registry = Registry(limits, store=store)
    ws_counts: dict = {}
    runner = BotRunner(registry)
    registry.on_change = runner.changed
    lim = registry.limits

    async def reaper():
        period = max(0.05, min(lim.idle_timeout / 4, 30.0))
        while True:
            await asyncio.sleep(period)
            registry.reap()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        if store is not None:
            done = registry.restore()
            print(f"cardspec: store {store.url}: {len(done['restored'])} open tables restored"
                  + (f", {len(done['refused'])} refused" if done["refused"] else ""), file=sys.stderr, flush=True)
            for tid, why in done["refused"].items():
                print(f"cardspec: table {tid} not restored: {why}", file=sys.stderr, flush=True)
            for tid in done["restored"]:
                runner.changed(registry.tables[tid])     # a bot to act moves on
        task = asyncio.get_running_loop().create_task(reaper())
        try:
            yield
        finally:
            task.cancel()
            for t in list(runner.running.values()):
                t.cancel()

    async def index(request):
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    async def api_rulesets(request):
        return JSONResponse(Session(registry).handle('{"type":"list_rulesets"}')[0])

    async def api_tables(request):
        return JSONResponse(Session(registry).handle('{"type":"list_tables"}')[0])

    async def api_create(request):
        body = b""
        try:
            async with asyncio.timeout(lim.connection_timeout):   # a body sent a byte at a time is cut off
                async for chunk in request.stream():
                    body += chunk
                    if len(body) > lim.max_message_bytes:
                        return _error_response(ProtocolError("message/too_large", "request body over "
                                                             f"{lim.max_message_bytes} bytes"))
        except TimeoutError:
            return _error_response(ProtocolError("message/invalid", "the request body did not arrive within "
                                                 f"{lim.connection_timeout:g} s"))
        msg = parse_message(body, lim.max_message_bytes)
        ip = request.client.host if request.client else None
        reply = Session(registry, address=ip).handle({**msg, "type": "create"})[0]
        if reply["type"] == "error":
            return JSONResponse(reply, status_code=HTTP_STATUS.get(reply["code"], 409))
        return JSONResponse(reply, status_code=201)

    async def api_table(request):
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
        session.on_dirty = wake.set

        async def writer():
            while True:
                await wake.wait()
                wake.clear()
                while outbox:
                    await websocket.send_text(encode(outbox.popleft()))
                try:
                    ups = session.updates()
                except Exception as e:  # noqa: BLE001 - a bug in one update must not end the connection
                    ups = [internal_error(e, " building updates").to_message()]
                for m in ups:
                    await websocket.send_text(encode(m))

        wtask = asyncio.get_running_loop().create_task(writer())
        try:
            while True:
                try:   # a connection that follows no table and says nothing for idle_timeout is closed
                    async with asyncio.timeout(None if session.subs else lim.idle_timeout):
                        msg = await websocket.receive()
                except TimeoutError:
                    await websocket.close(code=1000, reason="idle")
                    break
                if msg["type"] == "websocket.disconnect":
                    break
                data = msg.get("text")
                if data is None:
                    data = msg.get("bytes") or b""
                outbox.extend(session.handle(data))
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
    uvicorn.Server(config).run(sockets=[sock])
    return 0

