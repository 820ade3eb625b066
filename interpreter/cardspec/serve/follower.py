"""``StoreFollower``: the changes other server processes make to a shared store (PostgreSQL), pushed to this
process's clients: a table open here catches up on the actions it missed, or closes when it was closed elsewhere.
"""
from __future__ import annotations

import asyncio
import sys

from .messages import ProtocolError, internal_error
from .registry import Registry
from .runner import EngineRunner


class StoreFollower:
    """Pushes the changes other server processes make to a shared store (PostgreSQL) to this process's
    clients: each note (``cardspec.serve.store.parse_note``) of an action appended to a table open here has
    the table read the actions it missed (``Table.catch_up``, in the ``EngineRunner``, so it is ordered
    with this process's own calls on the table), which tells its followers as any change does; a table
    closed elsewhere is closed here too. Notes that arrive while a table is catching up are folded into
    one more read."""

    def __init__(self, registry: Registry, engine: EngineRunner):
        self.registry, self.engine = registry, engine
        self.pending: dict = {}   # table id -> another note came while catching up
        self.caught = 0           # actions applied from other processes (for tests and operators)

    def note(self, payload: str):
        """On the event loop: one notification's payload."""
        from .store import parse_note
        try:
            got = parse_note(payload)
        except ValueError:
            got = None
        if got is None:
            return
        tid, what, _origin, reason = got
        if tid == "*":
            for t in list(self.registry.tables.values()):
                self._catch(t)
            return
        t = self.registry.tables.get(tid)
        if t is None or t.closed is not None:
            return
        if what == "closed":
            self.registry.close(t, reason or "closed", stored=False)
        elif what >= len(t.applied):
            self._catch(t)

    def _catch(self, t):
        if t.id in self.pending:
            self.pending[t.id] = True
            return
        self.pending[t.id] = False
        asyncio.get_running_loop().create_task(self._run(t))

    async def _run(self, t):
        try:
            while True:
                self.caught += await self.engine.run(t, lambda: t.catch_up(self.registry.clock()), mutates=True)
                if not self.pending.get(t.id):
                    break
                self.pending[t.id] = False
        except ProtocolError as e:
            if e.code != "table/not_found" and t.closed is None:   # rows that cannot be applied here
                print(f"cardspec serve: table {t.id}: {e.code}: {e.message}", file=sys.stderr, flush=True)
                self.registry.close(t, e.code, stored=False)
        except Exception as e:  # noqa: BLE001 - one table's trouble must not take the server down
            internal_error(e, f" following table {t.id}")
        finally:
            self.pending.pop(t.id, None)
