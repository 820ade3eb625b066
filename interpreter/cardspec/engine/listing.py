"""How large and how costly listing a decision's legal actions can be, known when a Game is compiled.

Issue 16 (Deliver 2: every evaluation has a cost bound known at load); docs/dsl.md, "Bounds" ("Listing").
For every decision step (and every action kind of a ``turns`` step) ``bound(step, game, comp)`` gives a
``Listing``: worst-case figures computed from the deck's size ``N`` (the most cards any zone can hold),
its distinct faces ``F``, the parameter kinds and their candidate sets, the counts of card-set parameters
(C(n, k) summed over the allowed k; permutations when ``ordered``), number ranges and the costs of the
expressions already computed by the compiler (``Compiler.costs``):

- ``moves``: the most actions a full listing (``State.legal_actions()``) can hold;
- ``check``: the cost, in steps, of checking one action given whole (a typed action, ``is_legal``);
- ``listing``: the cost of the full listing (its loops, the conditions run per action);
- ``choices``: the cost of deciding one small choice (docs/actions.md): a chunk is offered only when some
  legal action completes it, found by a search that stops at the first legal completion; it may have to
  check every completion when ``legal:`` depends on the parameters (a ``legal:`` that names none is checked
  once, first);
- ``what``: the largest part, in words, for the message.

``check_listings(game, comp)`` records a problem at the step (or the action kind) whose ``moves`` are over
``LISTED_BUDGET`` or whose ``choices`` are over ``CHOICE_BUDGET``: the API's views and bots list whole
actions, players and bots may make a decision in small choices; both are bounded. ``listing`` is shown
(docs/dsl.md's table), not budgeted: a listing stops at run time past ``MAX_LISTED`` actions. The run-time
caps stay as the safety net (``MAX_LISTED`` actions or values searched, ``MAX_NUMBER_VALUES`` values of a
number or bids, ``MAX_TURNS_WITHOUT_DECISION``): the figures assume every hand may hold the whole deck.
Nothing is computed for a game whose compiler recorded a problem (a consequence of it).
"""
from __future__ import annotations

import ast
import math
from dataclasses import dataclass

from ..lang.bounds import CHOICE_BUDGET, LISTED_BUDGET


@dataclass
class Listing:
    """Worst-case figures of one decision step or action kind (module doc); costs in steps."""

    moves: float
    check: float
    listing: float
    choices: float
    what: str

    def add(self, other: "Listing") -> "Listing":
        """The figures of two action kinds offered together (one phase of a turns step)."""
        big = self if self.listing >= other.listing else other
        return Listing(self.moves + other.moves, max(self.check, other.check), self.listing + other.listing,
                       max(self.choices, other.choices), big.what)


def _sizes(game):
    cards = game.deck.cards
    return max(len(cards), 1), max(len(set(cards)), 1)


def _static(src: str, cap: int):
    """``(lo, hi)`` of a compiled int expression when bounded at load (``choices._bounds``), ±inf otherwise."""
    from .choices import _bounds
    try:
        return _bounds(ast.parse(src, mode="eval").body, cap)
    except (SyntaxError, ValueError, RecursionError):
        return -math.inf, math.inf


def card_sets(n: int, faces: int, kmin: int, kmax: int, ordered: bool, copies: bool) -> float:
    """The most distinct card sets (sequences when ``ordered``) of kmin..kmax cards from ``n`` cards of
    ``faces`` distinct faces: sum of C(n, k) (P(n, k)), and no more than the multisets (words) of faces
    when the deck repeats a face."""
    total = 0
    for k in range(max(kmin, 0), min(kmax, n) + 1):
        if ordered:
            c = math.perm(n, k)
            if copies:
                c = min(c, faces ** k)
        else:
            c = math.comb(n, k)
            if copies:
                c = min(c, math.comb(faces + k - 1, k))
        total += c
        if total > 1e30:
            return float(total)
    return float(total)


def _cost(comp, path) -> float:
    return comp.cost_under(path)


def _fmt(x: float) -> str:
    return f"{int(x):,}" if x < 1e15 else f"{x:.1e}"


# ---- turns ----------------------------------------------------------------------------------------------
@dataclass
class _P:
    """One parameter's figures: its values, the cost of making all of them (a listing) and of finding
    the first (a search), the cost of checking one given value, and its description."""

    values: float
    full: float
    first: float
    check: float
    what: str


def _param(game, comp, a, P, n, faces, copies) -> _P:
    """The figures of one parameter of action ``a`` (module doc)."""
    from .steps.turns import MAX_NUMBER_VALUES
    zone = game.zone.get(str(getattr(P, "zone", "")).split("[")[0].strip()) if P.kind in ("card", "cards") else None
    if zone is not None and zone.max is not None:   # the rules bound the zone (zones: max:, State._check_caps)
        n, faces = max(min(n, zone.max), 1), max(min(faces, zone.max), 1)
    path = a.path + ("params", P.name)
    cost = _cost(comp, path)
    where = _cost(comp, path + ("where",))
    scan = n * (where + 2) + n * math.log2(n + 1)     # the zone filtered by where:, sorted
    if P.kind == "card":
        return _P(float(faces), cost + scan, cost + scan, cost + n + where, f"a card of up to {n}")
    if P.kind == "cards":
        lo = _static(P.kmin, n)[0]
        hi = _static(P.kmax, n)[1]
        kmin = 0 if lo == -math.inf else max(0, int(lo))
        kmax = n if hi == math.inf else min(n, int(hi))
        sets = card_sets(n, faces, kmin, kmax, P.ordered, copies)
        size = f"{kmin}" if kmin == kmax else f"{kmin} to {kmax}"
        words = f"{'sequences' if P.ordered else 'sets'} of {size} cards from up to {n}"
        check = cost + kmax * (n + where + 1)
        if P.cands is not None:   # the ruleset's candidates: a list no longer than the steps that made it
            cand = max(_cost(comp, path + ("candidates",)), 1.0)
            values = min(sets, cand)
            full = cost + values * (kmax * (where + 1) + n)   # each candidate checked for size, zone, where:
            return _P(values, full, full, check, f"{_fmt(values)} candidate {words}")
        return _P(sets, cost + scan + sets * max(kmax, 1), cost + scan + kmax, check, words)
    if P.kind == "number":
        lo_src, hi_src, st_src = P.srcs
        lo, hi = _static(lo_src, n)[0], _static(hi_src, n)[1]
        values = MAX_NUMBER_VALUES   # a range not known at load: the run-time cap
        if lo != -math.inf and hi != math.inf:
            st = _static(st_src, n)[0]
            st = int(st) if st not in (-math.inf, math.inf) and st >= 1 else 1
            values = min(MAX_NUMBER_VALUES, max(0, (int(hi) - int(lo)) // st + 1))
        return _P(float(values), cost + values, cost + values, cost + 4, f"{_fmt(values)} numbers")
    # choice
    size = float(P.size if P.size is not None else n)
    k = P.count or 1
    values = float(math.comb(int(size), k)) if k > 1 else size
    return _P(values, cost + values * k, cost + size, cost + size * k, f"{_fmt(values)} values")


def action_bound(game, comp, a, step=None) -> Listing:
    """The ``Listing`` of one action kind of a turns step (module doc): ``choices`` is the cost of deciding
    one small choice (the search for a legal completion of one chunk). ``step``: its turns step (a number
    spelled in digits does not fix its value with one chunk)."""
    n, faces = _sizes(game)
    copies = faces < n
    legal = _cost(comp, a.path + ("legal",))
    if a.never:
        return Listing(0, 0, 0, 0, f"'{a.text}'")
    parts = [_param(game, comp, a, P, n, faces, copies) for P in a.params]
    check = legal + sum(p.check for p in parts)
    moves = 1.0
    listing = legal if a.hoisted else 0.0
    for p in parts:
        listing += moves * p.full     # the parameter's values, made once per value of the earlier ones
        moves *= p.values
    per_move = len(parts) + 1 + (0 if a.hoisted else legal)
    listing += moves * per_move
    # One small choice: its chunk fixes the first parameter's value when that is one word (a card, a
    # number, one value: ``lay off 2``), else the search starts from all of them. The search finds the
    # values of each later parameter again for each value of the earlier ones; it checks every completion
    # when legal: depends on the parameters, else the first completion found is legal.
    first = a.params[0] if parts else None
    fixed = first is not None and (first.kind == "card" or (first.kind == "choice" and (first.count or 1) == 1)
                                   or (first.kind == "number" and step is not None and not step._digits(first)))
    search = (legal if a.hoisted else 0.0) + (parts[0].first if parts else 0.0)
    tried = 1.0 if fixed else (parts[0].values if parts else 1.0)
    for p in parts[1:]:
        search += tried * p.first
        tried *= p.values
    depends = bool(parts) and not a.hoisted and legal > 1
    choices = search + (tried * (check + len(parts)) if depends else check)
    what = f"'{a.text}'" + (" (" + "; ".join(p.what for p in parts) + ")" if parts else "")
    return Listing(moves, check, listing, choices, what)


def _turns(step, game, comp):
    by_action = {a.index: action_bound(game, comp, a, step) for a in step.actions}
    worst = None
    for kind, _, _, what, _ in step.phases:
        if kind == "do":
            continue
        total = None
        for i in sorted(what):
            b = by_action[i]
            total = b if total is None else total.add(b)
        if total is not None and (worst is None or total.moves > worst.moves):
            worst = total
    return worst, by_action


# ---- the other decision steps -------------------------------------------------------------------------------
def _pass(step, game, comp):
    n, faces = _sizes(game)
    path = step.path + ("pass",)
    k_lo, k_hi = _static(_src(comp, step, "count"), n)
    k = n // 2 if k_hi == math.inf or k_lo == -math.inf else None
    if step.single:
        return Listing(faces, n, n * math.log2(n + 1), n, f"a pass of one card at a time from up to {n}")
    if k is None:   # the count is known at load: every k it may take
        best = max(range(max(int(k_lo), 0), min(int(k_hi), n) + 1), key=lambda j: math.comb(n, j), default=0)
    else:
        best = k
    sets = card_sets(n, faces, best, best, False, faces < n)
    count = _cost(comp, path + ("count",))
    return Listing(sets, count + best * n, count + sets * (best + 1), count + 2 * n,   # (chunks: the hand)
                   f"a pass of {best} cards from a hand of up to {n}: C({n}, {best}) = {_fmt(sets)} sets")


def _src(comp, step, key):
    """The compiled source of one of the step's int keys (its constant value when folded)."""
    body = step.body if isinstance(step.body, dict) else {}
    from ..lang import DslError, INT, compile_expr
    try:
        return compile_expr(str(body.get(key, 3)), comp.env, {}, (INT,)).src
    except DslError:
        return "0"


def _tricks(step, game, comp):
    n, faces = _sizes(game)
    path = step.path + ("tricks",)
    cond = sum(_cost(comp, path + (k,)) for k in ("lead", "play", "exempt", "led_suit"))
    per_card = cond + 4
    choose = 0.0
    if step.choose is not None:   # a choice after a card: the values of its list
        size = step.choose.get("size")
        choose = float(size if size is not None else n)
    moves = faces + choose
    listing = 2 * n * per_card + choose * (1 + _cost(comp, path + ("choose",)))   # (a lifted condition: twice)
    return Listing(moves, per_card + n, listing, listing, f"a card of a hand of up to {n}")


def _bid(step, game, comp):
    from .steps.turns import MAX_NUMBER_VALUES
    n, _ = _sizes(game)
    values = len(step._values) if step._values is not None else MAX_NUMBER_VALUES
    legal = _cost(comp, step.path + ("bid", "legal"))
    listing = _cost(comp, step.path + ("bid",)) + 2 * values * (legal + 1)
    choices = listing if step._values is not None else 11 * (values * (legal + 1))
    return Listing(values, legal + 4, listing, choices, f"{_fmt(values)} bids")


def _auction(step, game, comp):
    bids = len(getattr(step, "bids", ()) or ()) + 1
    cond = _cost(comp, step.path + ("auction",))
    return Listing(bids, cond + 4, bids * (cond + 2), bids * (cond + 2), f"{bids - 1} bids and pass")


def _secret(step, game, comp):
    k = len(getattr(step, "library", ()) or ()) + 1
    return Listing(k, 2, 2 * k, 2 * k, f"{k - 1} library rules")


_KINDS = {"turns": _turns, "pass": _pass, "tricks": _tricks, "bid": _bid, "auction": _auction,
          "secret_rule": _secret}


def bound(step, game, comp):
    """``(Listing, {action index: Listing})`` of a decision step (the dict is empty but for turns); None
    for a step that decides nothing or whose kind has no bound here."""
    fn = _KINDS.get(step.kind)
    if fn is None or not step.decision:
        return None
    out = fn(step, game, comp)
    return out if isinstance(out, tuple) else (out, {})


def check_listings(game, comp):
    """Record the listing figures of every decision step on it (``step.listing``; a turns step's action
    kinds in ``step.action_listing``) and a problem at each action kind or step over a budget: more than
    ``LISTED_BUDGET`` actions in a full listing, or more than ``CHOICE_BUDGET`` steps to decide one small
    choice (module doc). ``comp.max_listed`` and ``comp.max_choice`` keep the largest figures met. Nothing is
    computed once the compiler has recorded a problem: an expression that failed to compile (a count from an
    unknown name) would only give a consequence of it."""
    if comp.problems or getattr(getattr(game, "ruleset", None), "problems", None):   # (or the reader's: a bad default)
        return
    for step in game.steps:
        b = bound(step, game, comp)
        if b is None or b[0] is None:
            continue
        total, actions = b
        step.listing = total
        step.action_listing = {step.actions[i].name: lb for i, lb in actions.items()}
        comp.max_listed = max(getattr(comp, "max_listed", 0.0), total.moves)
        comp.max_choice = max(getattr(comp, "max_choice", 0.0), total.choices)
        over = False
        for i, lb in actions.items():
            why = _over(lb)
            if why:
                over = True
                comp.problems.append(comp.pos.problem(step.actions[i].path, why, _HINT, key=True))
        why = None if over else _over(total)
        if why:
            comp.problem(step.path, why, _PASS_HINT if step.kind == "pass" else _HINT)


def _over(b: Listing):
    """The message when ``b`` is over a budget, else None."""
    if b.moves > LISTED_BUDGET:
        return (f"listing the legal actions may give up to {_fmt(b.moves)} actions ({b.what}); the budget is "
                f"{LISTED_BUDGET:,} (docs/dsl.md, \"Bounds\")")
    if b.choices > CHOICE_BUDGET:
        return (f"deciding one small choice may take about {_fmt(b.choices)} steps ({b.what}: a search among "
                f"up to {_fmt(b.moves)} actions, about {_fmt(b.check)} steps to check each); the budget is "
                f"{CHOICE_BUDGET:,} (docs/dsl.md, \"Bounds\")")
    return None


_HINT = ("fewer cards per action (count: {min, max}) or a candidates: list (e.g. melds_in(...)); a legal: that "
         "names no parameter is checked once, not for every card set")
_PASS_HINT = "pass fewer cards, or one at a time (one_at_a_time: true lists one card per action)"
