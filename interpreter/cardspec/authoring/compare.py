"""What differs between two rulesets, part by part (``cardspec diff``'s first part, and the changes
``cardspec explain`` lists for a variant): a module of its own so both read it without importing each other."""
from __future__ import annotations

import json

SECTIONS = ["players", "deck", "zones", "counters", "vars", "actions", "options", "define", "match"]


def _same(a, b) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def _short(x, width: int = 70) -> str:
    text = " ".join(json.dumps(x, default=str).split()) if not isinstance(x, str) else " ".join(x.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _where(rs, path) -> str:
    pos = rs.positions.find(path)
    return f"{pos.file}:{pos.line}"


def _steps_by_id(data) -> dict:
    out = {}
    for i, s in enumerate(data.get("deal") or []):
        key = s.get("id") if isinstance(s, dict) and s.get("id") else f"#{i + 1} ({s if isinstance(s, str) else next(iter(s))})"
        out[key] = (i, s)
    return out


_NONE = object()


def _changes(out, a, b, sec, path, item, xa, xb, depth):
    """Append the rows for one item; two mappings are compared key by key (``depth`` levels more)."""
    if _same(None if xa is _NONE else xa, None if xb is _NONE else xb) and (xa is _NONE) == (xb is _NONE):
        return
    if depth > 0 and isinstance(xa, dict) and isinstance(xb, dict):
        for k in list(xa) + [k for k in xb if k not in xa]:
            _changes(out, a, b, sec, path + (k,), f"{item}.{k}" if item else str(k), xa.get(k, _NONE),
                     xb.get(k, _NONE), depth - 1)
        return
    out.append((sec, item, None if xa is _NONE else _short(xa), None if xb is _NONE else _short(xb),
                _where(a, path) if xa is not _NONE else None, _where(b, path) if xb is not _NONE else None))


def compare(a, b, options_a=None, options_b=None) -> list:
    """The differences of two ``Ruleset``s after ``extends:`` and options: ``[(section, item, a_text, b_text,
    a_where, b_where)]``; a side that lacks the item has ``None`` text."""
    from ..engine.compile.read import resolve_by_option as _resolve_by_option
    da = _resolve_by_option(a.data, a.option_values(options_a))
    db = _resolve_by_option(b.data, b.option_values(options_b))
    out = []
    for sec in SECTIONS:
        va, vb = da.get(sec), db.get(sec)
        if _same(va, vb):
            continue
        if isinstance(va, dict) and isinstance(vb, dict) and sec != "players":
            for k in list(va) + [k for k in vb if k not in va]:
                _changes(out, a, b, sec, (sec, k), str(k), va.get(k, _NONE), vb.get(k, _NONE), depth=1)
        else:
            _changes(out, a, b, sec, (sec,), "", _NONE if va is None else va, _NONE if vb is None else vb, depth=2)
    # Option values in effect (an --option override changes no declaration but changes the game).
    vals_a, vals_b = a.option_values(options_a), b.option_values(options_b)
    shown = {item.split(".")[0] for sec, item, *_ in out if sec == "options"}
    for k in vals_a:
        if k in vals_b and k not in shown and not _same(vals_a[k], vals_b[k]):
            out.append(("options", f"{k} (value)", _short(vals_a[k]), _short(vals_b[k]),
                        "--option-a" if options_a and k in options_a else _where(a, ("options", k)),
                        "--option-b" if options_b and k in options_b else _where(b, ("options", k))))
    sa, sb = _steps_by_id(da), _steps_by_id(db)
    for k in list(sa) + [k for k in sb if k not in sa]:
        ia, xa = sa.get(k, (None, None))
        ib, xb = sb.get(k, (None, None))
        if _same(xa, xb) and ia == ib:
            continue
        out.append(("deal", k, None if xa is None else _short(xa), None if xb is None else _short(xb),
                    _where(a, ("deal", ia)) if ia is not None else None,
                    _where(b, ("deal", ib)) if ib is not None else None))
    return out
