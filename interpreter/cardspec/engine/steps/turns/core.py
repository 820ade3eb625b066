"""The ``turns`` step: one generic turn loop for games that are not tricks (DESIGN.md, "Mechanisms").

Whose turn, what a turn is made of, and which actions exist are all YAML and
expressions; docs/turns.md has the full reference with examples. In short::

    actions:                                 # top level (shared by every turns step) or inside the step
      raise:
        text: raise                          # what a person types (default: the name, _ as space)
        params:                              # in order; each is one of four kinds
          amount: {number: {min: "min(10, max_bet)", max: max_bet, step: 5}}
          # card:  {card: hand, where: "card.rank > 7"}          one card of a zone (per-seat: own)
          # cards: {cards: hand, count: {min: 3, max: 13}, where: EXPR}   several cards
          # suit:  {choice: "[spades, hearts]", count: 1}         values of a list expression
        legal: max_bet > 0                   # over seat, the params and the state
        effects: [...]                       # _effects.py, with seat and the params bound
    deal:
      - turns:
          first: left_of(dealer)             # the first turn's seat
          next: left_of(seat)                # the next seat (an effect `next_seat:` overrides it)
          skip: "chips[seat] == 0"           # seats passed over (out of play)
          until: EXPR                        # checked before each turn and after each action
          max_turns: 500                     # the turn cap; at_max: match | deal | step (default match)
          turn:                              # the phases of one turn, in order; each may have if:
            - do: [effects]                  # automatic
            - one: [take, call]              # exactly one of these (skipped when none is legal)
            - any: [meld, lay_off]           # any number, then `done`
            - optional: [knock]              # at most one, or `skip`
            - one: [beat, pick_up]
              who: left_of(seat)             # another seat acts in this phase

This module is the turn loop: building the phases, whose turn it is, what ends the turn, the step
or the match, and the step's protocol (``enter``, ``legal``, ``is_legal``, ``apply``, the action's text
both ways). The rest of the package (``engine/steps/turns/``) holds, each in its own module:
actions.py, compiling one action kind into generated lister and checker functions; card.py, cards.py,
number.py and choice.py, the four kinds of a parameter (param.py, their common face); search.py, the
search of an action one small choice at a time (``ActionSearch``, a base class of ``Turns``); moves.py,
the internal moves (``(action_index, args)``, ``DONE``, ``SKIP``) and the ``State.ts`` counters.
"""
from __future__ import annotations

import re

from ...compiler import Compiler, failed_reason
from ...effects import END_LEVELS, effects_source
from ...information import public_action
from ...slots import SITS_OUT, TO_ACT, TURN
from ....lang import BOOL, INT, Binding, EngineText, RuleFault
from ..base import LIST_NEXT, Step, step_type
from .actions import compile_action, distinct_text
from .lazy import lazy_phase, phase_listing
from .moves import ACTOR, CNT, DONE, END, NEXT, PH, SEAT, SKIP, TURNS, WHY
from .param import _literal
from .search import ActionSearch

PHASE_KINDS = ("do", "one", "any", "optional")

#: The most actions (worst case, engine/listing.py) of an action kind that ``_run`` lists rather than searches
#: when the caller lists next (``Turns._lists_first``).
LIST_FIRST_MOVES = 64

#: ``Turns._lists_first`` of a phase listed first because an action kind of it that may have more than
#: ``LIST_FIRST_MOVES`` actions is listed by zips in C (``_Action.zipped``): its texts are made at once only
#: for at most ``LIST_FIRST_MOVES`` moves (a caller that does not list then wastes a listing in C at most).
LISTED_IN_C = 2

#: The most action texts a turns step keeps (``Turns.texts``).
_TEXT_MEMO = 50_000


def _shared_lister(comp, actions):
    """One lister for ``actions`` (a phase's, in declaration order) when two or more of them list one
    parameter by a loop over the same sorted list of values (``_Action.shared``: a discard and a knock,
    each a card of the hand): the list made once, then each action's moves as its own lister makes
    them, in the same order (the state does not change while a phase is listed, and each lister would
    make the same list first). ``f(s, seat, index)`` (index unused: each action's index is in the code),
    or None."""
    parts = [a.shared for a in actions]
    if len(parts) < 2 or any(p is None for p in parts) or len({(p[0], p[1]) for p in parts}) != 1:
        return None
    var, values = parts[0][0], parts[0][1]
    lines = [f"_lz{k} = {{}}" for k, p in enumerate(parts) if p[3]] + [f"_vs = {values}"]
    lists = [f"[({a.index}, {p[4]}) for {var} in _vs{_LZ.sub(f'_lz{k}', p[2])}]"
             for k, (a, p) in enumerate(zip(actions, parts))]
    return comp.function("", (("seat", INT), ("index", INT)), statements=lines + ["return " + " + ".join(lists)])


#: The memo of an action's listing (actions.py: ``_lz``), one per action in a shared lister.
_LZ = re.compile(r"\b_lz\b")


def _why(ts, why):
    """Record ``(level, text)``: what ends the step, deal or match and why (a ``ts`` of the seven
    older slots, e.g. a position rebuilt by hand, has no room for it: then nothing is recorded)."""
    if len(ts) > WHY:
        ts[WHY] = why


#: The most turns the step may run in a row with no seat to decide (automatic phases only, or no legal
#: action in any phase): past them the game stops with a ``RuleFault`` (docs/rulesets.md, "Caps") rather
#: than turn for ever, as a bet range that is empty for every seat would.
MAX_TURNS_WITHOUT_DECISION = 10_000


@step_type("turns")
class Turns(ActionSearch, Step):
    """Seats take turns; each turn is a fixed sequence of phases of declared actions (module doc)."""

    decision = True

    def __init__(self, game, comp: Compiler, body, path):
        self._text_memo = {}
        super().__init__(game, comp, body, path)
        body = body if isinstance(body, dict) else {}
        comp.turn_effects = True   # end:, next_seat: and repetition: are effects of a turn (engine/effects.py)
        try:
            self._build(game, comp, body, path)
        finally:
            comp.turn_effects = False

    def _build(self, game, comp: Compiler, body, path):
        if "turn_seat" not in game.env.names:
            game.env.names["turn_seat"] = Binding("s.ts[5]", INT)
        S = (("seat", INT),)
        self.first = comp.expr(body.get("first", EngineText("left_of(dealer)")), path + ("first",), (), (INT,))
        self.next = comp.expr(body.get("next", EngineText("left_of(seat)")), path + ("next",), S, (INT,))
        self.skip = comp.expr(body["skip"], path + ("skip",), S, (BOOL,)) if "skip" in body else None
        self.until = comp.expr(body["until"], path + ("until",), (), (BOOL,)) if "until" in body else None
        # Why the step ends when `until` holds (game_over's reason when that ends the match).
        self.until_reason = (2, str(body.get("until_reason", f"{body.get('until')} holds")))
        self.max_turns = comp.expr(body["max_turns"], path + ("max_turns",), (), (INT,)) \
            if "max_turns" in body else None
        # the cap when it is a constant (e.g. an option's value): read, not computed at every turn
        self._cap = _literal(comp, body["max_turns"], path + ("max_turns",), (INT,)) if "max_turns" in body else None
        at_max = str(body.get("at_max", "match"))
        if at_max not in ("step", "deal", "match"):
            comp.problem(path + ("at_max",), f"at_max is step, deal or match, not '{at_max}'")
        self.at_max = END_LEVELS.get(at_max, 4)
        self.done_text = str(body.get("done", "done"))
        self.skip_text = str(body.get("pass", "skip"))
        # Action kinds: top-level actions, then the step's own (same name: the step's wins).
        specs = dict(game.data.get("actions") or {})
        local = body.get("actions") or {}
        spaths = {k: ("actions", k) for k in specs}
        for k, v in local.items():
            specs[k] = v
            spaths[k] = path + ("actions", k)
        used = set()
        for i, ph in enumerate(body.get("turn") or []):
            if isinstance(ph, dict):
                for kind in ("one", "any", "optional"):
                    names = ph.get(kind)
                    used.update([names] if isinstance(names, str) else names or [])
        self.actions = []
        self.by_name = {}
        for name, spec in specs.items():
            if name not in used:
                continue
            a = compile_action(game, comp, name, spec, spaths[name])
            if a is not None and not distinct_text(self.actions, self.done_text, self.skip_text, comp, a, spec,
                                                   spaths[name]):
                a = None
            if a is not None:
                a.index = len(self.actions)
                self.actions.append(a)
                self.by_name[name] = a
        # Phases.
        self.phases = []
        turn = body.get("turn")
        if not isinstance(turn, list) or not turn:
            comp.problem(path + ("turn",), "turns needs 'turn:', a list of phases (do / one / any / optional)")
            turn = []
        for i, ph in enumerate(turn):
            p = path + ("turn", i)
            if not isinstance(ph, dict):
                comp.problem(p, "a phase is a mapping such as {one: [take, call]} or {do: [effects]}")
                continue
            kinds = [k for k in ph if k in PHASE_KINDS]
            extra = [k for k in ph if k not in PHASE_KINDS + ("if", "who", "auto", "id")]
            if len(kinds) != 1 or extra:
                comp.problem(p, f"a phase has exactly one of {', '.join(PHASE_KINDS)} (and optional if, who, "
                                f"auto); found {', '.join(list(ph)) or 'nothing'}")
                continue
            kind = kinds[0]
            if "auto" in ph and kind != "one":   # read by a `one` phase only: elsewhere it would be ignored
                comp.problems.append(comp.pos.problem(p + ("auto",), f"auto: is for a one phase (take the only "
                                                      f"legal action); a {kind} phase would ignore it",
                                                      "leave out auto:, or make the phase a one phase", key=True))
            if "who" in ph and kind == "do":
                comp.problems.append(comp.pos.problem(p + ("who",), "who: chooses the seat acting in a one, any or "
                                                      "optional phase; a do phase's effects run for the turn's seat",
                                                      "leave out who:; a do effect may name another seat itself",
                                                      key=True))
            cond = comp.expr(ph["if"], p + ("if",), S, (BOOL,)) if "if" in ph else None
            if cond is not None and _literal(comp, ph["if"], p + ("if",), (BOOL,), S) is True:
                cond = None   # always true (e.g. an option's test): no call at every turn
            who = comp.expr(ph["who"], p + ("who",), S, (INT,)) if "who" in ph else None
            if kind == "do":
                src = effects_source(game, comp, ph["do"], p + ("do",), S)
                fx = comp.function("", S, statements=src) if src else None
                self.phases.append((kind, cond, who, fx, False))
                continue
            names = ph[kind]
            names = [names] if isinstance(names, str) else list(names or [])
            idx = []
            for j, nm in enumerate(names):
                a = self.by_name.get(str(nm))
                if a is None:
                    if str(nm) not in specs:
                        import difflib
                        close = difflib.get_close_matches(str(nm), list(specs), n=1)
                        comp.problem(p + (kind, j), f"unknown action '{nm}'", f"did you mean '{close[0]}'?" if close
                                     else "declare it under actions: (" + (", ".join(specs) or "none yet") + ")")
                    continue
                idx.append(a.index)
            self.phases.append((kind, cond, who, frozenset(idx), bool(ph.get("auto", False))))
        self.nph = len(self.phases)
        self._listers = {}   # allowed action set -> ((index, legal_fn), ...) (_moves)
        for ph in self.phases:   # (phases of actions whose listings read the same values: one lister)
            if ph[0] != "do":
                shared = _shared_lister(comp, [a for a in self.actions if a.index in ph[3] and not a.never])
                if shared is not None:
                    self._listers[ph[3]] = ((-1, shared),)
        self._phase_acts = {}   # phase index -> (kind, actions that may be legal in it) (_phase_actions)
        self._firsts = {}   # phase index -> ((action, how its first chunk is drawn), ...) (random_move)
        self._after = None   # (state, moves) of the last `one` phase _run stopped at (legal_after_apply)
        self._list_first = {}   # phase index -> whether _run lists it under State.apply (_lists_first)
        # Longest action texts first, for parsing "pick up" before "pick".
        self._by_text = sorted(self.actions, key=lambda a: -len(a.words))
        self._lazy = {}   # phase index -> whether lazy.phase_listing lists it (lazy.lazy_phase)
        if any(a.lazy is not None for a in self.actions):   # State.legal_actions: lazy.phase_listing
            self.legal_texts = self._legal_texts

    # ---- flow ---------------------------------------------------------------
    def enter(self, s):
        s.ts = [0, 0, -1, 0, 0, -1, -1, None]
        seat = self._seated(s, self.first(s) % s.n)
        if self.until is not None and self.until(s):   # before the skips: it says why nobody can play
            _why(s.ts, self.until_reason)
            return False
        if self.skip is not None:
            seat = self._unskipped(s, seat)
            if seat < 0:
                return False
        self._begin(s, seat)
        return self._run(s)

    def _seated(self, s, seat):
        """``seat``, or the seat after it (``next:``) when it sits this deal out (steps/sitout.py)."""
        if self.game.may_sit_out and seat == s.v[SITS_OUT]:
            return self.next(s, seat) % s.n
        return seat

    def _unskipped(self, s, seat):
        for _ in range(s.n + 1):
            if not self.skip(s, seat):
                return seat
            seat = self.next(s, seat) % s.n
        return -1

    def _begin(self, s, seat):
        ts = s.ts
        ts[PH] = ts[CNT] = ts[END] = 0
        ts[NEXT] = -1
        ts[SEAT] = ts[ACTOR] = seat
        s.v[TO_ACT] = seat
        if s.events is not None:   # (State.emit, inlined: an event every seat sees)
            s.events.append({"type": "turn", "seat": seat, "number": s.v[TURN] + 1})

    def _exit(self, s, level):
        """End the step (level 2), the deal (3) or the match (4); always False (the step is over)."""
        if level == 3:
            s.pc = len(s.game.steps) - 1
        elif level >= 4:
            s.pc = len(s.game.steps) - 1
            s._game_over()
        return False

    def _run(self, s):
        """Run automatic phases until a seat must decide (True) or the step is over (False)."""
        ts = s.ts
        phases = self.phases
        turns = 0   # turns begun since the last decision
        while True:
            e = ts[END]
            if e:
                if e >= 2:
                    return self._exit(s, e)
                ts[END] = 0
                ts[PH] = self.nph
            if ts[PH] >= self.nph:
                turns += 1
                if turns > MAX_TURNS_WITHOUT_DECISION:
                    raise RuleFault(f"{turns - 1:,} turns in a row passed with no seat to decide (every phase "
                                    "skipped, without a legal action or automatic), and until: had not ended the "
                                    f"step: at most {MAX_TURNS_WITHOUT_DECISION:,} (docs/rulesets.md, Caps)")
                if not self._next_turn(s):
                    return False
                continue
            kind, cond, who, what, auto = phases[ts[PH]]
            seat = ts[SEAT]
            if ts[CNT] == 0 and cond is not None and not cond(s, seat):
                ts[PH] += 1
                continue
            if kind == "do":
                s.v[TO_ACT] = seat
                if what is not None:
                    what(s, seat)
                ts[PH] += 1
                continue
            actor = who(s, seat) % s.n if who is not None else seat
            ts[ACTOR] = actor
            s.v[TO_ACT] = actor
            if kind == "one" and ts[CNT] == 0:
                if not auto:   # is anything legal? A search for one legal action, not a list of all
                    if s._cache is LIST_NEXT and self.legal_texts is not None and lazy_phase(self, ts[PH]):
                        listed = self._listed_lazily(s)   # legal_actions() comes next: its listing, lazy
                        if listed is not None:
                            if not listed[1]:
                                ts[PH] += 1
                                continue
                            s._cache = listed
                            self._after = None
                            return True
                    if s._cache is LIST_NEXT and (self._list_first.get(ts[PH]) or self._lists_first(ts[PH])):
                        # State.apply: legal_actions() comes next. The list made once and kept, not a
                        # search and then the list (the same list: a one phase adds no done or skip);
                        # None when listing raised (then _any_move answers, as it did before)
                        try:
                            moves = self._moves(s, what, actor)
                        except Exception:  # noqa: BLE001 - the search says whether anything is legal
                            moves = None
                        if moves is not None:
                            if not moves:
                                ts[PH] += 1
                                continue
                            if len(moves) <= LIST_FIRST_MOVES or self._list_first[ts[PH]] is not LISTED_IN_C:
                                s._cache = (self.texts(s, moves), moves)
                            self._after = None
                            return True
                    if not self._any_move(s, what, actor):
                        ts[PH] += 1
                        continue
                    self._after = None
                    return True
                moves = self._moves(s, what, actor)
                if not moves:
                    ts[PH] += 1
                    continue
                if len(moves) == 1:
                    self._do(s, moves[0])
                    continue
                self._after = (s, moves)
                return True
            self._after = None
            return True

    def _next_turn(self, s):
        ts = s.ts
        ts[TURNS] += 1
        s.v[TURN] += 1
        seat = ts[NEXT] if ts[NEXT] >= 0 else self.next(s, ts[SEAT]) % s.n
        if self.game.may_sit_out:   # (_seated, inlined where no seat may sit out)
            seat = self._seated(s, seat)
        if self.skip is not None:
            seat = self._unskipped(s, seat)
            if seat < 0:
                return False
        if self.max_turns is not None and ts[TURNS] >= (self._cap if self._cap is not None else self.max_turns(s)):
            s.emit({"type": "turn_cap", "turns": ts[TURNS]})
            _why(ts, (self.at_max, f"the turn cap of {ts[TURNS]} turns"))
            return self._exit(s, self.at_max)
        if self.until is not None and self.until(s):
            _why(ts, self.until_reason)
            return False
        self._begin(s, seat)
        return True

    def _lists_first(self, ph):
        """Whether a ``one`` phase lists its legal actions instead of searching for one when the caller
        lists them next (``_run`` under ``State.apply``): when each action kind of the phase has at most
        ``LIST_FIRST_MOVES`` actions at worst, or its full listing costs at most twice the search of one
        small choice (the load-time figures of engine/listing.py: a search that checks every completion
        costs about a listing). Kept per phase."""
        r = self._list_first.get(ph)
        if r is None:
            figures = getattr(self, "action_listing", None)
            r = figures is not None
            zipped = False
            for i in self.phases[ph][3]:
                a = self.actions[i]
                b = figures.get(a.name) if r else None
                if b is None:
                    r = False
                elif not a.never and b.moves > LIST_FIRST_MOVES and b.listing > 2 * b.choices:
                    if a.zipped:   # every value of one parameter (a bet's range): listed in C, no check a value
                        zipped = True
                    else:
                        r = False
            # LISTED_IN_C: listed first, the texts kept only for at most LIST_FIRST_MOVES moves (_run)
            self._list_first[ph] = r = LISTED_IN_C if r and zipped else r
        return r

    def _legal_texts(self, s):
        """``(texts, moves)`` (``Step.legal_texts``): ``legal`` and its ``texts``, made lazily
        (lazy.py: a read-only sequence indexed without listing) in a phase of a card-set parameter."""
        if lazy_phase(self, s.ts[PH]):
            return phase_listing(self, s)
        moves = self.legal(s)
        return self.texts(s, moves), moves

    def _listed_lazily(self, s):
        """``phase_listing``, or None when listing raised (``_any_move`` answers, as ``_listed``)."""
        try:
            return phase_listing(self, s)
        except Exception:  # noqa: BLE001 - the search says whether anything is legal, the listing raises later
            return None

    def _moves(self, s, allowed, actor):
        listers = self._listers.get(allowed)
        if listers is None:   # the allowed actions' (index, move lister), in declaration order: once per phase
            listers = self._listers[allowed] = tuple((a.index, a.moves_fn) for a in self.actions
                                                     if a.index in allowed and not a.never)
        if len(listers) == 1:
            i, fn = listers[0]
            return fn(s, actor, i)
        out = []   # none, or several
        for i, fn in listers:
            out += fn(s, actor, i)
        return out

    def _do(self, s, move):
        ts = s.ts
        ai, args = move
        actor = ts[ACTOR]
        kind = self.phases[ts[PH]][0]
        a = self.actions[ai]
        if s.events is not None:
            try:   # the text listed for it (texts' memo), else made
                t = self._text_memo.get(move)
            except TypeError:   # a value that is a list
                t = None
            ev = {"type": "action", "seat": actor, "action": self.text(s, move) if t is None else t}
            hidden = a.secret or a.face_down
            if hidden:
                s.emit(ev, to=(actor,))
            else:   # (State.emit, inlined: an event every seat sees)
                s.events.append(ev)
            if a.secret:   # other seats see that the seat acted, not what it chose
                ev["_public"] = {"type": "action", "seat": actor, "action": a.text}
            elif hidden:   # cards put face down: the other seats see how many, not which (information.py)
                ev["_public"] = public_action(actor, a.text, args, a.face_down)
        ts[CNT] += 1
        if a.fx is not None:
            a.fx(s, actor, *args)
        if kind != "any":
            ts[PH] += 1
            ts[CNT] = 0
        if self.until is not None and self.until(s):
            if ts[END] < 2:
                _why(ts, self.until_reason)
            ts[END] = max(ts[END], 2)

    # ---- the step protocol -------------------------------------------------------
    def legal(self, s):
        kind, _, _, what, _ = self.phases[s.ts[PH]]
        out = self._moves(s, what, s.ts[ACTOR])
        if kind == "any":
            out.append(DONE)
        elif kind == "optional":
            out.append(SKIP)
        return out

    def legal_after_apply(self, s):
        """``legal(s)`` for a state that ``apply``/``enter`` just left waiting here, unchanged since: the moves
        the turn loop listed to see whether a ``one`` phase can be played, not listed again (a search's fast
        path). The list is shared: do not change it. Any other state: ``legal(s)``."""
        a = self._after
        if a is not None and a[0] is s:
            return a[1]
        return self.legal(s)

    def is_legal(self, s, move):
        kind, _, _, what, _ = self.phases[s.ts[PH]]
        if move == DONE:
            return kind == "any"
        if move == SKIP:
            return kind == "optional"
        ai, args = move
        if ai not in what or len(args) != len(self.actions[ai].params):
            return False
        try:
            return self.actions[ai].check_fn(s, s.ts[ACTOR], args)
        except (TypeError, IndexError, KeyError):
            return False

    def apply(self, s, move):
        ts = s.ts
        if move[0] < 0:   # DONE or SKIP (an action's index is >= 0)
            if s.events is not None:
                s.emit({"type": "action", "seat": ts[ACTOR], "action": self.text(s, move)})
            ts[PH] += 1
            ts[CNT] = 0
        else:
            self._do(s, move)
        return not self._run(s)

    # ---- text --------------------------------------------------------------------
    def texts(self, s, moves):
        """Text forms of ``moves``. A move's text depends on the move alone (its action and values), so
        the texts made are kept (per Game, at most ``_TEXT_MEMO`` of them): listing the same 52 calls or
        66 discards again costs a look-up each."""
        memo = self._text_memo
        get = memo.get
        try:   # one look-up per move, in C; then the texts not made before (None)
            out = list(map(get, moves))
        except TypeError:   # a value that is a list somewhere: move by move
            out = None
        if out is not None:
            if None in out:
                text = self.text
                for i, t in enumerate(out):
                    if t is None:
                        if len(memo) >= _TEXT_MEMO:
                            memo.clear()
                        m = moves[i]
                        out[i] = memo[m] = text(s, m)
            return out
        out = []
        for m in moves:
            try:
                t = get(m)
            except TypeError:   # a value that is a list: not kept
                out.append(self.text(s, m))
                continue
            if t is None:
                if len(memo) >= _TEXT_MEMO:
                    memo.clear()
                t = memo[m] = self.text(s, m)
            out.append(t)
        return out

    def text(self, s, move):
        if move == DONE:
            return self.done_text
        if move == SKIP:
            return self.skip_text
        ai, args = move
        return self.actions[ai].write(args)   # its text and the words of its values (actions.py's _writer)

    def parse(self, s, text):
        words = text.replace(",", " ").split()
        low = [w.lower() for w in words]
        if low == self.done_text.lower().split():
            return DONE
        if low == self.skip_text.lower().split():
            return SKIP
        for a in self._by_text:
            k = len(a.words)
            if tuple(low[:k]) == a.words:
                return (a.index, self._parse_args(s, a, words[k:]))
        known = sorted({" ".join(a.words) for a in self.actions} | {self.done_text, self.skip_text})
        raise ValueError(f"no action starts '{text.strip()}'; actions: {', '.join(known)}")

    def _parse_args(self, s, a, words):
        deck = s.game.deck
        args = []
        i = 0
        for j, P in enumerate(a.params):   # each kind reads its words (param.py's parse)
            v, i = P.parse(a, j, words, i, deck)
            args.append(v)
        if i < len(words):
            raise ValueError(f"too many words after '{a.text}': {' '.join(words[i:])}")
        return tuple(args)

    def why_illegal(self, s, move):
        kind, _, _, what, _ = self.phases[s.ts[PH]]
        if move == DONE:
            return f"not legal: '{self.done_text}' ends a phase of any number of actions, not this one"
        if move == SKIP:
            return f"not legal: this phase cannot be skipped"
        ai, args = move
        if ai not in what:
            names = [self.actions[i].text for i in sorted(what)]
            return f"not legal now: this phase allows {', '.join(names) or 'no action'}"
        a = self.actions[ai]
        bound = [s.ts[ACTOR]]
        for P, v in zip(a.params, args):
            try:   # why the kind refuses the value, naming the legal ones (param.py's why)
                why = P.why(s, f"'{a.text}' {P.name}", v, bound)
            except Exception:   # noqa: BLE001 - a value the parameter's expressions cannot take
                why = None
            if why:
                return f"not legal: {why}"
            bound.append(v)
        return "not legal: " + failed_reason(a.why_parts, s, s.ts[ACTOR], args,
                                             fallback=f"'{a.text}' needs {a.legal_text}, which does not hold now")

    def add_view(self, s, seat, out):
        ts = s.ts
        if ts is not None:
            out["turn"] = {"seat": ts[SEAT], "number": s.v[TURN] + 1, "phase": ts[PH], "actions_in_phase": ts[CNT]}
            if ts[NEXT] >= 0:   # a next_seat: effect chose the next turn's seat (public: it is the flow)
                out["turn"]["next_seat"] = ts[NEXT]
