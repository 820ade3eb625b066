"""What one server allows: ``Limits`` (its bounds: tables, messages, connections, timeouts, bots, CPU time and
memory per call), ``check_bot_spec`` (a bot spec within those bounds) and ``cpu_budget`` (the CPU budget of
one call in the main thread of a process: the stdio server, and each worker process of ``cardspec.serve.workers``).
"""
from __future__ import annotations

import contextlib
import math
import signal
import sys
import threading
from dataclasses import dataclass

from .messages import ProtocolError


@dataclass
class Limits:
    """Bounds of one server. Units: tables, bytes, seconds.

    ``bot_delay`` is the default pause before each bot move (a table may ask for another,
    up to ``max_bot_delay``); over stdio bots move at once. Bot specs are capped by
    ``max_bot_iterations`` and ``max_bot_seconds`` (per move) and ``max_solver_cards``. One client
    (a connection) may hold ``max_tables_per_client`` open tables, one address
    ``max_tables_per_address`` (over stdio, the only client, just ``max_tables``), one network
    (the address's /24 for IPv4, /64 for IPv6: a client with many addresses has them side by side)
    ``max_tables_per_network``; when the server is full, a table idle for ``evict_idle_after`` seconds
    of the network holding the most tables (more than a quarter of ``max_tables``) is closed to make room
    for a client from another network;
    ``max_connections_per_address`` bounds connections (HTTP and WebSocket) from one address and
    ``max_connections`` all of them; a connection that has not sent a whole request within
    ``connection_timeout`` seconds is closed, and a WebSocket that joined no table and sent nothing
    for ``idle_timeout``. One engine call may take ``max_call_seconds`` of CPU and, in the HTTP
    server's worker processes (``cardspec.serve.workers``), grow a worker's memory by ``max_call_memory``
    bytes (None: no bound).
    """

    max_tables: int = 200
    max_message_bytes: int = 65536
    idle_timeout: float = 1800.0
    bot_delay: float = 0.0
    max_bot_delay: float = 10.0
    max_joined: int = 64
    max_bot_iterations: int = 5000
    max_bot_seconds: float = 2.0
    max_solver_cards: int = 16
    max_tables_per_client: int = 16
    max_tables_per_address: int = 64
    max_tables_per_network: int = 96
    evict_idle_after: float = 120.0
    max_connections_per_address: int = 64
    max_connections: int = 1000
    connection_timeout: float = 5.0
    max_call_seconds: float = 5.0
    max_legal_listed: int = 500
    max_bot_seconds_per_minute: float = 60.0            # searches of one client's bots (its address)
    max_bot_seconds_per_minute_total: float = 180.0     # searches of every bot of the server
    max_call_memory: int | None = 1 << 30

    def public(self) -> dict:
        return {"max_tables": self.max_tables, "max_message_bytes": self.max_message_bytes,
                "idle_timeout": self.idle_timeout, "bot_delay": self.bot_delay,
                "max_bot_delay": self.max_bot_delay, "max_bot_iterations": self.max_bot_iterations,
                "max_bot_seconds": self.max_bot_seconds, "max_tables_per_client": self.max_tables_per_client,
                "max_tables_per_address": self.max_tables_per_address,
                "max_tables_per_network": self.max_tables_per_network,
                "max_bot_seconds_per_minute": self.max_bot_seconds_per_minute,
                "max_bot_seconds_per_minute_total": self.max_bot_seconds_per_minute_total}


def check_bot_spec(spec: str, limits: Limits, where: str = "bots") -> None:
    """Refuse a bot spec whose search is unbounded or over the server's caps (``table/invalid``).

    ``ismcts:N`` needs 1 <= N <= ``max_bot_iterations``; ``ismcts:Xs`` a finite 0 < X <=
    ``max_bot_seconds``; ``solver:N`` N <= ``max_solver_cards``. (``ismcts:infs`` and
    ``ismcts:100000000`` once occupied the bot threads for ever.) Other specs go to ``make_bot``.
    """
    name, _, arg = str(spec).strip().partition(":")
    name, arg = name.strip().lower(), arg.strip()
    if name == "ismcts" and arg:
        if arg.endswith("s"):
            try:
                sec = float(arg[:-1])
            except ValueError:
                sec = math.nan
            if not (math.isfinite(sec) and 0 < sec <= limits.max_bot_seconds):
                raise ProtocolError("table/invalid", f"{where}: ismcts:{arg}: seconds per move are limited to "
                                    f"0-{limits.max_bot_seconds:g} on this server (max_bot_seconds)")
        else:
            if not (arg.isdigit() and 1 <= int(arg) <= limits.max_bot_iterations):
                raise ProtocolError("table/invalid", f"{where}: ismcts:{arg}: iterations per move are limited to "
                                    f"1-{limits.max_bot_iterations} on this server (max_bot_iterations)")
    if name == "solver" and arg and not (arg.isdigit() and int(arg) <= limits.max_solver_cards):
        raise ProtocolError("table/invalid", f"{where}: solver:{arg}: the solver is limited to "
                            f"{limits.max_solver_cards} cards on this server")


# ---- a CPU budget for the calls of a single-threaded server (stdio) -----------------------------------
class CpuBudgetExceeded(BaseException):
    """Raised by ``cpu_budget`` at the first bytecode after the block's CPU time ran out. A
    ``BaseException`` so that no ``except Exception`` in the engine or a bot swallows it."""


@contextlib.contextmanager
def cpu_budget(seconds: float | None):
    """At most ``seconds`` of this process's CPU time (user + system: ``ITIMER_PROF``) for the block, then
    ``CpuBudgetExceeded`` is raised in it. Only in the main thread of a platform with ``setitimer`` (the
    stdio server); elsewhere, and for ``None``, no limit (the HTTP server budgets its worker threads
    itself: ``cardspec.serve.runner.EngineRunner``)."""
    if (seconds is None or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()):
        yield
        return

    def expired(signum, frame):
        raise CpuBudgetExceeded()
    old = signal.signal(signal.SIGPROF, expired)
    # Then again every 0.1 s of CPU until the block ends: an exception raised while a garbage-collection
    # callback runs is only printed ("Exception ignored in …"), so a one-shot timer could be lost and the
    # call run on without a limit (seen in CI: a listing of 464,420 actions finished its view).
    # A swallowed expiry goes to sys.unraisablehook, which a later tick could interrupt in turn (seen in CI:
    # "Failed to process unraisable exception" inside pytest's hook): it is dropped there at once, since
    # the next tick raises it again; any other unraisable exception goes to the hook as before.
    old_hook = sys.unraisablehook

    def unraisable(u):
        if not isinstance(u.exc_value, CpuBudgetExceeded):
            old_hook(u)
    sys.unraisablehook = unraisable
    signal.setitimer(signal.ITIMER_PROF, seconds, 0.1)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
        sys.unraisablehook = old_hook
