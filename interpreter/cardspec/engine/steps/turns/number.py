"""A ``number:`` parameter: a whole number of a range (a bet, a raise, a bid).

``{number: {min: "min(10, max_bet)", max: max_bet, step: 5}}``: the three are expressions, so the
values are listed (``_range``, at most ``MAX_NUMBER_VALUES``) and checked when the action is. Its small
choice is the number itself when the range is bounded at load time (``static_range``), else the number
is spelled in digits, one character a unit (``digits``). A kind of ``_Param`` (param.py).
"""
from __future__ import annotations

import re

from ...choices import DIGITS, static_range
from ....lang import INT, RuleFault, py_param
from .param import _Param

#: The most values a ``number:`` parameter may offer at once (docs/rulesets.md, "Caps"): its min, max and
#: step are expressions, so the count is checked when the values are listed.
MAX_NUMBER_VALUES = 10_000

#: A number typed as a parameter: ASCII digits, perhaps after a minus sign (not int()'s ١٠, 1_0 or +10).
_DIGITS = re.compile(r"-?[0-9]+")


def _typed_int(word: str):
    """The int a player typed as ``word`` (``_DIGITS``), or None when it is not spelled so."""
    return int(word) if _DIGITS.fullmatch(word) else None


def _range(lo, hi, st):
    """The values ``lo..hi`` by ``st`` (``st`` <= 0: 1) of a ``number:`` parameter. Raises ``RuleFault`` when
    they are more than ``MAX_NUMBER_VALUES`` (a bid of 0 to 10**12 would list a trillion actions)."""
    st = st if st > 0 else 1
    if hi >= lo and (hi - lo) // st >= MAX_NUMBER_VALUES:
        raise RuleFault(f"a number parameter offers {(hi - lo) // st + 1:,} values ({lo} to {hi} by {st}); "
                        f"at most {MAX_NUMBER_VALUES:,} (docs/rulesets.md, Caps)")
    return range(lo, hi + 1, st)


#: ``digit_table``'s tables by range (``(start, stop, step)``): a table depends on the range alone, so the
#: random moves of every decision with the same bounds share it; emptied when it holds ``_TABLES_MAX``
#: prefixes in all (a bound on memory, not on work: a table is rebuilt in one pass over its range).
_TABLES: dict = {}
_TABLES_MAX = 200_000
_tables_size = 0


class DigitTable:
    """The digit strings of the values of a range (a ``number:`` parameter spelled in digits whose every
    value is legal): the answers of the per-digit search (search.py) without a search per digit.

    ``firsts``: prefix (``""`` too) -> the first value of the range, in its order, whose ``str`` starts with
    it (exactly the prefixes some value has); ``values``: the range; ``nexts(prefix)``: the
    ``(word, unit)`` pairs of the digits that may follow ``prefix`` (a parameter's ``units`` order:
    ``DIGITS`` after ``""``, ``DIGITS[1:]`` after a digit), kept once asked; ``level(prefix)``: a
    random move's options after ``prefix`` (not ``""``), ``(those digits, whether prefix is a value)``."""

    __slots__ = ("firsts", "values", "_nexts", "_levels")

    def __init__(self, values: range):
        self.values = values
        firsts = {}
        if values:
            firsts[""] = values[0]
        for v in values:
            w = str(v)
            for k in range(1, len(w) + 1):
                if w[:k] not in firsts:
                    firsts[w[:k]] = v
        self.firsts = firsts
        self._nexts = {}
        self._levels = {}

    def nexts(self, prefix: str) -> tuple:
        got = self._nexts.get(prefix)
        if got is None:
            firsts = self.firsts
            if prefix not in firsts:
                return ()
            got = self._nexts[prefix] = tuple([(d, d) for d in (DIGITS[1:] if prefix else DIGITS)
                                               if prefix + d in firsts])
        return got


    def level(self, prefix: str) -> tuple:
        got = self._levels.get(prefix)
        if got is None:
            got = (tuple([w for w, _ in self.nexts(prefix)]), prefix != "-" and int(prefix) in self.values)
            if prefix in self.firsts:
                self._levels[prefix] = got
        return got


def digit_table(lo: int, hi: int, st: int) -> DigitTable:
    """The ``DigitTable`` of the values ``lo..hi`` by ``st`` (``_range``'s, which raises ``RuleFault`` when
    they are too many), from ``_TABLES`` when it was made before."""
    global _tables_size
    values = _range(lo, hi, st)
    key = (values.start, values.stop, values.step)
    t = _TABLES.get(key)
    if t is None:
        t = DigitTable(values)
        if _tables_size + len(t.firsts) > _TABLES_MAX:
            _TABLES.clear()
            _tables_size = 0
        _TABLES[key] = t
        _tables_size += len(t.firsts)
    return t


def _number_first(a, P, j, w) -> str:
    """Why word ``w`` cannot be parameter ``P`` (a number) of action ``a``, in the action's terms:
    ``'lay off' needs meld (a number) first, not '5S': write lay off MELD CARDS``."""
    form = " ".join([a.text] + [Q.name.upper() for Q in a.params])
    where = "first" if j == 0 else f"after {a.params[j - 1].name}"
    return f"'{a.text}' needs {P.name} (a whole number) {where}, not '{w}': write {form}" + \
        (f" ({a.help})" if a.help else "")


class Number(_Param):
    """A whole number from ``min`` to ``max`` by ``step``; ``values(s, seat, …)`` is ``(min, max, step)``."""

    __slots__ = ()
    kind = "number"

    def compile(self, game, comp, spec, path, ctx, checks):
        var = py_param(self.name)
        rng = spec["number"] if isinstance(spec["number"], dict) else {}
        lo = comp.code(rng.get("min", 0), path + ("number", "min"), ctx, (INT,))
        hi = comp.code(rng.get("max", 0), path + ("number", "max"), ctx, (INT,))
        st = comp.code(rng.get("step", 1), path + ("number", "step"), ctx, (INT,))
        if lo is None or hi is None or st is None:
            return None
        self.type = INT
        self.srcs = (lo.src, hi.src, st.src)
        self.values = comp.function(f"({lo.src}, {hi.src}, {st.src})", ctx)
        checks.append(f"_lo = {lo.src}")
        checks.append(f"_st = {st.src}")
        checks.append(f"if not (_lo <= {var} <= {hi.src} and ({var} - _lo) % (_st if _st > 0 else 1) == 0): "
                      f"return False")
        # Spelled in digits when its range is not known at load time (the values it can ever take: space).
        self.space = static_range(*self.srcs, len(game.deck.cards))
        self.digits = self.space is None
        self.fixed = None if self.digits else 1
        return f"for {var} in _t_range({lo.src}, {hi.src}, {st.src}):"

    def writer(self, deck):
        return lambda v: [str(v)]

    def parse(self, a, j, words, i, deck):
        if i >= len(words):
            raise ValueError(f"'{a.text}' needs {self.name}")
        v = _typed_int(words[i])
        if v is None:
            raise ValueError(_number_first(a, self, j, words[i]))
        return v, i + 1

    def why(self, s, name, v, bound):
        lo, hi, st = self.values(s, *bound)
        st = st if st > 0 else 1
        if lo <= v <= hi and (v - lo) % st == 0:
            return None
        if hi < lo:
            return f"{name} {v}: no {self.name} is possible now"
        by = f" in steps of {st}" if st != 1 else ""
        shown = list(_range(lo, hi, st))
        listed = f" ({', '.join(map(str, shown))})" if len(shown) <= 12 else ""
        return f"{name} {v}: {self.name} goes from {lo} to {hi}{by}{listed}"

    def words(self, game):
        if self.digits:
            return list(DIGITS)
        return [str(v) for v in self.space]

    def unit_word(self, s, u):
        return u if self.digits else str(u)

    def domain(self, s, a, j, seat, bound, memo):
        key = ("d", a.index, j, bound)
        if key in memo:
            return memo[key]
        lo, hi, st = self.values(s, seat, *bound)
        out = memo[key] = list(_range(lo, hi, st))
        return out

    def matching(self, s, a, j, seat, bound, cur, memo):
        dom = self.domain(s, a, j, seat, bound, memo)
        if self.digits:
            prefix = "".join(cur)
            yield from (v for v in dom if str(v).startswith(prefix))
            return
        if not cur:
            yield from dom
        elif cur[0] in dom:
            yield cur[0]

    def value(self, s, seat, bound, cur):
        return int("".join(cur)) if self.digits else cur[0]

    def units(self, s, a, j, seat, bound, cur, memo, cheap=False):
        if self.digits:
            return list(DIGITS[1:]) if cur else list(DIGITS)
        dom = self.domain(s, a, j, seat, bound, memo)
        return list(dom) if not cur else []
