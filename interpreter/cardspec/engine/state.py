"""The ``State``: one position of a match, and everything that happens during play.

A ``State`` holds zones (``s.z``: one list of card faces per shared zone, one
list of lists per per-seat zone), per-seat counters (``s.c``), scalar values
(``s.v``: dealer, leader, deal number, … then the ruleset's vars), the step
being played (``s.pc``) and its own seeded RNG. Public methods check (whose
turn, is the game over, is the action legal) and leave the state unchanged on
error; the steps in ``cardspec.engine.steps`` compute. A State is made by
``Game.new_state`` (``game.py``, where the ruleset is compiled).

Seats are 0..n-1 clockwise; seat i+1 is at seat i's left (DESIGN.md).
"""
from __future__ import annotations

import random

from . import at_once as _at_once
from . import views as _views
from .steps import base as _steps
from .steps.base import LIST_NEXT as _LIST_NEXT
from .fixed_deal import apply_deal_override
from .choosing import SmallChoices
from .model import Zone
from .teams import totals as teams_totals
from .views import VIEW_LEGAL_LIMIT  # noqa: F401  (also named here, where it was first defined)
from ..cards import CardError
from ..errors import BUG_HINT, CardspecError, GameOver, IllegalAction, RulesetError, TooManyActions, _detail
from ..lang import RuleFault

#: The most deals in a row that may end with no seat deciding anything (docs/rulesets.md, "Caps"): past
#: them the match stops with a ``RuleFault``. A game where nobody decides is a mistake of the ruleset (a
#: players range past what the deck can deal, say: 32 cards for 64 players deal every hand empty), and
#: without the cap one call would run up to ``match: max_deals`` (10,000) empty deals.
MAX_DEALS_WITHOUT_DECISION = 100

from .steps.turns import TURNS as _TS_TURNS
from .steps.turns.lazy import LazyTexts as _LazyTexts
from .slots import DEALER, LEADER, DEAL_NUMBER, TRICK_NUMBER, TRICKS_TOTAL, LED_SUIT, WINNER, TO_ACT, TRUMP, TURN, SYSTEM_VARS
from .slots import (DECLARER, BID_NUMBER, BID_SUIT, BID_RANK, BID_CONTRACT, BID_LEVEL, CALLED_BY, ROUND_NUMBER,
                    DEAL_IN_ROUND, REDEALS, SITS_OUT)


class State(SmallChoices):
    """One position of a match. Make one with ``Game.new_state``.

    Public: ``to_act`` (seat or None), ``terminal``, ``legal_actions()``,
    ``apply(text)``, ``parse_action(text)``, ``view(seat)``, ``log(seat)``,
    ``scores()``, ``clone()``.
    """

    __slots__ = ("game", "n", "z", "c", "v", "rng", "pc", "entered", "terminal", "events", "face_up",
                 "plays", "flight", "queue", "carried", "history", "_stack_order", "_result", "_deal_override", "ts", "_cache",
                 "positions", "nxt", "partial", "_chpos", "eff", "win")

    def __init__(self, game, seed=None, dealer=None, deck_order=None, record=True, deal=None, rng=None):
        self.game = game
        self.n = n = game.n
        self.rng = rng if rng is not None else random.Random(seed)
        self.z = [[[] for _ in range(n)] if zn.per_seat else [] for zn in game.zones]
        self.c = [[c.initial] * n for c in game.counters]
        self.v = [0] * (len(SYSTEM_VARS) + len(game.vars))
        self.face_up = [0] * len(game.zones)
        self.plays = []       # (seat, card) of the current trick
        self.flight = None    # cards chosen in a simultaneous step, per seat
        self.queue = []       # seats still to decide in a simultaneous step
        self.carried = []     # cards of tricks carried to the next trick's winner
        self.events = [] if record else None
        self.history = []     # actions applied, as text (for replay)
        self.terminal = False
        self.entered = False
        self._result = None
        self.pc = 0
        self._stack_order = None
        self._deal_override = deal
        self._cache = None
        self.ts = None        # the turns step's own counters (see _turns.py)
        self.positions = None  # positions seen, for repetition: (hash, key, older, seen) chain (effect `repetition`)
        self.nxt = None        # match: next_player for every seat (None: play goes left, or not computed yet)
        self.partial = ()      # small choices made so far of the seat to act's decision (choices.py)
        self._chpos = None     # the step's position for them (None: nothing chosen)
        self.eff = None        # (suit table, follow tables) when suits depend on the deal (deck suit_of)
        self.win = None        # the open window of a tricks step (steps/tricks/windows.py), or None
        if deck_order is not None:
            self._stack_order = [game.deck.face(c) for c in deck_order]
        v = self.v
        v[DEALER] = game.first_dealer if dealer is None else int(dealer) % n
        v[DEAL_NUMBER] = 1
        v[ROUND_NUMBER] = 1
        v[DEAL_IN_ROUND] = 1
        self._start_deal()
        self._advance()

    # ---- copying ------------------------------------------------------------
    def clone(self, share_rng: bool = False) -> "State":
        """An independent copy (zones, counters, values, RNG, log).

        ``share_rng=True`` gives the copy this state's RNG object instead of a copy of it (a
        search over positions without chance: copying the RNG's state is most of a clone's cost).
        """
        cls = type(self)   # (a game's State with generated id methods: fused_state_class)
        s = cls.__new__(cls)
        s.game = self.game
        s.n = self.n
        s.z = [[list(h) for h in z] if per else list(z) for per, z in zip(self.game.per_seat, self.z)]
        s.c = [list(c) for c in self.c]
        s.v = list(self.v)
        if share_rng:
            s.rng = self.rng
        else:
            r = random.Random()
            r.setstate(self.rng.getstate())
            s.rng = r
        s.pc = self.pc
        s.entered = self.entered
        s.terminal = self.terminal
        s.events = list(self.events) if self.events is not None else None
        s.face_up = list(self.face_up)
        s.plays = list(self.plays)
        s.flight = [list(f) if f is not None else None for f in self.flight] if self.flight is not None else None
        s.queue = list(self.queue)
        s.carried = list(self.carried)
        s.history = list(self.history)
        s._stack_order = self._stack_order
        s._result = self._result
        s._deal_override = None
        s._cache = None
        s.ts = list(self.ts) if self.ts is not None else None
        s.positions = self.positions   # an immutable chain: shared, never copied
        s.nxt = self.nxt               # a tuple: shared
        s.partial = self.partial       # tuples: shared
        s._chpos = self._chpos
        s.eff = self.eff               # tables: shared
        s.win = self.win
        return s

    def position_key(self) -> tuple:
        """A hashable key of the position: two states with equal keys have the same future under the rules.

        Covers the step being played, every zone (per-seat zones as sorted multisets, shared zones in
        order, a zone declared ``order: top_only`` as ``(top card, sorted rest)``: its order below the top
        is no part of the position, docs/rulesets.md), counters, vars and system values (but not the turn count), the trick, cards in flight and
        the turns step's counters (but not its count of turns taken). Leaves out the log, the action
        history, the RNG, the repetition history and any small choices in progress (``partial``). Used by the ``repetition`` effect and by
        ``cardspec.solve``'s transposition table (a game whose rules read ``turn_number`` or a turn cap
        is keyed as if the turn count did not matter).
        """
        z = tuple([tuple(map(tuple, map(sorted, zone))) if mode == 1 else tuple(zone) if not mode or not zone
                   else (zone[-1], tuple(sorted(zone[:-1])))
                   for mode, zone in zip(self.game.key_mode, self.z)])
        v = self.v
        ts = self.ts
        if ts is not None:
            ts = tuple(ts[:_TS_TURNS]) + tuple(ts[_TS_TURNS + 1:])
        fl = tuple([tuple(f) if f is not None else None for f in self.flight]) if self.flight is not None else None
        return (self.pc, self.terminal, z, tuple(map(tuple, self.c)), tuple(v[:TURN]),
                tuple(v[TURN + 1:]), ts, tuple(self.face_up), tuple(self.plays), fl, tuple(self.queue),
                tuple(self.carried))

    __copy__ = clone

    # ---- flow ---------------------------------------------------------------
    def emit(self, event: dict, to=None):
        """Record an event; ``to`` = seats that may see it (None: everyone)."""
        if self.events is not None:
            if to is not None:
                event["_to"] = tuple(to)
            self.events.append(event)

    def _start_deal(self):
        g = self.game
        v = self.v
        for i, default in g.var_resets[v[DEAL_NUMBER] == 1]:   # per-deal vars; every var at the first deal
            v[i] = default
        for i, initial in g.deal_counters:
            self.c[i] = [initial] * self.n
        v[LEADER] = -1
        v[TRICK_NUMBER] = 0
        v[TRICKS_TOTAL] = 0
        v[LED_SUIT] = -1
        v[WINNER] = -1
        v[TO_ACT] = -1
        v[TRUMP] = -1 if "trump" not in g.var else v[TRUMP]
        v[TURN] = 0
        v[DECLARER] = -1
        v[BID_NUMBER] = v[BID_RANK] = 0
        v[BID_SUIT] = v[BID_LEVEL] = v[CALLED_BY] = -1
        v[BID_CONTRACT] = ""
        v[SITS_OUT] = -1   # every seat plays until a sits_out step says otherwise
        if g.eff_of is not None:   # suits that depend on the deal: the table of its first values
            self.eff = g.eff_of(self)
        self.nxt = None   # the play order: computed when a step needs it (_advance_steps, Game.next_player)
        self.pc = 0
        self.entered = False
        self.plays = []
        self.carried = []
        self.emit({"type": "deal_start", "deal": v[DEAL_NUMBER], "dealer": v[DEALER]})

    def _advance(self):
        """Run automatic steps until a seat must decide or the match ends (``_failed`` for a fault)."""
        try:
            self._advance_steps()
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001 - the rules failed: a RulesetError at the step, not a traceback
            raise self._failed(e) from None

    def _failed(self, e: Exception) -> RulesetError:
        """The ``RulesetError`` for exception ``e`` raised while the rules ran, at the step in progress.

        A listing past ``MAX_LISTED`` is ``TooManyActions``: the state stays usable. A ``RuleFault`` (the
        rules did what docs/dsl.md forbids: cards moved into the zone of no seat,
        a decision with no legal action, …) has code ``ruleset/runtime``; any other exception is a bug
        of cardspec or a fault ``cardspec validate`` should have found: code ``internal/runtime`` and
        the bug-report hint. Either way (but ``TooManyActions``) the state is not to be used further.
        """
        steps = self.game.steps
        step = steps[self.pc] if 0 <= self.pc < len(steps) and not self.terminal else None
        path = tuple(step.path) if step is not None else ("match",)
        where = f"with {self.n} players, deal {self.v[DEAL_NUMBER]}" + (f", step '{step.name}'" if step else "")
        if not isinstance(e, RuleFault) and step is not None and step.decision and self.entered:
            try:   # a decision step with nothing to choose: the rules are at fault, not cardspec
                if not step.legal(self):
                    e = RuleFault(f"seat {self.v[TO_ACT]} has no legal action")
            except Exception:  # noqa: BLE001
                pass
        if isinstance(e, _steps.ListingTooLarge):   # the state is sound: only the list is not made
            err = TooManyActions(self.game.ruleset.problem(
                path, f"{where}: {e}", "the small choices (legal_choices, legal_action_ids) and an action's "
                                       "text still work: the state is unchanged (docs/actions.md, Too many to list)"))
            err.code = "ruleset/runtime"
        elif isinstance(e, RuleFault):
            err = RulesetError(self.game.ruleset.problem(path, f"{where}: {e}",
                                                         "cardspec validate plays random games to find such faults"))
            err.code = "ruleset/runtime"
        else:
            err = RulesetError(self.game.ruleset.problem(
                path, f"{where}: the rules failed with an unexpected {type(e).__name__}: {_detail(e)}", BUG_HINT))
            err.code = "internal/runtime"
        err.problems[0].code = err.code
        return err

    def _advance_steps(self):
        steps = self.game.steps
        last = len(steps)
        # seats may change places, or one sit out: the play order is made again at each step entered
        reorders = self.game.next_expr is not None or self.game.may_sit_out
        ended = 0   # deals ended in this call: the first may be the one just decided, the rest had no decision
        while not self.terminal:
            if self.pc >= last:
                ended += 1
                if ended > MAX_DEALS_WITHOUT_DECISION + 1:
                    raise RuleFault(f"more than {MAX_DEALS_WITHOUT_DECISION} deals in a row ended with no seat to "
                                    "decide anything (every hand empty, every step skipped?): check the deal sizes "
                                    "and the players range (docs/rulesets.md, Caps)")
                self._end_deal()
                continue
            step = steps[self.pc]
            entered = self.entered
            if not entered:
                if step.when is not None and not step.when(self):
                    self.pc += 1
                    continue
                if reorders:
                    # A step that reads the table itself gets it now; for any other, Game.next_player
                    # computes it when first asked (the expression may walk every seat: not once a step).
                    self.nxt = self.game.order_table(self) if step.reads_order else None
            if step.decision:
                if entered:
                    return
                if self._deal_override is not None and not step.before_deal:   # choices before the deal: later
                    override, self._deal_override = self._deal_override, None
                    apply_deal_override(self, override)
                try:
                    entered = step.enter(self)
                except _steps.DealError as e:
                    raise RulesetError(self.game.ruleset.problem(
                        step.path, f"with {self.n} players, deal {self.v[DEAL_NUMBER]} fails: {e}",
                        "check the deck size, the deal and pass sizes and the players range")) from None
                if entered:
                    self.entered = True
                    return
                self.pc += 1
            else:
                try:
                    step.run(self)
                except _steps.DealError as e:   # e.g. more cards asked for than the stock holds
                    raise RulesetError(self.game.ruleset.problem(
                        step.path, f"with {self.n} players, deal {self.v[DEAL_NUMBER]} fails: {e}",
                        "check the deck size, the deal sizes and the players range")) from None
                if self.game.capped_zones:
                    self._check_caps()
                self.pc += 1
                if self.game.end_at_once and not self.terminal:
                    _at_once.after_step(self)   # match: end_at_once (engine/at_once.py)

    def _check_caps(self):
        """Every zone with ``max:`` within it (``Game.capped_zones``); else a ``RuleFault`` naming the zone: the
        bound of every listing that chooses cards from it was taken from that number at load."""
        z = self.z
        for zi, per_seat, cap, name in self.game.capped_zones:
            if (max(map(len, z[zi])) if per_seat else len(z[zi])) > cap:   # (the largest pile; then which)
                for pile in (z[zi] if per_seat else (z[zi],)):
                    if len(pile) > cap:
                        raise RuleFault(f"zone '{name}' holds {len(pile)} cards, more than its max: {cap}")

    def _finish_step(self):
        self.entered = False
        self.v[TO_ACT] = -1
        self.pc += 1
        self._advance()

    def _end_deal(self):
        g = self.game
        v = self.v
        self.emit({"type": "deal_end", "deal": v[DEAL_NUMBER]})
        deals = g.match_deals(self)
        round_over = g.rounds is not None and (g.round_end is None or g.round_end(self))
        rounds = g.rounds(self) if g.rounds is not None else 0
        over = (deals > 0 and v[DEAL_NUMBER] >= deals) or (g.match_end is not None and g.match_end(self)) \
            or v[DEAL_NUMBER] + v[REDEALS] >= g.max_deals \
            or (round_over and rounds > 0 and v[ROUND_NUMBER] >= rounds)
        if over:
            self._game_over()
            return
        v[DEAL_NUMBER] += 1
        if g.rounds is not None and not round_over:   # the same dealer deals the round's next deal
            v[DEAL_IN_ROUND] += 1
        else:
            if g.rounds is not None:
                v[ROUND_NUMBER] += 1
                v[DEAL_IN_ROUND] = 1
            if g.next_dealer is not None:
                v[DEALER] = g.next_dealer(self) % self.n
            elif g.rotate == "next":
                v[DEALER] = g.next_player(self, v[DEALER])
            else:
                step = {"left": 1, "right": -1, "none": 0}.get(g.rotate, 1)
                v[DEALER] = (v[DEALER] + step) % self.n
        self._start_deal()

    def redeal(self):
        """Throw the deal in and deal again: same dealer, same deal number (an auction's ``all_pass:
        redeal``). Counts in ``redeals``; the match ends at ``match: max_deals`` deals and redeals."""
        self.emit({"type": "deal_end", "deal": self.v[DEAL_NUMBER], "redeal": True})
        if self.v[DEAL_NUMBER] + self.v[REDEALS] >= self.game.max_deals:
            self._game_over()
            return
        self.entered = False
        self._start_deal()
        self._advance()

    def _game_over(self):
        self.terminal = True
        self.v[TO_ACT] = -1
        self._result = None
        if self.events is not None:
            self.emit(self.result)

    @property
    def result(self):
        """The ``game_over`` event (scores, ranking, loser, winner) once the match is over, else None."""
        if self._result is None and self.terminal:
            g = self.game
            vals = self.game_scores()
            ranking = sorted(vals, key=lambda k: (vals[k] if g.ranking == "lowest" else -vals[k], k))
            # match: winner (docs/rulesets.md, "How a match ends"): those seats win and rank first.
            chosen = list(dict.fromkeys(g.match_winner(self))) if g.match_winner is not None else []
            if chosen:
                ranking = chosen + [k for k in ranking if k not in chosen]
            ev = {"type": "game_over", "scores": {str(k): x for k, x in vals.items()}, "ranking": ranking}
            if g.ranking == "none":   # against the house: no ranking, no winner; each seat's net result
                ev["ranking"] = []
                start = g.score_counter.initial if g.score_counter is not None else 0
                ev["net"] = {str(k): x - start for k, x in vals.items()}
                why = self._end_reason()
                if why:
                    ev["reason"] = why
                self._result = ev
                return ev
            if vals and g.loser in ("highest", "lowest"):
                worst = max(vals.values()) if g.loser == "highest" else min(vals.values())
                ev["loser"] = [k for k, x in vals.items() if x == worst]
            elif g.match_loser is not None:
                ev["loser"] = sorted(set(g.match_loser(self)))
            ev["winner"] = chosen or ([k for k in ranking if vals[k] == vals[ranking[0]]] if ranking else [])
            if g.match_stake is not None:   # match: stake: the games this win is worth (lurch, gammon, …)
                ev["stake"] = g.match_stake(self)
            why = self._end_reason()
            if why:
                ev["reason"] = why
            self._result = ev
        return self._result

    def _end_reason(self):
        """Why the match ended (text for ``game_over``'s ``reason``), from what ended it: an ``end:``
        effect or turn cap that ended the match, the match's ``end:`` condition, its deal count (with
        one deal: what ended that deal, e.g. a turns step's ``until_reason``), or ``max_deals``."""
        g = self.game
        ts = self.ts
        why = ts[7] if ts is not None and len(ts) > 7 else None
        if why is not None and why[0] >= 4:
            return why[1]
        m = g.data.get("match") or {}
        if g.match_end is not None and g.match_end(self):
            return str(m.get("end_reason") or "the match's end condition is met")
        deals = g.match_deals(self)
        if deals > 0 and self.v[DEAL_NUMBER] >= deals:
            if deals == 1:
                return why[1] if why is not None else "the deal is over"
            return f"all {deals} deals are played"
        if g.rounds is not None and 0 < g.rounds(self) <= self.v[ROUND_NUMBER]:
            return f"all {g.rounds(self)} rounds are played"
        if self.v[DEAL_NUMBER] + self.v[REDEALS] >= g.max_deals:
            return f"the deal limit ({g.max_deals} deals, match: max_deals)"
        return why[1] if why is not None else None

    @result.setter
    def result(self, value):
        self._result = value

    # ---- scores -------------------------------------------------------------
    def game_scores(self) -> dict:
        """Match totals by seat (or by team when the ruleset has teams): ``{seat: points}``."""
        g = self.game
        if g.score_counter is None:
            return {}
        c = self.c[g.score_counter.index]
        if g.score_counter.by != "seat":   # kept once per team (engine/teams.py)
            c = teams_totals(self, c, g.score_counter.by)
        if g.teams:
            return {i: c[t[0]] for i, t in enumerate(g.teams)}
        return {i: c[i] for i in range(self.n)}

    def scores(self) -> dict:
        """JSON-ready match totals: ``{"0": 13, "1": 0, …}`` (string keys, by seat or team)."""
        return {str(k): v for k, v in self.game_scores().items()}

    def ranking(self) -> list:
        """Seats (or teams) best first by the match counter (the ruleset says lowest or highest best)."""
        vals = self.game_scores()
        return sorted(vals, key=lambda k: (vals[k] if self.game.ranking == "lowest" else -vals[k], k))

    # ---- the public step API ------------------------------------------------
    @property
    def to_act(self):
        """The seat that must act now, or None when the match is over."""
        t = self.v[TO_ACT]
        return None if self.terminal or t < 0 else t

    def current_step(self):
        return None if self.terminal else self.game.steps[self.pc]

    def legal_actions(self) -> list:
        """The legal actions of the seat to act, as text forms (str), in a stable order (empty when over).

        A new ``list``, except where the actions are many and computed from their structure (a turns step's
        play of card sets or sequences, engine/steps/turns/lazy.py): then a read-only
        ``collections.abc.Sequence`` of str (``LazyTexts``: ``len``, indexing, slices as lists, iteration,
        ``in``, ``index``, ``==`` a list), each text made when read; ``list(...)`` makes the list. Raises
        ``TooManyActions`` past ``MAX_LISTED`` actions, ``RulesetError`` when the rules fail."""
        if self.terminal:
            return []
        c = self._cache   # (texts, moves) once listed: kept until the state changes
        if c is not None and c[0] is not None:
            return list(c[0]) if c[0].__class__ is not _LazyTexts else c[0]
        step = self.game.steps[self.pc]
        try:
            if step.legal_texts is not None:
                texts, moves = step.legal_texts(self)
            else:
                moves = step.legal_sorted(self)
                texts = step.texts(self, moves)
            if not moves:
                raise RuleFault(f"seat {self.v[TO_ACT]} has no legal action")
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001
            raise self._failed(e) from None
        self._cache = (texts, moves)
        return list(texts) if texts.__class__ is not _LazyTexts else texts

    def _legal_map(self) -> dict:
        """text → internal move for the seat to act."""
        c = self._legal_cached()
        return dict(zip(c[0], c[1]))

    def _legal_cached(self):
        """``(texts, moves)`` for the seat to act, cached until the state changes (made by
        ``legal_actions``)."""
        c = self._cache   # reset by apply, apply_move and random_playout
        if c is None or c[0] is None:   # (None, moves, ids, id → move): made by legal_action_ids
            self.legal_actions()
            c = self._cache or ((), ())   # (over: nothing to list)
        return c

    def parse_action(self, text: str):
        """Read an action's text form for the seat to act. Returns the canonical text.

        Raises ``IllegalAction`` when it is not a legal action now (the message lists the legal ones).
        """
        self._parse(text)
        step = self.game.steps[self.pc]
        return step.text(self, self._parse(text))

    def _parse(self, text):
        if self.terminal:
            raise GameOver(None, text, [], "given after the game ended")
        step = self.game.steps[self.pc]
        seat = self.v[TO_ACT]
        try:
            move = step.parse(self, str(text))
        except (ValueError, CardError) as e:
            raise IllegalAction(seat, text, *self._legal_for_error(f"not understood ({e})")) from None
        if not step.is_legal(self, move):
            raise IllegalAction(seat, text, *self._legal_for_error(step.why_illegal(self, move)))
        return move

    def illegal_reason(self, text: str) -> str | None:
        """Why ``text`` is not a legal action of the seat to act now (the ``reason`` an ``IllegalAction``
        would give), or None when it is legal — checked without listing the legal actions. Raises
        ``GameOver`` when the match is over."""
        if self.terminal:
            raise GameOver(None, text, [], "given after the game ended")
        step = self.game.steps[self.pc]
        try:
            move = step.parse(self, str(text))
        except (ValueError, CardError) as e:
            return f"not understood ({e})"
        try:
            return None if step.is_legal(self, move) else step.why_illegal(self, move)
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001
            raise self._failed(e) from None

    def _legal_for_error(self, reason: str) -> tuple[list, str]:
        """``(legal, reason)`` for an ``IllegalAction``: the legal actions, or — when they are too many to
        list (``TooManyActions``) — the legal small choices, and the reason says so."""
        try:
            return self.legal_actions(), reason
        except TooManyActions:
            return self.legal_choices(), (reason + " (the legal actions are too many to list: "
                                           "here are the legal small choices, the ways to begin one)")

    def apply(self, action: str, seat: int | None = None):
        """Apply an action given in its text form (``QS``, ``pass 2C 3C``, ``bid 3``).

        A whole action replaces any small choices made so far (``choose`` makes one small choice).
        ``seat``, if given, must be the seat to act. Raises ``IllegalAction`` (state unchanged).
        """
        if seat is not None and not self.terminal and seat != self.v[TO_ACT]:
            raise IllegalAction(seat, action, [], f"not your turn (seat {self.v[TO_ACT]} is to act)")
        if self.terminal:
            raise GameOver(None, action, [], "given after the game ended")
        step = self.game.steps[self.pc]
        c = self._cache   # set by legal_actions(): then the action is a look-up
        try:
            move = c[1][c[0].index(action)]
        except (TypeError, ValueError, AttributeError):  # no text list yet (None, or ids only: (None, …)),
            # another spelling ("10H"), or an illegal action
            move = self._parse(action)    # parses and checks it directly, without listing every move
            action = step.text(self, move)
        # _commit(step, move, action), inlined: with legal_actions() the API's hottest path. The cache
        # says "legal_actions() comes next": a step that must search for its next decision anyway may
        # list it and keep the listing (steps/base.py LIST_NEXT); else it is None again below.
        self._cache = _LIST_NEXT
        self.partial = ()
        self._chpos = None
        self.history.append(action)
        try:
            if step.apply(self, move):
                self._finish_step()
            if self._cache is _LIST_NEXT:
                self._cache = None
            if self.game.capped_zones:
                self._check_caps()
        except CardspecError:
            self._cache = None
            raise
        except Exception as e:  # noqa: BLE001
            self._cache = None
            raise self._failed(e) from None
        return self

    def _commit(self, step, move, text):
        """Apply the legal internal ``move`` of ``step`` whose text is ``text`` (history, log, flow)."""
        self._cache = None
        self.partial = ()
        self._chpos = None
        self.history.append(text)
        try:
            if step.apply(self, move):
                self._finish_step()
            if self.game.capped_zones:
                self._check_caps()
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001
            raise self._failed(e) from None

    def apply_move(self, move):
        """Apply an internal move (from ``step.legal``) without checks: the fast path for playouts."""
        self._cache = None
        if self.partial:
            self.partial = ()
            self._chpos = None
        step = self.game.steps[self.pc]
        try:
            if step.apply(self, move):
                self._finish_step()
            if self.game.capped_zones:
                self._check_caps()
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001
            raise self._failed(e) from None

    def random_playout(self, rng=None):
        """Play uniformly random legal moves to the end of the match (the fastest loop; no texts)."""
        rng = rng or self.rng
        self._cache = None
        steps = self.game.steps
        try:
            while not self.terminal:
                step = steps[self.pc]
                if step.playout is not None:
                    step.playout(self, rng)
                    self._finish_step()
                else:
                    self.apply_move(step.random_move(self, rng))
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001
            raise self._failed(e) from None
        return self

    def random_move(self, rng):
        """A uniformly random legal internal move (steps may sample without listing every move)."""
        try:
            return self.game.steps[self.pc].random_move(self, rng)
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001
            raise self._failed(e) from None

    # ---- views (engine/views.py: one filter for views and logs) -------------------------------------
    def can_see(self, zone: Zone, owner, seat) -> bool:
        """Whether ``seat`` (None: a spectator) sees the cards of ``zone`` held by ``owner`` (None: a
        shared zone) now (``views.can_see``)."""
        return _views.can_see(self, zone, owner, seat)

    def view(self, seat=None, log: bool = False, legal: bool = True) -> dict:
        """What ``seat`` may see, JSON-ready (``seat=None``: a spectator, public facts only).

        Keys: ``seat``, ``players``, ``deal``, ``dealer``, ``to_act``, ``step``, ``zones``
        (name → codes when visible, else ``{"count": n}``; per-seat zones by seat),
        ``counters``, ``vars``, ``trick`` (``[[seat, code], …]``), ``legal_actions`` (when
        ``seat`` is to act), ``terminal``, ``scores``, ``step_index`` (the step being played,
        None when over), ``system`` (the public system values: trick_number, winner, …) and ``display``
        (what a person is shown, in the ruleset's words: labelled counters and vars, zones by kind;
        engine/display.py, built from this view only).
        ``log=True`` adds ``log``: ``self.log(seat)``, the events this seat has seen. ``legal=False``
        leaves out ``legal_actions`` (a bot that builds its own action text; a play of ordered cards
        can have tens of thousands of legal actions). When they are too many to list
        (``TooManyActions``), ``legal_actions`` holds the first ``VIEW_LEGAL_LIMIT`` found through the
        small choices and ``legal_more`` is true.
        """
        try:
            return _views.view(self, seat, log, legal)
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001
            raise self._failed(e) from None

    def log_all(self) -> list:
        """Every event with every field (an omniscient log: replays, tests, referees)."""
        return [{k: v for k, v in ev.items() if not k.startswith("_")} for ev in self.events or ()]

    @property
    def event_count(self) -> int:
        """How many events have been recorded (every seat's): a cursor for ``log(seat, since=…)``."""
        return len(self.events or ())

    def log(self, seat=None, since: int = 0) -> list:
        """Events ``seat`` may see (``None``: public ones), private fields removed (``views.log``).

        ``since``: look only at the events recorded after the first ``since`` (an ``event_count``
        taken earlier), so a follower fetches what is new without filtering the whole log again.
        """
        return _views.log(self, seat, since)
