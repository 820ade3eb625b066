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
