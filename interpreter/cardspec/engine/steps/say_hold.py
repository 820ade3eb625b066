"""An auction by pairs (``auction: say_hold: true``): one seat *says* bids to another, who *holds* or passes.

A bidding by pairs: the second seat after the dealer says numbers to the first, who holds each (accepts
the same number) or passes; the survivor then hears the next seat say in the same way; the survivor of
the last pair declares. It is a mode of the ``auction`` step, for every game that bids this way
(docs/auction.md, "An auction by pairs", names them), not a game's step:

- the first holder is the auction's ``first:`` seat (default: the next player after the dealer); the
  other seats, in play order after it, are the sayers, each in turn;
- a sayer says a bid that beats the standing one (``beats:``/``legal:`` as in any auction) or passes;
  after a bid the holder says ``hold`` (he is now the high bidder at that number) or passes;
- a pass leaves the auction; the survivor holds against the next sayer; after the last sayer the
  survivor is the declarer with the last number said or held;
- when every sayer passed without a bid, the first holder may take the lowest bid (he declares at it) or
  pass (everyone passed: ``all_pass:``).

The step's own position: ``s.flight`` (the calls, as in any auction) and ``s.queue`` = [phase, holder,
sayer, first holder, a bid was made]; phase 0: the sayer speaks, 1: the holder answers, 2: the first holder
alone, no bid made. ``restore`` replays the calls of a view (determinization).
"""
from __future__ import annotations

from ..slots import BID_CONTRACT, BID_LEVEL, BID_NUMBER, BID_RANK, BID_SUIT, DECLARER, TO_ACT

PASS = -1
HOLD = -2   # the holder accepts the standing number


class SayHold:
    """The ``Auction`` step's pairwise mode (module doc); mixed into the step, used when ``say_hold`` is set."""

    def _sh_sayers(self, s, first):
        """The sayers, in order: every seat after the first holder in play order (a seat out skipped)."""
        out, seat = [], first
        for _ in range(s.n):
            seat = self._after(s, seat)
            if seat == first or seat in out:
                break
            out.append(seat)
        return out

    def _sh_enter(self, s, first):
        sayers = self._sh_sayers(s, first)
        s.flight = []
        s.queue = [0, first, sayers[0] if sayers else first, first, 0]
        if not sayers:
            s.queue[0] = 2
        s.v[TO_ACT] = s.queue[2] if sayers else first

    def _sh_legal(self, s):
        phase = s.queue[0]
        if phase == 1:
            return [PASS, HOLD]
        bids = self._bids_beating(s, s.v[TO_ACT])
        if phase == 2:
            return [PASS] + bids[:1]
        return [PASS] + bids

    def _sh_next_sayer(self, s, after):
        sayers = self._sh_sayers(s, s.queue[3])
        later = sayers[sayers.index(after) + 1:] if after in sayers else []
        return next((x for x in later if x != s.queue[1]), None)

    def _sh_move(self, s, seat, move):
        """Record ``move`` of ``seat`` and advance: True when the auction is over with a declarer, None when
        everyone passed, False when it goes on (``s.v[TO_ACT]`` set)."""
        q, v = s.queue, s.v
        phase, holder, sayer = q[0], q[1], q[2]
        s.flight.append((seat, move))
        if move >= 0:   # a bid: by the sayer, or the lone first holder taking the lowest
            v[DECLARER] = seat
            v[BID_NUMBER], v[BID_SUIT], v[BID_RANK], v[BID_CONTRACT], v[BID_LEVEL] = self._fields(move)
            q[4] = 1
            if phase == 2:
                return True
            q[0] = 1
            v[TO_ACT] = holder
            return False
        if move == HOLD:
            v[DECLARER] = holder
            q[0] = 0
            v[TO_ACT] = sayer
            return False
        # a pass
        if phase == 2:
            return None
        if phase == 1:              # the holder passes: the sayer survives and holds against the next
            q[1] = holder = sayer
        nxt = self._sh_next_sayer(s, sayer)
        if nxt is None:
            if q[4]:
                return True
            q[0] = 2                # no bid: the first holder may take the lowest bid
            v[TO_ACT] = holder
            return False
        q[0], q[2] = 0, nxt
        v[TO_ACT] = nxt
        return False

    def _sh_restore(self, s, calls):
        """Replay ``calls`` ([(seat, move)]) from the step's entry (the bid values come from the view)."""
        v = s.v
        saved = (v[DECLARER], v[BID_NUMBER], v[BID_SUIT], v[BID_RANK], v[BID_CONTRACT], v[BID_LEVEL])
        self._sh_enter(s, self._first_seat(s))
        for seat, move in calls:
            self._sh_move(s, seat, move)
        v[DECLARER], v[BID_NUMBER], v[BID_SUIT], v[BID_RANK], v[BID_CONTRACT], v[BID_LEVEL] = saved
