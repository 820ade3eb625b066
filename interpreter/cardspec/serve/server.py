"""``cardspec serve --http``: the table protocol over WebSocket, a small HTTP API and the browser table.

An ASGI app (Starlette) served by uvicorn:

- ``GET /`` — the browser table (``cardspec/web/``: plain HTML, CSS and JS), ``/static/…`` its files;
- ``WS /ws`` — the protocol of ``cardspec.serve.protocol``: one JSON message per WebSocket text frame;
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
from those threads in worker processes (``cardspec.serve.workers``), each call within the CPU budget and
a memory bound (``max_call_memory``), so no client can freeze the others by holding this process's
GIL. Bots play server-side, one move per ``bot_delay`` seconds per table.
Tables idle for
``idle_timeout`` seconds are closed by a reaper task. Messages over ``max_message_bytes`` get a
``message/too_large`` error; frames over 16× that close the connection (WebSocket code 1009).

This module is the server's face and its entry point (``serve_http``); each part lives in a module of its own
and every name is re-exported here (``from cardspec.serve.server import create_app`` works as it always did):

- ``app`` — ``create_app``: the routes, the WebSocket endpoint, the lifespan, ``HTTP_STATUS``;
- ``runner`` — ``EngineRunner``: the engine's work in threads, one call per table, fair shares, CPU budgets;
- ``bots`` — ``BotRunner``: the bots of every table, one move per ``bot_delay``;
- ``follower`` — ``StoreFollower``: other server processes' changes to a shared store;
- ``connections`` — ``uvicorn_config``, the caps on connections per address, ``origin_allowed``;
- ``browser`` — ``BrowserGuard``: the Host check, JSON-only same-origin state changes, the page's safety headers.
"""
from __future__ import annotations

import socket
import sys

from .app import HTTP_STATUS, MAX_OUTBOX, WEB_DIR, create_app
from .bots import BotRunner
from .browser import BrowserGuard, allowed_hosts
from .connections import _RepeatFilter, guarded_http_protocol, origin_allowed, uvicorn_config
from .follower import StoreFollower
from .limits import Limits
from .runner import EngineRunner, OverBudget

__all__ = ["HTTP_STATUS", "MAX_OUTBOX", "WEB_DIR", "BotRunner", "BrowserGuard", "allowed_hosts", "EngineRunner", "OverBudget", "StoreFollower",
           "create_app", "guarded_http_protocol", "origin_allowed", "parse_address", "serve_http", "uvicorn_config",
           "_RepeatFilter"]


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8000`` for IPv6) → (host, port). Raises ``ValueError`` with a hint."""
    host, sep, port = str(text).rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"'{text}' is not HOST:PORT (e.g. 127.0.0.1:8000; port 0 picks a free port)")
    return host.strip("[]"), int(port)


def serve_http(address: str, limits: Limits | None = None, log_level: str = "warning", out=None,
               allow_origins=(), store=None, allow_hosts=()) -> int:
    """Serve the app on ``address`` (``HOST:PORT``) until interrupted (``uvicorn_config``; WebSockets and
    state changes from the ``allow_origins`` pages, default the same host: ``origin_allowed``; requests whose
    ``Host`` names the bound address or one of ``allow_hosts``, ``'*'`` any: ``browser.allowed_hosts``).

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
    app = create_app(limits, allow_origins, store, hosts=allowed_hosts(host, allow_hosts))
    config = uvicorn_config(app, limits, log_level)
    # The event loop shares the GIL with the engine's threads: take it back within 1 ms (not 5), and keep
    # the cyclic collector's full passes (100-150 ms over the millions of objects of a 464 k-action listing,
    # with the GIL held) rare: the code and data loaded so far are frozen out of them.
    sys.setswitchinterval(0.001)
    gc.freeze()
    gc.set_threshold(700, 10, 1000)
    uvicorn.Server(config).run(sockets=[sock])
    return 0
