"""The ``auction`` step: seats bid in turn for the right to declare; the highest bid wins (docs/auction.md).

YAML (every key optional but ``bids`` or ``contracts``)::

    auction:
      bids:                          # the shape of a bid; the listed values in the order the auction climbs
        number: {min: 13, max: 20}   #   a number (or a list: [2, 3, 4])           -> "bid 14"
        suit: [C, D, H, S]           #   with a suit (NT: no trumps, read as no_suit) -> "bid 14 H"
        rank: [A, 3, K, Q, J, 7]     #   a rank (ranks of the deck)                 -> "bid K"
      contracts: [solo]              # named bids, after every shaped bid           -> "solo"
      first: left_of(dealer)         # the first seat to speak (default: the next player after the dealer)
      next: left_of(seat)            # the seat after `seat` (default: the next player, match: next_player)
      passing: soft                  # soft: a seat that passed may bid again later | hard: a pass leaves
      once: false                    # true: each seat speaks once (then the auction is over)
      beats: level > bid_level       # the bid beats the standing one (default: it comes later in the list)
      legal: EXPR                    # any other condition on a bid
      reason: TEXT                   # why a bid that `legal:` refuses is illegal (messages)
      may_pass: EXPR                 # whether `seat` may pass (default true; e.g. the dealer must bid)
      ends: EXPR                     # after this bid the auction is over at once (solo, smudge, the top bid)
      all_pass: redeal               # everyone passed: redeal (same dealer, the deal does not count)
                                     #   | throw_in (the deal ends now and counts) | a contract's name
      after_bid: [effects]           # after every bid or pass (seat, passed, the bid's fields)
      calls:                         # calls that are not bids: they change the standing bid's terms
        double:                      #   without becoming it (action text: the name)
          legal: EXPR                #   when it may be made (seat, last_call, last_caller)
          reason: TEXT               #   why not (messages)
          effects: [effects]         #   what it does (same names)
          ends: EXPR                 #   after it the auction is over at once (same names)
      declarer: high_bidder          # high_bidder | first_to_name_suit: the first seat of the high
                                     #   bidder's team (match: teams) who bid the winning bid's suit
      say_hold: false                # true: by pairs, a sayer bids to a holder who holds or passes
                                     #   (steps/say_hold.py; `first:` is the first holder)

Bid expressions (``beats``, ``legal``, ``ends``, ``after_bid``) see ``seat`` and the bid's fields:
``number`` (int; 0 when the shape has none), ``suit`` (``no_suit``), ``rank`` (the rank's ``card.rank``
value, 0 when none), ``contract`` (the contract's name, ``""`` for a shaped bid) and ``level`` (the
bid's place in the list: 0 for the first shaped bid, contracts after every shaped bid). The
standing bid and its bidder are table values readable everywhere, during the auction and for the
rest of the deal: ``declarer`` (-1 until someone bids), ``bid_number``, ``bid_suit``, ``bid_rank``,
``bid_contract``, ``bid_level`` (-1 before any bid). ``may_pass`` sees ``seat``; ``after_bid`` also
``passed`` (bool).

The auction ends when every other seat has passed after a bid (soft passing: ``players - 1`` passes
in a row after it; hard passing: only the bidder is left in), when ``ends`` holds for a bid, or (with
``once``) when every seat has spoken. Everyone passing without a bid: ``all_pass``. With ``redeal``
the same dealer deals again and the deal number stays (the State counts redeals against ``match:
max_deals`` so a match of passes ends); ``throw_in`` ends the deal at once (the steps after the
auction do not run; it counts as a deal); a contract's name makes it the deal's contract with no
declarer (``declarer`` -1, ``bid_contract`` the name) and the deal goes on.

A **call** (``calls:``) is neither a bid nor a pass: a double or redouble changes the standing bid's
terms (what the ruleset's effects record) without becoming the bid. Its ``legal:`` and ``effects:`` see
``seat``, ``last_call`` (``""`` before any bid or call, ``"bid"`` after a bid, else the last call's
name; passes are skipped) and ``last_caller`` (its seat, -1). A call restarts the passes in a row: the
auction ends when every other seat has passed after the last bid or call. ``after_bid`` does not run for
calls; a call's ``ends:`` holding ends the auction at once, the standing bid winning. A bid's ``suit:`` list may hold ``NT`` (no trumps) in its place in the order: such a bid has
``suit`` ``no_suit``. ``declarer: first_to_name_suit``: when the auction ends, the declarer is the
first seat of the high bidder's team (``match: teams``) that bid the winning bid's suit (NT counting
as a suit) during the auction.

Action texts: ``pass``, ``bid 14 H``, ``bid 3 NT``, ``bid K``, ``bid 3``, a contract's name (``solo``;
``bid solo`` is read too), a call's name (``double``); with ``say_hold``, ``hold`` (also ``yes``). Suits may be written ``H``, ``hearts``, ``♥``; ``14H`` is read as ``14 H``.

Events (public): ``bid`` (``seat``, ``bid``: the text without ``bid ``, ``pass``, ``hold``, or a call's name
with ``call: true``), then
``auction_end`` (``declarer``, ``bid``) or ``all_pass`` (``then``: redeal | throw_in | the contract).
The view adds ``auction``: ``{"bids": [[seat, text], …], "out": [seats that passed for good],
"high": text or None}``.

Where the rules come from: the auctions of the five-player team games and of a
pitch game (the digests' "Bidding" sections in shared/rules/). The step knows no game: the bid shapes, their order, ``beats`` and what all
passes mean are the ruleset's.
"""
from __future__ import annotations

from ..compiler import Compiler, _dummy, failed_reason
from ..effects import compile_effects
from ..slots import BID_CONTRACT, BID_LEVEL, BID_NUMBER, BID_RANK, BID_SUIT, DEALER, DECLARER, REDEALS, SITS_OUT, TO_ACT
from .base import Step, step_type
from .folded import per_args
from .say_hold import HOLD, SayHold
from .turns import MAX_NUMBER_VALUES
from ...lang import BOOL, INT, STR, SUIT, EngineText

PASS = -1
BID_CTX = (("seat", INT), ("number", INT), ("suit", SUIT), ("rank", INT), ("contract", STR), ("level", INT))
AFTER_CTX = BID_CTX + (("passed", BOOL),)
CALL_CTX = (("seat", INT), ("last_call", STR), ("last_caller", INT))
NO_TRUMP = ("NT", "NOTRUMP", "NOTRUMPS", "NO_TRUMP", "NO_TRUMPS")   # a suit: entry meaning no trumps
DECLARER_RULES = ("high_bidder", "first_to_name_suit")
ALL_PASS = ("redeal", "throw_in")
#: The generated code of the default ``beats:`` (``level > bid_level``): a bid beats every bid listed before it.
CLIMBS_SRC = f"(p_level > s.v[{BID_LEVEL}])"


def _per_bid(cond, fields_of):
    """``[bool(cond(None, 0, *f)) for f in fields_of]`` when the generated condition ``cond(s, seat, number,
    suit, rank, contract, level)`` reads neither the state nor the seat (a function of the bid alone, the
    same at every position: ``folded.per_args``) and answers for every bid; else None (asked in play)."""
    if cond is _dummy:
        return None
    return per_args(cond, ("p_seat",), [(0,) + f for f in fields_of])


@step_type("auction")
class Auction(SayHold, Step):
    """Seats bid for the contract; the last bid that every other seat let stand wins (see the module doc)."""

    decision = True

    def __init__(self, game, comp: Compiler, body, path):
        super().__init__(game, comp, body, path)
        if not isinstance(body, dict) or not (body.get("bids") or body.get("contracts")):
            comp.problem(path, "auction needs 'bids:' (number, suit, rank) or 'contracts:' (named bids)",
                         "e.g. auction: {bids: {number: {min: 13, max: 20}, suit: [C, D, H, S]}}")
            body = {"contracts": ["bid"]}
        deck = game.deck
        shape = body.get("bids") or {}
        if not isinstance(shape, dict):
            comp.problem(path + ("bids",), "bids: is a mapping of number:, suit:, rank:")
            shape = {}
        for k in shape:
            if k not in ("number", "suit", "rank"):
                comp.problem(path + ("bids", k), f"a bid's shape has number, suit and rank, not '{k}'")
        numbers = self._numbers(comp, shape.get("number"), path + ("bids", "number"))
        suits = self._suits(comp, deck, shape.get("suit"), path + ("bids", "suit"))   # NT: -2
        ranks = self._ranks(comp, deck, shape.get("rank"), path + ("bids", "rank"))
        contracts = body.get("contracts") or []
        if isinstance(contracts, str):
            contracts = [contracts]
        contracts = [str(c) for c in contracts]
        for i, c in enumerate(contracts):
            if not c.replace("_", "").isalnum() or c.lower() in ("pass", "bid") or contracts.index(c) != i:
                comp.problem(path + ("contracts", i), f"'{c}' cannot name a contract (a word, not pass/bid, "
                             "each once)")
        # Every bid, in the order the auction climbs: (number, suit, rank value, rank code, contract).
        bids = []
        if shape:
            for nb in numbers if numbers is not None else [0]:
                for rk in ranks if ranks is not None else [(0, None)]:
                    for su in suits if suits is not None else [-1]:
                        bids.append((nb, max(su, -1), rk[0], rk[1], "", su == -2))
        has_number = numbers is not None
        bids += [(0, -1, 0, None, c, False) for c in contracts]
        self.bids = bids
        self._texts = [self._bid_text(deck, b, has_number) for b in bids]
        self.calls = self._calls(game, comp, body.get("calls"), path + ("calls",), set(contracts))
        self._texts += [c[0] for c in self.calls]   # a call's move: len(bids) + its index
        self._texts_pass = tuple(self._texts) + ("hold", "pass")   # index PASS (-1): "pass", HOLD (-2)
        self._ten_is_rank = ranks is not None and numbers is None
        self._lookup = {}
        for lvl, t in enumerate(self._texts):
            self._lookup[t.lower()] = lvl
        self.first = comp.expr(body["first"], path + ("first",), (), (INT,)) if "first" in body else None
        self.next = comp.expr(body["next"], path + ("next",), (("seat", INT),), (INT,)) if "next" in body else None
        self.hard = str(body.get("passing", "soft")) == "hard"
        if str(body.get("passing", "soft")) not in ("soft", "hard"):
            comp.problem(path + ("passing",), f"passing is soft or hard, not '{body.get('passing')}'")
        self.once = bool(body.get("once", False))
        beats = comp.code(body.get("beats", EngineText("level > bid_level")), path + ("beats",), BID_CTX, (BOOL,))
        self.beats = comp.function(beats.src, BID_CTX) if beats is not None else _dummy
        # The default order (a bid beats every bid listed before it): the bids that beat the standing one
        # are the rest of the list, found without asking `beats` of each. Also when the ruleset's `beats:`
        # compiles to the default's code (its other terms read options folded away at load).
        self._climbs = " ".join(str(body.get("beats", "level > bid_level")).split()) == "level > bid_level" or \
            (beats is not None and beats.src == CLIMBS_SRC)
        # legal: an expression, {rule, reason} or a list of them; messages give the failing part's reason
        self.reason = " ".join(str(body.get("reason", "a restriction of this ruleset forbids it")).split())
        self.restrict, self.restrict_parts = comp.condition(body["legal"], path + ("legal",), BID_CTX, self.reason) \
            if "legal" in body else (None, [])
        self.may_pass = self._may_pass_expr = None
        if "may_pass" in body:   # (a condition that folds to true at load, options read: no call per listing)
            may_pass = comp.code(body["may_pass"], path + ("may_pass",), (("seat", INT),), (BOOL,))
            self.may_pass = comp.function(may_pass.src, (("seat", INT),)) if may_pass is not None else _dummy
            self._may_pass_expr = self.may_pass   # (the tests hold the folded one to it)
            if may_pass is not None and may_pass.src == "True":
                self.may_pass = None
        self.ends = comp.expr(body["ends"], path + ("ends",), BID_CTX, (BOOL,)) if "ends" in body else None
        all_pass = str(body.get("all_pass", "redeal"))
        if all_pass not in ALL_PASS and all_pass not in contracts:
            if game.option_named(all_pass) is not None and str(game.options[all_pass]) in ALL_PASS + tuple(contracts):
                all_pass = str(game.options[all_pass])
            else:
                comp.problem(path + ("all_pass",), f"all_pass is redeal, throw_in or one of the contracts "
                             f"({', '.join(contracts) or 'none declared'}), not '{all_pass}'",
                             "a fallback contract (a leaster) must be listed under contracts:")
        self.all_pass = all_pass
        self.after_bid = compile_effects(game, comp, body.get("after_bid"), path + ("after_bid",), AFTER_CTX)
        self.declarer_rule = str(body.get("declarer", "high_bidder"))
        if self.declarer_rule not in DECLARER_RULES:
            comp.problem(path + ("declarer",), f"declarer is high_bidder or first_to_name_suit, not "
                         f"'{self.declarer_rule}'")
        elif self.declarer_rule == "first_to_name_suit" and not (game.data.get("match") or {}).get("teams"):
            comp.problem(path + ("declarer",), "declarer: first_to_name_suit needs match: teams (the "
                         "partnerships whose first seat to name the suit declares)",
                         "e.g. match: {teams: [[0, 2], [1, 3]]}")
        self.say_hold = bool(body.get("say_hold", False))
        if self.say_hold:
            clash = [k for k in ("once", "ends", "calls") if body.get(k)] + \
                (["passing: hard"] if "passing" in body else [])
            if clash:
                comp.problem(path + ("say_hold",), f"an auction by pairs (say_hold) has its own order of "
                             f"speaking and passing: drop {', '.join(clash)}")
        self.legal_sorted = self.legal
        # Load-time tables: each bid's fields (seat aside) and its text in the events and views; the
        # levels `legal:` allows and whether `ends:` holds after each bid, when those conditions read
        # the bid's fields alone (not the state, not the seat: `contract == "pick"`), else None.
        self._fields_of = [(b[0], b[1], b[2], b[4], lvl) for lvl, b in enumerate(bids)]
        self._said = [t.removeprefix("bid ") for t in self._texts]
        allowed = _per_bid(self.restrict, self._fields_of)
        self._allowed = None if allowed is None else [lvl for lvl, ok in enumerate(allowed) if ok]
        self._ends_at = _per_bid(self.ends, self._fields_of)
        if not self.say_hold:
            self.legal_texts = self._legal_texts

    # ---- load-time helpers -------------------------------------------------------------------
    @staticmethod
    def _numbers(comp, spec, path):
        if spec is None:
            return None
        if isinstance(spec, dict):
            lo = comp.constant(spec.get("min", 0), path + ("min",))
            hi = comp.constant(spec.get("max", 0), path + ("max",))
            if int(hi) - int(lo) >= MAX_NUMBER_VALUES:   # max: 2**63 once raised OverflowError (fuzz 20261201:21343)
                comp.problem(path, f"number: from {int(lo):,} to {int(hi):,} is more than {MAX_NUMBER_VALUES:,} "
                             "bids (docs/rulesets.md, Caps)", "e.g. number: {min: 13, max: 20}")
                return None
            out = list(range(int(lo), int(hi) + 1))
        elif isinstance(spec, list):
            out = [int(comp.constant(x, path + (i,))) for i, x in enumerate(spec)]
        else:
            comp.problem(path, "number: is {min: N, max: M} or a list of numbers [2, 3, 4]")
            return None
        if not out:
            comp.problem(path, "number: allows no bid (min is above max)")
        return out

    @staticmethod
    def _suits(comp, deck, spec, path):
        if spec is None:
            return None
        if not isinstance(spec, list) or not spec:
            comp.problem(path, "suit: is a list of suits in the order the auction climbs, e.g. [C, D, H, S]")
            return None
        out = []
        for i, x in enumerate(spec):
            if str(x).upper() in NO_TRUMP and deck.suit_index(str(x)) < 0:
                if -2 in out:
                    comp.problem(path + (i,), "no trumps (NT) is listed twice")
                out.append(-2)   # no trumps: a bid's suit is no_suit, its text NT
                continue
            k = deck.suit_index(str(x)) if str(x) not in "♠♥♦♣" else deck.suit_index("SHDC"["♠♥♦♣".index(str(x))])
            if k < 0:
                comp.problem(path + (i,), f"'{x}' is not a suit of this deck", "suits: " + ", ".join(deck.suits))
            out.append(k)
        return out

    @staticmethod
    def _ranks(comp, deck, spec, path):
        if spec is None:
            return None
        if not isinstance(spec, list) or not spec:
            comp.problem(path, "rank: is a list of ranks in the order the auction climbs, e.g. [A, 3, K, Q]")
            return None
        out = []
        for i, x in enumerate(spec):
            code = "T" if str(x) == "10" else str(x).upper()
            faces = [f for f in range(deck.n_faces) if deck.code[f][:-1] == code and deck.suit[f] >= 0]
            if not faces:
                comp.problem(path + (i,), f"'{x}' is not a rank of this deck", "ranks: " + ", ".join(deck.ranks))
                out.append((0, code))
                continue
            out.append((deck.rank[faces[0]], code))
        return out

    @staticmethod
    def _calls(game, comp, spec, path, contracts):
        """``calls:`` as ``[(name, legal, parts, reason, effects, ends)]`` (module doc)."""
        if spec is None:
            return []
        if not isinstance(spec, dict) or not spec:
            comp.problem(path, "calls: maps each call's name to {legal, reason, effects}",
                         "e.g. calls: {double: {legal: 'last_call == \"bid\"', effects: [{set: {doubled: 1}}]}}")
            return []
        out = []
        for name, body in spec.items():
            name = str(name)
            p = path + (name,)
            if not name.replace("_", "").isalnum() or name.lower() in ("pass", "bid") or name in contracts:
                comp.problem(p, f"'{name}' cannot name a call (a word, not pass, bid or a contract's name)")
                continue
            body = body or {}
            if not isinstance(body, dict):
                comp.problem(p, "a call is {legal: EXPR, reason: TEXT, effects: [...]}")
                continue
            reason = " ".join(str(body.get("reason", f"{name} is not allowed now")).split())
            legal, parts = comp.condition(body["legal"], p + ("legal",), CALL_CTX, reason) \
                if "legal" in body else (None, [])
            effects = compile_effects(game, comp, body.get("effects"), p + ("effects",), CALL_CTX)
            ends = comp.expr(body["ends"], p + ("ends",), CALL_CTX, (BOOL,)) if "ends" in body else None
            out.append((name, legal, parts, reason, effects, ends))
        return out

    def _last_call(self, s):
        """``(last_call, last_caller)``: the last bid or call of the auction so far (passes skipped)."""
        nb = len(self.bids)
        for seat, m in reversed(s.flight or ()):
            if m != PASS:
                return ("bid" if m < nb else self.calls[m - nb][0]), seat
        return "", -1

    @staticmethod
    def _bid_text(deck, b, has_number):
        number, suit, _, rcode, contract, nt = b
        if contract:
            return contract
        parts = []
        if has_number:
            parts.append(str(number))
        if rcode is not None:
            parts.append(rcode)
        if suit >= 0:
            parts.append(deck.suits[suit])
        if nt:
            parts.append("NT")
        return "bid " + " ".join(parts)

    # ---- flow ----------------------------------------------------------------------------------
    def _after(self, s, seat):
        if self.next is not None:
            nxt = self.next(s, seat) % s.n
            if s.game.may_sit_out and nxt == s.v[SITS_OUT]:   # a seat that sits out does not bid
                nxt = self.next(s, nxt) % s.n
            return nxt
        return s.game.next_player(s, seat)

    def enter(self, s):
        v = s.v
        v[DECLARER] = -1
        v[BID_NUMBER] = 0
        v[BID_SUIT] = -1
        v[BID_RANK] = 0
        v[BID_CONTRACT] = ""
        v[BID_LEVEL] = -1
        first = self._first_seat(s)
        if self.say_hold:
            self._sh_enter(s, first)
            return True
        # s.flight: the bids so far as (seat, level or PASS); s.queue: [passes in a row, seats out (bits),
        # seats that have spoken (bits)].
        s.flight = []
        s.queue = [0, 0, 0]
        v[TO_ACT] = first
        return True

    def _first_seat(self, s):
        return s.game.seated(s, self.first(s)) if self.first is not None else self._after(s, s.v[DEALER])

    def _fields(self, lvl):
        return self._fields_of[lvl]

    def legal(self, s):
        if self.say_hold:
            return self._sh_legal(s)
        seat = s.v[TO_ACT]
        out = self._bids_beating(s, seat)
        if self.calls:
            nb = len(self.bids)
            last, by = self._last_call(s)
            for i, (_, ok, _, _, _, _) in enumerate(self.calls):
                if ok is None or ok(s, seat, last, by):
                    out.append(nb + i)
        if self.may_pass is None or not out or self.may_pass(s, seat):
            out.insert(0, PASS)
        return out

    def _legal_texts(self, s):
        """``(texts, moves)``: ``legal`` and its texts in one call (``State.legal_actions``)."""
        moves = self.legal(s)
        t = self._texts_pass
        return [t[m] for m in moves], moves

    def _bids_beating(self, s, seat):
        """The bids ``seat`` may make now (they beat the standing one and ``legal:`` allows them)."""
        high = s.v[BID_LEVEL]
        beats, restrict = self.beats, self.restrict
        if self._climbs and restrict is None:
            out = list(range(high + 1, len(self.bids)))
        elif self._climbs and self._allowed is not None:   # `legal:` reads the bid alone: its table
            out = [lvl for lvl in self._allowed if lvl > high]
        else:
            out = []
            fields = self._fields_of
            for lvl in range(high + 1, len(fields)) if self._climbs else range(len(fields)):
                f = fields[lvl]
                if high >= 0 and not self._climbs and not beats(s, seat, *f):
                    continue
                if restrict is not None and not restrict(s, seat, *f):
                    continue
                out.append(lvl)
        return out

    def is_legal(self, s, move):
        return move in self.legal(s)

    def apply(self, s, move):
        v = s.v
        seat = v[TO_ACT]
        if self.say_hold:
            return self._apply_pair(s, seat, move)
        q = s.queue
        s.flight.append((seat, move))
        q[2] |= 1 << seat
        passed = move == PASS
        if move >= len(self.bids):   # a call: the standing bid stays; the passes in a row start again
            return self._call(s, seat, move)
        if passed:
            q[0] += 1
            if self.hard:
                q[1] |= 1 << seat
            f = (0, -1, 0, "", -1)
        else:
            q[0] = 0
            f = self._fields(move)
            v[DECLARER] = seat
            v[BID_NUMBER], v[BID_SUIT], v[BID_RANK], v[BID_CONTRACT], v[BID_LEVEL] = f
        if s.events is not None:
            s.emit({"type": "bid", "seat": seat, "bid": "pass" if passed else self._said[move]})
        if self.after_bid is not None:
            self.after_bid(s, seat, *f, passed)
        n = s.n
        everyone = (1 << n) - 1   # the seats that bid: all but one that sits out (steps/sitout.py)
        if s.game.may_sit_out and v[SITS_OUT] >= 0:
            everyone &= ~(1 << v[SITS_OUT])
            n -= 1
        over = False
        if not passed and self.ends is not None and (
                self._ends_at[move] if self._ends_at is not None else self.ends(s, seat, *f)):
            over = True
        elif self.once and q[2] == everyone:
            over = True
        elif v[DECLARER] >= 0:
            if self.hard:
                over = q[1] | (1 << v[DECLARER]) == everyone
            else:
                over = q[0] >= n - 1
        elif (self.hard and q[1] == everyone) or (not self.hard and q[0] >= n):
            return self._all_passed(s)
        if over:
            if v[DECLARER] < 0:
                return self._all_passed(s)
            return self._finish(s)
        v[TO_ACT] = self._next_speaker(s, seat)
        return False

    def _next_speaker(self, s, seat):
        """The seat after ``seat`` that may still speak (not out with hard passing, not done with ``once``)."""
        q = s.queue
        nxt = self._after(s, seat)
        for _ in range(s.n):
            if not (self.hard and q[1] >> nxt & 1) and not (self.once and q[2] >> nxt & 1):
                break
            nxt = self._after(s, nxt)
        return nxt

    def _apply_pair(self, s, seat, move):
        """A call of an auction by pairs (steps/say_hold.py): its event, ``after_bid``, the next speaker."""
        if s.events is not None:
            s.emit({"type": "bid", "seat": seat,
                    "bid": "pass" if move == PASS else "hold" if move == HOLD else self._texts[move].removeprefix("bid ")})
        over = self._sh_move(s, seat, move)
        if self.after_bid is not None:
            f = (0, -1, 0, "", -1) if move == PASS else self._fields(s.v[BID_LEVEL])
            self.after_bid(s, seat, *f, move == PASS)
        if over is None:
            return self._all_passed(s)
        if over:
            return self._finish(s)
        return False

    def _finish(self, s):
        """The auction is over with a bid standing: the declarer (``declarer:``), the event."""
        v = s.v
        if self.declarer_rule == "first_to_name_suit":
            v[DECLARER] = self._first_to_name(s, v[DECLARER], v[BID_LEVEL])
        if s.events is not None:
            s.emit({"type": "auction_end", "declarer": v[DECLARER],
                    "bid": self._texts[v[BID_LEVEL]].removeprefix("bid ")})
        s.flight = None
        s.queue = []
        return True

    def _call(self, s, seat, move):
        """Make call ``move`` (a double): its effects, then the next seat speaks (module doc)."""
        name, _, _, _, effects, ends = self.calls[move - len(self.bids)]
        last, by = self._last_call(s)   # (before this call is recorded)
        q = s.queue
        q[0] = 0
        s.flight.append((seat, move))
        q[2] |= 1 << seat
        if s.events is not None:
            s.emit({"type": "bid", "seat": seat, "bid": name, "call": True})
        if effects is not None:
            effects(s, seat, last, by)
        if ends is not None and ends(s, seat, last, by):
            return self._finish(s)
        s.v[TO_ACT] = self._next_speaker(s, seat)
        return False

    def _first_to_name(self, s, high, level):
        """The first seat of ``high``'s team that bid the suit of the bid at ``level`` (NT a suit)."""
        team = next((t for t in s.game.teams if high in t), (high,))
        strain = self.bids[level][1], self.bids[level][5]
        nb = len(self.bids)
        for seat, m in s.flight:
            if 0 <= m < nb and seat in team and (self.bids[m][1], self.bids[m][5]) == strain:
                return seat
        return high

    def _all_passed(self, s):
        s.flight = None
        s.queue = []
        what = self.all_pass
        if s.events is not None:
            s.emit({"type": "all_pass", "then": what})
        v = s.v
        if what == "redeal":
            v[REDEALS] += 1
            s.redeal()
            return None
        if what == "throw_in":
            s.pc = len(s.game.steps) - 1   # the deal ends when this step does
            return True
        v[DECLARER] = -1
        v[BID_CONTRACT] = what
        v[BID_LEVEL] = self._lookup[what.lower()]
        return True

    # ---- text -----------------------------------------------------------------------------------
    def choice_names(self, game):
        return ["pass"] + (["hold"] if self.say_hold else []) + list(self._texts)

    def text(self, s, move):
        return "pass" if move == PASS else "hold" if move == HOLD else self._texts[move]

    def texts(self, s, moves):
        t = self._texts_pass
        return [t[m] for m in moves]

    def parse(self, s, text):
        words = text.replace(",", " ").split()
        if not words:
            raise ValueError("write 'pass', 'bid ...' or a contract's name")
        if len(words) == 1 and words[0].lower() == "pass":
            return PASS
        if self.say_hold and len(words) == 1 and words[0].lower() in ("hold", "yes"):
            return HOLD
        if words[0].lower() == "bid":
            words = words[1:]
        if len(words) == 1 and words[0].lower() in self._lookup:   # a contract
            return self._lookup[words[0].lower()]
        if len(words) == 1 and len(words[0]) > 1 and words[0][:-1].isdigit() and not words[0][-1].isdigit():
            # "14H", "14♥" (not "15": a bid of a number only)
            words = [words[0][:-1], words[0][-1]]
        elif len(words) == 1 and len(words[0]) > 2 and words[0][:-2].isdigit() and words[0][-2:].upper() == "NT":
            words = [words[0][:-2], "NT"]   # "3NT"
        deck = s.game.deck
        norm = []
        for w in words:
            k = deck.suit_index("SHDC"["♠♥♦♣".index(w)]) if len(w) == 1 and w in "♠♥♦♣" else \
                -1 if w.isdigit() else deck.suit_index(w)
            norm.append(deck.suits[k] if k >= 0 else "T" if w == "10" and self._ten_is_rank else
                        "NT" if w.upper() in NO_TRUMP else w.upper())
        key = "bid " + " ".join(norm).lower()
        if key in self._lookup:
            return self._lookup[key]
        raise ValueError(f"'{text}' is not a bid of this auction (bids look like "
                         f"{self._texts[0]!r}{', ' + repr(self._texts[-1]) if len(self._texts) > 1 else ''})")

    def why_illegal(self, s, move):
        seat = s.v[TO_ACT]
        if move == HOLD:
            return "not legal: you hold only a bid said to you"
        if self.say_hold and s.queue and s.queue[0] == 1:
            return "not legal: a bid was said to you: hold or pass"
        if self.say_hold and s.queue and s.queue[0] == 2:
            return f"not legal: with no bid made you may take the lowest bid ({self._texts[0]}) or pass"
        if move == PASS:
            return "not legal: you may not pass now"
        if move >= len(self.bids):
            last, by = self._last_call(s)
            _, _, parts, reason, _, _ = self.calls[move - len(self.bids)]
            return f"not legal: {failed_reason(parts, s, seat, last, by, fallback=reason)}"
        f = self._fields(move)
        if s.v[BID_LEVEL] >= 0 and not self.beats(s, seat, *f):
            return f"not legal: it does not beat the standing bid ({self._texts[s.v[BID_LEVEL]]})"
        return f"not legal: {failed_reason(self.restrict_parts, s, seat, *f, fallback=self.reason)}"

    def bid_text(self, level: int) -> str | None:
        """The text of the bid at ``level`` (its place in the auction's list: ``bid_level``), without the
        action's word (``20 S``); None when out of range."""
        return self._texts[level].removeprefix("bid ") if 0 <= level < len(self._texts) else None

    def add_view(self, s, seat, out):
        if s.flight is not None:
            out["auction"] = {
                "bids": [[st, "pass" if m == PASS else "hold" if m == HOLD else self._texts[m].removeprefix("bid ")]
                         for st, m in s.flight],
                "out": sorted({st for st, m in s.flight if m == PASS}) if self.say_hold else
                       [i for i in range(s.n) if s.queue and s.queue[1] >> i & 1],
                "high": self._texts[s.v[BID_LEVEL]].removeprefix("bid ") if s.v[BID_LEVEL] >= 0 else None,
            }

    def restore(self, s, view):
        """Rebuild the step's own position (bids so far, passes) from ``view['auction']`` (determinization)."""
        a = view.get("auction") or {"bids": []}
        if self.say_hold:
            self._sh_restore(s, [(int(st), PASS if t == "pass" else self.parse(s, t)) for st, t in a["bids"]])
            return
        s.flight = []
        s.queue = [0, 0, 0]
        for st, t in a["bids"]:
            m = PASS if t == "pass" else self.parse(s, t)
            s.flight.append((int(st), m))
            s.queue[2] |= 1 << int(st)
            if m == PASS:
                s.queue[0] += 1
                if self.hard:
                    s.queue[1] |= 1 << int(st)
            else:
                s.queue[0] = 0
