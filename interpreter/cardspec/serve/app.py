"""The ASGI app of ``cardspec serve --http`` (``create_app``, Starlette): its routes (the browser table, the HTTP
API, ``/ws``), the WebSocket endpoint (one ``Session`` per connection, capped per address, and a writer task that
pushes updates built off the event loop), the app's lifespan (warm-up, worker processes, the store's tables
restored, the reaper of idle tables), and the HTTP status of each error code (``HTTP_STATUS``).
"""
from __future__ import annotations

import asyncio
import contextlib
import functools
import sys
import threading
from collections import deque
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .bots import BotRunner
from .browser import BrowserGuard
from .connections import origin_allowed
from .follower import StoreFollower
from .games import ruleset_catalogue
from .limits import Limits
from .messages import ProtocolError, _validator, encode, internal_error, parse_message, schemas
from .registry import Registry
from .runner import EngineRunner
from .session import Session
from .workers import RemoteEngine, WorkerPool


WEB_DIR = Path(__file__).resolve().parent / "web"

#: HTTP status of each error code on the HTTP API.
HTTP_STATUS = {"json/malformed": 400, "message/invalid": 400, "message/unknown_type": 400,
               "message/too_large": 413, "table/not_found": 404, "table/limit": 503, "table/invalid": 400,
               "ruleset/unknown": 400, "ruleset/invalid": 400, "auth/bad_token": 403, "server/internal": 500,
               "table/over_budget": 503, "http/bad_host": 400, "http/content_type": 415, "http/cross_origin": 403}

MAX_OUTBOX = 1000


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


def _warm_up():
    ruleset_catalogue()
    for name in schemas():
        _validator(name)


def create_app(limits: Limits | None = None, allow_origins=(), store=None, hosts=None) -> Starlette:
    """The ASGI app with its own table registry (``app.state.registry``) and bot runner.

    ``allow_origins``: the Origins a browser page may open ``/ws`` from and send state-changing requests from
    (``origin_allowed``; default: the same host only). ``hosts``: the Host names the app answers to
    (``browser.allowed_hosts``; None: any, for a program embedding the app behind its own check —
    ``serve_http`` always passes the bound address's). Every response carries the page's safety headers
    and a state-changing request must be JSON from an allowed origin (``browser.BrowserGuard``). ``store``: a ``cardspec.serve.store.Store``; its open tables are replayed when the app
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
        # the worker processes (cardspec.serve.workers) start meanwhile: the first call that needs one waits for it
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
    guard = Middleware(BrowserGuard, hosts=hosts, allow_origins=allow_origins)
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[guard])
    app.state.registry = registry
    app.state.bots = runner
    app.state.engine = engine
    app.state.follower = follower
    app.state.workers = workers
    return app
