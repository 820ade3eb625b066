"""A ``choice:`` parameter: values of a list expression (a typed declaration: a suit, a word, yes/no).

``{choice: "[spades, hearts]", count: 1}``: one value of the list, or ``count`` different ones (a
tuple in the list's order). Each value is one word of the action's text (``_value_text`` and
``_value_parse``, by the list's element type) and one small choice. A kind of ``_Param`` (param.py).
"""
from __future__ import annotations

import itertools

from ...choices import ActionSpaceError, literal_list
from ....cards import SUIT_NAMES
from ....lang import BOOL, CARD, INT, STR, SUIT, list_of, py_param
from ..base import Step
from .number import _typed_int
from .param import _Param


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


def _choose(vals, k):
    """The sets of ``k`` different values of ``vals`` (a choice of ``count: k``), in the list's order."""
    return list(itertools.combinations(_distinct_values(vals), k))


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


def _value_text(deck, t, x):
    """The word of value ``x`` of type ``t``."""
    if t == SUIT:
        return SUIT_NAMES.get(deck.suit_label(x), deck.suit_label(x)) if x >= 0 else "none"
    if t == CARD:
        return deck.code[x]
    if t == BOOL:
        return "yes" if x else "no"
    return str(x)


def _value_parse(deck, t, word):
    """The value of type ``t`` that ``word`` writes. Raises ``ValueError`` when it writes none."""
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


class Choice(_Param):
    """``count`` different values of a list; ``values(s, seat, …)`` is the list without repeats, and
    ``elem`` the type of its values. Each value is a unit."""

    __slots__ = ()
    kind = "choice"

    def compile(self, game, comp, spec, path, ctx, checks):
        var = py_param(self.name)
        vals = comp.code(spec["choice"], path + ("choice",), ctx)
        if vals is None:
            return None
        if not vals.type.startswith("list["):
            comp.problem(path + ("choice",), f"choice needs a list, e.g. [spades, hearts]; found {vals.type}")
            return None
        self.elem = vals.type[5:-1]
        self.srcs = vals.src
        self.size = vals.size
        if self.elem == STR and not _one_word_choices(comp, path + ("choice",), literal_list(vals.src)):
            return None
        k = spec.get("count", 1)
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            comp.problem(path + ("count",), f"a choice's count is a whole number of values, 1 or more; "
                         f"found '{k}'", "e.g. suits: {choice: all_suits, count: 2}")
            return None
        self.count = self.fixed = k
        self.values = comp.function(f"_t_distinct({vals.src})", ctx)
        if k == 1:
            self.type = self.elem
            checks.append(f"if {var} not in {vals.src}: return False")
            return f"for {var} in _t_distinct({vals.src}):"
        self.type = list_of(self.elem)
        checks.append(f"if len(set({var})) != {k} or any([_v not in {vals.src} for _v in {var}]): "
                      f"return False")
        return f"for {var} in _t_choose({vals.src}, {k}):"

    def writer(self, deck):
        t = self.elem
        if self.count != 1:
            return lambda v: [_value_text(deck, t, x) for x in v]
        return lambda v: [_value_text(deck, t, v)]

    def parse(self, a, j, words, i, deck):
        if self.count == 1:
            if i >= len(words):
                raise ValueError(f"'{a.text}' needs {self.name}")
            return _value_parse(deck, self.elem, words[i]), i + 1
        if i + self.count > len(words):
            raise ValueError(f"'{a.text}' needs {self.count} values for {self.name}")
        return tuple(_value_parse(deck, self.elem, w) for w in words[i:i + self.count]), i + self.count

    def why(self, s, name, v, bound):
        deck = s.game.deck
        vals = self.values(s, *bound)
        words = [_value_text(deck, self.elem, x) for x in vals]
        if self.count == 1:
            if v in vals:
                return None
            return f"{name} {_value_text(deck, self.elem, v)}: choose one of {', '.join(words) or '(none)'}"
        if len(set(v)) == self.count and all(x in vals for x in v):
            return None
        got = " ".join(_value_text(deck, self.elem, x) for x in v)
        return f"{name} {got}: choose {self.count} different values of {', '.join(words) or '(none)'}"

    def words(self, game):
        deck = game.deck
        if self.elem == SUIT:
            vals = list(range(len(deck.suits))) + [-1]
        elif self.elem == BOOL:
            vals = [True, False]
        elif self.elem == CARD:
            return Step.card_codes(game)
        else:
            vals = literal_list(self.srcs)
            if vals is None:
                raise ActionSpaceError(f"parameter '{self.name}': choice: is not a constant list of {self.elem}; "
                                       "the action space needs every value at load time (docs/actions.md)")
        return [_value_text(deck, self.elem, x) for x in vals]

    def unit_word(self, s, u):
        return _value_text(s.game.deck, self.elem, u)

    def domain(self, s, a, j, seat, bound, memo):
        key = ("d", a.index, j, bound)
        if key in memo:
            return memo[key]
        vals = self.values(s, seat, *bound)
        out = memo[key] = vals if self.count == 1 else list(itertools.combinations(vals, self.count))
        return out

    def matching(self, s, a, j, seat, bound, cur, memo):
        dom = self.domain(s, a, j, seat, bound, memo)
        if not cur:
            yield from dom
        elif self.count != 1:
            yield from (v for v in dom if set(cur) <= set(v))
        elif cur[0] in dom:
            yield cur[0]

    def value(self, s, seat, bound, cur):
        if self.count != 1:
            vals = self.values(s, seat, *bound)
            return tuple(sorted(cur, key=vals.index))
        return cur[0]

    def units(self, s, a, j, seat, bound, cur, memo, cheap=False):
        dom = self.domain(s, a, j, seat, bound, memo)
        if self.count != 1:
            return [x for x in self.values(s, seat, *bound) if x not in cur] if len(cur) < self.count else []
        return list(dom) if not cur else []
