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

Internal moves are ``(action_index, args)`` tuples, with ``DONE``/``SKIP``
for ending an ``any`` or ``optional`` phase. Each action's legal moves and its
legality check are generated as Python functions at load time; the check
(``is_legal``) never lists every move, so a typed ``meld 7H 8H 9H`` is checked
directly even when thousands of melds are possible. ``State.ts`` holds the
turn's counters: ``[phase, actions in phase, next seat override, end level,
turns taken, turn seat, acting seat, why]`` (``why``: ``(level, text)`` — what ended the step,
deal or match and why, for ``game_over``'s ``reason``; None while it runs).
"""
from __future__ import annotations

import ast
import itertools
import math
import re

from ...compiler import Compiler, SEAT_ZONE, ZONE, failed_reason
from ...effects import END_LEVELS, effects_source
from ...slots import SITS_OUT, TO_ACT, TURN
from ....cards import SUIT_NAMES
from ....lang import (ANY, BOOL, CARD, INT, STR, SUIT, Binding, DslError, RuleFault, compile_expr, list_of, name_problem,
                     py_param)
from ..base import MAX_LISTED, Step, _listing_too_large, _sub_multiset, step_type
from ...choices import DIGITS, DONE_WORD, ActionSpaceError, CardSetSearch, _rest_if_within, literal_list, static_range

DONE = (-1, ())
SKIP = (-2, ())
PH, CNT, NEXT, END, TURNS, SEAT, ACTOR, WHY = range(8)
PHASE_KINDS = ("do", "one", "any", "optional")
PARAM_KINDS = ("card", "cards", "number", "choice")


#: The memo key of the count of values a feasibility search tried (``Turns._feasible``).
_TRIED = ("tried",)
#: A number typed as a parameter: ASCII digits, perhaps after a minus sign (not int()'s ١٠, 1_0 or +10).
_DIGITS = re.compile(r"-?[0-9]+")


def _typed_int(word: str):
    """The int a player typed as ``word`` (``_DIGITS``), or None when it is not spelled so."""
    return int(word) if _DIGITS.fullmatch(word) else None

#: The most action texts a turns step keeps (``Turns.texts``).
_TEXT_MEMO = 50_000


class _Param:
    __slots__ = ("name", "kind", "type", "zone", "where", "kmin", "kmax", "lo", "hi", "step", "values", "count",
                 "elem", "ordered", "cands", "search", "srcs", "kmin_lit", "reason", "size", "digits")


class _Action:
    __slots__ = ("name", "text", "words", "params", "legal_fn", "moves_fn", "check_fn", "fx", "help", "index",
                 "secret", "legal_text", "never", "why_parts", "fast_text", "path", "pre", "hoisted")


def _distinct(make, pool, kmin, kmax, key):
    """Distinct card tuples of sizes kmin..kmax from ``pool`` made by ``make`` (identical faces give one).
    Raises ``RuleFault`` when ``make`` would give more than ``MAX_LISTED`` tuples."""
    pool = sorted(pool, key=key)
    size = len(pool)
    count_of = math.perm if make is itertools.permutations else math.comb
    total = 0
    for k in range(max(kmin, 0), min(kmax, size) + 1):
        total += count_of(size, k)
        if total > MAX_LISTED:
            _listing_too_large(f"a cards parameter ({kmin} to {kmax} of {size} cards)")
    if len(set(pool)) == size:   # no two identical faces: every tuple made is distinct already
        return [t for k in range(max(kmin, 0), min(kmax, size) + 1) for t in make(pool, k)]
    out = []
    seen = set()
    for k in range(max(kmin, 0), min(kmax, len(pool)) + 1):
        for t in make(pool, k):
            if t not in seen:
                seen.add(t)
                out.append(t)
    return out


def _combos(pool, kmin, kmax, key):
    """Distinct sorted card tuples of sizes kmin..kmax from ``pool``."""
    return _distinct(itertools.combinations, pool, kmin, kmax, key)


def _perms(pool, kmin, kmax, key):
    """Distinct card sequences (order matters) of lengths kmin..kmax from ``pool`` (``ordered: true``)."""
    return _distinct(itertools.permutations, pool, kmin, kmax, key)


def _candidates(cands, kmin, kmax, zone, key, ordered):
    """The distinct card sets of ``cands`` (a ``candidates:`` value) that pass the count and zone checks.

    Each is a tuple in display order (``key``), or as given when ``ordered``, as a typed action reads
    back; a set of the wrong size, or not a sub-multiset of ``zone``, is dropped (the direct check
    refuses it too). Returns a list in first-proposed order."""
    out = []
    seen = set()
    held = {}
    for c in zone:
        held[c] = held.get(c, 0) + 1
    get = held.get
    for c in cands:
        t = tuple(c) if ordered else tuple(sorted(c, key=key))
        if t in seen or not kmin <= len(t) <= kmax:
            continue
        seen.add(t)
        need = {}
        for x in t:   # a sub-multiset of the zone
            k = need.get(x, 0) + 1
            if k > get(x, 0):
                break
            need[x] = k
        else:
            out.append(t)
    return out


#: ``_witness`` found nothing.
_NONE = object()


def _without_cards(v, cur):
    """The cards of ``v`` left when each card of ``cur`` is taken away once."""
    rest = list(v)
    for c in cur:
        rest.remove(c)
    return rest


class _Searched:
    """The card sets of a ``candidates:`` parameter whose value is a ``CardSetSearch`` (``melds_in``):
    searched by the cards chosen so far instead of listed, each passing the count and zone checks of
    ``_candidates`` (the same sets, display order)."""

    __slots__ = ("search", "kmin", "kmax", "held", "key", "_limits")

    def __init__(self, search, limits, key):
        self.search, self.key, self._limits, self.held = search, key, limits, None

    def _ok(self, t):
        if self.held is None:   # the count and zone, read when a card set is first proposed
            self.kmin, self.kmax, zone, _ = self._limits()
            held = {}
            for c in zone:
                held[c] = held.get(c, 0) + 1
            self.held = held
        if not self.kmin <= len(t) <= self.kmax:
            return False
        get = self.held.get
        need = {}
        for x in t:
            k = need.get(x, 0) + 1
            if k > get(x, 0):
                return False
            need[x] = k
        return True

    def containing(self, cur):
        """The card sets holding ``cur`` (display order; a set may come twice)."""
        key = self.key
        for c in self.search.containing(cur):
            t = tuple(sorted(c, key=key))
            if self._ok(t):
                yield t

    def __contains__(self, v):
        return self._ok(v) and self.search.holds(v)


def _distinct_values(vals):
    """``vals`` without repeats, first occurrence kept (a choice lists each value once)."""
    try:
        return list(dict.fromkeys(vals))
    except TypeError:   # a value that is a list
        pass
    out = []
    for v in vals:
        if v not in out:
            out.append(v)
    return out


def _why(ts, why):
    """Record ``(level, text)``: what ends the step, deal or match and why (a ``ts`` of the seven
    older slots, e.g. a position rebuilt by hand, has no room for it: then nothing is recorded)."""
    if len(ts) > WHY:
        ts[WHY] = why


def _literal(comp, text, path, want, params=()):
    """The value of expression ``text`` when it compiles to a Python literal (options and constants are folded
    at load time: ``if: repetition > 0`` is ``True`` for a ruleset whose option is 3), else None. Any
    problem is left to the ``comp.expr`` that compiles the same text."""
    try:
        code = compile_expr(text, comp.env, {name: Binding(py_param(name), t) for name, t in params}, want)
        value = ast.literal_eval(code.src)
    except (DslError, ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, (bool, int)) else None


#: The most turns the step may run in a row with no seat to decide (automatic phases only, or no legal
#: action in any phase): past them the game stops with a ``RuleFault`` (docs/rulesets.md, "Caps") rather
#: than turn for ever, as a bet range that is empty for every seat would.
MAX_TURNS_WITHOUT_DECISION = 10_000

#: The most values a ``number:`` parameter may offer at once (docs/rulesets.md, "Caps"): its min, max and
#: step are expressions, so the count is checked when the values are listed.
MAX_NUMBER_VALUES = 10_000


def _one_word_choices(comp, path, values) -> bool:
    """Whether the text values of a constant ``choice:`` list can each be written as one word of an
    action's text (``judge success``); a value with a space or none at all could be offered but never
    typed back (fuzz seed 20261201, mutant 20380: ``choice: ["success[dealer - 1]", ...]`` validated, then
    its own legal action was refused as not understood). A problem at ``path`` for the first that cannot."""
    for v in values or ():
        if isinstance(v, str) and (not v or any(c.isspace() for c in v)):
            comp.problem(path, f"a choice's value is one word of the action's text; {v!r} is "
                         + ("empty" if not v else "more than one word"),
                         "e.g. choice: [success, failure, mixed]")
            return False
    return True


def _range(lo, hi, st):
    """The values ``lo..hi`` by ``st`` (``st`` <= 0: 1) of a ``number:`` parameter. Raises ``RuleFault`` when
    they are more than ``MAX_NUMBER_VALUES`` (a bid of 0 to 10**12 would list a trillion actions)."""
    st = st if st > 0 else 1
    if hi >= lo and (hi - lo) // st >= MAX_NUMBER_VALUES:
        raise RuleFault(f"a number parameter offers {(hi - lo) // st + 1:,} values ({lo} to {hi} by {st}); "
                        f"at most {MAX_NUMBER_VALUES:,} (docs/rulesets.md, Caps)")
    return range(lo, hi + 1, st)


@step_type("turns")
class Turns(Step):
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
        self.first = comp.expr(body.get("first", "left_of(dealer)"), path + ("first",), (), (INT,))
        self.next = comp.expr(body.get("next", "left_of(seat)"), path + ("next",), S, (INT,))
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
            a = self._action(game, comp, name, spec, spaths[name])
            if a is not None and not self._distinct_text(comp, a, spec, spaths[name]):
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
        self._phase_acts = {}   # phase index -> (kind, actions that may be legal in it) (_phase_actions)
        self._firsts = {}   # phase index -> ((action, how its first chunk is drawn), ...) (random_move)
        self._after = None   # (state, moves) of the last `one` phase _run stopped at (legal_after_apply)
        # Longest action texts first, for parsing "pick up" before "pick".
        self._by_text = sorted(self.actions, key=lambda a: -len(a.words))

    # ---- compiling an action kind -----------------------------------------------
    def _distinct_text(self, comp, a, spec, path) -> bool:
        """Whether action ``a``'s text can be told apart from the step's other actions and its done/skip
        words: two actions written alike would list one and apply the other (fuzz seed 20261201, mutant
        23712: an action `prophesy` given `text: play` listed 'play' and then refused it as the play of cards
        that 'needs declare'). A problem at the action's text (or the action) for the second."""
        if not a.words:
            comp.problem(path + ("text",) if isinstance(spec, dict) and "text" in spec else path,
                         f"action '{a.name}' has an empty text: a player could not write it")
            return False
        words = " ".join(a.words)
        clash = next((b.name for b in self.actions if b.words == a.words), None)
        what = (f"the text of action '{clash}'" if clash is not None else
                "the word that ends a phase (done:)" if words == self.done_text.lower() else
                "the word that passes a phase (pass:)" if words == self.skip_text.lower() else None)
        if what is None:
            return True
        at = path + ("text",) if isinstance(spec, dict) and "text" in spec else path
        comp.problem(at, f"action '{a.name}' is written '{words}', {what}: a player's text could not say which",
                     "give each action of a step a text of its own (text: …)")
        return False

    def _action(self, game, comp, name, spec, path):
        if spec is None:
            spec = {}
        if not isinstance(spec, dict):
            comp.problem(path, "an action is a mapping {text, params, legal, effects}")
            return None
        a = _Action()
        a.path = tuple(path)   # (for the listing bound, engine/listing.py)
        a.pre = None           # legal: when it names no parameter: checked before any search (_feasible)
        a.hoisted = False
        a.name = str(name)
        a.text = str(spec.get("text", a.name.replace("_", " ")))
        a.words = tuple(a.text.lower().split())
        a.help = spec.get("help", "")
        a.secret = bool(spec.get("secret", False))   # its action event is shown to the actor only
        ctx = [("seat", INT)]
        a.params = []
        params = spec.get("params") or {}
        if not isinstance(params, dict):
            comp.problem(path + ("params",), "params is a mapping NAME: {card|cards|number|choice: …}")
            params = {}
        loops = []     # legal generation: nested loops
        checks = []    # direct check of given args
        for pname, pspec in params.items():
            pp = path + ("params", pname)
            why = name_problem(pname) or ("it names the acting seat" if pname in ("seat", "s") else None)
            if why is not None:
                comp.problem(pp, f"a parameter's name: {why}", "e.g. params: {cards: {cards: hand}}")
                continue
            kinds = [k for k in (pspec or {}) if k in PARAM_KINDS] if isinstance(pspec, dict) else []
            if len(kinds) != 1:
                comp.problem(pp, f"a parameter has one of {', '.join(PARAM_KINDS)}")
                continue
            kind = kinds[0]
            P = _Param()
            P.name, P.kind = pname, kind
            P.where = P.values = P.cands = P.search = P.srcs = P.kmin_lit = P.size = P.digits = None   # P.values(s, seat, *earlier params): what why_illegal names as legal
            P.ordered = False
            P.reason = " ".join(str(pspec["reason"]).split()) if pspec.get("reason") is not None else None
            var = py_param(pname)
            cur = tuple(ctx)
            if kind in ("card", "cards"):
                zsrc = self._zone(comp, pspec[kind], pp + (kind,), cur)
                P.zone = str(pspec[kind])
                where = None
                if "where" in pspec:
                    code = comp.code(pspec["where"], pp + ("where",), cur + (("card", CARD),), (BOOL,))
                    where = code.src if code is not None else "True"
                    P.where = str(pspec["where"])
                if kind == "card":
                    P.type = CARD
                    pool = f"set({zsrc})" if game.deck.copies > 1 or game.deck.jokers > 1 else zsrc
                    cond = f" if {where}" if where else ""
                    loops.append((f"for {var} in sorted([p_card for p_card in {pool}{cond}], "
                                  f"key=SORT_KEY.__getitem__):", []))
                    checks.append(f"if {var} not in {zsrc}: return False")
                    P.values = comp.function(f"({zsrc}, sorted([p_card for p_card in {pool}{cond}], "
                                             f"key=SORT_KEY.__getitem__))", cur)
                    if where:
                        checks.append(f"p_card = {var}")
                        checks.append(f"if not ({where}): return False")
                else:
                    P.type = list_of(CARD)
                    P.ordered = bool(pspec.get("ordered", False))   # a sequence: order kept, permutations
                    cnt = pspec.get("count", 1)
                    if isinstance(cnt, dict):
                        kmin = comp.code(cnt.get("min", 1), pp + ("count", "min"), cur, (INT,))
                        kmax = comp.code(cnt.get("max", 52), pp + ("count", "max"), cur, (INT,))
                    else:
                        kmin = kmax = comp.code(cnt, pp + ("count",), cur, (INT,))
                    if kmin is None or kmax is None:
                        continue
                    P.kmin, P.kmax = kmin.src, kmax.src
                    P.kmin_lit = _literal(comp, str(cnt.get("min", 1) if isinstance(cnt, dict) else cnt),
                                          pp + ("count",), (INT,), cur)
                    cond = f" if {where}" if where else ""
                    cand = comp.code(pspec["candidates"], pp + ("candidates",), cur) if "candidates" in pspec else None
                    if cand is not None and cand.type not in (list_of(ZONE), list_of(ANY), list_of(list_of(ANY)), ANY):
                        comp.problem(pp + ("candidates",), f"candidates: is a list of card lists (e.g. "
                                     f"melds_in(hand[seat])), not {cand.type}")
                        continue
                    if cand is not None:   # the ruleset lists the card sets worth checking (e.g. melds_in(...))
                        # Candidates only propose: count, zone and where still decide, as in the direct check.
                        wf = f" if all([{where} for p_card in _c])" if where else ""
                        loops.append((f"for {var} in [_c for _c in _t_cands({cand.src}, {kmin.src}, {kmax.src}, "
                                      f"{zsrc}, SORT_KEY.__getitem__, {P.ordered}){wf}]:", []))
                        P.cands = comp.function(f"[_c for _c in _t_cands({cand.src}, {kmin.src}, {kmax.src}, "
                                                f"{zsrc}, SORT_KEY.__getitem__, {P.ordered}){wf}]", cur)
                        if not where and not P.ordered:   # the raw value: a CardSetSearch is searched, not listed
                            P.search = comp.function(cand.src, cur)
                    else:
                        loops.append((f"for {var} in {'_t_perms' if P.ordered else '_t_combos'}"
                                      f"([p_card for p_card in {zsrc}{cond}], {kmin.src}, "
                                      f"{kmax.src}, SORT_KEY.__getitem__):", []))
                    P.values = comp.function(f"({kmin.src}, {kmax.src}, {zsrc}, "
                                             f"[p_card for p_card in {zsrc}{cond}])", cur)
                    checks.append(f"if not ({kmin.src} <= len({var}) <= {kmax.src}): return False")
                    checks.append(f"if not _t_sub({var}, {zsrc}): return False")
                    if where:
                        checks.append(f"if not all([{where} for p_card in {var}]): return False")
            elif kind == "number":
                rng = pspec["number"] if isinstance(pspec["number"], dict) else {}
                lo = comp.code(rng.get("min", 0), pp + ("number", "min"), cur, (INT,))
                hi = comp.code(rng.get("max", 0), pp + ("number", "max"), cur, (INT,))
                st = comp.code(rng.get("step", 1), pp + ("number", "step"), cur, (INT,))
                if lo is None or hi is None or st is None:
                    continue
                P.type = INT
                P.srcs = (lo.src, hi.src, st.src)
                P.values = comp.function(f"({lo.src}, {hi.src}, {st.src})", cur)
                loops.append((f"for {var} in _t_range({lo.src}, {hi.src}, {st.src}):", []))
                checks.append(f"_lo = {lo.src}")
                checks.append(f"_st = {st.src}")
                checks.append(f"if not (_lo <= {var} <= {hi.src} and ({var} - _lo) % (_st if _st > 0 else 1) == 0): "
                              f"return False")
            else:  # choice
                vals = comp.code(pspec["choice"], pp + ("choice",), cur)
                if vals is None:
                    continue
                if not vals.type.startswith("list["):
                    comp.problem(pp + ("choice",), f"choice needs a list, e.g. [spades, hearts]; found {vals.type}")
                    continue
                P.elem = vals.type[5:-1]
                P.srcs = vals.src
                P.size = vals.size
                if P.elem == STR and not _one_word_choices(comp, pp + ("choice",), literal_list(vals.src)):
                    continue
                k = pspec.get("count", 1)
                if isinstance(k, bool) or not isinstance(k, int) or k < 1:
                    comp.problem(pp + ("count",), f"a choice's count is a whole number of values, 1 or more; "
                                 f"found '{k}'", "e.g. suits: {choice: all_suits, count: 2}")
                    continue
                P.count = k
                P.values = comp.function(f"_t_distinct({vals.src})", cur)
                if P.count == 1:
                    P.type = P.elem
                    loops.append((f"for {var} in _t_distinct({vals.src}):", []))
                    checks.append(f"if {var} not in {vals.src}: return False")
                else:
                    P.type = list_of(P.elem)
                    loops.append((f"for {var} in _t_choose({vals.src}, {P.count}):", []))
                    checks.append(f"if len(set({var})) != {P.count} or any([_v not in {vals.src} for _v in {var}]): "
                                  f"return False")
            a.params.append(P)
            ctx.append((pname, P.type))
        ctx = tuple(ctx)
        # legal: an expression, {rule: EXPR, reason: TEXT} or a list of them (all must hold); the action's
        # reason: is the default reason. A refused action names the reason of the part that failed.
        why = spec.get("reason")
        parts = comp.condition_parts(spec.get("legal", True), path + ("legal",),
                                     " ".join(str(why).split()) if why is not None else None)
        codes = [(comp.code(text, p, ctx, (BOOL,)), r, " ".join(str(text).split())) for text, r, p in parts]
        if not codes or any(c is None for c, _, _ in codes):
            lsrc = "False"
        else:
            lsrc = codes[0][0].src if len(codes) == 1 else " and ".join(f"({c.src})" for c, _, _ in codes)
        a.legal_text = " and ".join(x for _, _, x in codes) if len(codes) != 1 else codes[0][2]
        unpack = ["(" + "".join(py_param(P.name) + ", " for P in a.params) + ") = p_args"] if a.params else []
        a.why_parts = [(comp.function("", (("seat", INT), ("args", ANY)), statements=unpack + [f"return bool({c.src})"])
                        if len(codes) > 1 else None,
                        r or f"'{a.text}' needs {x}, which does not hold now", x)
                       for c, r, x in codes if c is not None]
        args = "(" + "".join(py_param(P.name) + ", " for P in a.params) + ")"
        lines = ["out = []"]
        a.never = lsrc == "False"   # never legal (e.g. an option's test): _moves does not call its lister
        check_src = lsrc   # a typed action is checked against the whole condition, hoisted or not
        if a.params and lsrc != "True" and self._param_free(game, " and ".join(f"({t})" for t, _, _ in parts)):
            lines.append(f"if not ({lsrc}): return out")   # the same for every value: checked once
            a.pre = comp.function(lsrc, (("seat", INT),))
            a.hoisted = True
            lsrc = "True"
        ind = ""
        for head, _ in loops:
            lines.append(ind + head)
            ind += "    "
        if len(loops) > 1:   # each loop is bounded; their product is counted (MAX_LISTED)
            lines.insert(1, "_n = 0")
            what = f"the action {a.name} (its parameters together)"
            lines += [ind + "_n += 1", ind + f"if _n > {MAX_LISTED}: _t_over({what!r})"]
        lines.append(ind + (f"if {lsrc}: out.append({args})" if lsrc != "True" else f"out.append({args})"))
        lines.append("return out")
        # the same loops making the internal moves (action index, args) at once (_moves)
        mlines = lines[:-2] + [lines[-2].replace(f"out.append({args})", f"out.append((p_index, {args}))"), "return out"]
        if len(loops) == 1 and loops[0][0].startswith("for ") and loops[0][0].endswith(":"):
            # one loop: a list comprehension (the same list, less work per value)
            i = lines.index(loops[0][0])
            clause = loops[0][0][:-1] + (f" if {lsrc}" if lsrc != "True" else "")
            lines = lines[:i] + [f"return [{args} {clause}]"]
            mlines = mlines[:i] + [f"return [(p_index, {args}) {clause}]"]
        ns = comp.ns
        ns.update(_t_combos=_combos, _t_perms=_perms, _t_sub=_sub_multiset, _t_range=_range,
                  _t_cands=_candidates, _t_distinct=_distinct_values, _t_over=_listing_too_large,
                  _t_choose=lambda vals, k: list(itertools.combinations(_distinct_values(vals), k)))
        a.legal_fn = comp.function("", (("seat", INT),), statements=lines)
        a.moves_fn = comp.function("", (("seat", INT), ("index", INT)), statements=mlines)
        clines = []
        if a.params:
            clines.append("(" + "".join(py_param(P.name) + ", " for P in a.params) + ") = p_args")
        clines += checks + [f"return bool({check_src})"]
        a.check_fn = comp.function("", (("seat", INT), ("args", ANY)), statements=clines)
        src = effects_source(game, comp, spec.get("effects"), path + ("effects",), ctx)
        a.fx = comp.function("", ctx, statements=src) if src else None
        return a

    @staticmethod
    def _param_free(game, text):
        """True when ``legal:`` compiles with ``seat`` alone (it names no parameter): hoisted out of the loops."""
        from ....lang import DslError, compile_expr
        try:
            compile_expr(text, game.env, {"seat": Binding("p_seat", INT)}, (BOOL,))
            return True
        except DslError:
            return False

    def _zone(self, comp, text, path, ctx):
        code = comp.code(text, path, ctx)
        if code is None:
            return "()"
        if code.type == SEAT_ZONE:
            return f"{code.src}[p_seat]"
        if code.type != ZONE and code.type != ANY:
            comp.problem(path, f"cards come from a zone (hand, stock, table[seat]); found {code.type}")
            return "()"
        return code.src

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
        if s.events is not None:
            s.emit({"type": "turn", "seat": seat, "number": s.v[TURN] + 1})

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
        seat = self._seated(s, ts[NEXT] if ts[NEXT] >= 0 else self.next(s, ts[SEAT]) % s.n)
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
            ev = {"type": "action", "seat": actor, "action": self.text(s, move)}
            s.emit(ev, to=(actor,) if a.secret else None)
            if a.secret:   # other seats see that the seat acted, not what it chose
                ev["_public"] = {"type": "action", "seat": actor, "action": a.text}
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

    def random_move(self, s, rng):
        """A random legal move made of uniformly random small choices (docs/actions.md): the first
        chunk uniformly among the legal first chunks, by rejection (a random candidate, checked; the
        first legal one is uniform among the legal ones), then each later chunk uniformly among the
        legal ones: the move a player drawing each small choice uniformly among ``legal_action_ids()``
        would make."""
        memo = {}
        ph = s.ts[PH]
        kind, acts = self._phase_actions(s)
        firsts = self._firsts.get(ph)
        if firsts is None:
            firsts = self._firsts[ph] = tuple((a, self._first_kind(a)) for a in acts)
        seat = s.ts[ACTOR]
        cands = []
        for a, how in firsts:
            if how == 4:
                cands += [(a, u, how) for u in self._units(s, a, 0, seat, (), (), memo, cheap=True)]
            elif how >= 2:   # the units are the first parameter's values (_units' list of its domain)
                cands += [(a, u, how) for u in self._domain(s, a, 0, seat, (), memo)]
            else:
                cands.append((a, None, how))
        if kind == "any" or kind == "optional":
            cands.append(None)
        rnd = rng.random
        floor = math.floor   # int() of the same float, cheaper
        pos = None
        while cands:
            i = floor(rnd() * len(cands))
            c = cands[i]
            cands[i] = cands[-1]
            cands.pop()
            if c is None:
                return DONE if kind == "any" else SKIP
            a, u, how = c
            if how == 0:
                if self._check(s, a, seat, ()):
                    return (a.index, ())
            elif how == 1:
                if self._feasible(s, a, 0, seat, (), (), memo):
                    pos = (a.index, 0, (), ())
                    break
            elif how == 4:
                if self._feasible(s, a, 0, seat, (), (u,), memo):
                    pos = (a.index, 0, (u,), ())
                    break
            # u: a whole value of the first parameter, of its domain (_units listed it): legal when the
            # action's parameter-free condition holds and the rest can follow (_witness's answer)
            elif (a.pre is None or self._pre(s, a, seat, memo)) and \
                    (self._check(s, a, seat, (u,)) if how == 2 else self._feasible(s, a, 1, seat, (u,), (), memo)):
                pos = (a.index, 0, (u,), ())
                break
        if pos is None:
            raise RuleFault(f"seat {seat} has no legal action")
        while True:
            opts, move = self.choice_options(s, pos, memo)
            if move is not None:
                return move
            pos = self.choice_next(s, pos, opts[floor(rnd() * len(opts))], memo)

    def _first_kind(self, a):
        """How ``random_move`` draws and checks the first chunk of action ``a``: 0 no parameter; 1 a first
        chunk without a unit; 2 or 3, a unit that is the first parameter's whole value (a card, a number
        in words, one choice), the only parameter (2) or followed by others (3); 4 any other unit (a card
        of a card set, a digit)."""
        if not a.params:
            return 0
        P = a.params[0]
        if not self._merged(P):
            return 1
        if P.kind != "cards" and self._size(P) == 1:
            return 2 if len(a.params) == 1 else 3
        return 4

    def _any_move(self, s, what, actor):
        """Whether some action of ``what`` is legal for ``actor`` (stops at the first one found)."""
        memo = {}
        for a in self.actions:
            if a.index in what and not a.never:
                if self._check(s, a, actor, ()) if not a.params else self._feasible(s, a, 0, actor, (), (), memo):
                    return True
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
        a = self.actions[ai]
        fast = getattr(a, "fast_text", False)   # made at the first text of the action
        if fast is False:
            fast = a.fast_text = _fast_text(a, s.game.deck.code)
        if fast is not None:
            return fast(args)
        parts = [a.text]
        deck = s.game.deck
        for P, v in zip(a.params, args):
            if P.kind == "card":
                parts.append(deck.code[v])
            elif P.kind == "cards":
                parts.extend([deck.code[c] for c in v])
            elif P.kind == "number":
                parts.append(str(v))
            else:
                vals = v if P.count != 1 else (v,)
                parts.extend(self._value_text(deck, P.elem, x) for x in vals)
        return " ".join(parts)

    @staticmethod
    def _value_text(deck, t, x):
        if t == SUIT:
            return SUIT_NAMES[deck.suits[x]] if x >= 0 else "none"
        if t == CARD:
            return deck.code[x]
        if t == BOOL:
            return "yes" if x else "no"
        return str(x)

    def _value_parse(self, deck, t, word):
        if t == SUIT:
            return deck.suit_index(word)
        if t == CARD:
            return deck.face(word)
        if t == INT:
            v = _typed_int(word)
            if v is None:
                raise ValueError(f"'{word}' is not a whole number (digits 0-9, perhaps a leading -)")
            return v
        if t == BOOL:
            if word.lower() in ("yes", "true"):
                return True
            if word.lower() in ("no", "false"):
                return False
            raise ValueError(f"'{word}' is not yes or no")
        return word

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
        for j, P in enumerate(a.params):
            last = j == len(a.params) - 1
            if P.kind in ("card", "number") or (P.kind == "choice" and P.count == 1):
                if i >= len(words):
                    raise ValueError(f"'{a.text}' needs {P.name}")
                w = words[i]
                i += 1
                if P.kind == "card":
                    args.append(deck.face(w))
                elif P.kind == "number":
                    v = _typed_int(w)
                    if v is None:
                        raise ValueError(self._number_first(a, P, j, w))
                    args.append(v)
                else:
                    args.append(self._value_parse(deck, P.elem, w))
            elif P.kind == "choice":
                if i + P.count > len(words):
                    raise ValueError(f"'{a.text}' needs {P.count} values for {P.name}")
                args.append(tuple(self._value_parse(deck, P.elem, w) for w in words[i:i + P.count]))
                i += P.count
            else:  # cards: the rest if last, else the words that read as cards
                taken = []
                while i < len(words):
                    try:
                        f = deck.face(words[i])
                    except ValueError:
                        if last:
                            raise
                        break
                    taken.append(f)
                    i += 1
                args.append(tuple(taken) if getattr(P, "ordered", False) else
                            tuple(sorted(taken, key=deck.sort_key.__getitem__)))
        if i < len(words):
            raise ValueError(f"too many words after '{a.text}': {' '.join(words[i:])}")
        return tuple(args)

    @staticmethod
    def _number_first(a, P, j, w) -> str:
        """Why word ``w`` cannot be parameter ``P`` (a number) of action ``a``, in the action's terms:
        ``'lay off' needs meld (a number) first, not '5S': write lay off MELD CARDS``."""
        form = " ".join([a.text] + [Q.name.upper() for Q in a.params])
        where = "first" if j == 0 else f"after {a.params[j - 1].name}"
        return f"'{a.text}' needs {P.name} (a whole number) {where}, not '{w}': write {form}" + \
            (f" ({a.help})" if a.help else "")

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
            try:
                why = self._why_value(s, a, P, v, bound)
            except Exception:   # noqa: BLE001 - a value the parameter's expressions cannot take
                why = None
            if why:
                return f"not legal: {why}"
            bound.append(v)
        return "not legal: " + failed_reason(a.why_parts, s, s.ts[ACTOR], args,
                                             fallback=f"'{a.text}' needs {a.legal_text}, which does not hold now")

    def _why_value(self, s, a, P, v, bound):
        """Why value ``v`` of parameter ``P`` is refused, naming the legal values (None when it is fine).

        ``bound``: the acting seat and the values of the earlier parameters."""
        deck = s.game.deck
        code = deck.code
        name = f"'{a.text}' {P.name}"
        if P.kind == "number":
            lo, hi, st = P.values(s, *bound)
            st = st if st > 0 else 1
            if lo <= v <= hi and (v - lo) % st == 0:
                return None
            if hi < lo:
                return f"{name} {v}: no {P.name} is possible now"
            by = f" in steps of {st}" if st != 1 else ""
            shown = list(_range(lo, hi, st))
            listed = f" ({', '.join(map(str, shown))})" if len(shown) <= 12 else ""
            return f"{name} {v}: {P.name} goes from {lo} to {hi}{by}{listed}"
        if P.kind == "choice":
            vals = P.values(s, *bound)
            words = [self._value_text(deck, P.elem, x) for x in vals]
            if P.count == 1:
                if v in vals:
                    return None
                return f"{name} {self._value_text(deck, P.elem, v)}: choose one of {', '.join(words) or '(none)'}"
            if len(set(v)) == P.count and all(x in vals for x in v):
                return None
            got = " ".join(self._value_text(deck, P.elem, x) for x in v)
            return f"{name} {got}: choose {P.count} different values of {', '.join(words) or '(none)'}"
        if P.kind == "card":
            zone, ok = P.values(s, *bound)
            if v in ok:
                return None
            why = f"is not in {P.zone}" if v not in zone else \
                f"is not legal: {P.reason}" if P.reason else f"does not have {P.where}"
            return f"{name} {code[v]} {why}; legal: {' '.join(code[c] for c in ok) or '(none)'}"
        kmin, kmax, zone, ok = P.values(s, *bound)   # cards
        if not kmin <= len(v) <= kmax:
            size = f"{kmin}" if kmin == kmax else f"{kmin} to {kmax}"
            return f"{name}: {size} cards, not {len(v)}"
        if not _sub_multiset(v, zone):
            rest = list(zone)
            missing = []
            for c in v:
                if c in rest:
                    rest.remove(c)
                else:
                    missing.append(code[c])
            held = " ".join(code[c] for c in deck.sorted(zone)) or "empty"
            return f"{name}: {' '.join(missing)} not in {P.zone} ({P.zone}: {held})"
        if P.where:
            bad = [code[c] for c in v if c not in ok]
            if bad:
                return f"{name}: {' '.join(bad)}: {P.reason}" if P.reason else \
                    f"{name}: {' '.join(bad)} without {P.where} (every card needs it)"
        return None

    # ---- small choices (engine/choices.py, docs/actions.md) ----------------------------------------
    # A partial action is (action index, parameter j, units chosen of parameter j, values of parameters
    # 0..j-1). Units: a card (face) of a card or cards parameter, a value of a choice, a number, or one
    # character of a number spelled in digits. A chunk is offered only when some legal action extends it.
    compound = True

    @property
    def _spaces(self):
        d = self.__dict__.get("_space_cache")
        if d is None:
            d = self.__dict__["_space_cache"] = {}
        return d

    def _digits(self, P) -> bool:
        """A number parameter spelled in digits (its range is not known at load time)."""
        d = P.digits
        if d is None:   # worked out once per parameter
            if P.kind != "number":
                d = False
            else:
                key = id(P)
                if key not in self._spaces:
                    self._spaces[key] = static_range(*P.srcs, len(self.game.deck.cards)) if P.srcs else None
                d = self._spaces[key] is None
            P.digits = d
        return d

    @staticmethod
    def _merged(P) -> bool:
        """The action's first chunk carries its first parameter's first word (``meld 7H``, ``bid 40``)."""
        return P.kind in ("card", "number", "choice") or (P.kind == "cards" and (P.kmin_lit or 0) >= 1)

    def _words(self, game, P) -> list:
        """Every word a unit of parameter ``P`` can be written as (its part of the action space)."""
        from ...choices import ActionSpaceError, DIGITS, literal_list
        if P.kind in ("card", "cards"):
            return self.card_codes(game)
        if P.kind == "number":
            if self._digits(P):
                return list(DIGITS)
            return [str(v) for v in self._spaces[id(P)]]
        deck = game.deck
        if P.elem == SUIT:
            vals = list(range(len(deck.suits))) + [-1]
        elif P.elem == BOOL:
            vals = [True, False]
        elif P.elem == CARD:
            return self.card_codes(game)
        else:
            vals = literal_list(P.srcs)
            if vals is None:
                raise ActionSpaceError(f"parameter '{P.name}': choice: is not a constant list of {P.elem}; the "
                                       "action space needs every value at load time (docs/actions.md)")
        return [self._value_text(deck, P.elem, x) for x in vals]

    def choice_names(self, game):
        first, follow = [], []
        for a in self.actions:
            if a.params and self._merged(a.params[0]):
                first += [f"{a.text} {w}" for w in self._words(game, a.params[0])]
            else:
                first.append(a.text)
            for P in a.params:
                follow += self._words(game, P)
        kinds = {ph[0] for ph in self.phases}
        ends = ([self.done_text] if "any" in kinds else []) + ([self.skip_text] if "optional" in kinds else [])
        return first + ends + follow

    def _unit_word(self, s, P, u):
        if P.kind in ("card", "cards"):
            return s.game.deck.code[u]
        if P.kind == "number":
            return u if self._digits(P) else str(u)
        return self._value_text(s.game.deck, P.elem, u)

    def _size(self, P):
        """Units of a parameter of fixed size (a card, a number, a choice of ``count``), else None."""
        if P.kind == "card" or (P.kind == "number" and not self._digits(P)):
            return 1
        if P.kind == "choice":
            return P.count
        return None

    def _domain(self, s, a, j, seat, bound, memo):
        """Every value of parameter ``j`` given the earlier ones (None: cards listed by search)."""
        key = ("d", a.index, j, bound)
        if key in memo:
            return memo[key]
        P = a.params[j]
        if P.kind == "card":
            out = P.values(s, seat, *bound)[1]
        elif P.kind == "number":
            lo, hi, st = P.values(s, seat, *bound)
            out = list(_range(lo, hi, st))
        elif P.kind == "choice":
            vals = P.values(s, seat, *bound)
            out = vals if P.count == 1 else list(itertools.combinations(vals, P.count))
        elif P.search is not None:
            raw = P.search(s, seat, *bound)
            key_ = s.game.deck.sort_key.__getitem__
            if isinstance(raw, CardSetSearch):
                out = _Searched(raw, lambda: P.values(s, seat, *bound), key_)
            else:
                kmin, kmax, zone, _ = P.values(s, seat, *bound)
                out = _candidates(raw, kmin, kmax, zone, key_, False)
        elif P.cands is not None:
            out = P.cands(s, seat, *bound)
        else:
            out = None
        memo[key] = out
        return out

    def _value(self, s, a, j, seat, bound, cur, memo):
        P = a.params[j]
        if P.kind == "cards":
            return tuple(cur) if P.ordered else tuple(sorted(cur, key=s.game.deck.sort_key.__getitem__))
        if P.kind == "number" and self._digits(P):
            return int("".join(cur))
        if P.kind == "choice" and P.count != 1:
            vals = P.values(s, seat, *bound)
            return tuple(sorted(cur, key=vals.index))
        return cur[0]

    def _values(self, s, a, j, seat, bound, cur, memo):
        """The values of parameter ``j`` consistent with the units ``cur`` chosen of it (a generator)."""
        P = a.params[j]
        dom = self._domain(s, a, j, seat, bound, memo)
        if P.kind == "cards":
            if dom.__class__ is _Searched:
                yield from dom.containing(cur)
                return
            if dom is not None:
                if not cur:
                    yield from dom
                    return
                if P.ordered:
                    k = len(cur)
                    yield from (v for v in dom if v[:k] == cur)
                    return
                for v in dom:
                    if _sub_multiset(cur, v):
                        yield v
                return
            kmin, kmax, zone, pool = P.values(s, seat, *bound)
            rest = list(pool)
            for c in cur:
                if c not in rest:
                    return
                rest.remove(c)
            key = s.game.deck.sort_key.__getitem__
            rest.sort(key=key)
            base = list(cur)
            seen = set()
            for k in range(max(kmin - len(base), 0), kmax - len(base) + 1):
                if k > len(rest):
                    break
                make = itertools.permutations if P.ordered else itertools.combinations
                for extra in make(rest, k):
                    v = tuple(base) + extra if P.ordered else tuple(sorted(base + list(extra), key=key))
                    if v not in seen:
                        seen.add(v)
                        yield v
            return
        if P.kind == "number" and self._digits(P):
            prefix = "".join(cur)
            yield from (v for v in dom if str(v).startswith(prefix))
            return
        if not cur:
            yield from dom
        elif P.kind == "choice" and P.count != 1:
            yield from (v for v in dom if set(cur) <= set(v))
        else:
            if cur[0] in dom:
                yield cur[0]

    def _check(self, s, a, seat, args):
        try:
            return a.check_fn(s, seat, args)
        except (TypeError, IndexError, KeyError, ValueError):
            return False

    def _checked(self, s, a, seat, args, memo):
        """``_check``, kept in ``memo``: the searches of one decision meet the same complete actions."""
        key = ("c", a.index, args)
        try:
            r = memo.get(key)
        except TypeError:   # a value that is a list
            return self._check(s, a, seat, args)
        if r is None:
            r = memo[key] = self._check(s, a, seat, args)
        return r

    def _feasible(self, s, a, j, seat, bound, cur, memo):
        """Whether some legal action has parameters ``bound``, then a value of parameter ``j`` consistent
        with ``cur``, then any later values."""
        return self._witness(s, a, j, seat, bound, cur, memo) is not _NONE

    def _witness(self, s, a, j, seat, bound, cur, memo):
        """A value of parameter ``j`` consistent with ``cur`` that some legal action has (after ``bound``),
        or ``_NONE``: ``_feasible``'s search, which stops at the first one."""
        key = ("f", a.index, j, bound, cur)
        r = memo.get(key)
        if r is not None:
            return r
        r = _NONE
        if j == 0 and a.pre is not None and not self._pre(s, a, seat, memo):
            memo[key] = r   # legal: names no parameter and does not hold: no value can make it hold
            return r
        last = j + 1 == len(a.params)
        if last and a.params[j].search is not None:
            dom = self._domain(s, a, j, seat, bound, memo)
            if dom.__class__ is _Searched:   # the searched card sets, each checked, the first legal one kept
                if dom.search.none_holding(cur):
                    memo[key] = r
                    return r
                checked = self._checked
                for v in dom.containing(cur):
                    if checked(s, a, seat, bound + (v,), memo):
                        r = v
                        wk = ("w", a.index, j, bound)   # the legal card sets found (_normalized's covered)
                        found = memo.get(wk)
                        if found is None:
                            memo[wk] = [v]
                        else:
                            found.append(v)
                        break
                memo[key] = r
                return r
        tried = memo.get(_TRIED, 0)
        for v in self._values(s, a, j, seat, bound, cur, memo):
            tried += 1
            if tried > MAX_LISTED:   # the runtime net behind the load-time bound (engine/listing.py)
                _listing_too_large(f"the search for a legal '{a.text}'")
            b = bound + (v,)
            memo[_TRIED] = tried
            if self._checked(s, a, seat, b, memo) if last else self._feasible(s, a, j + 1, seat, b, (), memo):
                r = v
                break
            tried = memo[_TRIED]
        memo[key] = r
        return r

    def _pre(self, s, a, seat, memo):
        key = ("p", a.index)
        r = memo.get(key)
        if r is None:
            try:
                r = memo[key] = bool(a.pre(s, seat))
            except (TypeError, IndexError, KeyError, ValueError):
                r = memo[key] = False
        return r

    def _units(self, s, a, j, seat, bound, cur, memo, cheap=False):
        """The units that may come next in parameter ``j`` (before the feasibility check; ``cheap``:
        the cards of a ``candidates:`` parameter's pool, without listing its candidates)."""
        P = a.params[j]
        if P.kind == "cards":
            kmin, kmax, zone, pool = P.values(s, seat, *bound)
            if len(cur) >= kmax:
                return []
            dom = None if cheap and P.search is None else self._domain(s, a, j, seat, bound, memo)
            if dom.__class__ is _Searched:   # searched: the cards still held that it may add, each checked
                some = dom.search.units(cur)
                rest = list(pool)
                for c in cur:
                    if c in rest:
                        rest.remove(c)
                if some is not None:
                    some = set(some)
                    rest = [c for c in rest if c in some]
                return sorted(set(rest), key=s.game.deck.sort_key.__getitem__)
            rest = list(pool) if dom is None else [c for v in dom for c in v]
            for c in cur:
                if c in rest and dom is None:
                    rest.remove(c)
            if dom is not None:   # candidates: the cards of the sets that extend cur
                rest = list(dict.fromkeys(rest))
                held = list(zone)
                for c in cur:
                    if c in held:
                        held.remove(c)
                rest = [c for c in rest if c in held]
            return sorted(set(rest), key=s.game.deck.sort_key.__getitem__)
        if P.kind == "number" and self._digits(P):
            return list(DIGITS[1:]) if cur else list(DIGITS)
        dom = self._domain(s, a, j, seat, bound, memo)
        if P.kind == "choice" and P.count != 1:
            return [x for x in P.values(s, seat, *bound) if x not in cur] if len(cur) < P.count else []
        return list(dom) if not cur else []

    def _can_end(self, s, a, j, seat, bound, cur, memo):
        """Whether the variable-size parameter ``j`` may end with units ``cur`` (an action completes)."""
        P = a.params[j]
        if P.kind == "cards":
            kmin, kmax, _, _ = P.values(s, seat, *bound)
            if not kmin <= len(cur) <= kmax:
                return False
        elif not cur or cur == ("-",):
            return False
        v = self._value(s, a, j, seat, bound, cur, memo)
        if P.kind == "cards" and v in memo.get(("w", a.index, j, bound), ()):
            return True   # a legal card set a search of this decision found (_witness)
        dom = self._domain(s, a, j, seat, bound, memo)
        if dom is not None and v not in dom:
            return False
        b = bound + (v,)
        if j + 1 == len(a.params):
            return self._checked(s, a, seat, b, memo)
        return self._feasible(s, a, j + 1, seat, b, (), memo)

    def _normalize(self, s, ai, j, cur, bound, memo):
        """``(j, cur, bound, adds, end_ok, move)``: the position with fixed-size parameters that are full
        (and lists that cannot go on) closed; ``adds``: (word, unit) that may come next; ``end_ok``: the
        list in progress may end (``done``); ``move``: the complete action (else None)."""
        key = ("n", ai, j, cur, bound)
        try:
            got = memo.get(key)
        except TypeError:   # a value that is a list
            return self._normalized(s, ai, j, cur, bound, memo)
        if got is None:
            got = memo[key] = self._normalized(s, ai, j, cur, bound, memo)
        return got

    def _normalized(self, s, ai, j, cur, bound, memo):
        a = self.actions[ai]
        seat = s.ts[ACTOR]
        m = len(a.params)
        while True:
            if j >= m:
                return j, cur, bound, [], False, (ai, bound)
            P = a.params[j]
            size = self._size(P)
            if size is not None and len(cur) >= size:
                bound = bound + (self._value(s, a, j, seat, bound, cur, memo),)
                j, cur = j + 1, ()
                continue
            adds = []
            unordered = P.kind == "cards" and not P.ordered or (P.kind == "choice" and P.count != 1)
            covered = set()   # cards of an unordered set found legal with cur: each may come next
            if unordered and P.kind == "cards":   # legal sets found before (this decision) that hold cur
                for w in memo.get(("w", ai, j, bound), ()):
                    rest = _rest_if_within(w, cur)
                    if rest is not None:
                        covered.update(rest)
            for u in self._units(s, a, j, seat, bound, cur, memo):
                nc = cur + (u,)
                if unordered and P.kind == "cards":
                    nc = tuple(sorted(nc, key=s.game.deck.sort_key.__getitem__))
                    if u in covered:
                        adds.append((self._unit_word(s, P, u), u))
                        continue
                    w = self._witness(s, a, j, seat, bound, nc, memo)
                    if w is not _NONE:
                        adds.append((self._unit_word(s, P, u), u))
                        covered.update(_without_cards(w, cur))   # w holds cur and each of them
                elif self._feasible(s, a, j, seat, bound, nc, memo):
                    adds.append((self._unit_word(s, P, u), u))
            end_ok = size is None and self._can_end(s, a, j, seat, bound, cur, memo)
            if end_ok and not adds:
                bound = bound + (self._value(s, a, j, seat, bound, cur, memo),)
                j, cur = j + 1, ()
                continue
            return j, cur, bound, adds, end_ok, None

    def _phase_actions(self, s):
        """``(kind, actions)`` of the phase being played (the actions that may be legal in it, a tuple)."""
        ph = s.ts[PH]
        got = self._phase_acts.get(ph)
        if got is None:
            kind, _, _, what, _ = self.phases[ph]
            got = self._phase_acts[ph] = (kind, tuple([a for a in self.actions if a.index in what and not a.never]))
        return got

    def choice_options(self, s, pos, memo=None):
        memo = {} if memo is None else memo
        if pos is None:
            kind, acts = self._phase_actions(s)
            seat = s.ts[ACTOR]
            out = []
            for a in acts:
                if not a.params:
                    if self._check(s, a, seat, ()):
                        out.append(a.text)
                elif self._merged(a.params[0]):
                    adds = self._normalize(s, a.index, 0, (), (), memo)[3]
                    out += [f"{a.text} {w}" for w, _ in adds]
                elif self._feasible(s, a, 0, seat, (), (), memo):
                    out.append(a.text)
            if kind == "any":
                out.append(self.done_text)
            elif kind == "optional":
                out.append(self.skip_text)
            return out, None
        if pos[0] == "end":
            return [], pos[1]
        ai, j, cur, bound = pos
        j, cur, bound, adds, end_ok, move = self._normalize(s, ai, j, cur, bound, memo)
        if move is not None:
            return [], move
        words = [w for w, _ in adds]
        if end_ok:
            ahead = self._ahead(s, ai, j, cur, bound, adds, memo)
            words += [w for w, _ in ahead] if ahead else [DONE_WORD]
        return words, None

    def _ahead(self, s, ai, j, cur, bound, adds, memo):
        """When the list of parameter ``j`` may end and a later parameter follows, the later parameter's
        first words end it as well (``play 7H 8S success``, no ``done``): ``[(word, position)]``, or None
        when ``done`` is needed (nothing follows, or a word could be read both ways)."""
        a = self.actions[ai]
        if j + 1 >= len(a.params):
            return None
        v = self._value(s, a, j, s.ts[ACTOR], bound, cur, memo)
        j2, cur2, bound2, adds2, _, move2 = self._normalize(s, ai, j + 1, (), bound + (v,), memo)
        if move2 is not None or not adds2:
            return None
        mine = {w for w, _ in adds}
        if any(w in mine or w == DONE_WORD for w, _ in adds2):
            return None
        return [(w, (ai, j2, cur2 + (u,), bound2)) for w, u in adds2]

    def choice_next(self, s, pos, chunk, memo=None):
        memo = {} if memo is None else memo
        if pos is None:
            kind, acts = self._phase_actions(s)
            if kind == "any" and chunk == self.done_text:
                return ("end", DONE)
            if kind == "optional" and chunk == self.skip_text:
                return ("end", SKIP)
            for a in sorted(acts, key=lambda a: -len(a.text)):
                if chunk == a.text and not (a.params and self._merged(a.params[0])):
                    return (a.index, 0, (), ())
                if a.params and self._merged(a.params[0]) and chunk.startswith(a.text + " "):
                    word = chunk[len(a.text) + 1:]
                    adds = self._normalize(s, a.index, 0, (), (), memo)[3]
                    for w, u in adds:
                        if w == word:
                            return (a.index, 0, (u,), ())
            raise ValueError(f"'{chunk}' is not a small choice now")
        ai, j, cur, bound = pos
        j, cur, bound, adds, end_ok, move = self._normalize(s, ai, j, cur, bound, memo)
        if end_ok:
            ahead = self._ahead(s, ai, j, cur, bound, adds, memo)
            if ahead is None and chunk == DONE_WORD:
                a = self.actions[ai]
                return (ai, j + 1, (), bound + (self._value(s, a, j, s.ts[ACTOR], bound, cur, memo),))
            for w, p in ahead or ():
                if w == chunk:
                    return p
        for w, u in adds:
            if w == chunk:
                P = self.actions[ai].params[j]
                nc = cur + (u,)
                if P.kind == "cards" and not P.ordered:
                    nc = tuple(sorted(nc, key=s.game.deck.sort_key.__getitem__))
                return (ai, j, nc, bound)
        raise ValueError(f"'{chunk}' is not a small choice now")

    def add_view(self, s, seat, out):
        ts = s.ts
        if ts is not None:
            out["turn"] = {"seat": ts[SEAT], "number": s.v[TURN] + 1, "phase": ts[PH], "actions_in_phase": ts[CNT]}
            if ts[NEXT] >= 0:   # a next_seat: effect chose the next turn's seat (public: it is the flow)
                out["turn"]["next_seat"] = ts[NEXT]


def _fast_text(a, codes):
    """The text of action ``a``'s moves from their values, when its parameters are one list of cards or
    cards only (``discard 2C 3C``, ``call AS``): the same text ``Turns.text`` builds, without looking at
    each parameter's kind per move. None for any other action."""
    kinds = [P.kind for P in a.params]
    t = a.text
    if kinds == ["cards"]:
        return lambda args: " ".join([t] + [codes[c] for c in args[0]])
    if kinds and all(k == "card" for k in kinds):
        return lambda args: " ".join([t] + [codes[c] for c in args])
    return None
