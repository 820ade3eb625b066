"""Who gets the next free worker process when several calls wait (issue 36 item 2).

The worker pool ran waiting calls in no particular order, so bot searches queued by a few busy tables
starved everyone else: two addresses with 16 tables each of four ``ismcts:2s`` bots made a person playing
on a third address wait 2.9 s median for each of his own moves (67 ms before), 224 s on the same address.
``FairTurns`` orders the waiting calls instead:

1. a call a person waits for (an action, a view's listing, a page of legal actions) before a bot's move;
2. then the owner — the table's client address — served the fewest calls so far, so a busy address's
   searches take turns with everyone else's instead of filling the pool;
3. then the order of arrival.

It only orders; the pool (``cardspec.serve.workers.WorkerPool``) holds the lock and the workers. Pure and
deterministic: tests/test_fair_workers.py checks the order of grants.
"""
from __future__ import annotations

import itertools
import time
from collections import deque

#: The kind of a call: a person waits for it (0) or it is a bot's move (1).
PERSON, BOT = 0, 1

#: Owners whose counts are kept; past this the counts start again (they only order, never refuse).
MAX_OWNERS = 10_000


class FairTurns:
    """The waiting calls of a pool and how many calls each owner has been granted."""

    def __init__(self):
        self._seq = itertools.count()
        self._served: dict = {}
        self.waiting: list = []

    def enter(self, kind: int, owner) -> list:
        """A ticket for a call of ``kind`` (``PERSON`` or ``BOT``) by ``owner`` (any hashable)."""
        ticket = [kind, next(self._seq), owner]
        self.waiting.append(ticket)
        return ticket

    def first(self):
        """The ticket to serve next (None when nobody waits)."""
        if not self.waiting:
            return None
        served = self._served
        return min(self.waiting, key=lambda t: (t[0], served.get(t[2], 0), t[1]))

    def leave(self, ticket: list, granted: bool) -> None:
        """``ticket`` stops waiting: it got a worker (``granted``, counted for its owner) or gave up."""
        try:
            self.waiting.remove(ticket)
        except ValueError:
            return
        if granted:
            if len(self._served) > MAX_OWNERS:
                self._served.clear()
            self._served[ticket[2]] = self._served.get(ticket[2], 0) + 1

    def served(self, owner) -> int:
        return self._served.get(owner, 0)


class SearchBudget:
    """Seconds of bot search a client (an owner: the tables' address) and the whole server may spend in any
    minute (issue 36: "per-client and global budgets for bot CPU per minute"). A searching bot whose owner,
    or the server, has spent its budget in the last ``window`` seconds makes a random legal move instead of
    searching (the move a search past its per-move budget makes), so one client's many searching tables
    cost others nothing and the server's searches stay bounded. Times are the searches' wall time (an upper
    bound of the CPU they took). Pure apart from ``clock``; tests/test_fair_workers.py drives it with a fake
    clock."""

    def __init__(self, per_owner: float, total: float, window: float = 60.0, clock=time.monotonic):
        self.per_owner, self.total, self.window, self.clock = per_owner, total, window, clock
        self._spent: deque = deque()   # (time, owner, seconds)
        self._by_owner: dict = {}
        self._all = 0.0
        self.refused = 0

    def _forget_old(self):
        old = self.clock() - self.window
        spent = self._spent
        while spent and spent[0][0] < old:
            _, owner, sec = spent.popleft()
            self._all -= sec
            left = self._by_owner[owner] - sec
            if left <= 1e-9:
                del self._by_owner[owner]
            else:
                self._by_owner[owner] = left

    def allows(self, owner) -> bool:
        """Whether ``owner``'s next search may run (both budgets have something left); counts a refusal."""
        self._forget_old()
        ok = self._by_owner.get(owner, 0.0) < self.per_owner and self._all < self.total
        if not ok:
            self.refused += 1
        return ok

    def spend(self, owner, seconds: float) -> None:
        """Record a search of ``seconds`` by ``owner``."""
        if len(self._by_owner) > MAX_OWNERS:
            self._spent.clear()
            self._by_owner.clear()
            self._all = 0.0
        self._spent.append((self.clock(), owner, seconds))
        self._by_owner[owner] = self._by_owner.get(owner, 0.0) + seconds
        self._all += seconds

    def used(self, owner=None) -> float:
        """Seconds spent in the window by ``owner`` (None: by everyone)."""
        self._forget_old()
        return self._all if owner is None else self._by_owner.get(owner, 0.0)

