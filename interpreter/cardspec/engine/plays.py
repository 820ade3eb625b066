"""Cards played in sequence that still belong to their players: the ``play`` and ``plays_to`` effects
(docs/turns.md, "Plays in sequence").

Some games keep two facts about a played card: the order of the plays (the running count and what lies at
its end) and who played it (the card goes back to its player later). A pegging count is the model
(docs/rules/, "Play (the pegging)"): each card is laid face up in front of its player, the count
adds their values in the order played, fifteens, pairs and runs are read at its end, and when the play is
over "each player then takes back his own 4 played cards: they are his hand for the show".

- ``play: CARD`` (or ``{card: CARD, from: ZONE, seat: SEAT}``; defaults ``from: hand[seat]``, ``seat:
  seat``) takes the card from the zone and lays it face up on the table, last in the sequence of plays. The
  sequence is what a trick in progress is elsewhere: the expressions read it as ``trick`` (the cards, in
  play order) and ``trick_seats`` (who played each), the views show it as ``trick`` (``[[seat, card]]``,
  public), and search bots rebuild it from there.
- ``plays_to: ZONE`` (or ``{to: ZONE}``) ends the sequence: a per-seat zone gets each card in its own
  player's pile ("each takes back his own"), a shared zone gets them all, in play order; the sequence
  starts again empty.

A card played stays in no zone until ``plays_to`` (as a card of a trick in progress), so every card is in
exactly one place at any time. A ``play`` of a card not in its ``from`` zone is a fault of the ruleset
(``RuleFault``: a ruleset error at the step).
"""
from __future__ import annotations

from .effects import EXTRA_EFFECTS, zone_arg
from ..lang import CARD, INT, EngineText, list_of
from ..lang.runtime import RuleFault


def fx_play(s, src, card, seat):
    """Lay ``card`` from ``src`` on the table, last of the plays, as ``seat``'s."""
    try:
        src.remove(card)
    except ValueError:
        raise RuleFault(f"play: {s.game.deck.code[card] if 0 <= card < len(s.game.deck.code) else card} is not "
                        "in the zone it is played from (play: from:)") from None
    s.plays.append((seat, card))


def fx_plays_to(s, zi, per_seat):
    """The plays leave the table: into each player's pile of per-seat zone ``zi``, or all into shared ``zi``."""
    z = s.z[zi]
    if per_seat:
        for seat, c in s.plays:
            z[seat].append(c)
    else:
        z.extend([c for _, c in s.plays])
    s.plays = []


def _play(game, comp, body, path, params):
    spec = body if isinstance(body, dict) else {"card": body}
    extra = [k for k in spec if k not in ("card", "from", "seat")]
    if "card" not in spec or extra:
        comp.problem(path, "play takes a card, or {card: CARD, from: ZONE, seat: SEAT}", "e.g. play: card")
        return None
    card = comp.code(spec["card"], path + ("card",), params, (CARD,))
    seat = comp.code(spec.get("seat", EngineText("seat")), path + ("seat",), params, (INT,))
    src = comp.code(spec.get("from", EngineText("hand[seat]")), path + ("from",), params, (list_of(CARD),))
    if None in (card, seat, src) or not zone_arg(game, comp, src, path + ("from",), "play's from:"):
        return None
    comp.ns["_pl_play"] = fx_play
    return [f"_pl_play(s, {src.src}, {card.src}, {seat.src})"]


def _plays_to(game, comp, body, path, params):
    name = body.get("to") if isinstance(body, dict) else body
    z = game.zone.get(str(name))
    if z is None or (isinstance(body, dict) and set(body) != {"to"}):
        import difflib
        close = difflib.get_close_matches(str(name), list(game.zone), n=1)
        comp.problem(path, f"plays_to takes a zone's name (or {{to: ZONE}}); found '{name}'",
                     f"did you mean '{close[0]}'?" if close else "zones: " + ", ".join(game.zone))
        return None
    if z.melds:
        comp.problem(path, f"plays_to: '{z.name}' holds melds; the plays go to a zone of cards")
        return None
    comp.ns["_pl_to"] = fx_plays_to
    return [f"_pl_to(s, {z.index}, {bool(z.per_seat)})"]


EXTRA_EFFECTS["play"] = _play
EXTRA_EFFECTS["plays_to"] = _plays_to
