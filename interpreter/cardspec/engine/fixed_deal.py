"""A fixed first deal: the cards a scenario (or any caller) names for some zones, put there after the deal.

``Game.new_state(deal=...)`` takes ``{(zone_index, seat or None): [faces]}``; the State applies it at
the first decision step after the deal (``apply_deal_override``): the named zones get those cards, the
others keep their sizes and take the rest of the deck. Front ends read a scenario's ``deal:`` and hand
it in (``cardspec.scenario``); the engine never imports them.
"""
from __future__ import annotations

from collections import Counter

from ..errors import ScenarioError


class DealMismatch(ScenarioError):
    """A scenario's ``deal:`` that does not fit the ruleset's deal (``replay`` reports it at ``deal:``)."""


def _slot_name(g, slot):
    zi, seat = slot
    name = "hands" if g.zones[zi].name == "hand" else g.zones[zi].name
    return f"{name} {seat}" if seat is not None else name


def _mismatch(g, override, free, get, rest, need) -> str:
    """Why the named cards do not fit: what the ruleset's deal put where, and which cards are left over."""
    named = sum(len(c) for c in override.values())
    dealt = sum(len(get(slot)) for slot in override)
    others = ", ".join(f"{_slot_name(g, slot)}: {len(get(slot))}" for slot in free if get(slot)) or "none"
    left = sum(rest.values())
    msg = (f"deal: the zones named hold {named} cards where this ruleset's deal puts {dealt}; the zones not named "
           f"hold {need} cards after the deal ({others}) but {left} cards are not named")
    if left > need:
        codes = [g.deck.code[c] for c in sorted(rest.elements(), key=g.deck.sort_key.__getitem__)]
        shown = " ".join(codes[:12]) + (" …" if len(codes) > 12 else "")
        shared = [slot for slot in free if slot[1] is None]
        where = next((slot for slot in shared if g.zones[slot[0]].name == "stock"), shared[0] if shared else None)
        msg += f" ({shown}): name every card of the deck"
        if where is not None:
            msg += f", e.g. the ones out of play as `{_slot_name(g, where)}: [...]`"
    return msg


def apply_deal_override(s, override: dict):
    """Put the named cards in the named zones of ``s`` (a State just dealt); unnamed zones keep their sizes
    and take the rest.

    Raises ``ScenarioError`` when the named cards are not part of the deck or do not fit.
    """
    g = s.game
    slots = []
    for zn in g.zones:
        if zn.per_seat:
            slots += [(zn.index, i) for i in range(s.n)]
        else:
            slots.append((zn.index, None))

    def get(slot):
        zi, seat = slot
        return s.z[zi][seat] if seat is not None else s.z[zi]

    total = Counter()
    for slot in slots:
        total.update(get(slot))
    named = Counter()
    for cards in override.values():
        named.update(cards)
    extra = named - total
    if extra:
        code = g.deck.code[next(iter(extra))]
        raise ScenarioError(f"deal: {code} is named more often than the deck holds")
    rest = total - named
    free = [slot for slot in slots if slot not in override]
    need = sum(len(get(slot)) for slot in free)
    if need != sum(rest.values()):
        raise DealMismatch(_mismatch(g, override, free, get, rest, need))
    for slot, cards in override.items():
        dst = get(slot)
        dst[:] = list(cards)
    # Unnamed zones keep what they can of their own cards, then take the leftovers.
    for slot in free:
        dst = get(slot)
        keep = []
        for c in dst:
            if rest[c] > 0:
                rest[c] -= 1
                keep.append(c)
            else:
                keep.append(None)
        dst[:] = keep
    left = list(rest.elements())
    for slot in free:
        dst = get(slot)
        dst[:] = [c if c is not None else left.pop() for c in dst]
    # The deal's events were written before the override, from the shuffled deck: show the public cards
    # actually there, drop the cards a zone no longer holds (e.g. dealt face up, then moved on by a later
    # step of the deal) and the reveals (they showed cards of the shuffled deal, not the scenario's).
    events = s.events
    i = len(events or ())
    while i > 0:
        i -= 1
        ev = events[i]
        t = ev.get("type")
        if t == "deal_start":
            break
        if t == "reveal":
            del events[i]
        elif t == "deal" and ev.get("zone") in g.zone:
            zi = g.zone[ev["zone"]].index
            z = s.z[zi]
            if "face_up" in ev:
                if len(z) >= len(ev["face_up"]):
                    ev["face_up"] = g.deck.codes(z[:s.face_up[zi]])
                else:
                    del ev["face_up"]
            if "cards" in ev:
                if len(z) >= len(ev["cards"]):
                    ev["cards"] = g.deck.codes(z[len(z) - len(ev["cards"]):])
                else:
                    del ev["cards"]
            if "top" in ev:
                if z:
                    ev["top"] = g.deck.code[z[-1]]
                else:
                    del ev["top"]
