"""Browser-origin safety, secrets at rest, store errors and a quiet shutdown (issue 36 items 3, 4, 5, 7;
docs/protocol.md, "Browser safety" and "What the store keeps").

Measured before: a WebSocket upgrade with ``Host: evil.example`` and a matching Origin got 101 (DNS
rebinding: a remote page could create tables and spectate); a cross-origin ``text/plain`` ``POST /api/tables``
returned 201; the page had no CSP or frame headers; the SQLite store was created 0644 with every open table's
seed and salt; a seed with a NUL got ``store/error`` quoting PostgreSQL's user, host, port and driver text
(SQLite took it); workers printed BrokenPipeError tracebacks when the server stopped; ``serve --stdio``
created ``cardspec-tables.db`` in the working folder.

Real uvicorn on loopback as tests/test_server.py does; the stores on SQLite and on the real PostgreSQL at
127.0.0.1:5432 (tests/_stores.py).
"""
from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("uvicorn")

from _stores import pg_url, store_url  # noqa: F401,E402  (fixtures)
from cardspec.serve.browser import allowed_hosts, host_allowed, host_name  # noqa: E402
from cardspec.serve.protocol import Limits, ProtocolError, Registry  # noqa: E402
from cardspec.serve.server import create_app, uvicorn_config  # noqa: E402
from cardspec.serve.store import MAX_SEED_CHARS, StoreError, TableRecord, open_store, ruleset_hash  # noqa: E402


class Server:
    """A real uvicorn server in a thread on a free loopback port; ``hosts`` as ``serve_http`` passes them."""

    def __init__(self, hosts=None, allow_origins=()):
        import uvicorn
        self.app = create_app(Limits(), allow_origins, hosts=hosts)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn_config(self.app, self.app.state.registry.limits))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        deadline = time.time() + 10
        while not self.server.started and time.time() < deadline:
            time.sleep(0.01)
        assert self.server.started

    def request(self, method, path, host=None, body=None, headers=None):
        """``(status, headers as a dict of lower-case names, body)`` of one raw HTTP/1.1 request."""
        return raw_request(self.port, method, path, host or f"127.0.0.1:{self.port}", body, headers)

    def stop(self):
        self.server.should_exit = True
        self.thread.join(10)


def raw_request(port, method, path, host, body=None, headers=None):
    data = body if isinstance(body, bytes) else (body or "").encode()
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: close", f"Content-Length: {len(data)}"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
        raw = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            raw += chunk
    head, _, payload = raw.partition(b"\r\n\r\n")
    first, *rest = head.decode("latin-1").split("\r\n")
    got = {}
    for line in rest:
        k, _, v = line.partition(":")
        got[k.strip().lower()] = v.strip()
    return int(first.split()[1]), got, payload


def ws_handshake(port, host, origin=None) -> int:
    """The status of a WebSocket upgrade of /ws with this Host (and Origin)."""
    headers = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
    if origin:
        headers["Origin"] = origin
    lines = [f"GET /ws HTTP/1.1", f"Host: {host}"] + [f"{k}: {v}" for k, v in headers.items()]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        return int(s.recv(4096).split(b"\r\n", 1)[0].split()[1])


@pytest.fixture
def guarded():
    s = Server(hosts=allowed_hosts("127.0.0.1"))
    yield s
    s.stop()


CREATE = json.dumps({"ruleset": "hearts", "options": {"deals": 1}, "bots": [1, 2, 3], "bot_delay": 0})
JSON = {"Content-Type": "application/json"}


# ---- Host (issue 36 item 3: DNS rebinding) ---------------------------------------------------------------
def test_a_websocket_upgrade_naming_another_host_is_refused(guarded):
    """The measured shape: Host evil.example with the matching Origin got 101. Now 403 before the socket
    opens; the bound address, its loopback names and a page of the same host still connect."""
    p = guarded.port
    assert ws_handshake(p, f"evil.example:{p}", f"http://evil.example:{p}") == 403
    assert ws_handshake(p, "evil.example") == 403
    assert ws_handshake(p, f"127.0.0.1:{p}", f"http://127.0.0.1:{p}") == 101
    assert ws_handshake(p, f"localhost:{p}", f"http://localhost:{p}") == 101
    assert guarded.app.state.registry.tables == {}


def test_http_naming_another_host_is_refused(guarded):
    for method, path, body in (("GET", "/", None), ("GET", "/api/tables", None), ("POST", "/api/tables", CREATE)):
        status, _h, data = guarded.request(method, path, host="evil.example", body=body, headers=JSON)
        assert status == 400 and json.loads(data)["code"] == "http/bad_host", path
    assert guarded.app.state.registry.tables == {}
    status, _h, data = guarded.request("GET", "/api/rulesets")
    assert status == 200 and b"hearts" in data


def test_allowed_hosts_from_the_bound_address_and_allow_host():
    """The names a server answers to: the bound address (a loopback one: its loopback names too; a wildcard:
    the machine's names and any IP literal), plus --allow-host; '*' checks nothing."""
    lo = allowed_hosts("127.0.0.1")
    assert host_allowed("127.0.0.1:8000", lo) and host_allowed("localhost", lo) and host_allowed("[::1]:8000", lo)
    assert not host_allowed("evil.example:8000", lo) and not host_allowed("127.0.0.1.evil.example", lo)
    assert not host_allowed("10.1.2.3:8000", lo) and not host_allowed(None, lo) and not host_allowed("", lo)
    wild = allowed_hosts("0.0.0.0")
    assert host_allowed("10.1.2.3:8000", wild) and host_allowed("[fe80::1]:80", wild)
    assert host_allowed(f"{socket.gethostname()}:8000", wild) and not host_allowed("evil.example", wild)
    named = allowed_hosts("10.0.0.5", ["cards.example.org"])
    assert host_allowed("Cards.Example.org.:443", named) and host_allowed("10.0.0.5", named)
    assert not host_allowed("localhost", named)
    assert allowed_hosts("127.0.0.1", ["*"]) is None and host_allowed("anything", None)
    assert host_name("[::1]:80") == "::1" and host_name("a:b:c") is None and host_name("[::1]x") is None


def test_cli_serve_checks_the_host_and_allow_host_adds_one(tmp_path):
    """`cardspec serve --http` passes the bound address; --allow-host adds a name (a reverse proxy's)."""
    proc = subprocess.Popen([sys.executable, "-m", "cardspec.cli", "serve", "--http", "127.0.0.1:0", "--store",
                             "none", "--allow-host", "cards.example.org"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        port = int(proc.stdout.readline().strip().rstrip("/").rsplit(":", 1)[1])
        assert raw_request(port, "GET", "/", "evil.example")[0] == 400
        assert raw_request(port, "GET", "/", "cards.example.org")[0] == 200
        assert raw_request(port, "GET", "/", f"localhost:{port}")[0] == 200
    finally:
        proc.terminate()
        proc.wait(10)


# ---- request forgery (issue 36 item 3) ------------------------------------------------------------------
@pytest.mark.parametrize("headers, status, code", [
    ({"Content-Type": "text/plain"}, 415, "http/content_type"),                       # the measured 201
    ({}, 415, "http/content_type"),
    ({"Content-Type": "application/x-www-form-urlencoded"}, 415, "http/content_type"),
    ({"Content-Type": "application/json", "Origin": "http://evil.example"}, 403, "http/cross_origin"),
    ({"Content-Type": "application/json", "Origin": "null"}, 403, "http/cross_origin"),
    ({"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403, "http/cross_origin"),
])
def test_a_state_change_must_be_json_from_this_origin(guarded, headers, status, code):
    got, _h, data = guarded.request("POST", "/api/tables", body=CREATE, headers=headers)
    assert (got, json.loads(data)["code"]) == (status, code)
    assert guarded.app.state.registry.tables == {}


@pytest.mark.parametrize("extra", [{}, {"Origin": "same"}, {"Sec-Fetch-Site": "same-origin", "Origin": "same"}])
def test_the_page_and_programs_still_create_tables(guarded, extra):
    """The browser page posts JSON from its own origin; a program sends no Origin: both get 201."""
    headers = {**JSON, **{k: (f"http://127.0.0.1:{guarded.port}" if v == "same" else v) for k, v in extra.items()}}
    got, _h, data = guarded.request("POST", "/api/tables", body=CREATE, headers=headers)
    assert got == 201 and json.loads(data)["type"] == "created"
    got, _h, _d = guarded.request("POST", "/api/tables", body=CREATE,
                                  headers={"Content-Type": "application/json; charset=utf-8"})
    assert got == 201


# ---- headers on the page (issue 36 item 3) --------------------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/static/app.js", "/api/rulesets"])
def test_the_page_is_served_with_csp_frame_and_nosniff_headers(guarded, path):
    status, h, _ = guarded.request("GET", path)
    assert status == 200
    csp = {d.strip().split(" ", 1)[0]: d.strip() for d in h["content-security-policy"].split(";")}
    assert csp["frame-ancestors"] == "frame-ancestors 'none'" and csp["script-src"] == "script-src 'self'"
    assert csp["default-src"] == "default-src 'self'" and "'unsafe-inline'" not in h["content-security-policy"]
    assert h["x-content-type-options"] == "nosniff" and h["x-frame-options"] == "DENY"
    assert csp["connect-src"] == f"connect-src 'self' ws://127.0.0.1:{guarded.port} wss://127.0.0.1:{guarded.port}"


def test_the_page_needs_nothing_the_policy_forbids():
    """The CSP allows scripts and styles from the server only: the page has no inline script, style or event
    handler attribute (each would be blocked)."""
    from cardspec.serve.app import WEB_DIR
    html = (WEB_DIR / "index.html").read_text()
    import re
    assert not re.search(r"<script(?![^>]*\bsrc=)", html) and "<style" not in html
    assert not re.search(r"\s(on[a-z]+|style)\s*=", html)


# ---- secrets at rest (issue 36 item 4) ------------------------------------------------------------------
def _mode(p) -> int:
    return stat.S_IMODE(os.stat(p).st_mode)


def _rec(tid="t1", seed="123"):
    return TableRecord(id=tid, ruleset="hearts", ruleset_hash=ruleset_hash("x"), options={}, players=4, seed=seed,
                       token_hashes={}, bots={}, version="0", meta={"seed_salt": "s"})


def test_the_sqlite_store_and_its_wal_are_the_owners_only(tmp_path):
    """Measured: cardspec-tables.db and its -wal were 0644 (any local user recomputes every hand). Created
    0600 whatever the umask; a file left 0644 by an older release is narrowed when the store opens."""
    old = os.umask(0o022)
    try:
        s = open_store(f"sqlite:///{tmp_path}/t.db")
        s.create(_rec())
        s.append("t1", 0, 0, "2C")
        files = [p for p in tmp_path.iterdir()]
        assert {p.name for p in files} >= {"t.db", "t.db-wal"}
        assert {p.name: _mode(p) for p in files} == {p.name: 0o600 for p in files}
        s.shutdown()
        for p in tmp_path.iterdir():
            os.chmod(p, 0o644)
        open_store(f"sqlite:///{tmp_path}/t.db").shutdown()
        assert {p.name: _mode(p) for p in tmp_path.iterdir()} == {p.name: 0o600 for p in tmp_path.iterdir()}
    finally:
        os.umask(old)


def test_a_folder_others_may_write_to_is_refused(tmp_path):
    """Another user who may write the folder may swap the file: refused, unless the sticky bit keeps them
    to their own files (as in /tmp)."""
    d = tmp_path / "shared"
    d.mkdir()
    os.chmod(d, 0o777)
    with pytest.raises(StoreError, match="may be written by other users"):
        open_store(f"sqlite:///{d}/t.db")
    assert not (d / "t.db").exists()
    os.chmod(d, 0o1777)
    open_store(f"sqlite:///{d}/t.db").shutdown()
    assert _mode(d / "t.db") == 0o600


@pytest.mark.parametrize("seed, why", [("a\x00b", "control characters"), ("line\nbreak", "control characters"),
                                       ("x" * (MAX_SEED_CHARS + 1), "at most"), (10 ** MAX_SEED_CHARS, "at most")])
def test_seeds_are_checked_the_same_way_for_every_store(store_url, seed, why):
    """Measured: a NUL in a seed got store/error with PostgreSQL's text, and SQLite stored it. Every store
    refuses it before the database sees it, with the same words."""
    s = open_store(store_url)
    with pytest.raises(StoreError, match=why) as e:
        s.create(_rec(seed=seed))
    assert "postgres" not in str(e.value).lower() and "sqlite" not in str(e.value).lower()
    assert s.stats()["tables"] == 0
    s.create(_rec(seed="x" * MAX_SEED_CHARS))   # the bound itself is fine
    s.create(_rec("t2", seed=str(-(10 ** (MAX_SEED_CHARS - 2)))))


@pytest.mark.parametrize("seed", ["a\x00b", "x" * (MAX_SEED_CHARS + 1), "\x7f"])
@pytest.mark.parametrize("with_store", [False, True])
def test_a_bad_seed_is_table_invalid_with_or_without_a_store(store_url, seed, with_store):
    reg = Registry(store=open_store(store_url) if with_store else None)
    with pytest.raises(ProtocolError) as e:
        reg.create({"type": "create", "ruleset": "hearts", "players": 4, "seed": seed})
    assert e.value.code == "table/invalid" and e.value.message.startswith("seed: ")
    assert reg.tables == {}


# ---- store errors (issue 36 item 5) ---------------------------------------------------------------------
def _break(url):
    """Make the store's next write fail inside the database (its actions table is gone)."""
    if url.startswith("sqlite"):
        import sqlite3
        c = sqlite3.connect(url[len("sqlite:///"):])
        c.execute("DROP TABLE cardspec_actions")
        c.commit()
        c.close()
    else:
        import psycopg
        with psycopg.connect(url, autocommit=True) as c:
            c.execute("DROP TABLE cardspec_actions")


def test_a_store_error_reaches_the_client_as_a_code_and_the_log_in_full(store_url, capfd):
    """The client gets store/error with a generic sentence and a reference; the server's log has the full
    text under that reference (the database's error, the store's URL) — nothing of the user, host, port,
    database or driver reaches the client."""
    reg = Registry(store=open_store(store_url))
    t = reg.create({"type": "create", "ruleset": "hearts", "players": 4, "options": {"deals": 1}, "seed": 5})
    _break(store_url)
    capfd.readouterr()
    seat = t.state.to_act
    with pytest.raises(ProtocolError) as e:
        t.act(seat, t.state.legal_actions()[0], 0.0)
    assert e.value.code == "store/error"
    msg = e.value.message
    for secret in ("postgres", "127.0.0.1", "5432", "test", "psycopg", "sqlite", "UndefinedTable",
                   "OperationalError", "cardspec_actions", "tables.db", "search_path"):
        assert secret.lower() not in msg.lower(), (secret, msg)
    ref = msg.split("reference ")[1].split(";")[0]
    log = capfd.readouterr().err
    line = next(x for x in log.splitlines() if f"store error {ref}:" in x)
    assert "cardspec_actions" in line and ("postgresql://" in line or "sqlite:///" in line)
    assert t.applied == []


# ---- a quiet shutdown (issue 36 item 7) -----------------------------------------------------------------
def test_a_worker_whose_server_went_away_leaves_without_a_traceback(capfd):
    """Measured: a server stopped while its workers started printed "Process cardspec-worker: Traceback …
    BrokenPipeError" (the worker's "ready" went to a closed pipe). The worker now ends quietly."""
    import multiprocessing as mp
    from cardspec.serve.replicas import _worker_main
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=_worker_main, args=(child, None), daemon=True)
    parent.close()          # the server is gone before the worker says it is ready
    proc.start()
    child.close()
    proc.join(60)
    err = capfd.readouterr().err
    assert proc.exitcode == 0 and "Traceback" not in err and "BrokenPipeError" not in err, err


def test_serve_stdio_keeps_no_store_unless_one_is_named(tmp_path):
    """Issue 35 item 9 / issue 36 item 7: `serve --stdio` created cardspec-tables.db in the working folder
    and restored those tables (counting against --max-tables) in every later session. Now a session over
    stdio keeps its tables only in a store it names."""
    msg = json.dumps({"type": "create", "ruleset": "hearts", "players": 4, "seed": 1}) + "\n"
    r = subprocess.run([sys.executable, "-m", "cardspec.cli", "serve", "--stdio"], input=msg, capture_output=True,
                       text=True, cwd=tmp_path, timeout=120)
    assert r.returncode == 0 and json.loads(r.stdout.splitlines()[0])["type"] == "created", r.stderr
    assert list(tmp_path.iterdir()) == [] and "kept in" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "cardspec.cli", "serve", "--stdio", "--store", "sqlite:///named.db"],
                       input=msg, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert r.returncode == 0 and (tmp_path / "named.db").exists() and _mode(tmp_path / "named.db") == 0o600
