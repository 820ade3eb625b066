"""Browser-origin safety of ``cardspec serve --http`` (issue 36; docs/protocol.md, "Browser safety"): an ASGI
middleware (``BrowserGuard``) in front of the app that

- checks the ``Host`` header of every HTTP request and WebSocket handshake against the names the server
  answers to (``allowed_hosts``: the bound address, its loopback or machine names, ``--allow-host``), so a
  page on another site whose DNS name was re-pointed at this server (DNS rebinding) gets ``http/bad_host``
  (HTTP 400; a WebSocket is refused before it opens, HTTP 403);
- refuses a state-changing request (any method but GET, HEAD, OPTIONS) whose body is not declared JSON
  (``http/content_type``, 415: a cross-site HTML form or ``fetch`` without a preflight can only send
  ``text/plain``, form or multipart bodies) or that a browser sent from another origin (``http/cross_origin``,
  403: its ``Origin`` is not this host nor an ``--allow-origin``, or ``Sec-Fetch-Site: cross-site``);
- adds to every HTTP response ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``, and
  to the page ``Content-Security-Policy`` (scripts, styles and connections from this server only,
  ``frame-ancestors 'none'``) with ``X-Frame-Options: DENY`` for older browsers.

Programs (no ``Origin`` header) keep working: only what a browser sends on a page's behalf is refused.
"""
from __future__ import annotations

import ipaddress
import json
import socket

from .connections import origin_allowed

#: The page's Content-Security-Policy: everything from this server only, no framing, no plugins.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

#: Headers on every HTTP response.
COMMON_HEADERS = ((b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"))

#: Headers on the HTML page (and on every other response too: they cost nothing on JSON).
PAGE_HEADERS = ((b"content-security-policy", CSP.encode()), (b"x-frame-options", b"DENY"))

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")

_WILDCARD = ("0.0.0.0", "::", "")
_LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def host_name(header: str | None) -> str | None:
    """The host name of a ``Host`` header (``example.org:8000`` → ``example.org``, ``[::1]:80`` → ``::1``),
    lower case without a trailing dot; None when there is none or it is malformed."""
    if not header:
        return None
    h = header.strip().lower()
    if h.startswith("["):
        end = h.find("]")
        if end < 0 or (h[end + 1:] and not (h[end + 1] == ":" and h[end + 2:].isdigit())):
            return None
        return h[1:end]
    name, sep, port = h.rpartition(":")
    if sep and port.isdigit() and ":" not in name:
        h = name
    elif ":" in h:
        return None
    return h.rstrip(".") or None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


def allowed_hosts(bound: str, extra=()) -> frozenset | None:
    """The host names the server answers to, or None for any (``--allow-host '*'``).

    ``bound``: the host of the bound address (``127.0.0.1``, ``::``, ``cards.example.org``). A loopback
    address adds the loopback names (``localhost``, ``127.0.0.1``, ``::1``); a wildcard (``0.0.0.0``, ``::``)
    adds those, the machine's names (``socket.gethostname``, ``getfqdn``) and any IP literal (``_IP``: an
    address is never a rebound DNS name); ``extra`` (``--allow-host``) adds names, e.g. a reverse proxy's."""
    extra = tuple(str(e).strip().lower().rstrip(".") for e in extra or ())
    if "*" in extra:
        return None
    names = set(extra)
    b = (bound or "").strip("[]").lower()
    names.add(b)
    loopback = b == "localhost" or (_is_ip(b) and ipaddress.ip_address(b).is_loopback)
    if loopback or b in _WILDCARD:
        names.update(_LOOPBACK_NAMES)
    if b in _WILDCARD:
        names.add(_IP)
        for fn in (socket.gethostname, socket.getfqdn):
            try:
                names.add(fn().lower())
            except OSError:   # pragma: no cover - a host without a name
                pass
    names.discard("")
    return frozenset(names)


#: Stands in ``allowed_hosts`` for "any IP literal".
_IP = "<ip>"


def host_allowed(header: str | None, hosts: frozenset | None) -> bool:
    """Whether a request's ``Host`` header names this server (``allowed_hosts``; None: any)."""
    if hosts is None:
        return True
    name = host_name(header)
    if name is None:
        return False
    return name in hosts or (_IP in hosts and _is_ip(name))


def _headers(scope) -> dict:
    out = {}
    for k, v in scope.get("headers") or ():
        out.setdefault(k.decode("latin-1").lower(), v.decode("latin-1"))
    return out


def _json_type(value: str | None) -> bool:
    if not value:
        return False
    main = value.split(";", 1)[0].strip().lower()
    return main == "application/json" or (main.startswith("application/") and main.endswith("+json"))


class BrowserGuard:
    """The ASGI middleware of the module docstring around ``app``.

    ``hosts``: ``allowed_hosts(...)``, or None to check no Host (an app embedded by a program that checks it
    itself; ``serve_http`` always passes the bound address's). ``allow_origins``: as ``origin_allowed``.
    """

    def __init__(self, app, hosts: frozenset | None = None, allow_origins=()):
        self.app, self.hosts, self.allow_origins = app, hosts, tuple(allow_origins or ())

    async def __call__(self, scope, receive, send):
        kind = scope.get("type")
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = _headers(scope)
        if not host_allowed(headers.get("host"), self.hosts):
            if kind == "websocket":
                return await send({"type": "websocket.close", "code": 1008, "reason": "host not allowed"})
            return await _refuse(send, 400, "http/bad_host",
                                 "this server does not answer to that Host name (start it with --allow-host NAME)")
        if kind == "websocket":
            return await self.app(scope, receive, send)
        if scope.get("method", "GET").upper() not in SAFE_METHODS:
            if not _json_type(headers.get("content-type")):
                return await _refuse(send, 415, "http/content_type", "a request that changes state sends "
                                     "Content-Type: application/json")
            origin = headers.get("origin")
            if headers.get("sec-fetch-site", "").lower() == "cross-site" and origin is None:
                origin = "null"
            if origin is not None and not origin_allowed(origin, headers.get("host"), self.allow_origins):
                return await _refuse(send, 403, "http/cross_origin", "a page of another origin may not change "
                                     "state here (start the server with --allow-origin URL to allow it)")

        page = list(PAGE_HEADERS)
        if self.hosts is not None:   # a checked Host (a name or address and digits): its WebSocket URLs by name,
            host = headers["host"].strip()   # for browsers whose 'self' does not cover ws:/wss:
            page[0] = (b"content-security-policy", CSP.replace(
                "connect-src 'self'", f"connect-src 'self' ws://{host} wss://{host}").encode("latin-1"))

        async def send_with_headers(message):
            if message.get("type") == "http.response.start":
                message = {**message, "headers": list(message.get("headers") or []) + list(COMMON_HEADERS) + page}
            await send(message)
        return await self.app(scope, receive, send_with_headers)


async def _refuse(send, status: int, code: str, message: str):
    body = json.dumps({"type": "error", "code": code, "message": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
                + list(COMMON_HEADERS)})
    await send({"type": "http.response.body", "body": body})
