"""Sides formed during a deal: a declarer and a partner found by a called card (docs/sides.md).

YAML (top level)::

    sides:
      declarer: declarer        # a seat expression: who leads the side (-1: no sides this deal)
      called: called            # a card expression (a var of type card, or a definition); -1: none
      from: hand                # the per-seat zone whose holder of the called card is the partner

Names every expression may use (bound before ``define:``, so definitions and scores use them):

- ``partner`` (int): the seat holding the called card in ``from`` (the declarer holding it: -1,
  the declarer is alone), or, once the card has been played to a trick, the seat that played it;
  -1 when the card is nowhere in ``from`` (in a widow, buried) or no card is called.
- ``alone`` (bool): there is a declarer and no partner.
- ``partner_known`` (bool): the called card has been played (public from then on).
- ``on_declarer_side(S)`` (bool): ``S`` is the declarer or the partner.

What is secret: nothing stores the partner until the called card is played — it is the card's
place, so every seat learns it exactly as it learns where the card is. ``State.view(seat)`` gives
``sides: {declarer, called, partner, known}`` with ``partner`` None for a seat that cannot see the
called card (``known`` false); the seat holding it (or seeing it in a face-up or own zone) gets the
answer. A determinization that deals the hidden cards deals the partner with them. When the card
is played, the tricks step records the seat (table value ``called_by``) and emits the public event
``{"type": "partner", "seat", "card", "declarer"}``.

Where the rules come from: the "Partners" sections of the called-partner games' digests, listed in
docs/sides.md; the mechanism names no game.
"""
from __future__ import annotations

from .compiler import Compiler
from .slots import CALLED_BY
from ..lang import BOOL, CARD, INT, Binding, EngineText
from ..lang.runtime import RuleFault

#: The effect kind the engine puts last in every tricks step's ``after_play`` when ``sides:`` exists.
PLAYED_EFFECT = "_sides_played"


class Sides:
    """The compiled ``sides:`` section of one game."""

    def __init__(self, game, spec):
        self.game = game
        self.spec = spec if isinstance(spec, dict) else {}
        self.declarer = None
        self.called = None
        self.called_src = "-1"
        self.zone = 0
        ns = game.ns
        ns["_sides_partner"] = self.partner
        ns["_sides_side"] = self.on_side
        ns["_sides_team"] = self.team
        env = game.env
        names = {"partner": Binding("_sides_partner", INT, kind="define"),
                 "alone": Binding(f"(_sides_partner(s) < 0 and {_DECL} >= 0)", BOOL),
                 "partner_known": Binding(f"(s.v[{CALLED_BY}] >= 0)", BOOL),
                 "on_declarer_side": Binding("_sides_side", BOOL, kind="define", params=("p",), param_types=(INT,))}
        env.engine.update(names)
        for name, b in names.items():   # a name the ruleset declares is its own (docs/rulesets.md, Stability)
            if name not in env.hides:
                env.names[name] = b

    def compile(self, game, comp: Compiler):
        """Compile the section's expressions (after ``define:``: they may use definitions)."""
        from .steps.base import zone_of
        spec = self.spec
        if not isinstance(spec, dict):
            comp.problem(("sides",), "sides: is a mapping {declarer: EXPR, called: EXPR, from: ZONE}")
            return
        for k in spec:
            if k not in ("declarer", "called", "from"):
                comp.problem(("sides", k), f"sides has declarer, called and from, not '{k}'")
        self.declarer = comp.expr(spec.get("declarer", EngineText("declarer")), ("sides", "declarer"), (), (INT,))
        code = comp.code(spec.get("called", EngineText("no_card")), ("sides", "called"), (), (CARD,))
        if code is not None:
            self.called_src = code.src
            self.called = comp.function(code.src, ())
        self.zone = zone_of(game, comp, spec.get("from", "hand"), ("sides", "from"), per_seat=True)

    # ---- run time ------------------------------------------------------------------------------
    def _declarer(self, s) -> int:
        """The declarer's seat now, -1 for none; a value that is no seat is the rules' fault (a
        ``RuleFault`` naming it), not an index error further on."""
        d = self.declarer(s) if self.declarer is not None else -1
        if d >= s.n or d < -1:
            raise RuleFault(f"sides: declarer gives {d}, which is no seat (0 to {s.n - 1}, or -1 for none)")
        return d

    def partner(self, s):
        """The partner's seat (see the module doc); -1 alone or none."""
        d = self._declarer(s)
        if d < 0:
            return -1
        return self._partner_of(s, d)

    def _partner_of(self, s, d):
        """``partner`` when the declarer is seat ``d`` (>= 0)."""
        by = s.v[CALLED_BY]
        if by >= 0:
            return -1 if by == d else by
        c = self.called(s) if self.called is not None else -1
        if c < 0:
            return -1
        for seat, h in enumerate(s.z[self.zone]):
            if c in h:
                return -1 if seat == d else seat
        return -1

    def on_side(self, s, p):
        d = self._declarer(s)
        return d >= 0 and (p == d or p == self._partner_of(s, d))

    def team(self, s):
        """The side's seats in seat order (the declarer and the partner), () when there is no declarer:
        a comprehension over ``seats`` filtered by ``on_declarer_side(p)`` goes through these instead of
        asking every seat (the checker's ``_side_seats``; the same seats in the same order)."""
        d = self._declarer(s)
        if d < 0:
            return ()
        p = self._partner_of(s, d)
        return (d,) if p < 0 else ((d, p) if d < p else (p, d))

    def view(self, s, seat) -> dict:
        """The ``sides`` entry of ``seat``'s view: the partner only when that seat can know it."""
        g = s.game
        d = self._declarer(s)
        c = self.called(s) if self.called is not None else -1
        known = s.v[CALLED_BY] >= 0
        out = {"declarer": d, "called": g.deck.code[c] if c >= 0 else None, "known": known, "partner": None}
        if d < 0:
            return out
        if known or s.terminal or c < 0 or self._sees(s, c, seat):
            out["partner"] = self.partner(s)
        return out

    @staticmethod
    def _sees(s, card, seat) -> bool:
        """Whether ``seat`` sees where ``card`` lies now (its own hand, a face-up zone, …)."""
        if seat is None:
            return False
        for zn in s.game.zones:
            if zn.melds:
                continue
            z = s.z[zn.index]
            if zn.per_seat:
                for owner, cards in enumerate(z):
                    if card in cards:
                        return s.can_see(zn, owner, seat)
            elif card in z:
                if s.can_see(zn, None, seat):
                    return True
                return card in z[:s.face_up[zn.index]]
        for _, c in s.plays:
            if c == card:
                return True
        return False


def _played_effect(game, comp, body, path, params):
    """The line the tricks step runs after each play: record who played the called card."""
    sides = game.sides
    # (The slot first: once the card has been played, the called card is not evaluated again.)
    return [f"if s.v[{CALLED_BY}] < 0 and p_card == {sides.called_src}:",
            f"    s.v[{CALLED_BY}] = p_seat",
            "    if s.events is not None:",
            f"        s.emit({{'type': 'partner', 'seat': p_seat, 'card': CODE[p_card], 'declarer': {_DECL}}})"]


_DECL = "_sides_decl(s)"


def install(game, spec):
    """Bind the sides names for ``game`` (before ``define:`` is compiled); returns the ``Sides``."""
    from .effects import EXTRA_EFFECTS
    sides = Sides(game, spec)
    game.ns["_sides_decl"] = sides._declarer
    EXTRA_EFFECTS.setdefault(PLAYED_EFFECT, _played_effect)
    return sides


def add_played_effect(deal_steps: list):
    """Put the record-the-called-card effect last in every tricks step's ``after_play`` (last, so the
    author's effects keep their YAML positions in error messages)."""
    for spec in deal_steps:
        if isinstance(spec, dict) and isinstance(spec.get("tricks"), dict):
            body = spec["tricks"]
            after = body.get("after_play") or []
            if isinstance(after, dict):
                after = [after]
            body["after_play"] = list(after) + [{PLAYED_EFFECT: True}]
        elif isinstance(spec, dict) and spec.get("tricks") in (None, {}) and "tricks" in spec:
            spec["tricks"] = {"after_play": [{PLAYED_EFFECT: True}]}
