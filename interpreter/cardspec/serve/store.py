"""An event-sourced store for the server's tables: SQLite (standard library) or PostgreSQL (psycopg 3).

A table is fully determined by its ruleset (name and content hash), options, players, seed and
the actions applied, so that is exactly what is stored: one ``tables`` row per table and one
append-only ``actions`` row per applied action, written (and committed) before the action is
acknowledged. On start a server replays every open table (``Store.open_tables``).

Integrity: every action row carries a chained digest ``d[n] = sha256(d[n-1] | n | seat | text)``
whose start ``d[-1]`` hashes the table's identity (id, ruleset hash, seed, players, options). A row
changed, lost or truncated by anything but this module breaks the chain, and ``open_tables``
reports the table as ``damaged`` (with the first bad action number) instead of replaying a
different game. The seat tokens are never stored, only their SHA-256.

URLs (``open_store``):
    ``sqlite:///relative/path.db``, ``sqlite:////absolute/path.db``, ``sqlite://:memory:``
    ``postgresql://user@host:port/db`` (``pip install 'cardspec[postgres]'``)

Secrets at rest (issue 36; docs/protocol.md, "What the store keeps"): a table's seed and its commitment's salt
are what it takes to replay it, and so what lets anyone who reads the store recompute every hand. A SQLite
file (and its ``-wal``/``-shm``) is created mode 0600, an existing one readable by others is narrowed to
0600, and a folder that another user may write to (group/other writable without the sticky bit) is refused.
A seed is checked the same way for every back end before it reaches a database (``seed_problem``: no NUL or
other control character, at most ``MAX_SEED_CHARS``). A database's own error text (user, host, port,
driver) is never sent to a client: ``StoreError.public`` is a code and a generic sentence with a reference,
and the full text goes to the server's log (``report``).

Both back ends share one schema (``SCHEMA``) and one code path; several server processes may share
a PostgreSQL store (``Store.shared``): an action is numbered, and the primary key ``(table_id, n)``
makes a second writer of the same number fail with ``StoreConflict`` instead of forking the table
(the loser reads the rows it missed, ``Store.since``, and tries again on the new state). Every append
and close is announced on the store's channel (``NOTIFY``, sent on commit; ``channel_for``) so the other
processes push it to their clients (``PostgresStore.listen``); ``Store.claim`` (an advisory lock) picks
the one process that moves a table's bots.
"""
from __future__ import annotations

import hashlib
import json
import os
import queue
import sqlite3
import struct
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field

from ..errors import CardspecError

#: The tables both back ends create (portable SQL: TEXT/INTEGER/BIGINT only).
SCHEMA = (
    """CREATE TABLE IF NOT EXISTS cardspec_tables (
        id TEXT PRIMARY KEY,
        ruleset TEXT NOT NULL,
        ruleset_hash TEXT NOT NULL,
        options TEXT NOT NULL,
        players INTEGER NOT NULL,
        seed TEXT NOT NULL,
        token_hashes TEXT NOT NULL,
        bots TEXT NOT NULL,
        meta TEXT NOT NULL,
        version TEXT NOT NULL,
        created BIGINT NOT NULL,
        updated BIGINT NOT NULL,
        closed TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS cardspec_actions (
        table_id TEXT NOT NULL REFERENCES cardspec_tables(id),
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        digest TEXT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (table_id, n)
    )""",
)


class StoreError(CardspecError):
    """The store cannot be opened or written (bad URL, missing driver, database error). The message is for the
    server's operator (it may name the database's user, host and driver); ``public`` is what a client gets."""

    code = "store/error"

    def public(self, what: str) -> str:
        """A client's message for this error: ``what`` (what was not done) and a reference to the full text in
        the server's log (``report``), never the text itself."""
        return f"{what}: the table store failed (reference {report(self)}; the server's log has the details)"


#: Where ``report`` writes (the server's log; None: ``sys.stderr`` at the time).
LOG = None


def report(e: BaseException) -> str:
    """Write ``e`` in full to the server's log (``LOG``) under a new reference, and return the reference."""
    ref = uuid.uuid4().hex[:8]
    print(f"cardspec: store error {ref}: {e}", file=LOG or sys.stderr, flush=True)
    return ref


#: The longest seed a table may have (characters of its text form).
MAX_SEED_CHARS = 200


def seed_problem(seed) -> str | None:
    """Why ``seed`` cannot seed a stored table, or None: an integer of at most ``MAX_SEED_CHARS`` digits or
    a text of at most ``MAX_SEED_CHARS`` characters without NUL or another control character. The same for
    every back end (SQLite took a NUL that PostgreSQL refused with its driver's text)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        return f"a seed is an integer or a text, not {type(seed).__name__}"
    text = str(seed) if isinstance(seed, str) else repr(seed) if abs(seed) < 10 ** MAX_SEED_CHARS else None
    if text is None or len(text) > MAX_SEED_CHARS:
        return f"a seed has at most {MAX_SEED_CHARS} characters"
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        return "a seed may not contain NUL or other control characters"
    return None


class StoreConflict(StoreError):
    """Another writer appended action ``n`` of this table first (several servers on one store)."""

    code = "store/conflict"


def token_hash(token: str) -> str:
    """The SHA-256 (hex) of a seat token: what the store keeps instead of the token."""
    return hashlib.sha256(token.encode()).hexdigest()


def ruleset_hash(text: str | bytes) -> str:
    """The content hash of a ruleset (``sha256:`` + hex) that a stored table is bound to."""
    if isinstance(text, str):
        text = text.encode()
    return "sha256:" + hashlib.sha256(text).hexdigest()


@dataclass
class TableRecord:
    """One stored table: everything needed to rebuild it, and no secret.

    ``token_hashes``: seat (int) -> SHA-256 of its token; ``bots``: seat (int) -> bot spec;
    ``meta``: JSON-ready extras of the server's (bot delay, whether the seed was chosen).
    Times are Unix milliseconds.
    """

    id: str
    ruleset: str
    ruleset_hash: str
    options: dict
    players: int
    seed: str
    token_hashes: dict
    bots: dict
    version: str
    meta: dict = field(default_factory=dict)
    created: int = 0
    updated: int = 0
    closed: str | None = None

    def start_digest(self) -> str:
        ident = json.dumps([self.id, self.ruleset_hash, self.seed, self.players, self.options], sort_keys=True)
        return hashlib.sha256(ident.encode()).hexdigest()


@dataclass
class StoredTable:
    """A table read back: its record, its actions ``[(seat, text), ...]`` in order, and ``damaged``:
    None when the chain holds, else a sentence saying which action is bad (the table must not be replayed)."""

    record: TableRecord
    actions: list
    damaged: str | None = None


def chain(prev: str, n: int, seat: int, action: str) -> str:
    """The digest of action ``n`` after the digest ``prev`` (hex SHA-256)."""
    return hashlib.sha256(f"{prev}|{n}|{seat}|{action}".encode()).hexdigest()


def _now_ms() -> int:
    return int(time.time() * 1000)


class Store:
    """The store's operations over a DB-API connection (one per store; calls are serialised by a lock; a
    PostgreSQL store appends over writer connections of its own, ``PostgresStore.writers``).

    Every write is committed before the method returns, so an action acknowledged after ``append``
    survives a SIGKILL of the server.
    """

    placeholder = "?"
    #: whether several server processes may share this store (and must push each other's changes)
    shared = False

    def __init__(self, conn, url: str):
        self._conn = conn
        self.url = url
        self._lock = threading.Lock()
        self._last = {}          # table id -> (next n, digest of n-1): appends need no read
        self.origin = uuid.uuid4().hex[:12]   # names this process in its notifications
        for stmt in SCHEMA:
            self._run(stmt)

    # -- plumbing
    def _sql(self, text: str) -> str:
        return text.replace("?", self.placeholder) if self.placeholder != "?" else text

    def _run(self, sql: str, args=(), fetch: bool = False):
        with self._lock:
            try:
                cur = self._conn.cursor()
                cur.execute(self._sql(sql), args)
                rows = cur.fetchall() if fetch else None
                self._conn.commit()
                return rows
            except Exception as e:  # the driver's own error types differ; all become StoreError
                self._rollback()
                if self._is_conflict(e):
                    raise StoreConflict(f"store: {e}") from None
                raise StoreError(f"store ({self.url}): {type(e).__name__}: {e}") from None

    def _is_conflict(self, e) -> bool:
        return isinstance(e, sqlite3.IntegrityError) or type(e).__name__ == "UniqueViolation"

    def _notify(self, cur, payload: str) -> None:
        """Announce a change to the other processes sharing the store (in the writing transaction, so it is
        sent on commit and never for a write that failed). Nothing for a store no other process reads."""

    # -- writing
    def create(self, rec: TableRecord) -> None:
        """Store a new table (no action yet). Raises ``StoreConflict`` if the id exists, ``StoreError`` for a
        seed that ``seed_problem`` refuses (before it reaches the database)."""
        why = seed_problem(rec.seed)
        if why is not None:
            raise StoreError(f"store: table {rec.id}: {why}")
        rec.created = rec.updated = rec.created or _now_ms()
        self._run("INSERT INTO cardspec_tables (id, ruleset, ruleset_hash, options, players, seed, token_hashes, "
                  "bots, meta, version, created, updated, closed) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                  (rec.id, rec.ruleset, rec.ruleset_hash, json.dumps(rec.options, sort_keys=True), rec.players,
                   rec.seed, json.dumps({str(k): v for k, v in rec.token_hashes.items()}),
                   json.dumps({str(k): v for k, v in rec.bots.items()}), json.dumps(rec.meta), rec.version,
                   rec.created, rec.updated, rec.closed))
        self._last[rec.id] = (0, rec.start_digest())

    def append(self, table_id: str, n: int, seat: int, action: str) -> None:
        """Append action number ``n`` (0-based) of ``seat`` to a table, committed before returning.

        Raises ``StoreConflict`` when action ``n`` exists already (another writer), ``StoreError`` when
        ``n`` is not the next number this store expects.
        """
        nxt, prev = self._last.get(table_id) or self._tail(table_id)
        if n != nxt:
            raise StoreError(f"store: table {table_id} expects action {nxt}, not {n}")
        digest = chain(prev, n, seat, action)
        try:
            self._write_action(table_id, n, seat, action, digest, _now_ms())
        except Exception as e:
            self._last.pop(table_id, None)
            if self._is_conflict(e):
                raise StoreConflict(f"table {table_id}: action {n} was stored by another writer") from None
            raise StoreError(f"store ({self.url}): {type(e).__name__}: {e}") from None
        self._last[table_id] = (n + 1, digest)

    def _write_action(self, table_id: str, n: int, seat: int, action: str, digest: str, now: int) -> None:
        """Insert one action row (and the table's ``updated``) in a transaction of its own, committed before
        returning; on the store's one connection (SQLite has one writer at a time anyway). Raises the driver's
        error, the transaction rolled back."""
        with self._lock:
            try:
                cur = self._conn.cursor()
                cur.execute(self._sql("INSERT INTO cardspec_actions (table_id, n, seat, action, digest, at) "
                                      "VALUES (?,?,?,?,?,?)"), (table_id, n, seat, action, digest, now))
                cur.execute(self._sql("UPDATE cardspec_tables SET updated = ? WHERE id = ?"), (now, table_id))
                self._notify(cur, f"{table_id} {n} {self.origin}")
                self._conn.commit()
            except Exception:
                self._rollback()
                raise

    def _rollback(self) -> None:
        """Undo the open transaction after a failed write; a connection too broken to roll back is left
        for the next call to report (the caller raises the write's own error)."""
        try:
            self._conn.rollback()
        except Exception:
            pass

    def _tail(self, table_id: str):
        rows = self._run("SELECT n, digest FROM cardspec_actions WHERE table_id = ? ORDER BY n DESC LIMIT 1",
                         (table_id,), fetch=True)
        if rows:
            return rows[0][0] + 1, rows[0][1]
        rec = self._record(table_id)
        if rec is None:
            raise StoreError(f"store: no table {table_id}")
        return 0, rec.start_digest()

    def close(self, table_id: str, reason: str) -> None:
        """Mark a table closed (it is not replayed at the next start); its rows stay for the record."""
        with self._lock:
            try:
                cur = self._conn.cursor()
                cur.execute(self._sql("UPDATE cardspec_tables SET closed = ?, updated = ? WHERE id = ?"),
                            (reason, _now_ms(), table_id))
                self._notify(cur, f"{table_id} closed {self.origin} {reason}")
                self._conn.commit()
            except Exception as e:
                self._rollback()
                raise StoreError(f"store ({self.url}): {type(e).__name__}: {e}") from None
        self._last.pop(table_id, None)
        self.release(table_id)

    def claim(self, table_id: str) -> bool:
        """Whether this process moves the table's bots: always on a store of one process; on a shared store,
        the first process to ask holds the claim (until it releases it or its connection ends, e.g. it died)
        and the others get False, so two processes never race to make the same bot move."""
        return True

    def release(self, table_id: str) -> None:
        """Give up the ``claim`` on a table (it closed, or this process dropped it)."""

    # -- reading
    _COLS = "id, ruleset, ruleset_hash, options, players, seed, token_hashes, bots, meta, version, created, " \
            "updated, closed"

    @staticmethod
    def _rec(row) -> TableRecord:
        (tid, rs, rh, opts, players, seed, toks, bots, meta, version, created, updated, closed) = row
        return TableRecord(tid, rs, rh, json.loads(opts), int(players), seed,
                           {int(k): v for k, v in json.loads(toks).items()},
                           {int(k): v for k, v in json.loads(bots).items()}, version, json.loads(meta),
                           int(created), int(updated), closed)

    def _record(self, table_id: str) -> TableRecord | None:
        rows = self._run(f"SELECT {self._COLS} FROM cardspec_tables WHERE id = ?", (table_id,), fetch=True)
        return self._rec(rows[0]) if rows else None

    def load(self, table_id: str) -> StoredTable | None:
        """One table with its actions, its chain checked (None when no such table)."""
        rec = self._record(table_id)
        if rec is None:
            return None
        rows = self._run("SELECT n, seat, action, digest FROM cardspec_actions WHERE table_id = ? ORDER BY n",
                         (table_id,), fetch=True)
        return self._verify(rec, rows)

    def since(self, table_id: str, start: int) -> list:
        """The actions ``[(seat, text), ...]`` of a table from number ``start`` on (those another process
        appended), their chain checked from the last digest this store knows (or from the table's start).

        Raises ``StoreError`` when the table is gone or its rows are damaged.
        """
        known = self._last.get(table_id)
        if known is None or known[0] != start:
            stored = self.load(table_id)
            if stored is None:
                raise StoreError(f"store: no table {table_id}")
            if stored.damaged:
                raise StoreError(f"store: table {table_id}: {stored.damaged}")
            return stored.actions[start:]
        prev = known[1]
        rows = self._run("SELECT n, seat, action, digest FROM cardspec_actions WHERE table_id = ? AND n >= ? "
                         "ORDER BY n", (table_id, start), fetch=True)
        out = []
        for i, (n, seat, action, digest) in enumerate(rows):
            if n != start + i:
                raise StoreError(f"store: table {table_id}: action {start + i} is missing (the next stored is {n})")
            if chain(prev, n, seat, action) != digest:
                raise StoreError(f"store: table {table_id}: action {n} does not match its digest")
            out.append((int(seat), action))
            prev = digest
        self._last[table_id] = (start + len(out), prev)
        return out

    def _verify(self, rec: TableRecord, rows) -> StoredTable:
        prev = rec.start_digest()
        actions = []
        for i, (n, seat, action, digest) in enumerate(rows):
            if n != i:
                return StoredTable(rec, actions, f"action {i} is missing (the next stored is {n})")
            if chain(prev, n, seat, action) != digest:
                return StoredTable(rec, actions, f"action {n} does not match its digest (changed or torn write)")
            actions.append((int(seat), action))
            prev = digest
        self._last[rec.id] = (len(actions), prev)
        return StoredTable(rec, actions)

    def open_tables(self) -> list:
        """Every table not closed, oldest first, each a ``StoredTable`` (check ``damaged`` before replaying)."""
        rows = self._run(f"SELECT {self._COLS} FROM cardspec_tables WHERE closed IS NULL ORDER BY created, id",
                         fetch=True)
        out = []
        for row in rows:
            rec = self._rec(row)
            acts = self._run("SELECT n, seat, action, digest FROM cardspec_actions WHERE table_id = ? ORDER BY n",
                             (rec.id,), fetch=True)
            out.append(self._verify(rec, acts))
        return out

    def stats(self) -> dict:
        """Counts for operators: ``{"tables": open tables, "closed": closed tables, "actions": rows}``."""
        t = self._run("SELECT COUNT(*) FROM cardspec_tables WHERE closed IS NULL", fetch=True)[0][0]
        c = self._run("SELECT COUNT(*) FROM cardspec_tables WHERE closed IS NOT NULL", fetch=True)[0][0]
        a = self._run("SELECT COUNT(*) FROM cardspec_actions", fetch=True)[0][0]
        return {"tables": int(t), "closed": int(c), "actions": int(a)}

    def shutdown(self) -> None:
        with self._lock:
            self._conn.close()


class SQLiteStore(Store):
    """SQLite in WAL mode with ``synchronous=FULL``: a committed action survives a SIGKILL or a power cut. The
    files are the owner's only (``private_files``)."""

    def __init__(self, path: str, url: str):
        if path != ":memory:":
            private_files(path)
        try:
            conn = sqlite3.connect(path, check_same_thread=False, isolation_level="DEFERRED", timeout=10)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as e:
            raise StoreError(f"cannot open the SQLite store {path}: {e}") from None
        super().__init__(conn, url)
        if path != ":memory:":
            private_files(path)   # the -wal and -shm files WAL mode just made


#: The files of a SQLite store besides the database itself.
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")


def private_files(path: str) -> None:
    """Make the SQLite store at ``path`` its owner's only: refuse a folder that another user may write to
    (group or other writable without the sticky bit: they could swap the file), create the database mode 0600
    if it does not exist, and narrow it and its side files (``-wal``, ``-shm``) to 0600 when another user may
    read them (SQLite creates the side files with the database's mode). Raises ``StoreError``."""
    import stat
    folder = os.path.dirname(os.path.abspath(path))
    try:
        st = os.stat(folder)
    except OSError as e:
        raise StoreError(f"cannot open the SQLite store {path}: {e.strerror}") from None
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not st.st_mode & stat.S_ISVTX:
        raise StoreError(f"cannot open the SQLite store {path}: its folder {folder} may be written by other "
                         f"users (mode {stat.S_IMODE(st.st_mode):o}); use a folder only you can write to")
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        os.close(fd)
    except OSError as e:
        raise StoreError(f"cannot open the SQLite store {path}: {e.strerror}") from None
    for p in (path,) + tuple(path + side for side in SQLITE_SIDE_FILES):
        try:
            if stat.S_IMODE(os.lstat(p).st_mode) & 0o077:
                os.chmod(p, 0o600)
        except FileNotFoundError:
            continue
        except OSError as e:
            raise StoreError(f"cannot make the SQLite store {p} private (mode 0600): {e.strerror}") from None


def channel_for(schema: str) -> str:
    """The PostgreSQL channel on which a store announces its appends and closes (``Store._notify``): one per
    schema, since notifications are database-wide and two schemas are two separate stores."""
    return "cardspec_" + hashlib.sha256(schema.encode()).hexdigest()[:16]


def parse_note(payload: str):
    """A notification's payload as ``(table_id, what, origin, reason)``: ``what`` is the action number
    (int) just appended, or ``"closed"`` (``reason`` says why); ``("*", …)`` means "re-read everything"
    (the listener lost its connection and may have missed notes). None for a payload of another kind."""
    parts = payload.split(" ", 3)
    if parts == ["*"]:
        return "*", None, None, None
    if len(parts) < 3:
        return None
    tid, what, origin = parts[:3]
    if what == "closed":
        return tid, "closed", origin, parts[3] if len(parts) > 3 else "closed"
    return (tid, int(what), origin, None) if what.isdigit() else None


class PostgresStore(Store):
    """PostgreSQL through psycopg 3; several server processes may share it (``shared``): each appended
    action and each close is announced with ``NOTIFY cardspec_tables`` and ``listen`` delivers the others'.
    Appends go over up to ``writers`` connections of their own, one autocommit statement each (``APPEND_SQL``);
    every other call over the store's one connection."""

    placeholder = "%s"
    shared = True

    def __init__(self, url: str):
        try:
            import psycopg
        except ImportError:
            raise StoreError("a postgresql:// store needs psycopg: pip install 'cardspec[postgres]'") from None
        try:
            conn = psycopg.connect(url, connect_timeout=10)
        except Exception as e:
            raise StoreError(f"cannot connect to {_redact(url)}: {e}") from None
        self._dsn = url
        self._claimed = set()
        self._idle = queue.SimpleQueue()      # writer connections not in use (``_write_action``)
        self._writers_open = 0
        self._writers_lock = threading.Lock()
        super().__init__(conn, _redact(url))
        self.channel = channel_for(self._run("SELECT current_schema()", fetch=True)[0][0] or "")

    #: Connections that append actions at once (issue 37 item 5). Each append is one statement in autocommit
    #: mode (``APPEND_SQL``): its own transaction, committed when the statement returns (one round trip), so an
    #: action is still acknowledged only after its commit; appends of different tables no longer wait for each
    #: other's commit (PostgreSQL flushes concurrent commits together). One table's appends stay in order: the
    #: server makes one call per table at a time, and each waits for its commit.
    writers = 4

    #: One action's row, its table's ``updated`` and the notification, in one statement (a data-modifying
    #: ``WITH`` runs to completion whether or not the outer query reads it; the NOTIFY is sent on commit).
    APPEND_SQL = ("WITH ins AS (INSERT INTO cardspec_actions (table_id, n, seat, action, digest, at) "
                  "VALUES (%s, %s, %s, %s, %s, %s)), upd AS (UPDATE cardspec_tables SET updated = %s WHERE id = %s) "
                  "SELECT pg_notify(%s, %s)")

    def _writer(self):
        """An idle writer connection, a new one while fewer than ``writers`` are open, else the next one freed."""
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            pass
        with self._writers_lock:
            new = self._writers_open < self.writers
            if new:
                self._writers_open += 1
        if not new:
            return self._idle.get()
        import psycopg
        try:
            return psycopg.connect(self._dsn, autocommit=True, connect_timeout=10)
        except BaseException:
            with self._writers_lock:
                self._writers_open -= 1
            raise

    def _write_action(self, table_id, n, seat, action, digest, now) -> None:
        conn = self._writer()
        try:
            conn.execute(self.APPEND_SQL, (table_id, n, seat, action, digest, now, now, table_id, self.channel,
                                           f"{table_id} {n} {self.origin}"))
        except BaseException:
            if conn.closed or conn.broken:
                with self._writers_lock:
                    self._writers_open -= 1
                conn.close()
            else:
                self._idle.put(conn)
            raise
        self._idle.put(conn)

    def shutdown(self) -> None:
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                break
        super().shutdown()

    def _notify(self, cur, payload: str) -> None:
        cur.execute("SELECT pg_notify(%s, %s)", (self.channel, payload))

    def _lock_key(self, table_id: str) -> int:
        """The advisory-lock key of a table (locks are database-wide: the schema's channel is part of it): 64
        bits of a SHA-256, signed as PostgreSQL's bigint."""
        return struct.unpack(">q", hashlib.sha256(f"{self.channel} {table_id}".encode()).digest()[:8])[0]

    def claim(self, table_id: str) -> bool:
        if table_id in self._claimed:
            return True
        rows = self._run("SELECT pg_try_advisory_lock(%s)", (self._lock_key(table_id),), fetch=True)
        if rows and rows[0][0]:
            self._claimed.add(table_id)
            return True
        return False

    def release(self, table_id: str) -> None:
        if table_id in self._claimed:
            self._claimed.discard(table_id)
            try:
                self._run("SELECT pg_advisory_unlock(%s)", (self._lock_key(table_id),), fetch=True)
            except StoreError:
                pass

    def listen(self, deliver, retry: float = 1.0):
        """Deliver every notification of the other processes sharing this store (their appends and closes:
        ``parse_note``) to ``deliver(payload)``, called in a daemon thread with its own connection. When that
        connection is lost it reconnects every ``retry`` seconds and then delivers ``"*"`` (notes may have
        been missed meanwhile: re-read every table). Returns a function that stops listening."""
        import psycopg
        stop = threading.Event()

        def main():
            first = True
            while not stop.is_set():
                try:
                    with psycopg.connect(self._dsn, autocommit=True, connect_timeout=10) as conn:
                        conn.execute(f"LISTEN {self.channel}")
                        if not first:
                            deliver("*")
                        first = False
                        while not stop.is_set():
                            for note in conn.notifies(timeout=0.5):
                                got = parse_note(note.payload)
                                if got is not None and got[2] != self.origin:
                                    deliver(note.payload)
                except Exception as e:  # noqa: BLE001 - the server keeps serving; its own writes still work
                    if stop.is_set():
                        break
                    print(f"cardspec: store listener: {type(e).__name__}: {e}; retrying in {retry:g} s",
                          file=sys.stderr, flush=True)
                    first = False
                    stop.wait(retry)

        threading.Thread(target=main, name="cardspec-store-listen", daemon=True).start()
        return stop.set


def _redact(url: str) -> str:
    """``url`` with any password replaced by ``***`` (for messages and logs)."""
    if "://" in url and "@" in url.split("://", 1)[1]:
        scheme, rest = url.split("://", 1)
        cred, host = rest.rsplit("@", 1)
        if ":" in cred:
            cred = cred.split(":", 1)[0] + ":***"
        return f"{scheme}://{cred}@{host}"
    return url


DEFAULT_URL = "sqlite:///cardspec-tables.db"


def open_store(url: str) -> Store:
    """Open (creating the schema if needed) the store at ``url``; see the module docstring for URLs.

    Raises ``StoreError`` for an unknown scheme, a missing driver or a database that cannot be reached.
    """
    if url.startswith("sqlite://"):
        path = url[len("sqlite://"):]
        if path == ":memory:" or path == "/:memory:":
            return SQLiteStore(":memory:", url)
        if not path.startswith("/"):
            raise StoreError(f"a SQLite store URL is sqlite:///PATH (relative) or sqlite:////PATH, not {url}")
        path = path[1:]
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise StoreError(f"cannot open the SQLite store {path}: no folder {folder}")
        return SQLiteStore(path, url)
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url)
    raise StoreError(f"unknown store URL {_redact(url)!r}: use sqlite:///PATH or postgresql://USER@HOST/DB")
