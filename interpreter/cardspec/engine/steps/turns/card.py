"""A ``card:`` parameter: one card of a zone (draw or take from a pile, discard, call a card).

``{card: hand, where: "card.rank > 7", reason: TEXT}``: the zone (a per-seat zone is the acting seat's)
and the cards of it that may be chosen. A kind of ``_Param`` (param.py); ``_zone`` and ``_zone_where``
compile the zone and ``where:`` of cards.py's parameters too.
"""
from __future__ import annotations

from ...compiler import SEAT_ZONE, ZONE
from ....lang import ANY, BOOL, CARD, py_param
from ..base import Step
from .param import _Param


def _zone(comp, text, path, ctx):
    """The source of the zone ``text`` names (a per-seat zone: the acting seat's), ``()`` after a problem."""
    code = comp.code(text, path, ctx)
    if code is None:
        return "()"
    if code.type == SEAT_ZONE:
        return f"{code.src}[p_seat]"
    if code.type != ZONE and code.type != ANY:
        comp.problem(path, f"cards come from a zone (hand, stock, table[seat]); found {code.type}")
        return "()"
    return code.src


def _zone_where(P, comp, spec, path, ctx):
    """``(zone source, where: source or None)`` of a card or cards parameter ``P`` (sets ``zone`` and
    ``where``, the texts ``why`` names)."""
    zsrc = _zone(comp, spec[P.kind], path + (P.kind,), ctx)
    P.zone = str(spec[P.kind])
    where = None
    if "where" in spec:
        code = comp.code(spec["where"], path + ("where",), ctx + (("card", CARD),), (BOOL,))
        where = code.src if code is not None else "True"
        P.where = str(spec["where"])
    return zsrc, where


class Card(_Param):
    """One card of a zone; its unit is the card."""

    __slots__ = ()
    kind = "card"

    def compile(self, game, comp, spec, path, ctx, checks):
        var = py_param(self.name)
        zsrc, where = _zone_where(self, comp, spec, path, ctx)
        self.type = CARD
        pool = f"set({zsrc})" if game.deck.has_repeats else zsrc
        cond = f" if {where}" if where else ""
        cards = f"[p_card for p_card in {pool}{cond}]" if cond else pool   # (sorted reads either alike)
        loop = f"for {var} in sorted({cards}, key=SORT_KEY.__getitem__):"
        checks.append(f"if {var} not in {zsrc}: return False")
        self.values = comp.function(f"({zsrc}, sorted({cards}, key=SORT_KEY.__getitem__))", ctx)
        if where:
            checks.append(f"p_card = {var}")
            checks.append(f"if not ({where}): return False")
        return loop

    def writer(self, deck):
        code = deck.code
        return lambda v: [code[v]]

    def parse(self, a, j, words, i, deck):
        if i >= len(words):
            raise ValueError(f"'{a.text}' needs {self.name}")
        return deck.face(words[i]), i + 1

    def why(self, s, name, v, bound):
        code = s.game.deck.code
        zone, ok = self.values(s, *bound)
        if v in ok:
            return None
        why = f"is not in {self.zone}" if v not in zone else \
            f"is not legal: {self.reason}" if self.reason else f"does not have {self.where}"
        return f"{name} {code[v]} {why}; legal: {' '.join(code[c] for c in ok) or '(none)'}"

    def words(self, game):
        return Step.card_codes(game)

    def unit_word(self, s, u):
        return s.game.deck.code[u]

    def domain(self, s, a, j, seat, bound, memo):
        key = ("d", a.index, j, bound)
        if key in memo:
            return memo[key]
        out = memo[key] = self.values(s, seat, *bound)[1]
        return out

    def matching(self, s, a, j, seat, bound, cur, memo):
        dom = self.domain(s, a, j, seat, bound, memo)
        if not cur:
            yield from dom
        elif cur[0] in dom:
            yield cur[0]

    def units(self, s, a, j, seat, bound, cur, memo, cheap=False):
        dom = self.domain(s, a, j, seat, bound, memo)
        return list(dom) if not cur else []

