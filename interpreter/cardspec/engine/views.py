"""What a seat may see: one filter for views and logs (``State.view``, ``State.log``).

A seat's view (``view``) holds its own zones, face-up and public zones, counts of what it cannot see, the
counters and vars shown to it (``model.Var.shown_to``), the trick, the public system values, the step's own
part (``Step.add_view``) and what a person is shown (``display.build_display``, made from this view only).
A seat's log (``log``) holds the events recorded for everyone, those recorded for seats it is one of
(``State.emit(event, to=seats)``), and for the others their public form (``event["_public"]``) if any.
Both decide from the same facts; boardgame.io's ``applyPlayerView``/``redactLog`` is the model
(../shared/STYLE.md). A seat that sits a deal out sees what a spectator sees.
"""
from __future__ import annotations

from .display import build_display
from .model import Zone
from .slots import DEAL_NUMBER, DEALER, LEADER, LED_SUIT, SITS_OUT, SYSTEM_VARS, TO_ACT, TRUMP
from .walk import legal_walk
from ..errors import TooManyActions

#: Legal actions a view lists when they are too many to list all (``TooManyActions``): the first found
#: through the small choices, with ``legal_more`` true (docs/actions.md, "Too many to list").
VIEW_LEGAL_LIMIT = 500


def can_see(s, zone: Zone, owner, seat) -> bool:
    """Whether ``seat`` (None: a spectator) sees the cards of ``zone`` held by ``owner`` (None: a shared
    zone), by the zone's ``visibility:`` and, while it holds, its ``public_when:`` (docs/rulesets.md,
    "Zones")."""
    vis = zone.visibility
    if vis == "all":
        return True
    if zone.public_when is not None and zone.public_when(s, -1 if owner is None else owner):
        return True
    if seat is None:
        return False
    if vis == "owner":
        return owner == seat
    if vis == "all_but_owner":
        return owner != seat
    return False


def view(s, seat, log, legal):
    """``State.view``'s answer (its docstring); a failure of the rules is the caller's to report."""
    g = s.game
    code = g.deck.code
    # A seat that sits this deal out sees the table as a spectator does (docs/rulesets.md).
    eye = None if g.may_sit_out and seat is not None and seat == s.v[SITS_OUT] else seat
    zones = {}
    # A seat that plays another seat's cards (a declarer playing the dummy) sees the pile it plays from.
    step = None if s.terminal else g.steps[s.pc]
    for_pile = step.played_for(s) if step is not None and eye is not None and eye == s.v[TO_ACT] else None
    for zn in g.zones:
        if zn.name == "stock" and zn.visibility == "none" and zn.name not in (g.data.get("zones") or {}):
            zones[zn.name] = {"count": len(s.z[zn.index])}
            continue
        if zn.per_seat:
            per = {}
            for owner, cards in enumerate(s.z[zn.index]):
                if zn.melds:
                    per[str(owner)] = [[code[c] for c in m] for m in cards]
                elif can_see(s, zn, owner, eye) or (for_pile is not None and for_pile == (zn.index, owner)):
                    per[str(owner)] = [code[c] for c in g.deck.sorted(cards)] if zn.name == "hand" \
                        else [code[c] for c in cards]
                else:
                    per[str(owner)] = {"count": len(cards)}
            zones[zn.name] = per
        else:
            cards = s.z[zn.index]
            if zn.melds:
                zones[zn.name] = [[code[c] for c in m] for m in cards]
            elif can_see(s, zn, None, eye):
                zones[zn.name] = [code[c] for c in cards]
            else:
                k = s.face_up[zn.index]
                entry = {"count": len(cards)}
                if k:
                    entry["face_up"] = [code[c] for c in cards[:k]]
                if zn.visibility == "top":   # a discard pile: only its top card shows
                    entry["top"] = code[cards[-1]] if cards else None
                zones[zn.name] = entry
    out = {
        "seat": seat, "players": s.n, "deal": s.v[DEAL_NUMBER], "dealer": s.v[DEALER],
        "to_act": s.to_act, "terminal": s.terminal,
        "step": None if s.terminal else g.steps[s.pc].name,
        "zones": zones,
        "counters": {c.name: list(s.c[c.index]) if c.visibility == "all" else
                     [x if i == eye else None for i, x in enumerate(s.c[c.index])] for c in g.counters},
        "vars": {var.name: s.v[var.index] if var.type != "card" else _code_or_none(s, s.v[var.index])
                 for var in g.vars if var.shown_to(s, eye)},
        "trick": [[st, code[c]] for st, c in s.plays],
        "leader": s.v[LEADER], "led_suit": g.deck.suit_label(s.v[LED_SUIT]),
        "trump": g.deck.suit_label(s.v[TRUMP]),
        "scores": s.scores(),
        "step_index": None if s.terminal else s.pc,
        "system": {name: s.v[i] for i, (name, _, _) in enumerate(SYSTEM_VARS)},
    }
    if g.deck.special_names:   # special cards' names, for the tables to show (docs/cards.md)
        out["card_names"] = g.deck.special_names
    if g.sides is not None:
        out["sides"] = g.sides.view(s, eye)
    if log:
        out["log"] = s.log(seat)
    if not s.terminal:
        g.steps[s.pc].add_view(s, seat, out)
    if for_pile is not None:   # the seat to act plays another seat's cards (played_by: the dummy's)
        out["playing_for"] = {"seat": for_pile[1], "zone": g.zones[for_pile[0]].name}
    if seat is not None and s.to_act == seat and s.partial:
        out["choosing"] = s.choosing   # the seat's own small choices so far (docs/actions.md)
    out["display"] = build_display(g, out)
    if legal and seat is not None and s.to_act == seat:
        try:
            legal = s.legal_actions()   # a list, JSON-ready (a lazy listing made whole: State.legal_actions)
            out["legal_actions"] = legal if legal.__class__ is list else list(legal)
        except TooManyActions:   # the first found through the small choices (docs/actions.md)
            out["legal_actions"] = legal_walk(s, limit=VIEW_LEGAL_LIMIT)[0]
            out["legal_more"] = True
    return out


def _code_or_none(s, face):
    return s.game.deck.code[face] if face >= 0 else None


def log(s, seat=None, since: int = 0) -> list:
    """``State.log``: the events ``seat`` may see (``None``: public ones), private fields removed.

    ``since``: look only at the events recorded after the first ``since`` (an ``event_count``
    taken earlier), so a follower fetches what is new without filtering the whole log again.
    """
    out = []
    events = s.events or ()
    for ev in (events[since:] if since else events):
        to = ev.get("_to")
        if to is not None and (seat is None or seat not in to):
            redacted = ev.get("_public")
            if redacted is not None:
                out.append(dict(redacted))
            continue
        out.append({k: v for k, v in ev.items() if not k.startswith("_")})
    return out
