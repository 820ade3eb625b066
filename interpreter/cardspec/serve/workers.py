"""Worker processes for the HTTP server's heavy engine calls (issue 16: a server no client can freeze).

The server (``cardspec.server``) keeps every table's authoritative ``State`` and applies actions itself
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
"""
from __future__ import annotations

import json
import os
import random
import signal
import sys
import threading
import time
from collections import OrderedDict

#: exit status of a worker that ran out of memory (it answers first, then exits to start clean)
MEMORY_EXIT = 3

#: table replicas one worker keeps (least recently used dropped first)
MAX_REPLICAS = 24

#: how much nicer (lower CPU priority) a worker is than the server process: when the machine is busy the
#: scheduler runs the event loop, which answers every client, before the searches and listings
WORKER_NICE = 5


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


# ---- inside a worker process ------------------------------------------------------------------------
class _Replica:
    __slots__ = ("key", "state", "n", "last", "too_many")


_REPLICAS: OrderedDict = OrderedDict()


def _address_space() -> int | None:
    """This process's virtual memory size in bytes (Linux ``/proc``), or None where unknown."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return None


def _limit_memory(extra: int | None) -> None:
    """``RLIMIT_AS`` = the address space now + ``extra`` bytes (no limit for None or where unsupported)."""
    if not extra:
        return
    try:
        import resource
    except ImportError:   # not on this platform: the CPU and wall-clock limits still apply
        return
    now = _address_space()
    if now is None:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    want = now + int(extra)
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (want, hard))
    except (ValueError, OSError):
        pass


def _replica(key, base: int, check, actions) -> _Replica | None:
    """The replica of table ``key`` after applying ``actions`` (numbered from ``base``); None when this
    worker does not hold the table at ``base`` any more (the server then sends every action)."""
    from .protocol import _load_game
    tid = key[0]
    r = _REPLICAS.get(tid)
    if r is not None and (r.key != key or r.n != base or (base and r.last != check)):
        del _REPLICAS[tid]
        r = None
    if r is None:
        if base:
            return None
        _tid, ruleset, players, options_json, seed, private = key
        game = _load_game(ruleset, players, json.loads(options_json), private=private)
        r = _Replica()
        r.key, r.state, r.n, r.last, r.too_many = key, game.new_state(seed=seed), 0, None, None
        _REPLICAS[tid] = r
        while len(_REPLICAS) > MAX_REPLICAS:
            _REPLICAS.popitem(last=False)
    _REPLICAS.move_to_end(tid)
    st = r.state
    for seat, text in actions:
        try:
            st.apply(text, seat)
        except BaseException:
            _REPLICAS.pop(tid, None)
            raise
        r.n += 1
        r.last = (seat, text)
    return r


def _listing(r, budget):
    """Every legal action at the replica's position, or None when they are too many to list in ``budget``
    CPU seconds (or at all: ``TooManyActions``); remembered for the position, so a view of a long hand
    does not spend the budget again at every update."""
    from .protocol import listing_or_none
    if r.too_many == r.n:
        return None
    legal = listing_or_none(r.state, budget)
    if legal is None:
        r.too_many = r.n
    return legal


def _legal_head(r, seat, limit, budget):
    """``protocol.legal_head_of`` at the replica: the listing within ``budget``, else (a fresh budget)
    the first actions found through the small choices."""
    from .protocol import cpu_budget, legal_head_of
    st = r.state
    if seat is None or st.to_act != seat:
        return 0, []
    legal = _listing(r, budget)
    with cpu_budget(budget):
        return legal_head_of(st, seat, limit, legal)


def _op_legal_head(r, seat, limit, budget):
    return _legal_head(r, seat, limit, budget)


def _op_legal_page(r, seat, offset, limit, prefix, budget):
    from .protocol import cpu_budget, legal_page_of
    st = r.state
    if seat is None or st.to_act != seat:
        return {"count": 0, "offset": offset, "actions": []}
    legal = _listing(r, budget)
    with cpu_budget(budget):
        return legal_page_of(st, seat, offset, limit, prefix, legal)


def _op_try_act(r, seat, action, limit, budget):
    """Apply ``action`` to the replica: ``("ok", text)``, ``("illegal", message, count, head)`` or
    ``("over", scores)``. The replica moves on only when the action was accepted."""
    from ..errors import GameOver, IllegalAction
    from .protocol import cpu_budget
    st = r.state
    try:
        with cpu_budget(budget):
            why = st.illegal_reason(action) if st.to_act == seat else None   # (no listing: see below)
            if why is None:
                st.apply(action, seat)
    except GameOver:
        return ("over", st.scores())
    except IllegalAction as e:   # (not this seat's turn)
        count, head = _legal_head(r, st.to_act, limit, budget) if st.to_act == seat else (0, [])
        return ("illegal", str(e), count, head)
    if why is not None:   # the legal ones listed within the budget, else found through the small choices
        count, head = _legal_head(r, seat, limit, budget)
        return ("illegal", str(IllegalAction(seat, action, head, why)), count, head)
    text = st.history[-1]
    r.n += 1
    r.last = (seat, text)
    return ("ok", text)


def _op_bot(r, seat, spec, seed, timeout_seed, budget):
    """The move of the bot ``spec`` for ``seat`` (seeded ``seed``): ``("move", text)``, or past the CPU
    budget ``("timeout", text)``: a random legal action from ``timeout_seed`` (seed, seat and decision
    number), chosen within a fresh budget."""
    from ..players import RandomBot, make_bot
    from .protocol import CpuBudgetExceeded, cpu_budget, random_action_of
    st = r.state
    try:
        with cpu_budget(budget):
            if spec == "random":   # as Table.bot_choice: a random bot picks with its own RNG
                return ("move", random_action_of(st, RandomBot(seed=seed).rng))
            bot = make_bot(spec, seed=seed, game=st.game)
            view = st.view(seat, log=bot.wants_log)
            return ("move", bot.act(view, view["legal_actions"]))
    except CpuBudgetExceeded:
        pass
    with cpu_budget(budget):
        return ("timeout", random_action_of(st, random.Random(timeout_seed)))


_OPS = {"legal_head": _op_legal_head, "legal_page": _op_legal_page, "try_act": _op_try_act, "bot": _op_bot}
_OWN_BUDGETS = frozenset(_OPS)   # each op applies the CPU budget itself, once per part of its work


def _out_of_memory(e: BaseException) -> bool:
    """Whether ``e`` was caused by a ``MemoryError`` (its chain of causes and contexts)."""
    seen = 0
    while e is not None and seen < 20:
        if isinstance(e, MemoryError):
            return True
        e = e.__cause__ or e.__context__
        seen += 1
    return False


def _handle(req) -> tuple:
    """One request → ``(reply, exit_after)``. Replies: ``("ok", result, n, last)``, ``("resync",)``,
    ``("cpu",)``, ``("memory",)``, ``("error", text)``."""
    from .protocol import CpuBudgetExceeded, cpu_budget
    op, key, base, check, actions, args, budget, drop = req
    for tid in drop:
        _REPLICAS.pop(tid, None)
    tid = key[0]
    try:
        with cpu_budget(budget):
            r = _replica(key, base, check, actions)
        if r is None:
            return ("resync",), False
        if op in _OWN_BUDGETS:   # it keeps its own budgets (a bot: the search's, then the timeout move's; a
            result = _OPS[op](r, budget=budget, **args)   # listing: the list's, then the small choices')
        else:
            with cpu_budget(budget):
                result = _OPS[op](r, **args)
        return ("ok", result, r.n, r.last), False
    except CpuBudgetExceeded:
        _REPLICAS.pop(tid, None)   # an interrupted call may have left it half changed
        return ("cpu",), False
    except MemoryError:
        _REPLICAS.clear()
        return ("memory",), True
    except Exception as e:  # noqa: BLE001 - told to the server, which reports it as server/internal
        if _out_of_memory(e):   # the engine reports a failure of the rules as a RulesetError at the step
            _REPLICAS.clear()
            return ("memory",), True
        _REPLICAS.pop(tid, None)
        return ("error", f"{type(e).__name__}: {str(e)[:300]}"), False


def _worker_main(conn, memory: int | None) -> None:
    """A worker process: answers requests from ``conn`` one at a time until it is closed."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C reaches the server's whole process group:
    _limit_memory(memory)                          # the server stops its workers itself
    try:
        os.nice(WORKER_NICE)
    except (AttributeError, OSError):
        pass
    conn.send(("ready", os.getpid()))
    while True:
        try:
            req = conn.recv()
        except (EOFError, OSError):
            return
        except MemoryError:
            reply, leave = ("memory",), True
        else:
            if req is None:
                return
            reply, leave = _handle(req)
        try:
            conn.send(reply)
        except (OSError, ValueError):
            return
        except MemoryError:
            leave = True
        if leave:
            os._exit(MEMORY_EXIT)


# ---- in the server process ---------------------------------------------------------------------------
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

    ``call`` is blocking and thread-safe: a thread (``cardspec.server.EngineRunner``) waits on a pipe,
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

    def _acquire(self, tid) -> _Worker:
        with self._cond:
            while True:
                if self._closed:
                    raise WorkerLost("the server is shutting down")
                for w in [w for w in self._idle if not w.proc.is_alive()]:   # died while idle (killed)
                    self._idle.remove(w)
                    self._all.discard(w)
                    self.stats["replaced"] += 1
                    w.proc.join(0)
                    w.conn.close()
                if self._idle:
                    for i, w in enumerate(self._idle):   # the worker that holds the table's replica, if idle
                        if tid in w.known:
                            return self._idle.pop(i)
                    return self._idle.pop(0)
                if len(self._all) + self._starting < self.size:
                    self._starting += 1
                    break
                self._cond.wait()
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

    def call(self, key: tuple, applied: list, op: str, args: dict, budget: float):
        """Run ``op`` on the replica of table ``key`` (``(id, ruleset, players, options as sorted JSON, seed,
        private)``) after its ``applied`` actions (``[(seat, text)]``). Returns ``(result, n, last)``.

        Raises ``WorkerLost`` (died twice, or stuck: ``_ask``), ``BudgetError``
        (``kind`` "cpu" or "memory"), ``RuntimeError`` (an unexpected exception in the worker)."""
        tid = key[0]
        self.stats["calls"] += 1
        self.ops[op] = self.ops.get(op, 0) + 1
        for attempt in range(2):
            w = self._acquire(tid)
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
    """What a ``cardspec.protocol.Table`` calls (``Table.remote``) for its heavy work: ``call(table, op,
    **args)`` runs ``op`` in the ``WorkerPool`` within the registry's limits and turns a budget overrun,
    a lost worker or a worker's error into a ``ProtocolError`` (``table/over_budget``, ``server/internal``)."""

    def __init__(self, pool: WorkerPool, limits):
        self.pool, self.limits = pool, limits

    def key(self, table) -> tuple:
        return (table.id, table.ruleset, table.players, json.dumps(table.options, sort_keys=True), table.seed,
                table.private)

    def call(self, table, op: str, **args):
        from .protocol import ProtocolError
        budget = self.limits.max_call_seconds
        try:
            result, _n, _last = self.pool.call(self.key(table), list(table.applied), op, args, budget)
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
            print(f"cardspec serve: internal error in a worker: {e}", file=sys.stderr, flush=True)
            raise ProtocolError("server/internal", f"{e} (a bug in cardspec; please report it with the message "
                                "that caused it)") from None

    def forget(self, table) -> None:
        self.pool.forget(table.id)
