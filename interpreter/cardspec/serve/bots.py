"""``BotRunner``: the bot seats of the HTTP server's tables, played server-side: one asyncio task per table while a
bot is to act, one move per ``bot_delay`` seconds, each move chosen and played in the ``EngineRunner`` (a search
within the CPU budget, in a worker process when the server has them; past the budget a random legal move), and
claimed in a store shared with other server processes so that one process moves a table's bots.
"""
from __future__ import annotations

import asyncio
import sys
import time

from .messages import ProtocolError
from .fairness import SearchBudget
from .registry import Registry
from .runner import EngineRunner


class BotRunner:
    """Plays the bot seats of every table: one asyncio task per table while a bot is to act, every
    move in the ``EngineRunner`` (a search within the budget; past it a random legal move)."""

    def __init__(self, registry: Registry, engine: EngineRunner):
        self.registry = registry
        self.engine = engine
        self.running: dict[str, asyncio.Task] = {}
        self.errors = 0
        lim = registry.limits
        self.budget = SearchBudget(lim.max_bot_seconds_per_minute, lim.max_bot_seconds_per_minute_total)

    def changed(self, table):
        if table.closed is None and table.id not in self.running and table.bot_to_act() is not None:
            self.running[table.id] = asyncio.get_running_loop().create_task(self._run(table))

    #: seconds between two tries to claim a table whose bots another server process moves (shared store)
    claim_retry = 1.0

    def _prepare(self, t):
        """In an engine thread: ``(seat, decision number)`` of the bot to act (None: no bot to act;
        "elsewhere": another server process sharing the store moves this table's bots)."""
        seat = t.bot_to_act()
        if seat is None:
            return None
        if t.store is not None and not t.store.claim(t.id):
            return "elsewhere"
        return seat, len(t.applied)

    @staticmethod
    def _searches(t, seat) -> bool:
        """Whether the bot at ``seat`` searches (ISMCTS, a solver: seconds of CPU a move), so its move waits for
        a slot bots may use (``EngineRunner.run(bot=True)``); a random or rule-based bot's move costs what a
        person's action does and is not held back behind other tables' searches."""
        spec = str(t.bot_specs.get(seat, "random"))
        return not spec.startswith(("random", "policy"))

    @staticmethod
    def _timed(took, fn, *args):
        """``fn(*args)``, its wall time (s) put in ``took[0]`` (also when it raises)."""
        began = time.monotonic()
        try:
            return fn(*args)
        finally:
            took[0] = time.monotonic() - began

    @staticmethod
    def _choose(t, seat):
        """``("move" | "timeout", action)``: in a worker process (``Table.remote_bot_move``: the search within
        the CPU budget, past it a random legal move from (seed, seat, decision)), or here without one."""
        if t.remote is not None:
            return t.remote_bot_move(seat)
        return "move", t.bot_choice(seat, t.bot_for(seat))

    def _play(self, t, seat, action, decision):
        if t.closed is None and t.bot_to_act() == seat:
            if action is None:   # the search ran out of time: a random legal move, from (seed, seat, decision)
                action = t.timeout_move(seat)
            t.act(seat, action, self.registry.clock(), decision=decision)

    async def _run(self, t):
        try:
            while t.closed is None and t.bot_to_act() is not None:
                await asyncio.sleep(t.bot_delay)
                if t.closed is not None:
                    break
                job = await self.engine.run(t, lambda: self._prepare(t))
                if job is None:
                    break
                if job == "elsewhere":   # the process that holds the claim moves them; take over if it dies
                    await asyncio.sleep(self.claim_retry)
                    continue
                seat, decision = job
                searches = self._searches(t, seat)
                owner = t.address or t.client or t.id
                if searches and not self.budget.allows(owner):   # the client's (or server's) minute is spent
                    await self.engine.run(t, lambda: self._play(t, seat, None, decision), mutates=True)
                    continue
                took = [0.0]   # the search's own seconds (not the wait for a slot)
                try:
                    kind, action = await self.engine.run(t, lambda: self._timed(took, self._choose, t, seat),
                                                         bot=searches)
                except ProtocolError as e:
                    if e.code != "table/over_budget" or t.closed is not None:
                        raise
                    if t.remote is not None:   # not even a random legal move could be listed: the table ends
                        self.registry.close(t, "over_budget")
                        raise
                    kind, action = "timeout", None
                if searches:
                    self.budget.spend(owner, took[0])
                if kind == "timeout":
                    self.engine.interrupted += 1
                await self.engine.run(t, lambda: self._play(t, seat, action, decision), mutates=True)
        except ProtocolError as e:
            if e.code not in ("table/not_found", "table/over_budget"):   # else: the table closed meanwhile
                self.errors += 1
                print(f"cardspec serve: table {t.id}: bot error: {e.code}: {e.message}", file=sys.stderr)
        except Exception as e:  # noqa: BLE001 - a bot's bug must not take the server down
            self.errors += 1
            print(f"cardspec serve: table {t.id}: bot error: {type(e).__name__}: {e}", file=sys.stderr)
        finally:
            self.running.pop(t.id, None)
