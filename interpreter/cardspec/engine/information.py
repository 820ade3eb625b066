"""What the other seats may learn of a decision: an action's cards that go face down are not named to them.

An action's text names the values of its parameters (``discard JH KD 2D QC``), and its ``action`` event goes
into every seat's log. A card parameter names cards of a zone; the other seats may read those cards in the
log only when the rules show the cards to them anyway:

- before the action: the cards come from a zone the other seats see (a face-up pile, the table), or
- after it: an effect of the action moves them into such a zone (a meld on the table, a discard pile, a
  trick) — a ``move``, ``meld`` or ``lay_off`` effect not under an ``if:``, or a ``play`` (laid face up in
  the sequence of plays, engine/plays.py).

Otherwise the cards go (or stay) face down — a discard into one's own buried pile, a bury, a card put
aside — and the other seats' logs show the action with those cards counted, not named
(``discard 4 cards face down``, and ``face_down: 4``); the actor's own log keeps them (issue 32: a
declarer's discard, a picker's bury). A seat "sees" a zone by its ``visibility:`` (docs/rulesets.md,
"Zones"): ``all``, ``top`` (a discard pile: the card put on it is its top) and ``all_but_owner`` show it
to the other seats; ``owner`` and ``none`` do not.

Used by the turns step when it compiles an action kind (``face_down_params``) and when it logs one
(``public_action``); the engine decides this, not each ruleset.
"""
from __future__ import annotations

import ast

from .effects import _zone_of
from ..lang import Binding, DslError, UnsafeName, compile_expr, py_param

#: Zone visibilities that show the zone's cards to seats other than its owner (docs/rulesets.md, "Zones").
SEEN_BY_OTHERS = frozenset({"all", "top", "all_but_owner"})

#: Effects that move a parameter's cards into a zone (``cards:`` names the parameter, ``to:`` the zone):
#: ``move``, and the melds' ``meld`` and ``lay_off`` (engine/melds).
MOVING = ("move", "meld", "lay_off")


def _zone(game, text, ctx):
    """The ``Zone`` an expression names (a shared zone, a per-seat zone — named whole, the step means the
    acting seat's —, or one seat's), or None. Compiled again here without recording anything (the step
    compiles it for play and reports problems)."""
    try:
        pmap = {name: Binding(py_param(name), t) for name, t in ctx}
        code = compile_expr(str(text), game.env, pmap, ())
        node = ast.parse(code.src, mode="eval").body
    except (DslError, UnsafeName, SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
        return None
    if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "z"
            and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int
            and 0 <= node.slice.value < len(game.zones)):
        return game.zones[node.slice.value]   # a zone named whole
    z = _zone_of(game, node)
    return None if isinstance(z, str) else z


def _seen_by_others(z) -> bool:
    """Whether seats other than its owner see zone ``z``'s cards (a zone of melds: always, on the table)."""
    return z.melds or z.visibility in SEEN_BY_OTHERS


def face_down_params(game, params, effects, ctx) -> tuple:
    """Indexes of the card parameters of an action whose cards the other seats do not see (module doc).

    Parameters:
        game: the ``Game`` being compiled (its ``env`` names the zones).
        params: ``[(name, kind, zone text), ...]`` in order (kind ``card``/``cards``/``number``/``choice``;
            zone text: the ``card:``/``cards:`` value, else None).
        effects: the action's ``effects:`` list (YAML).
        ctx: ``((name, type), ...)``: ``seat`` then the parameters, as the effects see them.
    """
    out = []
    shown_after = set()   # names of parameters that an unconditional top-level move puts where others see
    for i, fx in enumerate(effects if isinstance(effects, list) else ()):
        if isinstance(fx, dict) and set(fx) == {"play"}:   # laid face up in the plays (engine/plays.py)
            card = fx["play"].get("card") if isinstance(fx["play"], dict) else fx["play"]
            if isinstance(card, str):
                shown_after.add(card.strip())
            continue
        kinds = [k for k in MOVING if isinstance(fx, dict) and set(fx) == {k} and isinstance(fx[k], dict)]
        if not kinds:
            continue
        body = fx[kinds[0]]
        cards = body.get("cards")
        if not isinstance(cards, str) or "to" not in body:
            continue
        z = _zone(game, body["to"], ctx)
        if z is not None and _seen_by_others(z):
            shown_after.add(cards.strip())
    for j, (name, kind, zone_text) in enumerate(params):
        if kind not in ("card", "cards") or zone_text is None:
            continue
        src = _zone(game, zone_text, ctx[:1 + j])
        if src is not None and _seen_by_others(src):
            continue
        if name in shown_after:
            continue
        out.append(j)
    return tuple(out)


def public_action(seat: int, text: str, args: tuple, hidden: tuple) -> dict:
    """The ``action`` event as the other seats see it: the action's words and, for the parameters in
    ``hidden`` (``face_down_params``), the number of cards put face down instead of the cards."""
    k = 0
    for j in hidden:
        v = args[j]
        k += len(v) if isinstance(v, (list, tuple)) else 1
    words = f"{text} {k} card{'s' if k != 1 else ''} face down"
    return {"type": "action", "seat": seat, "action": words, "face_down": k}
