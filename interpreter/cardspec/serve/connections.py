"""Who may connect to the HTTP server, and for how long: uvicorn's configuration (``uvicorn_config``) with its limits
set from ``Limits``; uvicorn's h11 protocol with caps on connections per address and in all and a time limit on
a request's headers (``guarded_http_protocol``); a log filter that keeps a flood of connections from flooding the
log (``_RepeatFilter``); and the check of a WebSocket handshake's ``Origin`` (``origin_allowed``).
"""
from __future__ import annotations

import logging
import time

from .limits import Limits


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
