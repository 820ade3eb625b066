"""Worker processes for the HTTP server's heavy engine calls (issue 16: a server no client can freeze).

The server (``cardspec.serve.server``) keeps every table's authoritative ``State`` and applies actions itself
(cheap), but the calls whose cost a client controls run in a small pool of worker *processes*, so they
never hold the server process's GIL (which its event loop needs to answer anyone) and each is bounded in
CPU time and in memory:

- bot moves (``ismcts``, ``solver``, ``policy``, … and random bots: a move needs the legal actions);
- legal-action listings (a view of the seat to act, ``get_legal``, the list in an ``action/illegal``
  error): a play of several ordered cards from a long hand has hundreds of thousands;
- the first try of an action at a table with rules typed during play (a secret-rule step): the rule's
  compilation and judgement run in a worker first, and the server applies only an action a worker
  accepted (an accepted rule is small: a typed rule is at most 1,000 characters and ``RULE_BUDGET``
  steps per judgement).

What crosses the process boundary: a request names the table (id, ruleset, players, options, seed) and
carries the actions applied since the ones the worker has already seen; a worker keeps a *replica* of
each table it served (the Game loaded once per worker and ruleset, the state rebuilt by replaying the
seed and the actions: the same replay a store restart does), so a bot move costs a few actions replayed,
not a ruleset load. The reply is small: an action's text, or a count and at most ``max_legal_listed``
actions. Replaying is deterministic and bots are seeded from (seed, seat, decision number), so a move
made in a worker is the move the server would have made itself.

Each worker is one process running one call at a time, with:

- a CPU budget per call (``ITIMER_PROF``: the worker's own CPU time, ``Limits.max_call_seconds``);
- a memory bound: its address space may grow by at most ``Limits.max_call_memory`` bytes over what it
  had when it started (``RLIMIT_AS``); a call past it gets ``MemoryError``, the worker answers and then
  exits, and a fresh one takes its place;
- a backstop for a call stuck in C code, where the CPU timer's signal is not acted on: the server reads
  the worker's CPU time (``/proc``) and kills it past 4× the budget plus 1 s (a call's replay and each
  part of its work have the budget: a bot's search and its timeout move; an action, the listing of the
  legal ones when it is illegal, and the small-choice walk when they are too many to list), or past ``wall_limit(budget)`` of wall time (a
  worker that makes no progress at all). The worker is replaced.
- a lower CPU priority than the server (``WORKER_NICE``), so that on a busy machine the event loop is
  scheduled before the searches.

A worker that dies (killed, out of memory) is replaced; the call it was running is tried once more on
another worker (a replica is rebuilt from the table's actions), then given up (``table/over_budget``).

Start method: ``forkserver`` where the platform has it, else ``spawn`` — never ``fork``: the server
process runs uvicorn's event loop and engine threads, and forking a process with threads can copy a
lock held by another thread. The fork server preloads this module (the engine and the built-in
rulesets' code), so replacing a worker takes a fork, not an interpreter start.

This module is the server's side (``WorkerPool``, ``RemoteEngine``); what runs inside a worker process (the
replicas, the operations, the worker's main loop) is in ``cardspec.serve.replicas``.
"""
from __future__ import annotations

import json
import os
import sys
import threading
import time

from .fairness import BOT, PERSON, FairTurns
from .replicas import _worker_main


def wall_limit(budget: float) -> float:
    """Seconds of wall time a call may wait for its worker: generous (the CPU budget is what bounds the work;
    a busy machine may give a worker a small share of a core), only for a worker that never answers."""
    return 30 * budget + 30


def _cpu_of(pid: int) -> float | None:
    """CPU seconds (user + system) process ``pid`` has used, from ``/proc`` (None where unknown)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


class WorkerLost(Exception):
    """The worker process died, or was killed for running past its wall-clock limit, during a call."""


def _context():
    import multiprocessing as mp
    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["cardspec.serve.workers", "cardspec.serve.protocol"])
        return ctx
    return mp.get_context("spawn")


class _Worker:
    def __init__(self, proc, conn, pid):
        self.proc, self.conn, self.pid = proc, conn, pid
        self.known: dict = {}    # table id -> (key, n, last): the replica this worker holds
        self.drop: set = set()   # closed tables whose replicas it may forget


class WorkerPool:
    """``size`` worker processes (see the module doc), shared by the server's engine threads.

    ``call`` is blocking and thread-safe: a thread (``cardspec.serve.runner.EngineRunner``) waits on a pipe,
    which releases the GIL. ``memory``: bytes a worker's address space may grow by in one call (None:
    no bound). ``stats``: calls, workers started and replaced, calls over their CPU or memory bound.
    """

    def __init__(self, size: int = 4, memory: int | None = 1 << 30):
        self.size, self.memory = max(1, int(size)), memory
        self._idle: list = []
        self._all: set = set()
        self._cond = threading.Condition()
        self._ctx = None
        self._closed = False
        self._starting = 0
        self.stats = {"calls": 0, "started": 0, "replaced": 0, "over_cpu": 0, "over_memory": 0, "lost": 0}
        self.turns = FairTurns()   # the order in which waiting calls get a worker (serve/fairness.py)
        self.ops: dict = {}   # op -> calls

    # -- workers
    def start(self) -> None:
        """Start the workers (blocking: a server runs it in a thread of its own, and a call that comes
        first waits for a worker). Idempotent."""
        with self._cond:
            need = max(0, self.size - len(self._all) - self._starting)
            self._starting += need
        for i in range(need):
            try:
                w = self._spawn()
            except (WorkerLost, OSError):   # a call that needs a worker starts one itself
                w = None
            with self._cond:
                self._starting -= 1
                late = w is not None and self._closed
                if w is not None and not late:
                    self._all.add(w)
                    self._idle.append(w)
                self._cond.notify_all()
            if late:   # the server stopped meanwhile
                w.proc.kill()
                w.proc.join(2)
                w.conn.close()

    def _spawn(self) -> _Worker | None:
        if self._closed:
            return None
        if self._ctx is None:
            self._ctx = _context()
        parent, child = self._ctx.Pipe()
        proc = self._ctx.Process(target=_worker_main, args=(child, self.memory), daemon=True,
                                 name="cardspec-worker")
        proc.start()
        child.close()
        if not parent.poll(120):
            proc.kill()
            raise WorkerLost("a worker process did not start within 120 s")
        try:
            tag, pid = parent.recv()
        except (EOFError, OSError):
            raise WorkerLost("a worker process exited as it started") from None
        self.stats["started"] += 1
        return _Worker(proc, parent, pid)

    def pids(self) -> list:
        """The process ids of the running workers."""
        with self._cond:
            return sorted(w.pid for w in self._all)

    def busy_pids(self) -> list:
        """The process ids of the workers running a call now."""
        with self._cond:
            return sorted(w.pid for w in self._all if w not in self._idle)

    def _acquire(self, tid, kind: int = PERSON, owner=None) -> _Worker:
        """A worker for a call on table ``tid``: waiting calls are served in ``FairTurns`` order (a person's
        before a bot's, then the owner served least, then arrival)."""
        with self._cond:
            ticket = self.turns.enter(kind, tid if owner is None else owner)
            granted = False
            try:
                while True:
                    if self._closed:
                        raise WorkerLost("the server is shutting down")
                    for w in [w for w in self._idle if not w.proc.is_alive()]:   # died while idle (killed)
                        self._idle.remove(w)
                        self._all.discard(w)
                        self.stats["replaced"] += 1
                        w.proc.join(0)
                        w.conn.close()
                    if self.turns.first() is ticket:
                        if self._idle:
                            granted = True
                            for i, w in enumerate(self._idle):   # the worker holding the table's replica, if idle
                                if tid in w.known:
                                    return self._idle.pop(i)
                            return self._idle.pop(0)
                        if len(self._all) + self._starting < self.size:
                            self._starting += 1
                            granted = True
                            break
                    self._cond.wait()
            finally:
                self.turns.leave(ticket, granted)
                self._cond.notify_all()   # the next in turn looks again
        try:
            w = self._spawn()
        finally:
            with self._cond:
                self._starting -= 1
        if w is None:
            raise WorkerLost("the server is shutting down")
        with self._cond:
            self._all.add(w)
        return w

    def _release(self, w: _Worker) -> None:
        with self._cond:
            if w in self._all and not self._closed:
                self._idle.append(w)
            self._cond.notify_all()

    def _discard(self, w: _Worker, kill: bool) -> None:
        """Forget a dead (or stuck) worker; the next call that needs one starts a fresh one."""
        if kill and w.proc.is_alive():
            w.proc.kill()
        w.proc.join(5)
        try:
            w.conn.close()
        except OSError:
            pass
        with self._cond:
            self._all.discard(w)
            if w in self._idle:
                self._idle.remove(w)
            self.stats["replaced"] += 1
            self._cond.notify_all()

    def forget(self, tid) -> None:
        """A table closed: its replicas may go (told to each worker with its next request)."""
        with self._cond:
            for w in self._all:
                if w.known.pop(tid, None) is not None:
                    w.drop.add(tid)

    def shutdown(self) -> None:
        with self._cond:
            self._closed = True
            workers = list(self._all)
            self._all.clear()
            self._idle.clear()
            self._cond.notify_all()
        for w in workers:
            try:
                w.conn.send(None)
            except (OSError, ValueError):
                pass
        for w in workers:
            w.proc.join(2)
            if w.proc.is_alive():
                w.proc.kill()
                w.proc.join(2)
            try:
                w.conn.close()
            except OSError:
                pass

    # -- calls
    def _ask(self, w: _Worker, req, deadline: float, cpu: float):
        """Send ``req`` to ``w`` and wait for its reply until ``deadline`` (monotonic s) or until the worker has
        used ``cpu`` more seconds of CPU, in short waits so that an interrupt of this thread lands. Raises
        ``WorkerLost``."""
        try:
            start = _cpu_of(w.pid)
            w.conn.send(req)
            polls = 0
            while not w.conn.poll(0.05):
                polls += 1
                if time.monotonic() > deadline:
                    raise WorkerLost("the call ran past its wall-clock limit; its worker was stopped")
                if polls % 10 == 0 and start is not None:
                    now = _cpu_of(w.pid)
                    if now is not None and now - start > cpu:
                        raise WorkerLost(f"the call ran past {cpu:g} s of CPU without stopping (stuck in C "
                                         "code); its worker was stopped")
                if not w.proc.is_alive():
                    break
            return w.conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            raise WorkerLost("the worker process running the call died") from None

    def call(self, key: tuple, applied: list, op: str, args: dict, budget: float, owner=None):
        """Run ``op`` on the replica of table ``key`` (``(id, ruleset, players, options as sorted JSON, seed,
        private)``) after its ``applied`` actions (``[(seat, text)]``). Returns ``(result, n, last)``. ``owner``
        (the table's client address) orders it among waiting calls with a bot's move (``op`` "bot") after a
        person's (``FairTurns``).

        Raises ``WorkerLost`` (died twice, or stuck: ``_ask``), ``BudgetError``
        (``kind`` "cpu" or "memory"), ``RuntimeError`` (an unexpected exception in the worker)."""
        tid = key[0]
        self.stats["calls"] += 1
        self.ops[op] = self.ops.get(op, 0) + 1
        for attempt in range(2):
            w = self._acquire(tid, BOT if op == "bot" else PERSON, owner)
            done = False
            try:
                known = w.known.get(tid)
                base = 0
                if known is not None and known[0] == key and known[1] <= len(applied) and \
                        (known[1] == 0 or applied[known[1] - 1] == known[2]):
                    base = known[1]
                w.known.pop(tid, None)
                drop, w.drop = list(w.drop), set()
                deadline = time.monotonic() + wall_limit(budget)
                while True:
                    req = (op, key, base, applied[base - 1] if base else None, list(applied[base:]), args, budget,
                           drop)
                    reply = self._ask(w, req, deadline, 4 * budget + 1)
                    drop = []
                    if reply[0] == "resync" and base:
                        base = 0
                        continue
                    break
                done = True
            except WorkerLost as e:
                self.stats["lost"] += 1
                self._discard(w, kill=True)
                if attempt or "stopped" in str(e):
                    raise
                continue
            finally:
                if not done and w in self._all:   # interrupted (OverBudget) while it ran: stop it
                    self._discard(w, kill=True)
            kind = reply[0]
            if kind == "memory":
                self.stats["over_memory"] += 1
                self._discard(w, kill=False)   # it exits by itself
                raise BudgetError("memory")
            self._release(w)
            if kind == "ok":
                _, result, n, last = reply
                w.known[tid] = (key, n, last)
                return result, n, last
            if kind == "cpu":
                self.stats["over_cpu"] += 1
                raise BudgetError("cpu")
            raise RuntimeError(reply[1] if len(reply) > 1 else str(reply))
        raise WorkerLost("the worker process running the call died")   # not reached


class BudgetError(Exception):
    """A call ran past its CPU budget (``kind`` "cpu") or its memory bound (``kind`` "memory")."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


class RemoteEngine:
    """What a ``cardspec.serve.table.Table`` calls (``Table.remote``) for its heavy work: ``call(table, op,
    **args)`` runs ``op`` in the ``WorkerPool`` within the registry's limits and turns a budget overrun,
    a lost worker or a worker's error into a ``ProtocolError`` (``table/over_budget``, ``server/internal``)."""

    def __init__(self, pool: WorkerPool, limits):
        self.pool, self.limits = pool, limits

    def key(self, table) -> tuple:
        return (table.id, table.ruleset, table.players, json.dumps(table.options, sort_keys=True), table.seed,
                table.private)

    def call(self, table, op: str, **args):
        from .messages import ProtocolError
        budget = self.limits.max_call_seconds
        try:
            result, _n, _last = self.pool.call(self.key(table), list(table.applied), op, args, budget,
                                               owner=getattr(table, "address", None) or table.id)
            return result
        except BudgetError as e:
            if e.kind == "memory":
                mb = (self.limits.max_call_memory or 0) / (1 << 20)
                raise ProtocolError("table/over_budget", f"the request needed more than {mb:g} MB of memory, the "
                                    "most one call may take on this server (max_call_memory): a rule, a bot or a "
                                    "listing too costly") from None
            raise ProtocolError("table/over_budget", f"the request took more than {budget:g} s of CPU, the most one "
                                "call may take on this server (max_call_seconds): a rule, a bot or a listing too "
                                "costly") from None
        except WorkerLost as e:
            raise ProtocolError("table/over_budget", f"the request could not be finished: {e} (a rule, a bot or a "
                                "listing too costly for this server)") from None
        except RuntimeError as e:
            from .messages import internal_error
            raise internal_error(e, " in a worker") from None

    def forget(self, table) -> None:
        self.pool.forget(table.id)
