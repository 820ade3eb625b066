"""The action search of a turns step: small choices, random moves, "is anything legal" (docs/actions.md).

``ActionSearch`` is the part of ``Turns`` (core.py) that searches an action's parameters one small
choice at a time instead of listing every move: ``choice_options``/``choice_next`` (engine/choices.py),
``random_move`` (uniformly random small choices), ``_any_move`` (a search that stops at the first
legal action) and ``_feasible``/``_witness`` behind them all. It reads the step's ``actions``,
``phases``, ``done_text``/``skip_text`` and its caches ``_phase_acts`` and ``_firsts``; each parameter
answers for its own kind (param.py: ``domain``, ``matching``, ``units``, ``value``, ``unit_word``).

A partial action is (action index, parameter j, units chosen of parameter j, values of parameters
0..j-1). Units: a card (face) of a card or cards parameter, a value of a choice, a number, or one
character of a number spelled in digits. A chunk is offered only when some legal action extends it.
The searches of one decision share a ``memo``: its keys are ``("d", action, j, bound)`` (a
parameter's domain), ``("f", action, j, bound, cur)`` (``_witness``), ``("w", action, j, bound)`` (the
legal card sets a search found), ``("c", action, args)`` (``_checked``), ``("p", action)`` (``_pre``),
``("n", action, j, cur, bound)`` (``_normalize``), ``("l", action, j, bound)`` (a card set's sets,
``_listed_witness``) and ``_TRIED``.
"""
from __future__ import annotations

import itertools
import math

from ...choices import DIGITS, DONE_WORD, _rest_if_within
from ....lang import RuleFault
from ..base import MAX_LISTED, _listing_too_large
from .cards import _Searched, _without_cards
from .number import digit_table
from .moves import ACTOR, DONE, PH, SKIP

#: The memo key of the count of values a feasibility search tried (``_feasible``).
_TRIED = ("tried",)

#: The most card sets of a zone ``_listed_witness`` keeps for a decision (else ``matching`` searches).
_LISTED_SETS = 4096

#: ``_witness`` found nothing.
_NONE = object()


def _surely_empty(P, s, seat, bound) -> bool:
    """The cards parameter ``P``'s quick test (``P.empty``, choices.empty_tests): True only when its
    searched ``candidates:`` value holds no card set; False when it cannot tell or its arguments do not
    evaluate (the value is then made as before, and fails as before)."""
    try:
        return P.empty(s, seat, *bound)
    except Exception:  # noqa: BLE001  (the value, made next, raises it again)
        return False


class ActionSearch:
    """The small choices and random moves of a turns step (module doc); a base class of ``Turns``."""

    compound = True

    def _digits(self, P) -> bool:
        """A number parameter spelled in digits (its range is not known at load time; number.py)."""
        return P.digits

    def choice_names(self, game):
        first, follow = [], []
        for a in self.actions:
            if a.params and a.params[0].merged:
                first += [f"{a.text} {w}" for w in a.params[0].words(game)]
            else:
                first.append(a.text)
            for P in a.params:
                follow += P.words(game)
        kinds = {ph[0] for ph in self.phases}
        ends = ([self.done_text] if "any" in kinds else []) + ([self.skip_text] if "optional" in kinds else [])
        return first + ends + follow

    def random_move(self, s, rng):
        """A random legal move made of uniformly random small choices (docs/actions.md): the first
        chunk uniformly among the legal first chunks, by rejection (a random candidate, checked; the
        first legal one is uniform among the legal ones), then each later chunk uniformly among the
        legal ones: the move a player drawing each small choice uniformly among ``legal_action_ids()``
        would make."""
        memo = {}
        ph = s.ts[PH]
        kind, acts = self._phase_actions(s)
        got = self._firsts.get(ph)
        if got is None:
            got = self._firsts[ph] = self._first_cands(kind, acts)
        firsts, static = got
        seat = s.ts[ACTOR]
        if static is not None:   # the same candidates every time (no unit depends on the state)
            cands = list(static)
        else:
            cands = []
            for a, how in firsts:
                if how == 4:
                    cands += [(a, u, how) for u in a.params[0].units(s, a, 0, seat, (), (), memo, cheap=True)]
                elif how == 5:
                    cands += [(a, u, how) for u in DIGITS]
                elif how >= 2:   # the units are the first parameter's values (units' list of its domain)
                    cands += [(a, u, how) for u in a.params[0].domain(s, a, 0, seat, (), memo)]
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
            elif how == 5:   # _feasible's answer for a.digits_free: the condition, then the range's table
                if (a.pre is None or self._pre(s, a, seat, memo)) and \
                        u in self._digit_table(s, a, seat, memo).firsts:
                    self._tried(a, 1, memo)
                    return self._random_digits(s, a, u, seat, memo, rnd)
            # u: a whole value of the first parameter, of its domain (units listed it): legal when the
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

    def _random_digits(self, s, a, u, seat, memo, rnd):
        """The rest of ``random_move`` for an ``a.digits_free`` action whose first digit ``u`` was drawn:
        the loop of ``choice_options``/``choice_next`` read from the range's ``DigitTable`` (number.py).
        Each draw is among the same options in the same order (the digits that may follow, then
        ``done`` when the digits so far are a value), so the same ``rnd()`` calls make the same move."""
        level = self._digit_table(s, a, seat, memo).level
        prefix = u
        while True:
            words, end = level(prefix)
            n = len(words)
            if n:
                self._tried(a, n, memo)
            elif end:   # a value that nothing can follow: the move
                return (a.index, (int(prefix),))
            i = math.floor(rnd() * (n + end))
            if i == n:   # done (end: the digits so far are a value)
                return (a.index, (int(prefix),))
            prefix += words[i]

    def _first_cands(self, kind, acts):
        """``(firsts, static)`` of a phase for ``random_move``: ``firsts``, ``(action, how)`` by
        ``_first_kind``; ``static``, the candidate first chunks when none depends on the state (actions
        without a parameter, a first chunk without a unit, the first digit of a number), else None."""
        firsts = tuple((a, 5 if a.digits_free else self._first_kind(a)) for a in acts)
        if any(how not in (0, 1, 5) for _, how in firsts):
            return firsts, None
        static = []
        for a, how in firsts:
            static += [(a, u, how) for u in DIGITS] if how == 5 else [(a, None, how)]
        if kind == "any" or kind == "optional":
            static.append(None)
        return firsts, tuple(static)

    @staticmethod
    def _first_kind(a):
        """How ``random_move`` draws and checks the first chunk of action ``a``: 0 no parameter; 1 a first
        chunk without a unit; 2 or 3, a unit that is the first parameter's whole value (a card, a number
        in words, one choice), the only parameter (2) or followed by others (3); 4 any other unit (a card
        of a card set, a digit). (``_first_cands``: 5, the first digit of an ``a.digits_free`` number.)"""
        if not a.params:
            return 0
        P = a.params[0]
        if not P.merged:
            return 1
        if P.fixed == 1:   # (a card set's size is never fixed)
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
        if a.digits_free:   # every value of the range is legal: the first one with these digits
            r = self._digit_table(s, a, seat, memo).firsts.get("".join(cur), _NONE)
            if r is not _NONE:
                self._tried(a, 1, memo)
            memo[key] = r
            return r
        last = j + 1 == len(a.params)
        P = a.params[j]
        if last and P.search is not None:
            if not cur and P.empty is not None and _surely_empty(P, s, seat, bound):
                memo[key] = r   # the searched value would hold no card set (none_holding): not made
                return r
            dom = P.domain(s, a, j, seat, bound, memo)
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
        if last and P.cardset and P.cands is None and P.search is None and \
                (cur or ("l", a.index, j, bound) in memo):
            got = self._listed_witness(s, a, j, seat, bound, cur, memo)
            if got is not None:   # matching's sets holding cur, in its order, each checked as below
                r, n = got
                if n:
                    tried = memo.get(_TRIED, 0) + n
                    if tried > MAX_LISTED:
                        memo[_TRIED] = MAX_LISTED
                        _listing_too_large(f"the search for a legal '{a.text}'")
                    memo[_TRIED] = tried
                memo[key] = r
                return r
        tried = memo.get(_TRIED, 0)
        for v in P.matching(s, a, j, seat, bound, cur, memo):
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

    def _listed_witness(self, s, a, j, seat, bound, cur, memo):
        """``(value, n)``: the first legal card set holding ``cur`` of the last parameter ``j`` (an
        unordered card set without ``candidates:``) and the ``n`` sets ``matching`` would have yielded up
        to it (``_NONE`` and all of them when none is legal); None when the sets are not kept (identical
        faces or sort keys, more than ``_LISTED_SETS`` sets). The sets of the zone are made once a
        decision (``("l", action, j, bound)`` in ``memo``), each with a bit mask of its cards: a set holds
        ``cur`` when its mask holds ``cur``'s. ``matching(cur)`` makes the sets holding ``cur`` by size,
        then in display order of the cards added: the order of ``_combos`` restricted to them, so the
        same sets are checked (``_checked``) in the same order and the same one is found."""
        lk = ("l", a.index, j, bound)
        got = memo.get(lk)
        if got is None:
            got = memo[lk] = self._card_sets(s, a.params[j], seat, bound)
        if got is False:
            return None
        bit, sets = got
        m = 0
        for c in cur:
            b = bit.get(c)
            if b is None or m & b:   # not in the zone (or twice): matching yields nothing
                return _NONE, 0
            m |= b
        n = 0
        checked = self._checked
        for mask, v in sets:
            if mask & m == m:
                n += 1
                if checked(s, a, seat, bound + (v,), memo):
                    return v, n
        return _NONE, n

    @staticmethod
    def _card_sets(s, P, seat, bound):
        """``(bit, sets)`` for ``_listed_witness``: each card of the cards parameter ``P``'s zone (after
        ``where:``) its bit; the sets ``_combos`` lists, each ``(mask, set)``; False when not kept."""
        kmin, kmax, _, pool = P.values(s, seat, *bound)
        size = len(pool)
        key = s.game.deck.sort_key.__getitem__
        if len(set(pool)) != size or len({key(c) for c in pool}) != size:
            return False
        lo, hi = max(kmin, 0), min(kmax, size)
        total = 0
        for k in range(lo, hi + 1):
            total += math.comb(size, k)
            if total > _LISTED_SETS:
                return False
        pool = sorted(pool, key=key)
        bit = {c: 1 << i for i, c in enumerate(pool)}
        sets = []
        for k in range(lo, hi + 1):
            for t in itertools.combinations(pool, k):
                m = 0
                for c in t:
                    m |= bit[c]
                sets.append((m, t))
        return bit, sets

    def _digit_table(self, s, a, seat, memo):
        """The ``DigitTable`` (number.py) of action ``a``'s number (``a.digits_free``): its range now."""
        key = ("t", a.index)
        t = memo.get(key)
        if t is None:
            t = memo[key] = digit_table(*a.params[0].values(s, seat))
        return t

    @staticmethod
    def _tried(a, n, memo):
        """Count ``n`` more values tried by the searches of this decision (``_TRIED``); raises
        ``ListingTooLarge`` past ``MAX_LISTED`` (``_witness``'s count: one a legal value found)."""
        tried = memo.get(_TRIED, 0) + n
        if tried > MAX_LISTED:
            _listing_too_large(f"the search for a legal '{a.text}'")
        memo[_TRIED] = tried

    def _pre(self, s, a, seat, memo):
        key = ("p", a.index)
        r = memo.get(key)
        if r is None:
            try:
                r = memo[key] = bool(a.pre(s, seat))
            except (TypeError, IndexError, KeyError, ValueError):
                r = memo[key] = False
        return r

    def _can_end(self, s, a, j, seat, bound, cur, memo):
        """Whether the variable-size parameter ``j`` may end with units ``cur`` (an action completes)."""
        P = a.params[j]
        if not P.may_end(s, seat, bound, cur):
            return False
        v = P.value(s, seat, bound, cur)
        if v in memo.get(("w", a.index, j, bound), ()):   # (only the sets of a searched cards parameter)
            return True   # a legal card set a search of this decision found (_witness)
        dom = P.domain(s, a, j, seat, bound, memo)
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
            size = P.fixed
            if size is not None and len(cur) >= size:
                bound = bound + (P.value(s, seat, bound, cur),)
                j, cur = j + 1, ()
                continue
            if cur and a.digits_free and (a.pre is None or self._pre(s, a, seat, memo)):
                # the digits that follow cur, read from the range's table: what a witness search per
                # digit finds (every value is legal), in the same order, each counted as one found
                adds = list(self._digit_table(s, a, seat, memo).nexts("".join(cur)))
                if adds:
                    self._tried(a, len(adds), memo)
                end_ok = P.may_end(s, seat, bound, cur) and \
                    P.value(s, seat, bound, cur) in self._digit_table(s, a, seat, memo).values
                if end_ok and not adds:
                    bound = bound + (P.value(s, seat, bound, cur),)
                    j, cur = j + 1, ()
                    continue
                return j, cur, bound, adds, end_ok, None
            adds = []
            cardset = P.cardset
            covered = set()   # cards of an unordered set found legal with cur: each may come next
            if cardset:   # legal sets found before (this decision) that hold cur
                for w in memo.get(("w", ai, j, bound), ()):
                    rest = _rest_if_within(w, cur)
                    if rest is not None:
                        covered.update(rest)
            for u in P.units(s, a, j, seat, bound, cur, memo):
                nc = cur + (u,)
                if cardset:
                    nc = tuple(sorted(nc, key=s.game.deck.sort_key.__getitem__))
                    if u in covered:
                        adds.append((P.unit_word(s, u), u))
                        continue
                    w = self._witness(s, a, j, seat, bound, nc, memo)
                    if w is not _NONE:
                        adds.append((P.unit_word(s, u), u))
                        covered.update(_without_cards(w, cur))   # w holds cur and each of them
                elif self._feasible(s, a, j, seat, bound, nc, memo):
                    adds.append((P.unit_word(s, u), u))
            end_ok = size is None and self._can_end(s, a, j, seat, bound, cur, memo)
            if end_ok and not adds:
                bound = bound + (P.value(s, seat, bound, cur),)
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
                elif a.params[0].merged:
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
        v = a.params[j].value(s, s.ts[ACTOR], bound, cur)
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
                if chunk == a.text and not (a.params and a.params[0].merged):
                    return (a.index, 0, (), ())
                if a.params and a.params[0].merged and chunk.startswith(a.text + " "):
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
                return (ai, j + 1, (), bound + (self.actions[ai].params[j].value(s, s.ts[ACTOR], bound, cur),))
            for w, p in ahead or ():
                if w == chunk:
                    return p
        for w, u in adds:
            if w == chunk:
                P = self.actions[ai].params[j]
                nc = cur + (u,)
                if P.cardset:
                    nc = tuple(sorted(nc, key=s.game.deck.sort_key.__getitem__))
                return (ai, j, nc, bound)
        raise ValueError(f"'{chunk}' is not a small choice now")
