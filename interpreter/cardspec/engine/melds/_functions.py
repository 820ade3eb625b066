"""The expression functions of melds (``ranks``, ``suits``, ``join``, ``run_wilds``, ``melds_in``, ``extensions``,
``fits_in_place``, ``wild_goes_high``, ``wild_moves_low``; the package's doc lists them), registered as builtins
of the expression language when the package is imported, and their load-time costs.
"""
from __future__ import annotations

from ...lang.builtins import BUILTIN_COST, _argc, builtin
from ...lang import ANY, BOOL, CARD, INT, SUIT, Code, list_of
from ._layout import fixed_layout, run_wilds, wild_to_low_end
from ..choices import empty_tests
from ._search import Extensions, MeldsIn, no_extension


#: Their own work beyond their arguments, for the load-time cost bound (docs/dsl.md, "Bounds"), N the most
#: cards a list can hold: finding melds looks at pairs of cards (runs from each card, sets by rank).
BUILTIN_COST.update(ranks=lambda n: n, suits=lambda n: n, join=lambda n: n, run_wilds=lambda n: 8 * n,
                        melds_in=lambda n: n * n, extensions=lambda n: n * n, fits_in_place=lambda n: 16 * n,
                        wild_moves_low=lambda n: 16 * n, wild_goes_high=lambda n: 16 * n)


def _install(comp):
    ns = comp.env.ns
    if ns is not None and "_m_run_wilds" not in ns:
        ns.update(_m_run_wilds=run_wilds, _m_melds_in=MeldsIn, _m_extensions=Extensions,
                  _m_no_extension=no_extension)


def _cards_arg(comp, node, what):
    code = comp.c(node)
    if code.type not in (list_of(CARD), ANY, list_of(ANY)):
        comp.err(node, f"{what} needs a list of cards, found {code.type}")
    return code


@builtin("ranks")
def _ranks(comp, n, args):
    _argc(comp, n, args, 1)
    a = _cards_arg(comp, args[0], "ranks")
    return Code(f"[RANK[_c] for _c in {a.src}]", list_of(INT))


@builtin("suits")
def _suits(comp, n, args):
    _argc(comp, n, args, 1)
    a = _cards_arg(comp, args[0], "suits")
    return Code(f"[SUIT[_c] for _c in {a.src}]", list_of(SUIT))


@builtin("run_wilds")
def _run_wilds(comp, n, args):
    _argc(comp, n, args, 2)
    a, w = _cards_arg(comp, args[0], "run_wilds"), _cards_arg(comp, args[1], "run_wilds")
    _install(comp)
    return Code(f"_m_run_wilds({a.src}, {w.src}, RANK, SUIT)", INT)


@builtin("melds_in")
def _melds_in(comp, n, args):
    _argc(comp, n, args, 3)
    a, w = _cards_arg(comp, args[0], "melds_in"), _cards_arg(comp, args[1], "melds_in")
    k = comp.want(args[2], comp.c(args[2]), INT)
    _install(comp)
    return Code(f"_m_melds_in({a.src}, {w.src}, {k.src}, RANK, SUIT, SORT_KEY)", list_of(list_of(CARD)))


@builtin("extensions")
def _extensions(comp, n, args):
    _argc(comp, n, args, 4)
    m, h = _cards_arg(comp, args[0], "extensions"), _cards_arg(comp, args[1], "extensions")
    w = _cards_arg(comp, args[2], "extensions")
    k = comp.want(args[3], comp.c(args[3]), INT)
    _install(comp)
    src = f"_m_extensions({m.src}, {h.src}, {w.src}, {k.src}, RANK, SUIT, SORT_KEY)"
    # no lay-off at all, read without k (choices.empty_tests; the turns step asks it before making the value)
    empty_tests(comp.env)[src] = f"_m_no_extension({m.src}, {h.src}, {w.src}, RANK, SUIT)"
    return Code(src, list_of(list_of(CARD)))


@builtin("join")
def _join(comp, n, args):
    """``join(a, b)``: the cards of ``a`` then those of ``b`` (a meld with cards laid off on it)."""
    _argc(comp, n, args, 2)
    a, b = _cards_arg(comp, args[0], "join"), _cards_arg(comp, args[1], "join")
    return Code(f"(tuple({a.src}) + tuple({b.src}))", list_of(CARD), size=comp.bound_of(a) + comp.bound_of(b))


@builtin("fits_in_place")
def _fits_in_place(comp, n, args):
    """``fits_in_place(meld, cards, wild)``: laying ``cards`` off on ``meld`` keeps every card of the meld in
    its place but a wild that a natural card of ``cards`` displaces (``fixed_layout``)."""
    _argc(comp, n, args, 3)
    m, c, w = (_cards_arg(comp, a, "fits_in_place") for a in args)
    if comp.env.ns is not None:
        comp.env.ns.update(_m_fixed_layout=fixed_layout)
    return Code(f"(_m_fixed_layout(tuple({m.src}), tuple({c.src}), {w.src}, RANK, SUIT, SORT_KEY) is not None)", BOOL)


@builtin("wild_moves_low")
def _wild_moves_low(comp, n, args):
    """``wild_moves_low(meld, wild)``: the card on ``meld``'s high end is a wild that could stand on its
    low end instead (``wild_to_low_end``)."""
    _argc(comp, n, args, 2)
    m, w = (_cards_arg(comp, a, "wild_moves_low") for a in args)
    if comp.env.ns is not None:
        comp.env.ns.update(_m_wild_to_low_end=wild_to_low_end)
    return Code(f"(_m_wild_to_low_end(tuple({m.src}), {w.src}, RANK, SUIT) is not None)", BOOL)


@builtin("wild_goes_high")
def _wild_goes_high(comp, n, args):
    """``wild_goes_high(meld, cards, wild)``: laying ``cards`` off on ``meld`` with its wilds in place puts a
    wild (displaced, or one of ``cards``) on the high end while the low end is free too (``fixed_layout``'s
    choice: the player may then move it there)."""
    _argc(comp, n, args, 3)
    m, c, w = (_cards_arg(comp, a, "wild_goes_high") for a in args)
    if comp.env.ns is not None:
        comp.env.ns.update(_m_fixed_layout=fixed_layout)
    return Code(f"(_m_fixed_layout(tuple({m.src}), tuple({c.src}), {w.src}, RANK, SUIT, SORT_KEY) or (0, False))[1]",
                BOOL)
