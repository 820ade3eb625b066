"""What runs inside a worker process of the HTTP server (``cardspec.serve.workers`` starts them and sends the calls):
the replica of each table the worker served (its Game loaded once, its state rebuilt by replaying the seed and the
actions), the operations on a replica (a legal-action head or page, an action tried, a bot's move), each within the
CPU budget, and the worker's main loop (``_worker_main``) with its memory bound and lower CPU priority.
"""
from __future__ import annotations

import json
import os
import random
import signal
from collections import OrderedDict


#: exit status of a worker that ran out of memory (it answers first, then exits to start clean)
MEMORY_EXIT = 3

#: table replicas one worker keeps (least recently used dropped first)
MAX_REPLICAS = 24

#: how much nicer (lower CPU priority) a worker is than the server process: when the machine is busy the
#: scheduler runs the event loop, which answers every client, before the searches and listings
WORKER_NICE = 5


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
    from .games import _load_game
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
    from .legal import listing_or_none
    if r.too_many == r.n:
        return None
    legal = listing_or_none(r.state, budget)
    if legal is None:
        r.too_many = r.n
    return legal


def _legal_head(r, seat, limit, budget):
    """``protocol.legal_head_of`` at the replica: the listing within ``budget``, else (a fresh budget)
    the first actions found through the small choices."""
    from .legal import legal_head_of
    from .limits import cpu_budget
    st = r.state
    if seat is None or st.to_act != seat:
        return 0, []
    legal = _listing(r, budget)
    with cpu_budget(budget):
        return legal_head_of(st, seat, limit, legal)


def _op_legal_head(r, seat, limit, budget):
    return _legal_head(r, seat, limit, budget)


def _op_legal_page(r, seat, offset, limit, prefix, budget):
    from .legal import legal_page_of
    from .limits import cpu_budget
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
    from .limits import cpu_budget
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
    from .legal import random_action_of
    from .limits import CpuBudgetExceeded, cpu_budget
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
    from .limits import CpuBudgetExceeded, cpu_budget
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
    """A worker process: answers requests from ``conn`` one at a time until it is closed. A server that went
    away (stopped while this worker started, or killed) ends it quietly: no traceback on the server's
    terminal (issue 36 item 7: a BrokenPipeError sending "ready" to a server that had just stopped)."""
    try:
        _serve(conn, memory)
    except (OSError, EOFError, KeyboardInterrupt):   # BrokenPipeError is an OSError
        pass


def _serve(conn, memory: int | None) -> None:
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
