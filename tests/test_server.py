"""cardspec serve --http (issue 10): the protocol over a real WebSocket, the HTTP API, static files, limits.

A real uvicorn server runs in a thread on a free loopback port; clients are `websockets`
(sync) and urllib. Every server message is checked against its JSON Schema.
"""
from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

pytest.importorskip("uvicorn")
from websockets.sync.client import connect  # noqa: E402

from cardspec.serve.protocol import Limits, check_message  # noqa: E402
from cardspec.serve.server import create_app, parse_address, uvicorn_config  # noqa: E402


class Server:
    def __init__(self, allow_origins=(), **limits):
        import uvicorn
        self.app = create_app(Limits(**limits), allow_origins)
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

    @property
    def registry(self):
        return self.app.state.registry

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def http(self, method, path, body=None, raw=None):
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(self.url(path), data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def ws(self):
        return WS(connect(f"ws://127.0.0.1:{self.port}/ws", open_timeout=5))

    def stop(self):
        self.server.should_exit = True
        self.thread.join(10)


class WS:
    def __init__(self, cm):
        self.cm = cm
        self.conn = cm.__enter__()

    def send(self, msg):
        self.conn.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))

    def recv(self, timeout=10):
        m = json.loads(self.conn.recv(timeout=timeout))
        check_message(m, "server")
        return m

    def ask(self, msg):
        self.send(msg)
        return self.recv()

    def close(self):
        self.cm.__exit__(None, None, None)


@pytest.fixture
def server():
    s = Server()
    yield s
    s.stop()


def create(server, **body):
    body = {"ruleset": "hearts", "options": {"deals": 1}, "bots": [1, 2, 3], "bot_delay": 0, **body}
    status, data = server.http("POST", "/api/tables", body)
    return status, json.loads(data)


def test_http_api_create_list_and_errors(server):
    status, data = server.http("GET", "/api/rulesets")
    assert status == 200 and "hearts" in {r["name"] for r in json.loads(data)["rulesets"]}
    status, t = create(server, seed=3)
    assert status == 201 and check_message(t, "server") is None
    assert list(t["tokens"]) == ["0"]
    status, data = server.http("GET", "/api/tables")
    listing = json.loads(data)
    assert status == 200 and [x["table"] for x in listing["tables"]] == [t["table"]]
    assert t["tokens"]["0"] not in data.decode()                       # tokens are never listed
    status, data = server.http("GET", f"/api/tables/{t['table']}")
    assert status == 200 and json.loads(data)["ruleset"] == "hearts"
    status, data = server.http("GET", "/api/tables/nope")
    assert status == 404 and json.loads(data)["code"] == "table/not_found"
    status, data = server.http("POST", "/api/tables", raw=b"{oops")
    assert status == 400 and json.loads(data)["code"] == "json/malformed"
    status, data = server.http("POST", "/api/tables", raw=b"[]")
    assert status == 400 and json.loads(data)["code"] == "message/invalid"
    status, data = create(server, ruleset="nope")
    assert status == 400 and data["code"] == "ruleset/unknown"
    status, data = server.http("POST", "/api/tables", raw=b'{"ruleset": "' + b"x" * 70000 + b'"}')
    assert status == 413 and json.loads(data)["code"] == "message/too_large"


def test_table_limit_over_http():
    s = Server(max_tables=1)
    try:
        assert create(s)[0] == 201
        status, data = create(s)
        assert status == 503 and data["code"] == "table/limit"
    finally:
        s.stop()


def test_browser_files_are_served(server):
    status, html = server.http("GET", "/")
    assert status == 200 and b"/static/app.js" in html
    for f in ("app.js", "style.css"):
        status, _ = server.http("GET", "/static/" + f)
        assert status == 200


def test_a_whole_deal_over_websocket_with_a_spectator(server):
    """Seat 0 plays by token, bots play server-side, a spectator gets every public event and no hand."""
    _, t = create(server, seed=5)
    tid, tok = t["table"], t["tokens"]["0"]
    player, spectator = server.ws(), server.ws()
    assert spectator.ask({"type": "join", "table": tid})["seat"] is None
    assert player.ask({"type": "join", "table": tid, "token": tok, "id": 1}) ["id"] == 1
    rng = random.Random(2)
    mine = []
    while True:
        m = player.recv()
        if m["type"] != "update":
            assert m["type"] == "accepted", m
            continue
        mine.extend(m["events"])
        v = m["view"]
        assert all(v["zones"]["hand"][k] == {"count": len(x) if isinstance(x, list) else x["count"]}
                   or k == "0" for k, x in v["zones"]["hand"].items())
        if v["terminal"]:
            break
        if v.get("legal_actions"):
            player.send({"type": "act", "table": tid, "token": tok, "action": rng.choice(v["legal_actions"])})
    public = []
    while True:
        m = spectator.recv()
        assert m["type"] == "update"
        assert all(isinstance(h, dict) for h in m["view"]["zones"]["hand"].values())
        public.extend(m["events"])
        if m["view"]["terminal"]:
            break
    state = server.registry.get(tid).state
    assert mine == state.log(0) and public == state.log(None)
    assert public[-1]["type"] == "game_over"
    player.close()
    spectator.close()


def test_websocket_errors_keep_the_connection(server):
    _, t = create(server, bots=[])
    tid = t["table"]
    ws = server.ws()
    assert ws.ask("{nope")["code"] == "json/malformed"
    assert ws.ask({"type": "act", "table": tid, "token": "wrong", "action": "QS"})["code"] == "auth/bad_token"
    assert ws.ask({"type": "join", "table": "missing"})["code"] == "table/not_found"
    not_to_act = str((t["to_act"] + 1) % 4)
    r = ws.ask({"type": "act", "table": tid, "token": t["tokens"][not_to_act], "action": "pass QS"})
    assert r["code"] == "action/not_your_turn" and r["to_act"] == t["to_act"]
    r = ws.ask({"type": "act", "table": tid, "token": t["tokens"][str(t["to_act"])], "action": "bid 3"})
    assert r["code"] == "action/illegal" and r["legal"]
    assert ws.ask(json.dumps({"type": "hello", "pad": "x" * 70000}))["code"] == "message/too_large"
    assert ws.ask({"type": "hello"})["type"] == "welcome"
    ws.close()


def test_bot_delay_is_applied_server_side(server):
    _, t = create(server, bots=[0, 1, 2, 3], bot_delay=5)
    time.sleep(0.3)
    assert server.registry.get(t["table"]).version == 0          # the first bot waits 5 s
    _, t = create(server, bots=[0, 1, 2, 3], bot_delay=0)
    deadline = time.time() + 20
    while not server.registry.get(t["table"]).state.terminal and time.time() < deadline:
        time.sleep(0.05)
    assert server.registry.get(t["table"]).state.terminal


def test_idle_tables_close_and_joined_clients_are_told():
    """The registry's clock is the test's (CI saw a 0.3 s idle_timeout pass between the create and the join
    on a loaded machine: the table was gone before it was joined). Time moves only when the test says."""
    s = Server(idle_timeout=5.0)   # (a connection that follows no table is closed after 5 s of wall time)
    now = [time.monotonic()]
    s.registry.clock = lambda: now[0]
    try:
        _, t = create(s, bots=[])
        ws = s.ws()
        ws.ask({"type": "join", "table": t["table"]})
        assert ws.recv()["type"] == "update"
        now[0] += 4.0                  # not yet idle for 5 s: the reaper (every 1.25 s) leaves it
        with pytest.raises(TimeoutError):
            ws.recv(timeout=2.0)
        assert t["table"] in s.registry.tables
        now[0] += 2.0
        assert ws.recv(timeout=10) == {"type": "closed", "table": t["table"], "reason": "idle"}
        assert ws.ask({"type": "get_view", "table": t["table"]})["code"] == "table/not_found"
        ws.close()
    finally:
        s.stop()


def test_parse_address():
    assert parse_address("127.0.0.1:8000") == ("127.0.0.1", 8000)
    assert parse_address("[::1]:0") == ("::1", 0)
    for bad in ("8000", "host:", "host:port", "h:70000"):
        with pytest.raises(ValueError, match="HOST:PORT"):
            parse_address(bad)


def test_cli_serve_http_binds_and_serves():
    proc = subprocess.Popen([sys.executable, "-m", "cardspec.cli", "serve", "--http", "127.0.0.1:0", "--store", "none"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("cardspec: serving http://127.0.0.1:")
        url = line.split()[-1]
        with urllib.request.urlopen(url, timeout=10) as r:
            assert b"cardspec" in r.read()
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.parametrize("args, msg", [([], "choose one of"), (["--stdio", "--http", "1.2.3.4:5"], "choose one of"),
                                       (["--http", "nowhere"], "HOST:PORT")])
def test_cli_serve_bad_usage(args, msg):
    r = subprocess.run([sys.executable, "-m", "cardspec.cli", "serve", *args], capture_output=True, text=True,
                       timeout=30)
    assert r.returncode == 2 and msg in r.stderr and "Traceback" not in r.stderr


# ---- issue 16, Found 4: client input that broke the server ----------------------------------------
def test_hostile_input_over_http_gets_coded_json_errors(server, capfd):
    """issue 16 Found 4: `players: 4.0` was a 500, a lone surrogate a plain-text 500, deep nesting a traceback."""
    cases = [(b'{"ruleset": "hearts", "players": 4.0}', 400, "message/invalid"),
             (b'{"ruleset": "hearts", "options": {"deals": Infinity}}', 400, "json/malformed"),
             (b'{"ruleset": "\\ud800"}', 400, "json/malformed"),
             (b"[" * 5000, 400, "json/malformed"),
             (b'{"ruleset": "hearts", "options": {"deals": 2.5}}', 400, "ruleset/invalid")]
    for raw, status, code in cases:
        got, data = server.http("POST", "/api/tables", raw=raw)
        assert (got, json.loads(data)["code"]) == (status, code), raw[:40]
    assert server.registry.tables == {}
    assert create(server)[0] == 201
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Exception in ASGI" not in err


def test_hostile_input_over_websocket_is_answered_and_the_connection_kept(server, capfd):
    """issue 16 Found 4: a lone surrogate got no reply over WebSocket (the writer died)."""
    ws = server.ws()
    for text in ('{"type": "hello", "id": "\\ud800"}', "[" * 5000, '{"type": "create", "ruleset": "hearts", '
                 '"players": 4.0}', '{"type": "create", "ruleset": "hearts", "options": {"deals": NaN}}'):
        r = ws.ask(text)
        assert r["type"] == "error" and r["code"] in ("json/malformed", "message/invalid"), text[:30]
    assert ws.ask({"type": "hello"})["type"] == "welcome"
    ws.close()
    assert "Traceback" not in capfd.readouterr().err


def test_get_table_shows_a_seed_commitment_not_the_seed(server):
    """issue 16 Found 6: `GET /api/tables/ID` showed the creator's seed to anyone."""
    _, t = create(server, seed=12345, bots=[])
    for path in (f"/api/tables/{t['table']}", "/api/tables"):
        status, data = server.http("GET", path)
        assert status == 200 and b"12345" not in data and b'"seed"' not in data and b"seed_sha256" in data


def test_websocket_from_a_foreign_origin_is_refused(server):
    """issue 16 Found 6: WebSocket connections from any Origin were accepted (a page on another site could
    play with a visitor's browser). Default: the same host only; programs without an Origin are welcome."""
    from websockets.exceptions import InvalidStatus
    url = f"ws://127.0.0.1:{server.port}/ws"
    for origin in ("http://evil.example", f"http://localhost:{server.port}", "null",
                   f"http://127.0.0.1:{server.port}.evil"):
        with pytest.raises(InvalidStatus) as e:
            connect(url, origin=origin, open_timeout=5)
        assert e.value.response.status_code == 403
    with connect(url, origin=f"http://127.0.0.1:{server.port}", open_timeout=5) as ws:
        ws.send('{"type": "hello"}')
        assert json.loads(ws.recv(timeout=5))["type"] == "welcome"


def test_allow_origin_list():
    from cardspec.serve.server import origin_allowed
    assert origin_allowed(None, "h:1") and origin_allowed("http://h:1", "h:1") and not origin_allowed("http://x", "h:1")
    assert origin_allowed("https://cards.example.org", "h:1", ("https://cards.example.org/",))
    assert not origin_allowed("http://h:1", "h:1", ("https://cards.example.org",))
    assert origin_allowed("http://anything", "h:1", ("*",))


# ---- issue 16, Found 5: connections -------------------------------------------------------------------
def _closed_within(sock, seconds) -> bool:
    """True when the server closes ``sock`` within ``seconds`` (EOF or reset)."""
    sock.settimeout(seconds)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def test_half_open_connections_are_closed():
    """issue 16 Found 5: 1,100 half-open requests made the server unreachable. A connection that sends
    nothing, or half a request, is closed after connection_timeout."""
    s = Server(connection_timeout=1)
    try:
        silent = socket.create_connection(("127.0.0.1", s.port))
        half = socket.create_connection(("127.0.0.1", s.port))
        half.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n")
        assert _closed_within(silent, 15) and _closed_within(half, 15)
        assert s.http("GET", "/api/tables")[0] == 200
    finally:
        s.stop()


def test_connections_per_address_are_capped(capfd):
    s = Server(max_connections_per_address=3, connection_timeout=60)
    try:
        held = [socket.create_connection(("127.0.0.1", s.port)) for _ in range(3)]
        time.sleep(0.2)
        extra = [socket.create_connection(("127.0.0.1", s.port)) for _ in range(50)]
        assert all(_closed_within(x, 5) for x in extra)           # closed at once, not after 60 s
        assert not _closed_within(held[0], 0.2)
        for x in held + extra:
            x.close()
        deadline = time.time() + 10
        while time.time() < deadline:   # the held connections are released when they close
            try:
                if s.http("GET", "/api/tables")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        assert s.http("GET", "/api/tables")[0] == 200
        err = capfd.readouterr().err
        assert err.count("\n") < 5, err
    finally:
        s.stop()


def test_websockets_per_address_are_capped_and_idle_ones_closed():
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    s = Server(max_connections_per_address=2, idle_timeout=3.0)   # (long enough that a loaded machine opens the third before a closes)
    try:
        a, b = s.ws(), s.ws()
        with pytest.raises(InvalidStatus):
            s.ws()
        with pytest.raises(ConnectionClosed):     # joined nothing, said nothing: closed when idle
            a.conn.recv(timeout=10)
        b.close()
    finally:
        s.stop()


def test_repeated_log_lines_are_held_back():
    """issue 16 Found 5: under a descriptor limit the accept loop wrote ~1 M traceback lines."""
    import logging
    from cardspec.serve.server import _RepeatFilter
    f = _RepeatFilter(period=60)
    recs = [logging.LogRecord("asyncio", logging.ERROR, "x", 1, "socket.accept() out of system resource", (),
                              (OSError, OSError(24, "Too many open files"), None)) for _ in range(1000)]
    passed = [r for r in recs if f.filter(r)]
    assert len(passed) == 1 and passed[0].exc_info is None
