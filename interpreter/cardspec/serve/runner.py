"""``EngineRunner``: the HTTP server's engine work run off its event loop, in a pool of threads (``_Pool``, one
``_Job`` per call): one call per table at a time, a fair share of threads per owner, and a CPU budget per call,
past which ``OverBudget`` is raised in the call's thread.
"""
from __future__ import annotations

import asyncio
import ctypes
import queue
import threading
import time

from .messages import ProtocolError
from .registry import Registry
from .workers import wall_limit


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
      every thread; a bot's search (``bot=True``) at most ``workers - reserved`` (``reserved`` = 1 with two
      or more workers), so searching bots of many owners cannot hold every slot while a person waits;
    - gets ``budget`` CPU seconds (``Limits.max_call_seconds``, the thread's own CPU clock; and, as a
      backstop, ``cardspec.serve.workers.wall_limit(budget)`` + 5 s of wall time: a thread waiting for a worker
      process uses no CPU, and the worker has its own limits). Past it the call is interrupted (``OverBudget`` raised in its thread) and
      ``ProtocolError`` ``table/over_budget`` raised here; a call that changes the state (``mutates``)
      may have left it half done, so its table is closed (reason ``over_budget``).
    """

    def __init__(self, registry: Registry, workers: int = 4, per_owner: int = 2):
        self.registry = registry
        self.workers, self.per_owner = workers, per_owner
        # Slots a bot's search may never take: kept for the calls a person waits for (an action, a view, a
        # listing), so many tables of searching bots cannot hold every slot (issue 36 item 2).
        self.reserved = 1 if workers >= 2 else 0
        self._slots = None
        self._bot_slots = None
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

    async def run(self, table, fn, mutates: bool = False, owner=None, budget: float | None = None,
                  bot: bool = False):
        """``fn()`` in a worker thread (see the class doc). Returns its result or raises its exception.
        ``bot``: a bot's search, which waits for one of the ``workers - reserved`` slots bots may use."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
            self._bot_slots = asyncio.Semaphore(max(1, self.workers - self.reserved))
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
                if bot:
                    async with self._bot_slots, self._slots:
                        return await self._call(table, fn, mutates, budget or self.registry.limits.max_call_seconds)
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
        # no CPU, and the worker has its own limits (cardspec.serve.workers), which answer first.
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
