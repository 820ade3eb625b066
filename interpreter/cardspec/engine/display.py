"""What a view shows a person: the ``display`` part of ``State.view(seat)`` (docs/rulesets.md, "What a view shows").

A ruleset declares what players see with words: a counter or var is shown only when it has a ``label:``
(``show: false`` hides a labelled one, ``show: teams`` gives a counter one value per team of ``match:
teams``); zones are drawn by what they hold (melds as numbered melds, a ``top`` pile as its top card and
count, a hidden zone as its count, visible cards as cards), under their ``label:`` (default: the name).
Bookkeeping values (an unlabelled var such as a scratch flag) never reach a front end.

The display is built from the view's own ``zones``/``counters``/``vars``, which the engine has already
filtered by visibility, so it can never show a seat more than the view does (the hidden-information rules
hold by construction). Front ends (``cardspec play --human``, ``cardspec tui``, the browser) print the
display's labels and texts, never a raw name.
"""
from __future__ import annotations

__all__ = ["build_display", "side_label"]


def side_label(game, k: int) -> str:
    """``seat 3``, or ``team 1 (seats 1+3)`` in a game with ``match: teams`` (str)."""
    teams = game.teams
    if teams and 0 <= k < len(teams):
        return f"team {k} (seats {'+'.join(str(x) for x in teams[k])})"
    return f"seat {k}"


def _var_text(game, var, value):
    """The var's value as words, or None when it is unset (a seat/card/suit var at none)."""
    if var.type == "bool":
        return "yes" if value else "no"
    if var.type == "seat":
        return None if value is None or value < 0 else f"seat {value}"
    if var.type == "card":
        return value   # a code, or None
    if var.type == "suit":
        return game.deck.suit_label(value)
    return str(value)


def _zone_entry(zone, owner, z, teams) -> dict:
    e = {"name": zone.name, "label": zone.label or zone.name.replace("_", " "), "owner": owner}
    if owner is not None:
        e["owner_label"] = (f"team {owner}" if zone.melds and teams else f"seat {owner}")
    if zone.melds:
        e["kind"] = "melds"
        e["melds"] = [{"number": i, "cards": list(m)} for i, m in enumerate(z, 1)]
    elif isinstance(z, list):
        e["kind"] = "cards"
        e["cards"] = list(z)
    elif "top" in z:
        e["kind"] = "pile"
        e["top"] = z["top"]
        e["count"] = z["count"]
    else:
        e["kind"] = "hidden"
        e["count"] = z["count"]
        if z.get("face_up"):
            e["face_up"] = list(z["face_up"])
    return e


def contract(game, view: dict) -> dict | None:
    """The contract on the table (issue 35: it was only in the log): during an auction the standing high
    bid and its bidder, after it the winning bid and the declarer — ``{declarer, bid, standing, text}``, or
    None when the game has no auction or nobody has bid. Everything in it was announced to every seat.

    Computed by the front ends from a view and the game, not stored in the view: a view's shape is part of
    what a frozen ruleset must reproduce exactly (tests/test_frozen_corpus.py), so presentation grows
    beside it. The browser reads the same facts (``auction.high``, the ``auction_end`` event)."""
    auctions = [st for st in game.steps if hasattr(st, "bid_text")]
    system = view.get("system") or {}
    declarer, level = system.get("declarer", -1), system.get("bid_level", -1)
    if not auctions or declarer is None or declarer < 0 or level is None or level < 0 or view.get("terminal"):
        return None
    live = view.get("auction")
    bid = live.get("high") if live else next((b for b in (st.bid_text(level) for st in auctions) if b), None)
    if not bid:
        return None
    who = "you" if view.get("seat") == declarer else f"seat {declarer}"
    text = f"high bid: {bid} ({who})" if live else f"contract: {bid}, declarer {who}"
    return {"declarer": declarer, "bid": bid, "standing": bool(live), "text": text}


def build_display(game, view: dict) -> dict:
    """The ``display`` part of a view (dict, JSON-ready), from that view's visible facts only.

    ``counters``: ``[{name, label, by: "seat"|"team", values: [{who, seats, value}]}]`` for each
    labelled counter (``value`` None where the view hides it; a counter ``shown_as: yes_no`` adds ``text``,
    yes / no); ``vars``: ``[{name, label, value, text}]`` for each
    labelled var the view shows and that is set (a seat, card or suit var at none is left out);
    ``zones``: ``[{name, label, owner, owner_label, kind, …}]`` with ``kind`` one of ``cards`` (``cards``),
    ``melds`` (``melds``: ``[{number, cards}]``, numbered as lay-offs name them), ``pile`` (``top``, ``count``)
    and ``hidden`` (``count``, ``face_up``); ``sits_out``: the seat that sits this deal out (docs/rulesets.md),
    else None, and ``sits_out_text`` (``seat 5 sits out this deal``) when there is one."""
    counters = []
    vals = view.get("counters") or {}
    for c in game.counters:
        if not c.label or c.name not in vals:
            continue
        row = vals[c.name]
        if c.show == "teams":
            values = []
            for k, seats in enumerate(game.teams):
                seen = [row[s] for s in seats if s < len(row) and row[s] is not None]
                # a by: team counter's view holds each seat's part: the team's value is their sum
                value = (sum(seen) if c.by == "team" else seen[0]) if seen else None
                values.append({"who": side_label(game, k), "seats": list(seats), "value": value})
            counters.append({"name": c.name, "label": c.label, "by": "team", "values": values})
        else:
            counters.append({"name": c.name, "label": c.label, "by": "seat",
                             "values": [{"who": f"seat {s}", "seats": [s], "value": x} for s, x in enumerate(row)]})
        if c.shown_as == "yes_no":   # a flag: the value in words (front ends print text when there is one)
            for v in counters[-1]["values"]:
                v["text"] = None if v["value"] is None else ("yes" if v["value"] else "no")
    shown = []
    vv = view.get("vars") or {}
    for var in game.vars:
        if not var.label or var.name not in vv:
            continue
        text = _var_text(game, var, vv[var.name])
        if text is not None:
            shown.append({"name": var.name, "label": var.label, "value": vv[var.name], "text": text})
    zones = []
    for zone in game.zones:
        z = view["zones"].get(zone.name)
        if z is None:
            continue
        if zone.per_seat:
            for owner, zz in z.items():
                zones.append(_zone_entry(zone, int(owner), zz, game.teams))
        else:
            zones.append(_zone_entry(zone, None, z, game.teams))
    out = {"counters": counters, "vars": shown, "zones": zones, "sits_out": None}
    out_seat = (view.get("system") or {}).get("sits_out", -1)
    if out_seat is not None and out_seat >= 0 and not view.get("terminal"):
        out["sits_out"] = out_seat
        out["sits_out_text"] = ("you sit out this deal" if view.get("seat") == out_seat
                                else f"seat {out_seat} sits out this deal")
    return out
