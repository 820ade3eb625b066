"""The effects that move cards into melds: ``meld``, ``lay_off`` and ``wild_to_low_end`` (registered as effect
kinds when the package is imported; their YAML forms are in the package's doc).
"""
from __future__ import annotations

from ..effects import EXTRA_EFFECTS, zone_arg
from ...lang import BOOL, CARD, INT, list_of
from ...lang.runtime import RuleFault
from ._layout import fixed_layout, layout, wild_to_low_end


def _take(src, cards):
    out = []
    for c in cards:
        if c in src:
            src.remove(c)
            out.append(c)
    return out


def fx_meld(s, src, dst, cards, wild):
    """Move ``cards`` from ``src`` into a new meld at the end of ``dst``."""
    ns = s.game.ns
    got = _take(src, cards)
    dst.append(layout(got, wild, ns["RANK"], ns["SUIT"], ns["SORT_KEY"]))


def fx_lay_off(s, src, dst, index, cards, wild, fixed=False):
    """Move ``cards`` from ``src`` onto meld ``index`` of ``dst`` and lay it out again (``fixed``: its
    wilds keep their places, ``fixed_layout``; the ruleset's ``legal:`` has checked that one exists).
    Raises ``RuleFault`` (a ruleset error at the step) when ``dst`` has no meld ``index``, before any card moves."""
    if not 0 <= index < len(dst):
        raise RuleFault(f"cards were laid off on meld {index} (from 0) of a zone holding {len(dst)} melds: "
                        "there is no such meld (the lay_off effect's index:)")
    ns = s.game.ns
    got = _take(src, cards)
    if fixed:
        r = fixed_layout(tuple(dst[index]), tuple(got), wild, ns["RANK"], ns["SUIT"], ns["SORT_KEY"])
        if r is not None:
            dst[index] = r[0]
            return
    dst[index] = layout(tuple(dst[index]) + tuple(got), wild, ns["RANK"], ns["SUIT"], ns["SORT_KEY"])


def fx_wild_to_low_end(s, dst, index, wild):
    """Move the wild on the high end of meld ``index`` of ``dst`` to its low end (when it can move)."""
    ns = s.game.ns
    if 0 <= index < len(dst):
        moved = wild_to_low_end(tuple(dst[index]), wild, ns["RANK"], ns["SUIT"])
        if moved is not None:
            dst[index] = moved


# ---- the effects ------------------------------------------------------------------------------------
def _effect(kind):
    keys = ("from", "to", "cards", "wild") + (("index",) if kind == "lay_off" else ())

    def lines(game, comp, body, path, params):
        if not isinstance(body, dict) or any(k not in body for k in keys):
            comp.problem(path, f"{kind} takes {{{', '.join(keys)}}}" + (", and optionally fixed: BOOL"
                                                                         if kind == "lay_off" else ""))
            return None
        src = comp.code(body["from"], path + ("from",), params, (list_of(CARD),))
        dst = comp.code(body["to"], path + ("to",), params, (list_of(list_of(CARD)),))
        cards = comp.code(body["cards"], path + ("cards",), params, (list_of(CARD),))
        wild = comp.code(body["wild"], path + ("wild",), params, (list_of(CARD),))
        if None in (src, dst, cards, wild):
            return None
        if not (zone_arg(game, comp, src, path + ("from",), f"{kind}'s from:")
                & zone_arg(game, comp, dst, path + ("to",), f"{kind}'s to:", melds=True)):
            return None
        ns = comp.ns
        ns.update(_m_fx_meld=fx_meld, _m_fx_lay_off=fx_lay_off)
        if kind == "meld":
            return [f"_m_fx_meld(s, {src.src}, {dst.src}, {cards.src}, {wild.src})"]
        idx = comp.code(body["index"], path + ("index",), params, (INT,))
        if idx is None:
            return None
        fixed = comp.code(body["fixed"], path + ("fixed",), params, (BOOL,)) if "fixed" in body else None
        if "fixed" in body and fixed is None:
            return None
        return [f"_m_fx_lay_off(s, {src.src}, {dst.src}, {idx.src}, {cards.src}, {wild.src}"
                + (f", {fixed.src})" if fixed is not None else ")")]
    return lines


def _wild_to_low_end_effect(game, comp, body, path, params):
    """``wild_to_low_end: {to: ZONE_OF_MELDS, index: N, wild: WILD}`` (the package's doc)."""
    keys = ("to", "index", "wild")
    if not isinstance(body, dict) or any(k not in body for k in keys):
        comp.problem(path, "wild_to_low_end takes {to, index, wild}")
        return None
    dst = comp.code(body["to"], path + ("to",), params, (list_of(list_of(CARD)),))
    idx = comp.code(body["index"], path + ("index",), params, (INT,))
    wild = comp.code(body["wild"], path + ("wild",), params, (list_of(CARD),))
    if None in (dst, idx, wild) or not zone_arg(game, comp, dst, path + ("to",), "wild_to_low_end's to:", melds=True):
        return None
    comp.ns.update(_m_fx_wild_to_low_end=fx_wild_to_low_end)
    return [f"_m_fx_wild_to_low_end(s, {dst.src}, {idx.src}, {wild.src})"]


EXTRA_EFFECTS["meld"] = _effect("meld")
EXTRA_EFFECTS["lay_off"] = _effect("lay_off")
EXTRA_EFFECTS["wild_to_low_end"] = _wild_to_low_end_effect
