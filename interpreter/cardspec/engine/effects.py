"""Effects: the few primitive state changes a ruleset can write in YAML.

    - set: {hearts_broken: true}                      # vars (or one seat's counter: "points[winner]")
    - add: {counter: score, value: 10, seat: winner}  # seat omitted: every seat, ``seat`` bound
    - move: {from: widow, to: won[winner]}            # all cards, or count: N from the top
    - emit: {type: bonus, seat: winner}               # an event with computed fields
    - if: trick_number == tricks_total                # any effect may carry a condition
      move: {from: widow, to: won[winner]}

A list of effects compiles into one generated Python function with the
parameters of its context (e.g. ``winner``, ``leader`` after a trick).

Chips, chance and turn control (docs/turns.md has examples)::

    - add: {to: pot, value: 10}                        # a scalar var (the pot) or COUNTER[SEAT]
    - transfer: {from: pot, to: "chips[seat]", value: 60, moved: paid}  # capped by what `from` holds
    - move: {from: stock, to: third, count: 1, refill: discard}  # stock short: shuffle discard under it
    - move: {from: "hand[seat]", to: table, cards: card}          # these cards (a card or a list)
    - move: {from: "hand[seat]", to: stock, random_place: true}   # each card at a random place
    - shuffle: stock                                   # with the state's RNG
    - reveal: {cards: "hand[seat]", seat: seat}        # a public `reveal` event with the codes
    - for_each: {as: p, in: seats, where: "chips[p] > 0", do: [effects]}
    - next_seat: seat                                  # turns step: who takes the next turn
    - repetition: {times: 3, end: match}               # turns step: the 3rd time a position occurs
                                                       #   (State.position_key) emits `repetition`, ends
    - end: turn                                        # turns step: turn | step | deal | match;
                                                       #   the effects after it in the list do not run
"""
from __future__ import annotations

import re

from . import at_once as _at_once
from .compiler import Compiler, INTS, SEAT_ZONE, ZONE
from .shared_defs import share as share_definitions
from ..lang import ANY, BOOL, CARD, INT, SUIT, EngineText, list_of, name_problem, py_param
from ..lang.bounds import mag_add, may_grow

EFFECT_KINDS = ("set", "add", "move", "emit", "transfer", "shuffle", "reveal", "for_each", "next_seat", "end",
                "repetition")
#: ``end:`` values, in the order of their reach (the turns step reads ``State.ts[3]``).
END_LEVELS = {"turn": 1, "step": 2, "deal": 3, "match": 4}
_TURN_ONLY_HINT = {
    "end": "to end the match after a deal use match: end: (a condition) or match: deals:; to skip a step "
           "use its if:",
    "next_seat": "in a tricks step the winner leads the next trick (tricks: next_leader: chooses otherwise)",
    "repetition": "repetition: watches the positions of a turns step",
}
#: More effect kinds from other modules: name -> ``f(game, comp, body, path, params) -> lines`` (e.g. melds/_effects.py).
EXTRA_EFFECTS = {}


def _opens_deal(game, path) -> bool:
    """Whether the effect at ``path`` runs before any decision of its deal: it is in an automatic step of
    ``deal:`` and every step before that one is automatic too (a decision step skipped by its ``if:``
    still counts as one). Such an effect runs in the same advance as the deal's ``deal_start`` event,
    before any seat has been shown it."""
    from .steps.base import STEP_TYPES
    steps = game.data.get("deal")
    if len(path) < 3 or path[0] != "deal" or not isinstance(path[1], int) or not isinstance(steps, list):
        return False
    for spec in steps[:path[1] + 1]:
        kinds = [spec] if isinstance(spec, str) else \
            [k for k in spec if k not in ("id", "if", "name", "before_deal")] if isinstance(spec, dict) else []
        if len(kinds) != 1 or getattr(STEP_TYPES.get(kinds[0]), "decision", True):
            return False
    return True


def _deal_start_names_dealer(s):
    """The current deal's ``deal_start`` event names the dealer a ``set: {dealer: …}`` of the deal's opening
    steps chose (a cut or a draw for the first dealer; issue 32 item 5: the first deal_start
    named seat 0 whoever the cut chose). Replaced, not changed in place: a clone shares the older events."""
    events = s.events
    for i in range(len(events) - 1, -1, -1):
        if events[i].get("type") == "deal_start":
            events[i] = {**events[i], "dealer": s.v[0]}
            return


def compile_effects(game, comp: Compiler, effects, path, params):
    """A function ``f(s, *params)`` running ``effects`` in order, or None for an empty list."""
    lines = effects_source(game, comp, effects, path, params)
    if not lines:
        return None
    lines = share_definitions(lines, getattr(game.env, "def_src", {}))   # (a block of var writes only)
    return comp.function("", params, statements=lines)


def effects_source(game, comp: Compiler, effects, path, params) -> list:
    """Python statements running ``effects`` (parameters are locals ``p_NAME``), for inlining."""
    if effects in (None, []):
        return []
    _install_helpers(comp)
    if isinstance(effects, dict):
        effects = [effects]
    if not isinstance(effects, list):
        comp.problem(path, "effects are a list of set/add/move/emit items")
        return []
    lines = []
    for i, eff in enumerate(effects):
        p = path + (i,)
        if not isinstance(eff, dict):
            comp.problem(p, "an effect is a mapping such as {set: {name: value}}")
            continue
        kinds = [k for k in eff if k != "if"]
        if len(kinds) != 1 or (kinds[0] not in EFFECT_KINDS and kinds[0] not in EXTRA_EFFECTS):
            comp.problem(p, f"an effect has one of {', '.join(EFFECT_KINDS)} (and an optional if:); "
                            f"found {', '.join(kinds) or 'nothing'}")
            continue
        kind = kinds[0]
        body = _effect_lines(game, comp, kind, eff[kind], p + (kind,), params)
        if not body:
            continue
        body = body + _at_once.check_lines(game, comp, kind, body)   # match: end_at_once (engine/at_once.py)
        body = _suits_follow(game, body)
        if "if" in eff:
            cond = comp.code(eff["if"], p + ("if",), params, (BOOL,))
            if cond is None:
                continue
            lines.append(f"if {cond.src}:")
            lines.extend("    " + b for b in body)
        else:
            lines.extend(body)
    return lines


_SLOT_WRITE = re.compile(r"\bs\.v\[(\d+)\]\s*(?:[-+*]|//)?=(?!=)")


def _suits_follow(game, body: list) -> list:
    """``body`` (an effect's statements) and, when it writes the trump or a var that the cards' suits
    depend on (``deck: suit_of:`` reading them: ``Game.eff_inputs``), the State's suit tables made again
    at once, so every later expression of the same effects reads the new suits."""
    inputs = getattr(game, "eff_inputs", None)
    if not inputs or not any(int(m.group(1)) in inputs for ln in body for m in _SLOT_WRITE.finditer(ln)):
        return body
    return body + ["s.eff = _EFF_OF(s)"]


#: Effects that act on the turn in progress (``State.ts``): only a turns step's phases and actions run them.
TURN_ONLY = ("end", "next_seat", "repetition")


def _effect_lines(game, comp, kind, body, path, params):
    if kind in TURN_ONLY and not getattr(comp, "turn_effects", False):
        where = next((str(p) for p in reversed(path) if isinstance(p, str) and p not in TURN_ONLY), "here")
        comp.problem(path, f"{kind}: is an effect of a turns step (its phases' do: and its actions' effects), "
                           f"not of {where}:", _TURN_ONLY_HINT[kind])
        return None
    if kind in EXTRA_EFFECTS:
        return EXTRA_EFFECTS[kind](game, comp, body, path, params)
    if kind == "set":
        if not isinstance(body, dict) or not body:
            comp.problem(path, "set takes {name: value, …}")
            return None
        out = []
        for name, value in body.items():
            var = game.var.get(name)
            if var is None and name == "dealer":   # the dealer of this deal (a draw for the first dealer)
                code = comp.code(value, path + (name,), params, (INT,))
                if code is not None:
                    out += [f"s.v[0] = ({code.src}) % s.n",
                            "if s.events is not None: s.emit({'type': 'dealer', 'seat': s.v[0]})"]
                    if _opens_deal(game, path):   # the deal_start event, not yet shown, names this dealer
                        comp.ns["_deal_start_names_dealer"] = _deal_start_names_dealer
                        out += ["if s.events is not None: _deal_start_names_dealer(s)"]
                continue
            if var is None and "[" in str(name):   # COUNTER[SEAT]: one seat's counter set outright
                target = _target(game, comp, name, path + (name,), params)
                code = comp.code(value, path + (name,), params, (INT,))
                if target is not None and code is not None:
                    tc = game.counter.get(str(name).split("[")[0].strip())
                    if tc is not None and tc.by != "seat":   # a team's total (engine/teams.py)
                        seat = target[target.index("][") + 2:-1]
                        out.append(f"_team_set(s, {tc.index}, {seat}, {_bounded(code)}, {tc.by!r})")
                    else:
                        out.append(f"{target} = {_bounded(code)}")
                continue
            if var is None:
                import difflib
                close = difflib.get_close_matches(str(name), list(game.var), n=1)
                comp.problem(path + (name,), f"unknown var '{name}'",
                             f"did you mean '{close[0]}'?" if close else "declare it under vars:")
                continue
            want = {"int": (INT,), "bool": (BOOL,), "suit": ("suit",), "seat": (INT,), "card": (CARD,)}.get(var.type, ())
            code = comp.code(value, path + (name,), params, want)
            if code is not None:
                out.append(f"s.v[{var.index}] = {_bounded(code)}")
        return out
    if kind == "add" and isinstance(body, dict) and ("to" in body or str(body.get("counter")) in game.var):
        target = _target(game, comp, body.get("to", body.get("counter")), path + ("to",), params)
        value = comp.code(body.get("value", 1), path + ("value",), params, (INT,))
        if target is None or value is None:
            return None
        return [_add(target, value)]
    if kind == "add":
        if not isinstance(body, dict) or "counter" not in body:
            comp.problem(path, "add takes {counter: NAME, value: EXPR, seat: EXPR}")
            return None
        c = game.counter.get(str(body["counter"]))
        if c is None:
            comp.problem(path + ("counter",), f"unknown counter '{body['counter']}'",
                         "counters: " + ", ".join(game.counter))
            return None
        if "seat" in body:
            seat = comp.code(body["seat"], path + ("seat",), params, (INT,))
            value = comp.code(body.get("value", 1), path + ("value",), params, (INT,))
            if seat is None or value is None:
                return None
            if not may_grow(mag_add(None, value.mag)):
                return [f"s.c[{c.index}][{_seat_index(seat.src, game.n, seat.values)}] += {value.src}"]
            return [f"_i = {_seat_index(seat.src, game.n, seat.values)}", _add(f"s.c[{c.index}][_i]", value)]
        inner = tuple(p for p in params if p[0] != "seat") + (("seat", INT),)
        value = comp.code(body.get("value", 1), path + ("value",), inner, (INT,))
        if value is None:
            return None
        if c.by != "seat":   # once per team, its first seat bound as seat (engine/teams.py)
            return [f"for p_seat in _team_firsts(s, {c.by!r}):", "    " + _add(f"s.c[{c.index}][p_seat]", value)]
        return [f"for p_seat in range(s.n):", "    " + _add(f"s.c[{c.index}][p_seat]", value)]
    if kind == "move":
        if not isinstance(body, dict) or "from" not in body or "to" not in body:
            comp.problem(path, "move takes {from: ZONE, to: ZONE, count: N}")
            return None
        src = comp.code(body["from"], path + ("from",), params, (ZONE,), whole_zone=True)
        dst = comp.code(body["to"], path + ("to",), params, (ZONE,), whole_zone=True)
        if src is None or dst is None:
            return None
        if not (zone_arg(game, comp, src, path + ("from",), "move's from:")
                & zone_arg(game, comp, dst, path + ("to",), "move's to:")):
            return None
        if comp.top_only and not _move_keeps_top_only(game, comp, body, path, src.src, dst.src):
            return None
        put = "_fx_insert_random(s, {dst}, {cards})" if body.get("random_place") else "{dst}.extend({cards})"
        if "cards" in body:
            cards = comp.code(body["cards"], path + ("cards",), params)
            if cards is None:
                return None
            if cards.type not in (CARD, ZONE, ANY, list_of(ANY)):
                comp.problem(path + ("cards",), f"move's cards: is a card or a list of cards, not {cards.type}")
                return None
            if cards.type == CARD and not body.get("random_place"):   # one card: _fx_take written out
                return [f"_src = {src.src}", f"_c = {cards.src}", "if _c in _src:", "    _src.remove(_c)",
                        f"    {dst.src}.append(_c)"]
            many = cards.src if cards.type != CARD else f"({cards.src},)"
            return [f"_cs = _fx_take(s, {src.src}, {many})", put.format(dst=dst.src, cards="_cs")]
        refill = None
        if "refill" in body:
            refill = comp.code(body["refill"], path + ("refill",), params, (ZONE,))
            if refill is None or not zone_arg(game, comp, refill, path + ("refill",), "move's refill:"):
                return None
        if "count" in body:
            cnt = comp.code(body["count"], path + ("count",), params, (INT,))
            if cnt is None:
                return None
            if refill is None and not body.get("random_place"):
                return [f"_src = {src.src}", *_at_least_0("_k", cnt.src), "if len(_src) < _k: _k = len(_src)",
                        f"if _k:", f"    {dst.src}.extend(_src[-_k:][::-1])", f"    del _src[-_k:]"]
            out = [f"_src = {src.src}", *_at_least_0("_k", cnt.src)]
            if refill is not None:
                out += [f"if _k > len(_src):", f"    _fx_refill(s, _src, {refill.src})"]
            return out + ["if len(_src) < _k: _k = len(_src)", "if _k:",
                          "    " + put.format(dst=dst.src, cards="_src[-_k:][::-1]"), "    del _src[-_k:]"]
        if body.get("random_place"):
            return [f"_src = {src.src}", "_cs = list(_src)", "_src.clear()", put.format(dst=dst.src, cards="_cs")]
        return [f"_src = {src.src}", f"{dst.src}.extend(_src)", "_src.clear()"]
    if kind == "transfer":
        if not isinstance(body, dict) or "from" not in body or "to" not in body:
            comp.problem(path, "transfer takes {from: TARGET, to: TARGET, value: EXPR, cap: true, moved: VAR}")
            return None
        frm = _target(game, comp, body["from"], path + ("from",), params)
        to = _target(game, comp, body["to"], path + ("to",), params)
        if frm is None or to is None:
            return None
        grows = False   # capped (or all of `from`): chips move, their total stays (no growth)
        if "value" in body:
            value = comp.code(body["value"], path + ("value",), params, (INT,))
            if value is None:
                return None
            out = [*_at_least_0("_a", value.src)]
            if body.get("cap", True):
                out += [*_at_least_0("_most", frm), "if _most < _a: _a = _most"]
            else:
                grows = may_grow(mag_add(None, value.mag))
        else:
            out = [*_at_least_0("_a", frm)]
        out += [f"{frm} = _clamp({frm} - _a)", f"{to} = _clamp({to} + _a)"] if grows else \
            [f"{frm} -= _a", f"{to} += _a"]
        if "moved" in body:
            var = game.var.get(str(body["moved"]))
            if var is None:
                comp.problem(path + ("moved",), f"unknown var '{body['moved']}'", "declare it under vars:")
                return None
            out.append(f"s.v[{var.index}] = _a")
        return out
    if kind == "shuffle":
        z = comp.code(body.get("zone") if isinstance(body, dict) else body, path, params, (ZONE,))
        if z is None or not zone_arg(game, comp, z, path, "shuffle's zone"):
            return None
        return [f"s.rng.shuffle({z.src})"]
    if kind == "reveal":
        if not isinstance(body, dict) or "cards" not in body:
            comp.problem(path, "reveal takes {cards: ZONE_OR_CARD, seat: EXPR, …more event fields}")
            return None
        cards = comp.code(body["cards"], path + ("cards",), params)
        if cards is None:
            return None
        if cards.type not in (CARD, ZONE, ANY, list_of(ANY)):
            comp.problem(path + ("cards",), f"reveal's cards: is a card or a list of cards, not {cards.type}")
            return None
        many = cards.src if cards.type != CARD else f"({cards.src},)"
        fields = ["'type': 'reveal'", f"'cards': [CODE[_c] for _c in {many}]"]
        for k, v in body.items():
            if k != "cards" and _field_name(comp, k, path + (k,)):
                code = comp.code(v, path + (k,), params)
                if code is not None:
                    fields.append(f"{str(k)!r}: {_event_value(comp, code)}")
        return ["if s.events is not None:", "    s.emit({" + ", ".join(fields) + "})"]
    if kind == "for_each":
        if not isinstance(body, dict) or "do" not in body:
            comp.problem(path, "for_each takes {as: NAME, in: LIST (default seats), where: EXPR, do: [effects]}")
            return None
        name = body.get("as", "each")
        why = name_problem(name)
        if why is not None:
            comp.problem(path + ("as",), f"for_each's as: {why}", "e.g. as: p (then p in where: and do:)")
            return None
        coll = comp.code(body.get("in", EngineText("seats")), path + ("in",), params)
        if coll is None:
            return None
        if not (coll.type.startswith("list[") or coll.type == ANY):   # (a number would reach Python's for)
            comp.problem(path + ("in",), f"for_each's in: needs a list (seats, a zone, filter(...)); found {coll.type}",
                         "e.g. in: seats, or in: \"filter(p in seats where chips[p] > 0)\"")
            return None
        et = coll.type[5:-1] if coll.type.startswith("list[") else ANY
        inner = tuple(p for p in params if p[0] != name) + ((name, et),)
        out = [f"for {py_param(name)} in list({coll.src}):"]
        outer = comp.scale
        comp.scale = outer * (coll.size or 1.0)   # what it runs, once per item (docs/dsl.md, "Bounds")
        # the loop's name takes the seat numbers only when it goes through the seats: its reads of a counter
        # need no range check (Compiler.seat_vars; a for_each inside with the same name rebinds it)
        seat_vars = comp.seat_vars
        comp.seat_vars = {k: v for k, v in seat_vars.items() if k != name}
        if coll.src in (f"range({game.n})", repr(tuple(range(game.n)))):
            comp.seat_vars[name] = frozenset(range(game.n))
        try:
            if "where" in body:
                cond = comp.code(body["where"], path + ("where",), inner, (BOOL,))
                if cond is None:
                    return None
                out.append(f"    if not ({cond.src}): continue")
            sub = effects_source(game, comp, body["do"], path + ("do",), inner)
        finally:
            comp.scale = outer
            comp.seat_vars = seat_vars
        return out + (["    " + ln for ln in sub] or ["    pass"])
    if kind == "next_seat":
        seat = comp.code(body, path, params, (INT,))
        if seat is None:
            return None
        return [f"s.ts[2] = ({seat.src}) % s.n"]
    if kind == "end":
        # end: LEVEL, or end: {level: LEVEL, reason: TEXT} (the reason game_over gives when this ends the match)
        spec = body if isinstance(body, dict) else {"level": body}
        level = END_LEVELS.get(str(spec.get("level")))
        extra = [k for k in spec if k not in ("level", "reason")]
        if level is None or extra:
            comp.problem(path, f"end: is one of {', '.join(END_LEVELS)}, or {{level: LEVEL, reason: TEXT}}; "
                               f"found '{body}'")
            return None
        # Without a reason: none (the play log says "the match ended"), not the YAML that ended it.
        why = (level, str(spec["reason"]) if spec.get("reason") is not None else None)
        return [f"if s.ts[3] < {level} and len(s.ts) > 7: s.ts[7] = {why!r}",
                f"if {level} > s.ts[3]: s.ts[3] = {level}", "return   # the effects after it do not run"]
    if kind == "repetition":
        # Record the position (State.position_key); its `times`-th occurrence emits `repetition` and ends
        # the match (or `end:` turn | step | deal). Turns step only, like end:. times <= 0: record only.
        spec = body if isinstance(body, dict) else {"times": body}
        times = comp.code(spec.get("times", 3), path + ("times",), params, (INT,))
        level = END_LEVELS.get(str(spec.get("end", "match")))
        if level is None:
            comp.problem(path + ("end",), f"end: is one of {', '.join(END_LEVELS)}; found '{spec.get('end')}'")
            return None
        if times is None:
            return None
        return [f"_t = {times.src}", "_n = _fx_seen(s, _t)", "if 0 < _t <= _n:",
                "    s.emit({'type': 'repetition', 'times': _n})",
                f"    if s.ts[3] < {level} and len(s.ts) > 7: s.ts[7] = ({level}, 'the same position came up ' + str(_n) + ' times')",
                f"    if {level} > s.ts[3]: s.ts[3] = {level}", "    return   # the effects after it do not run"]
    if kind == "emit":
        if not isinstance(body, dict) or "type" not in body:
            comp.problem(path, "emit takes {type: NAME, field: EXPR, …}")
            return None
        if not isinstance(body["type"], str) or not EVENT_TYPE.match(body["type"]):
            comp.problem(path + ("type",), f"an event's type is a name (letters, digits, _ and -), not "
                         f"'{_shown(body['type'])}'", "e.g. emit: {type: bonus, seat: winner}")
            return None
        fields = [f"'type': {body['type']!r}"]
        for k, v in body.items():
            if k == "type" or not _field_name(comp, k, path + (k,)):
                continue
            code = comp.code(v, path + (k,), params)
            if code is not None:
                fields.append(f"{str(k)!r}: {_event_value(comp, code)}")
        return ["if s.events is not None:", "    s.emit({" + ", ".join(fields) + "})"]   # no log: no event built
    return None


#: An event's type and field names (they become JSON keys and values front ends match on).
EVENT_TYPE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}\Z")
FIELD_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}\Z")


def _shown(text) -> str:
    r = repr(str(text))[1:-1]
    return r if len(r) <= 40 else r[:39] + "…"


def _field_name(comp, key, path) -> bool:
    """True when ``key`` may name an event's field (``FIELD_NAME``), else a problem at ``path``."""
    if isinstance(key, str) and FIELD_NAME.match(key):
        return True
    comp.problem(path, f"an event field's name is letters, digits and _, not '{_shown(key)}'")
    return False


def _seat_index(src: str, n: int, values=None) -> str:
    """Generated code for seat ``src`` as the index of a counter to change: a seat out of range (-1 for no
    seat, or past the last) is a ``RuleFault`` (docs/dsl.md), never another seat's counter (Python's
    ``lst[-1]``). A name or a number is checked inline; anything else through ``_seat``. ``values``: the
    values ``src`` can take when known (a for_each over the seats): all seats, no check."""
    if re.fullmatch(r"\d+", src) and int(src) < n:
        return src
    if values and all(0 <= x < n for x in values) and re.fullmatch(r"p_\w+|_l\d+_\w+", src):
        return src
    if re.fullmatch(r"-?\d+|p_\w+|_l\d+_\w+", src):
        return f"{src} if 0 <= {src} < {n} else _seat({src}, {n})"
    return f"_seat({src}, {n})"


def _event_value(comp, code) -> str:
    """Source of an event field's value as front ends and the log read it: a suit as its letter (``"S"``,
    None for no suit — as the trump step's events), a card as its code (``"QS"``, ``"none"`` for no card), a
    list of cards as codes, a list of melds as lists of codes; anything else as ``_bounded`` gives it (issue 20 item 6: the log said "suit 0")."""
    deck = comp.env.deck
    if code.type == SUIT and deck is not None:
        return f"({tuple(deck.suits)!r} + (None,))[{code.src}]"
    if code.type == CARD:
        return f"CODE[{code.src}]"
    if code.type == list_of(CARD):
        return f"[CODE[_c] for _c in {code.src}]"
    if code.type == list_of(list_of(CARD)):   # melds: a list of card lists
        return f"[[CODE[_c] for _c in _m] for _m in {code.src}]"
    return _bounded(code)


def _bounded(code) -> str:
    """Source of int ``code`` saturated at +-INT_LIMIT when stored again and again it may grow without bound
    (``x * x``, ``x + x``: ``lang.bounds.may_grow``); anything else as it is (docs/dsl.md, "Bounds")."""
    return f"_clamp({code.src})" if code.type == INT and may_grow(code.mag) else code.src


def _add(target: str, value) -> str:
    """``target += value``, saturated (``_clamp``) when ``value`` reads the state (a counter adding another,
    or itself: it could double each time); a bounded value (a constant, points of a trick) adds plainly."""
    if may_grow(mag_add(None, value.mag)):
        return f"{target} = _clamp({target} + {value.src})"
    return f"{target} += {value.src}"


def _move_keeps_top_only(game, comp, body, path, src: str, dst: str) -> bool:
    """A ``move`` touching a zone declared ``order: top_only`` (docs/rulesets.md) may only put cards on its
    top (no ``random_place``) or move it whole (no ``cards``/``count``/``refill``) into a per-seat zone (keyed
    as a multiset): moves that keep positions equal under its key equal. Else a problem; returns False."""
    zi = comp.top_only_zone(src)
    if zi is not None:
        name = comp.top_only[zi]
        extra = [k for k in ("cards", "count", "refill", "random_place") if k in body]
        m = re.match(r"(?:\(|_lat\()?s\.z\[(\d+)\][\[,]", dst)   # ZONE[i] (dsl r_index's forms)
        if extra or not (m and game.zones[int(m.group(1))].per_seat):
            comp.problem(path + ("from",), f"zone '{name}' is declared order: top_only: a move from it must take "
                         f"it whole (no cards:, count:, refill: or random_place:) into a per-seat zone",
                         f"drop order: top_only from zones: {name} if its order matters")
            return False
    zi = comp.top_only_zone(dst)
    if zi is not None and body.get("random_place"):
        comp.problem(path + ("random_place",), f"zone '{comp.top_only[zi]}' is declared order: top_only: "
                     "cards go on its top (random_place: reads its order)")
        return False
    return True


def _zone_of(game, node):
    """The ``Zone`` that generated-code ``node`` (a Python AST) is, ``NO_ZONE`` for the zone of no seat, or a
    text saying what it is instead. A zone is ``s.z[N]`` of a shared zone, a per-seat zone indexed by a seat
    (``s.z[N][i]`` inside its range check, ``_lat(s.z[N], i)``), or ``if … then Z1 else Z2`` of two zones."""
    import ast

    def bare(n):   # the index N of ``s.z[N]``, else None
        if (isinstance(n, ast.Subscript) and isinstance(n.value, ast.Attribute) and n.value.attr == "z"
                and isinstance(n.value.value, ast.Name) and n.value.value.id == "s"
                and isinstance(n.slice, ast.Constant) and type(n.slice.value) is int
                and 0 <= n.slice.value < len(game.zones)):
            return game.zones[n.slice.value]
        return None

    if isinstance(node, ast.Name) and node.id == "_NO_ZONE":
        return "NO_ZONE"
    if isinstance(node, ast.IfExp):
        a, b = _zone_of(game, node.body), _zone_of(game, node.orelse)
        if isinstance(a, str) and a != "NO_ZONE":
            return a
        if isinstance(b, str) and b != "NO_ZONE":
            return b
        if a == "NO_ZONE" or b == "NO_ZONE":
            return b if a == "NO_ZONE" else a
        return a if a.melds == b.melds else "a zone of melds or a zone of cards, by a condition"
    z = bare(node)
    if z is not None:
        return f"per-seat zone '{z.name}' as a whole (one zone per seat)" if z.per_seat else z
    inner = None
    if isinstance(node, ast.Subscript):
        inner = node.value
    elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_lat"
          and len(node.args) == 2):
        inner = node.args[0]
    z = bare(inner) if inner is not None else None
    if z is not None and z.per_seat:
        return z
    if z is not None and z.melds:
        return f"one meld of zone '{z.name}'"
    inner_z = _zone_of(game, inner) if inner is not None else None
    if not isinstance(inner_z, str) and inner_z is not None and inner_z.melds:
        return f"one meld of zone '{inner_z.name}'"
    return "a value computed from zones, not a zone itself"


def zone_arg(game, comp, code, path, what: str, melds: bool = False) -> bool:
    """True when generated ``code`` is a zone an effect may change (``_zone_of``) of the kind wanted (of melds
    when ``melds``, else of cards); else a problem at ``path`` naming what was expected and found, and False.
    The expression's type alone does not tell: a per-seat zone of cards (``hand``) and one seat's zone of
    melds (``table[team(seat)]``) are both lists of card lists, and a card parameter, one meld
    (``table[0][0]``) or ``filter(…)`` are lists of cards that are no zone (a TypeError or AttributeError at
    play, or cards moved nowhere)."""
    import ast
    try:
        node = ast.parse(code.src.strip(), mode="eval").body
    except SyntaxError:
        node = None
    z = _zone_of(game, node) if node is not None else "a value computed from zones, not a zone itself"
    if z == "NO_ZONE":
        return True
    kind = "a zone of melds (declared melds: true, e.g. table[team(seat)])" if melds else \
        "a zone of cards (a shared zone, or a per-seat zone with its seat: hand[seat])"
    if isinstance(z, str):
        found = z
    elif z.melds != melds:
        found = (f"the zone of melds '{z.name}'" if z.melds else f"the zone of cards '{z.name}'") + \
            ("[SEAT]" if z.per_seat else "")
    else:
        return True
    comp.problem(path, f"{what} is {kind}; found {found}",
                 "melds go to a zone declared with melds: true (zones: table: {owner: seat, melds: true})" if melds
                 else "name a zone of cards declared under zones: (hand[seat], stock, discard, …)")
    return False


def _target(game, comp, text, path, params):
    """A chip target as an assignable Python expression: a scalar var (``pot``) or ``COUNTER[SEAT]``."""
    import re
    m = re.fullmatch(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[(.*)\])?\s*", str(text), re.S)
    if not m:
        comp.problem(path, f"'{text}' is not a var name or COUNTER[SEAT]")
        return None
    name, idx = m.group(1), m.group(2)
    if idx is None:
        var = game.var.get(name)
        if var is not None:
            return f"s.v[{var.index}]"
        if name in game.counter:
            comp.problem(path, f"counter '{name}' is per seat: write {name}[seat]")
            return None
    else:
        c = game.counter.get(name)
        if c is not None:
            seat = comp.code(idx, path, params, (INT,))
            return None if seat is None else f"s.c[{c.index}][{_seat_index(seat.src, game.n, seat.values)}]"
    import difflib
    close = difflib.get_close_matches(name, list(game.var) + list(game.counter), n=1)
    comp.problem(path, f"unknown var or counter '{name}'", f"did you mean '{close[0]}'?" if close else
                 "declare it under vars: or counters:")
    return None


def _fx_take(s, src, cards):
    """Remove one copy of each of ``cards`` from ``src`` and return them (cards not there are skipped)."""
    out = []
    for c in list(cards):
        if c in src:
            src.remove(c)
            out.append(c)
    return out


def _fx_refill(s, src, other):
    """``src`` ran short: shuffle ``other``'s cards (with the state's RNG) and put them under ``src``."""
    if not other:
        return
    cards = list(other)
    other.clear()
    s.rng.shuffle(cards)
    src[:0] = cards
    s.emit({"type": "reshuffle", "cards": len(cards)})


def _fx_insert_random(s, dst, cards):
    """Insert each card at a uniformly random place of ``dst`` (a continuous shuffler)."""
    rnd = s.rng.random
    for c in list(cards):
        dst.insert(int(rnd() * (len(dst) + 1)), c)


class FrozenPositions:
    """A repetition history that is read but not extended: ``State.positions`` during a search.

    ``cardspec.solve`` sets it on the root it searches from (every copy shares it): the occurrences before
    the root still count, and a position that recurs on a searched line is the solver's business (a draw,
    docs/solve.md), so the ``repetition`` effect neither records positions nor, when no position of the
    history can reach ``times`` this time, computes the position key. ``counts``: key -> occurrences.
    """

    __slots__ = ("counts", "most")

    def __init__(self, chain):
        """``chain``: a ``State.positions`` value (``(hash, key, older, seen)`` tuples, None, or a FrozenPositions)."""
        if isinstance(chain, FrozenPositions):
            counts = dict(chain.counts)
        else:
            counts = {}
            while chain is not None:
                counts[chain[1]] = counts.get(chain[1], 0) + 1
                chain = chain[2]
        self.counts = counts
        self.most = max(counts.values(), default=0)


class _Seen:
    """How often each position of a ``State.positions`` chain occurs, for ``_fx_seen``: ``counts`` maps a
    position's hash to ``[[key, n], ...]`` (equal keys counted together, as the chain compares them:
    equal hashes, then ``==``), for the chain whose newest node has ``id`` ``head``.

    Each node of a chain is ``(hash, key, older, seen)``; states and clones share nodes, so a state
    that extends a node that is not its ``_Seen``'s head (a clone that went another way, or the state
    it was cloned from) counts its chain again, once, into a ``_Seen`` of its own. ``head`` is an id,
    not the node (a node -> seen -> node cycle would keep chains alive until the collector runs): a
    node holding this ``_Seen`` with that id is the head, as only the head is ever extended in place."""

    __slots__ = ("head", "counts")

    def __init__(self, chain):
        counts = {}
        while chain is not None:
            _count(counts, chain[0], chain[1])
            chain = chain[2]
        self.counts = counts
        self.head = None


def _count(counts, h, key) -> int:
    """Count one more ``key`` (hash ``h``) in ``_Seen.counts``; returns its occurrences now."""
    same = counts.get(h)
    if same is None:
        counts[h] = [[key, 1]]
        return 1
    for e in same:
        if e[0] == key:
            e[1] += 1
            return e[1]
    same.append([key, 1])
    return 1


def _fx_seen(s, times=0):
    """Record ``s.position_key()`` in ``s.positions``; return how often it has occurred (this time included).
    The key is ``s.game.pos_key(s)``: the same tuple, written out for the game (``compile/generate.py``).

    With a ``FrozenPositions`` history nothing is recorded; when even its most frequent position would
    stay under ``times`` (int; <= 0: never ends), the key is not computed and the bound is returned.
    The count is a look-up in the chain's ``_Seen`` (the chain is walked only when a state extends a
    node another state extended first)."""
    node = s.positions
    if node is not None and node.__class__ is FrozenPositions:
        if times <= 0 or node.most + 1 < times:
            return node.most + 1
        return node.counts.get(s.game.pos_key(s), 0) + 1
    key = s.game.pos_key(s)
    h = hash(key)
    seen = node[3] if node is not None else None
    if seen is None or seen.head != id(node):
        seen = _Seen(node)
    n = _count(seen.counts, h, key)
    node = s.positions = (h, key, node, seen)
    seen.head = id(node)
    return n


def _at_least_0(var: str, src: str) -> list:
    """The statements setting ``var`` (a local of generated code) to ``max(SRC, 0)`` (``src``: an int
    expression's source): the same value (``max`` takes the 0 when ``0 > value``), without the call (a
    builtin ``min``/``max`` parses its keywords at every call: about 1,000 instructions, where a comparison
    is a few dozen); no test for a literal that is not negative. ``if X < var: var = X`` is likewise
    ``var = min(var, X)``."""
    return [f"{var} = {src}"] + ([] if src.isdigit() else [f"if 0 > {var}: {var} = 0"])


def _install_helpers(comp):
    ns = comp.ns
    if "_fx_take" not in ns:
        ns.update(_fx_take=_fx_take, _fx_refill=_fx_refill, _fx_insert_random=_fx_insert_random)
    if "_fx_seen" not in ns:
        ns["_fx_seen"] = _fx_seen
