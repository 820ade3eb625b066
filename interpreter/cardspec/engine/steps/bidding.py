"""The ``bid`` step: every seat in turn names a number (how many tricks it will take, a contract, …).

YAML (``counter`` required, the rest optional)::

    bid:
      counter: bids                  # per-seat counter the bids go into (declare it with per: deal)
      min: 0                         # lowest bid (an expression)
      max: tricks_in_deal            # highest bid (an expression)
      order: EXPR                    # list of seats, in bidding order
                                     #   (default: from the dealer's left clockwise, the dealer last)
      legal: EXPR                    # extra condition on a bid (seat, bid), e.g. the hook:
                                     #   not (seat == dealer and bid + sum(bids) == tricks_in_deal)
      reason: TEXT                   # why a bid the ``legal:`` condition refuses is illegal (for messages)
      after_bid: [effects]           # (seat, bid)

Each bid is stored in ``counter[seat]`` at once, so later seats' ``legal:``
conditions see the earlier bids (``sum(bids)``: the bids so far, as unbid seats
hold the counter's initial value, 0 by default). If ``legal:`` would leave a
seat no bid at all, it is lifted for that seat (the tricks step's rule for its
``lead:``/``play:`` conditions).

Action text: ``bid 3`` (``3`` is read too). Events: ``{"type": "bid", "seat",
"bid"}`` for every bid, public. The view adds ``bids_made`` (seat → bid, for the
seats that have bid in this step) and ``bid_order``.

Where the rule comes from: the bidding games' digest in shared/rules/ ("Bidding",
the hook); the step knows no game, the ruleset supplies every number.
"""
from __future__ import annotations

from ..compiler import Compiler, INTS, failed_reason
from ..effects import compile_effects
from ..slots import DEALER, SITS_OUT, TO_ACT
from .base import DealError, Step, step_type
from .folded import per_args
from ...lang import BOOL, INT, RuleFault
from .turns import MAX_NUMBER_VALUES   # the most bids offered at once, as a number parameter's values (Caps)

BID_CTX = (("seat", INT), ("bid", INT))
#: The texts of the bids 0 … 127 (``Bid._legal_texts``): 128 strings, made once.
_TEXTS = tuple(f"bid {b}" for b in range(128))


@step_type("bid")
class Bid(Step):
    """Seats bid one after another; a bid is an int in ``[min, max]`` allowed by ``legal:``."""

    decision = True

    def __init__(self, game, comp: Compiler, body, path):
        super().__init__(game, comp, body, path)
        if not isinstance(body, dict) or "counter" not in body:
            comp.problem(path, "bid needs 'counter:' (a per-seat counter for the bids)",
                         "e.g. bid: {counter: bids, min: 0, max: hand_size}")
            body = {}
        self.counter = self._counter(game, comp, body.get("counter"), path + ("counter",))
        self.lo = comp.expr(body.get("min", 0), path + ("min",), (), (INT,))
        self.hi = comp.expr(body.get("max", 0), path + ("max",), (), (INT,))
        self.order = comp.expr(body["order"], path + ("order",), (), (INTS,)) if "order" in body else None
        # legal: an expression, {rule, reason} or a list of them; messages give the failing part's reason
        self.reason = " ".join(str(body.get("reason", "a restriction of this ruleset forbids it")).split())
        self.restrict, self.restrict_parts = comp.condition(body["legal"], path + ("legal",), BID_CTX, self.reason) \
            if "legal" in body else (None, [])
        self.after_bid = compile_effects(game, comp, body.get("after_bid"), path + ("after_bid",), BID_CTX)
        self._values = self._static_values(game, comp, body)
        # `legal:` folded to true at load (an option off: the hook): no call per bid (engine/steps/folded.py).
        self._always = per_args(self.restrict, ("p_seat", "p_bid"), [(0, 0)]) == [True]
        self.legal_texts = self._legal_texts

    @staticmethod
    def _static_values(game, comp, body):
        """Every bid possible in this game when ``min``/``max`` are bounded at load time (a range),
        else None: the bid is then made in digits (docs/actions.md)."""
        from ...lang import DslError, compile_expr
        from ..choices import static_range
        try:
            lo = compile_expr(str(body.get("min", 0)), game.env, {}, (INT,)).src
            hi = compile_expr(str(body.get("max", 0)), game.env, {}, (INT,)).src
        except DslError:
            return None
        return static_range(lo, hi, "1", len(game.deck.cards))

    # ---- small choices (docs/actions.md) ---------------------------------------------------------
    @property
    def compound(self):
        return self._values is None

    def choice_names(self, game):
        """``bid N`` per possible bid; when the bids are not bounded at load time, ``bid D`` per first
        digit then each digit (``bid 1``, ``2``: a bid of 12; ``done`` ends a bid that could go on)."""
        from ..choices import DIGITS
        if self._values is not None:
            return [f"bid {b}" for b in self._values]
        return [f"bid {d}" for d in DIGITS] + list(DIGITS)

    def choice_options(self, s, pos):
        if self._values is not None:
            return Step.choice_options(self, s, pos)
        from ..choices import digit_options
        prefix, ended = pos or ("", False)
        legal = self.legal(s)
        if ended:
            return [], int(prefix)
        nxt, complete = digit_options(legal, prefix)
        if complete and not nxt:
            return [], int(prefix)
        if not prefix:
            return [f"bid {d}" for d in nxt], None
        return nxt + (["done"] if complete else []), None

    def choice_next(self, s, pos, chunk):
        if self._values is not None:
            return Step.choice_next(self, s, pos, chunk)
        prefix, _ = pos or ("", False)
        if chunk == "done":
            return (prefix, True)
        return (prefix + chunk.split()[-1], False)

    @staticmethod
    def _counter(game, comp, name, path):
        if name is None:
            return 0
        c = game.counter.get(str(name))
        if c is None:
            import difflib
            close = difflib.get_close_matches(str(name), list(game.counter), n=1)
            comp.problem(path, f"unknown counter '{name}'", f"did you mean '{close[0]}'?" if close else
                         "declare it under counters: (per: deal)")
            return 0
        return c.index

    # ---- flow ---------------------------------------------------------------
    def enter(self, s):
        n = s.n
        if self.order is None:
            d = s.v[DEALER]
            queue = [(d + 1 + i) % n for i in range(n)]
        else:
            queue = [int(x) % n for x in self.order(s)]
        if s.game.may_sit_out and s.v[SITS_OUT] >= 0:   # a seat that sits out does not bid
            queue = [x for x in queue if x != s.v[SITS_OUT]]
        if not queue:
            return False
        lo, hi = self.lo(s), self.hi(s)
        if lo > hi:
            raise DealError(self, f"no bid is possible: min {lo} is above max {hi}")
        s.queue = queue
        s.flight = []          # (seat, bid) in this step, for the view
        s.v[TO_ACT] = queue[0]
        return True

    def legal(self, s):
        seat = s.v[TO_ACT]
        rng = range(self.lo(s), self.hi(s) + 1)
        if len(rng) > MAX_NUMBER_VALUES:   # min/max are expressions: the cap of a number's values (Caps)
            raise RuleFault(f"the bids go from {rng.start:,} to {rng.stop - 1:,}: {len(rng):,} bids; at most "
                            f"{MAX_NUMBER_VALUES:,} at once (docs/rulesets.md, Caps)")
        if self.restrict is None or self._always:
            return list(rng)
        r = self.restrict
        ok = [b for b in rng if r(s, seat, b)]
        return ok or list(rng)

    def apply(self, s, bid):
        seat = s.v[TO_ACT]
        s.c[self.counter][seat] = bid
        if s.flight is not None:
            s.flight.append((seat, bid))
        if s.events is not None:
            s.emit({"type": "bid", "seat": seat, "bid": bid})
        if self.after_bid is not None:
            self.after_bid(s, seat, bid)
        s.queue.pop(0)
        if s.queue:
            s.v[TO_ACT] = s.queue[0]
            return False
        s.flight = None
        return True

    def _legal_texts(self, s):
        """``(texts, moves)``: ``legal`` and its texts in one call (``State.legal_actions``); bids that run
        without a gap from ``lo`` to ``hi`` within ``_TEXTS`` give their texts as a slice of that table."""
        moves = self.legal(s)
        if moves:
            lo, hi = moves[0], moves[-1]
            if 0 <= lo and hi < len(_TEXTS) and hi - lo + 1 == len(moves):   # (ascending, each once)
                return list(_TEXTS[lo:hi + 1]), moves
        return [f"bid {b}" for b in moves], moves

    # ---- text ----------------------------------------------------------------
    def text(self, s, bid):
        return f"bid {bid}"

    def texts(self, s, moves):
        return [f"bid {b}" for b in moves]

    def parse(self, s, text):
        parts = text.split()
        if len(parts) == 2 and parts[0].lower() == "bid":
            parts = parts[1:]
        if len(parts) != 1:
            raise ValueError("write a bid as 'bid 3'")
        try:
            return int(parts[0])
        except ValueError:
            raise ValueError(f"'{parts[0]}' is not a number; write a bid as 'bid 3'") from None

    def why_illegal(self, s, bid):
        lo, hi = self.lo(s), self.hi(s)
        if not (lo <= bid <= hi):
            return f"not legal: a bid is from {lo} to {hi}"
        return f"not legal: {failed_reason(self.restrict_parts, s, s.v[TO_ACT], bid, fallback=self.reason)}"

    def add_view(self, s, seat, out):
        if s.flight is not None:
            out["bids_made"] = {str(st): b for st, b in s.flight}
            out["bid_order"] = list(s.queue)

    def restore(self, s, view):
        """Rebuild the step's own position (the bids so far, the seats still to bid) from ``view``
        (determinization; the bids themselves are in the view's counters)."""
        s.flight = [(int(st), int(b)) for st, b in (view.get("bids_made") or {}).items()]
        s.queue = [int(x) for x in view.get("bid_order") or [view["to_act"]]]
