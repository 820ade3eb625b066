"""Effects: the few primitive state changes a ruleset can write in YAML.

    - set: {hearts_broken: true}                      # vars
    - add: {counter: score, value: 10, seat: winner}  # seat omitted: every seat, ``seat`` bound
    - move: {from: widow, to: won[winner]}            # all cards, or count: N from the top
    - emit: {type: bonus, seat: winner}               # an event with computed fields
    - if: trick_number == tricks_total                # any effect may carry a condition
      move: {from: widow, to: won[winner]}

A list of effects compiles into one generated Python function with the
parameters of its context (e.g. ``winner``, ``leader`` after a trick).
"""
from __future__ import annotations

from ._compile import Compiler, INTS, SEAT_ZONE, ZONE
from .dsl import ANY, BOOL, INT, list_of

EFFECT_KINDS = ("set", "add", "move", "emit")


def compile_effects(game, comp: Compiler, effects, path, params):
    """A function ``f(s, *params)`` running ``effects`` in order, or None for an empty list."""
    lines = effects_source(game, comp, effects, path, params)
    if not lines:
        return None
    return comp.function("", params, statements=lines)


def effects_source(game, comp: Compiler, effects, path, params) -> list:
    """Python statements running ``effects`` (parameters are locals ``p_NAME``), for inlining."""
    if effects in (None, []):
        return []
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
        if len(kinds) != 1 or kinds[0] not in EFFECT_KINDS:
            comp.problem(p, f"an effect has one of {', '.join(EFFECT_KINDS)} (and an optional if:); "
                            f"found {', '.join(kinds) or 'nothing'}")
            continue
        kind = kinds[0]
        body = _effect_lines(game, comp, kind, eff[kind], p + (kind,), params)
        if not body:
            continue
        if "if" in eff:
            cond = comp.code(eff["if"], p + ("if",), params, (BOOL,))
            if cond is None:
                continue
            lines.append(f"if {cond.src}:")
            lines.extend("    " + b for b in body)
        else:
            lines.extend(body)
    return lines


def _effect_lines(game, comp, kind, body, path, params):
    if kind == "set":
        if not isinstance(body, dict) or not body:
            comp.problem(path, "set takes {name: value, …}")
            return None
        out = []
        for name, value in body.items():
            var = game.var.get(name)
            if var is None:
                import difflib
                close = difflib.get_close_matches(str(name), list(game.var), n=1)
                comp.problem(path + (name,), f"unknown var '{name}'",
                             f"did you mean '{close[0]}'?" if close else "declare it under vars:")
                continue
            code = comp.code(value, path + (name,), params, (var.type,) if var.type in ("int", "bool", "suit") else ())
            if code is not None:
                out.append(f"s.v[{var.index}] = {code.src}")
        return out
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
            return [f"s.c[{c.index}][{seat.src}] += {value.src}"]
        inner = tuple(p for p in params if p[0] != "seat") + (("seat", INT),)
        value = comp.code(body.get("value", 1), path + ("value",), inner, (INT,))
        if value is None:
            return None
        return [f"for p_seat in range(s.n):", f"    s.c[{c.index}][p_seat] += {value.src}"]
    if kind == "move":
        if not isinstance(body, dict) or "from" not in body or "to" not in body:
            comp.problem(path, "move takes {from: ZONE, to: ZONE, count: N}")
            return None
        src = comp.code(body["from"], path + ("from",), params, (ZONE,))
        dst = comp.code(body["to"], path + ("to",), params, (ZONE,))
        if src is None or dst is None:
            return None
        if "count" in body:
            cnt = comp.code(body["count"], path + ("count",), params, (INT,))
            if cnt is None:
                return None
            return [f"_src = {src.src}", f"_k = min(max({cnt.src}, 0), len(_src))",
                    f"if _k:", f"    {dst.src}.extend(_src[-_k:][::-1])", f"    del _src[-_k:]"]
        return [f"_src = {src.src}", f"{dst.src}.extend(_src)", "_src.clear()"]
    if kind == "emit":
        if not isinstance(body, dict) or "type" not in body:
            comp.problem(path, "emit takes {type: NAME, field: EXPR, …}")
            return None
        fields = [f"'type': {str(body['type'])!r}"]
        for k, v in body.items():
            if k == "type":
                continue
            code = comp.code(v, path + (k,), params)
            if code is not None:
                fields.append(f"{str(k)!r}: {code.src}")
        return ["s.emit({" + ", ".join(fields) + "})"]
    return None
