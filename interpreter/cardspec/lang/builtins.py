"""The language's built-in functions (``count``, ``sum``, ``filter``, ``sort``, ``holder``, ``top``, …):
each checks its arguments and generates Python. Other modules add theirs with ``@builtin(name)``
(melds, the secret rule)."""
from __future__ import annotations

import re


from lark import Tree

from .types import ANY, BOOL, CARD, Code, INT, elem, list_of


BUILTINS = {}


#: A builtin's own cost beyond its arguments' (which are counted as compiled), as a function of the game's
#: list bound N (``_Compiler.bound``): registered by modules whose builtins do more than one pass over a
#: list (e.g. melds_in). Builtins defined here charge their work themselves (``_Compiler.charge``).
BUILTIN_COST = {}


def builtin(*names):
    def deco(f):
        for nm in names:
            BUILTINS[nm] = f
        return f
    return deco


def _argc(comp, n, args, lo, hi=None):
    hi = lo if hi is None else hi
    if not (lo <= len(args) <= hi):
        want = f"{lo}" if lo == hi else f"{lo} to {hi}"
        comp.err(n, f"'{n.children[0]}' takes {want} argument(s), given {len(args)}")


def _seat_fn(fmt):
    def f(comp, n, args):
        _argc(comp, n, args, 1)
        a = comp.want(args[0], comp.c(args[0]), INT)
        return Code(fmt.format(a=a.src, n=comp.env.players), INT, mag=(0, 0, comp.env.players))
    return f


BUILTINS["left_of"] = _seat_fn("(({a}) + 1) % {n}")


BUILTINS["right_of"] = _seat_fn("(({a}) - 1) % {n}")


BUILTINS["partner_of"] = _seat_fn("(({a}) + {n} // 2) % {n}")


BUILTINS["across_from"] = BUILTINS["partner_of"]


BUILTINS["seat_at"] = _seat_fn("({a}) % {n}")


@builtin("abs")
def _abs(comp, n, args):
    _argc(comp, n, args, 1)
    a = comp.want(args[0], comp.c(args[0]), INT)
    return Code(f"abs({a.src})", INT, mag=a.mag)


@builtin("count")
def _count(comp, n, args):
    _argc(comp, n, args, 1)
    comp_parts = comp.comprehension(args[0])
    if comp_parts:
        _, _, clause = comp_parts
        mag = (0, 0, comp.bound_of(comp.last_coll))
        if args[0].data == "where_arg" and comp.last_where_map is not None:
            return Code(f"sum({comp.last_where_map[0]})", INT, mag=mag)
        return Code(f"sum([1 {clause}])", INT, mag=mag)
    a = comp.c(args[0])
    if elem(a.type) is None:
        comp.err(args[0], f"count needs a list or zone, found {a.type}")
    # The length of a plain projection (`[x[1] for x in L]`, e.g. the cards of a list of plays) is L's.
    m = re.fullmatch(r"\[(\w+)\[\d+\] for \1 in ([\w.]+)\]", a.src)
    return Code(f"len({m.group(2) if m else a.src})", INT, mag=(0, 0, comp.bound_of(a)))


def _all_piles(comp, src, clause):
    """``sum(sum(c.X for c in Z[p]) for p in seats)`` — a card table summed over a per-seat zone's pile
    of every seat — as one pass over the piles chained: ``sum(map(T, _chain(Z)))`` (a per-seat zone
    has exactly one pile per seat, so every index is in range and each pile is summed once; integers:
    the order of the additions does not matter). With a condition on the seat (``… for p in seats
    where p != dealer``): the piles of the seats that meet it, chained (``_chain([Z[p] for p in
    SEATS if COND])``). Else None."""
    seats = comp.env.names.get("seats")
    m = re.fullmatch(r"for (_l\d+_\w+) in (\(\d+(?:, \d+)*,?\)|[\w.\[\]]+)( if .+)?", clause)
    if seats is None or m is None or m.group(2) not in (seats.src, repr(tuple(range(comp.env.players)))):
        return None
    loop = m.group(1)
    k = len(src) - len(src.lstrip("("))
    core = src[k:len(src) - k] if k and src.endswith(")" * k) else None
    if core is None or k == 0:
        core = src
    # (a pile read with its range check, or plainly: the loop's name is known to be a seat, checker.py)
    pile = rf"(?:\((s\.z\[\d+\])\[{loop}\] if 0 <= {loop} < (?:len\(\2\)|\d+) else _NO_ZONE\)|(s\.z\[\d+\])\[{loop}\])"
    b = (re.fullmatch(rf"sum\(map\(([A-Z_][A-Z0-9_]*)\.__getitem__, {pile}\)\)", core)
         # (a table of 0s and 1s may already be a count, see _counted)
         or re.fullmatch(rf"len\(_SET_([A-Z_][A-Z0-9_]*)\.intersection\({pile}\)\)", core))
    zone = b.group(2) or b.group(3) if b is not None else None
    if zone not in comp.env.seat_zones:
        return None
    if m.group(3):   # (the condition reads the seat: the loop's name stays bound where it was)
        return f"sum(map({b.group(1)}.__getitem__, _chain([{zone}[{loop}] {clause}])))"
    return f"sum(map({b.group(1)}.__getitem__, _chain({zone})))"


#: A zone's cards (a zone, a seat's pile, the piles of seats chained): no face twice when the deck has none.
_ZONE_CARDS = re.compile(r"s\.z\[\d+\](?:\[[\w.\[\]]+\])?|\(s\.z\[\d+\]\[([\w.\[\]]+)\] if 0 <= \1 < \d+ "
                         r"else _NO_ZONE\)|_chain\(.*\)")


def _counted(comp, src: str) -> str:
    """``sum(map(T.__getitem__, Z))`` with T a card table of 0s and 1s (honours that count one each) and
    Z a zone's cards, in a deck where no face is held twice, as ``len(_SET_T.intersection(Z))``: the
    cards of the set counted in C (about a quarter less than a table look-up per card). Else ``src``."""
    m = re.fullmatch(r"sum\(map\(([A-Z_][A-Z0-9_]*)\.__getitem__, (.+)\)\)", src)
    deck = comp.env.deck
    if m is None or deck is None or not _ZONE_CARDS.fullmatch(m.group(2)):
        return src
    table = comp.env.ns.get(m.group(1))
    if not isinstance(table, tuple) or len(table) < deck.n_faces or len(set(deck.cards)) != len(deck.cards):
        return src
    values = set(table[:deck.n_faces])
    if not values <= {0, 1} or type(table[0]) is not int:
        return src
    name = f"_SET_{m.group(1)}"   # (_all_piles reads the table's name back from it)
    comp.env.ns[name] = frozenset(f for f in range(deck.n_faces) if table[f])
    return f"len({name}.intersection({m.group(2)}))"


def _min_max2(pyfn: str, a: str, b: str) -> str:
    """``min(a, b)`` or ``max(a, b)`` (``pyfn``) of two int sources as ``_min2(a, b)``/``_max2(a, b)``
    (runtime.py): the same value (``b`` only when ``b < a``, resp. ``b > a``, as the builtin picks it), each
    source evaluated once, ``a`` first, without the builtin's parsing of its keywords at every call (about
    1,000 instructions against 300). engine/choices.py's ``_bounds`` reads them as ``min``/``max``."""
    return f"_{pyfn}2({a}, {b})"


def _aggregate(pyfn, empty):
    def f(comp, n, args):
        if len(args) >= 2 and pyfn in ("max", "min"):
            codes = [comp.want(a, comp.c(a), INT) for a in args]
            mag = tuple(max(m) for m in zip(*[c.mag or (1, 1, 0) for c in codes]))
            if len(codes) == 2:
                return Code(_min_max2(pyfn, codes[0].src, codes[1].src), INT, mag=mag)
            return Code(f"{pyfn}({', '.join(c.src for c in codes)})", INT, mag=mag)
        _argc(comp, n, args, 1)
        parts = comp.comprehension(args[0])
        if parts:
            src, t, clause = parts
            if t not in (INT, ANY):
                comp.err(args[0], f"{n.children[0]} adds up numbers, found {t}",
                         "e.g. sum(c.points for c in won[seat])")
            body = comp.last_body.mag or (1, 1, 0)
            k = comp.bound_of(comp.last_coll)
            if pyfn == "sum":
                mag = (body[0] * k, body[1], body[2] * k)
                if comp.last_map is not None:
                    return Code(_counted(comp, f"sum({comp.last_map})"), INT, mag=mag)
                flat = _all_piles(comp, src, clause)
                if flat is not None:
                    return Code(_counted(comp, flat), INT, mag=mag)
                return Code(f"sum([{src} {clause}])", INT, mag=mag)
            if empty == 0:   # a list made here: min(L, default=0) is min(L) if L else 0 (runtime.py)
                return Code(f"_{pyfn}_l([{src} {clause}])", INT, mag=body)
            return Code(f"{pyfn}([{src} {clause}], default={empty})", INT, mag=body)
        a = comp.c(args[0])
        if elem(a.type) not in (INT, ANY):
            comp.err(args[0], f"{n.children[0]} needs a list of numbers, found {a.type}",
                     "e.g. sum(c.points for c in won[seat])")
        k = comp.bound_of(a)
        comp.charge(k)
        if pyfn == "sum":
            return Code(f"sum({a.src})", INT, mag=(k, 1, 0))
        return Code(f"{pyfn}({a.src}, default={empty})", INT)
    return f


BUILTINS["sum"] = _aggregate("sum", 0)


BUILTINS["max"] = _aggregate("max", 0)


BUILTINS["min"] = _aggregate("min", 0)


def _quant(pyfn):
    def f(comp, n, args):
        _argc(comp, n, args, 1)
        parts = comp.comprehension(args[0])
        if parts:
            src, t, clause = parts
            if args[0].data == "where_arg":
                # any(c in hand where P): is there an element satisfying P / do all satisfy P
                # Generator expressions: all/any stop at the first element that decides them.
                loop, cond = comp.last_loop, comp.last_cond
                if comp.last_where_map is not None:
                    return Code(f"{pyfn}({comp.last_where_map[0]})", BOOL)
                if pyfn == "any" and comp.last_where_in is not None:   # any(x in L where T[x] == E)
                    return Code(comp.last_where_in, BOOL)
                return Code(f"{pyfn}(({cond}) {loop})" if pyfn == "all" else f"any(True {clause})", BOOL)
            comp.want(args[0], Code(src, t), BOOL)
            return Code(f"{pyfn}({src} {clause})", BOOL)
        a = comp.c(args[0])
        if elem(a.type) not in (BOOL, ANY):
            comp.err(args[0], f"{n.children[0]} needs 'x in LIST where CONDITION'",
                     "e.g. any(c in hand where c.suit == hearts)")
        comp.charge(comp.bound_of(a))
        return Code(f"{pyfn}({a.src})", BOOL)
    return f


BUILTINS["any"] = _quant("any")


BUILTINS["all"] = _quant("all")


@builtin("filter")
def _filter(comp, n, args):
    _argc(comp, n, args, 1)
    parts = comp.comprehension(args[0])
    if not parts or args[0].data != "where_arg":
        comp.err(n, "filter takes 'x in LIST where CONDITION'", "e.g. filter(c in hand where c.suit == hearts)")
    src, t, clause = parts
    return Code(f"[{src} {clause}]", list_of(t), size=comp.bound_of(comp.last_coll))


@builtin("sort")
def _sort(comp, n, args):
    _argc(comp, n, args, 1)
    a = args[0]
    if isinstance(a, Tree) and a.data == "by_arg":
        name, coll, e = comp._binder(a.children[0])
        py, key = comp._with_local(name, e, lambda: comp.c(a.children[1]), coll)
        comp.want(a.children[1], key, INT)
        comp.charge(_sort_cost(comp.bound_of(coll)))
        return Code(f"sorted({coll.src}, key=lambda {py}: {key.src})", coll.type, size=comp.bound_of(coll))
    code = comp.c(a)
    if elem(code.type) not in (INT, CARD, ANY):
        comp.err(a, f"sort needs a list of numbers or cards, found {code.type}")
    comp.charge(_sort_cost(comp.bound_of(code)))
    if elem(code.type) == CARD:
        return Code(f"sorted({code.src}, key=SORT_KEY.__getitem__)", code.type, size=comp.bound_of(code))
    return Code(f"sorted({code.src})", code.type, size=comp.bound_of(code))


def _sort_cost(k: float) -> float:
    """Steps of sorting ``k`` items: k log2 k (at least k)."""
    import math
    return k * max(1.0, math.log2(max(k, 2.0)))


@builtin("holder")
def _holder(comp, n, args):
    _argc(comp, n, args, 2)
    z = comp.c(args[0])
    card = comp.want(args[1], comp.c(args[1]), CARD)
    if z.type != list_of(list_of(CARD)):
        comp.err(args[0], "holder(ZONE, CARD) needs a per-seat zone such as hand")
    comp.charge(comp.bound())   # every seat's cards, at most the deck
    return Code(f"_holder({z.src}, {card.src})", INT, mag=(0, 0, comp.env.players))


@builtin("strength")
def _strength(comp, n, args):
    """``strength(R)``: the strength of rank value R in this deck (its place in ``ranks:``, lowest
    first; 0 for a rank the deck lacks); ``strength(CARD)`` is ``CARD.strength`` (docs/tricks.md)."""
    _argc(comp, n, args, 1)
    a = comp.c(args[0])
    if a.type == CARD:
        return Code(f"STRENGTH[{a.src}]", INT)
    comp.want(args[0], a, INT)
    return Code(f"_rank_strength({a.src})", INT)


@builtin("top")
def _top(comp, n, args):
    _argc(comp, n, args, 1)
    z = comp.c(args[0])
    if elem(z.type) is None:
        comp.err(args[0], f"top needs a zone or list, found {z.type}")
    return Code(f"_top({z.src})", elem(z.type))


@builtin("face_up_cards")
def _face_up(comp, n, args):
    """``face_up_cards(ZONE)``: the cards of a shared zone that lie face up (a deal step's ``face_up:``, e.g. half
    of a widow), which every seat has seen: public, so an event may name them when the zone is taken
    (docs/dsl.md). Empty for a zone with none face up."""
    import re
    _argc(comp, n, args, 1)
    z = comp.c(args[0])
    m = re.fullmatch(r"s\.z\[(\d+)\]", z.src)
    if m is None or z.type != list_of(CARD):
        comp.err(args[0], "face_up_cards needs a shared zone of cards, such as widow")
        return Code("[]", list_of(CARD), size=0)
    i = int(m.group(1))
    comp.charge(comp.bound_of(z))
    return Code(f"s.z[{i}][:s.face_up[{i}]]", list_of(CARD), size=comp.bound_of(z))


@builtin("distinct")
def _distinct(comp, n, args):
    _argc(comp, n, args, 1)
    z = comp.c(args[0])
    if elem(z.type) is None:
        comp.err(args[0], f"distinct needs a zone or list, found {z.type}")
    comp.charge(_sort_cost(comp.bound_of(z)))
    return Code(f"sorted(set({z.src}))", z.type, size=comp.bound_of(z))


@builtin("without")
def _without(comp, n, args):
    """``without(A, B)``: the items of ``A`` with each item of ``B`` taken away once (a multiset
    difference: with two decks, ``without([7H, 7H, 8S], [7H])`` is ``[7H, 8S]``), in ``A``'s order. Its
    work is one pass over each list."""
    _argc(comp, n, args, 2)
    a, b = comp.c(args[0]), comp.c(args[1])
    if elem(a.type) is None:
        comp.err(args[0], f"without needs a zone or list, found {a.type}")
    if elem(b.type) is None or (elem(b.type) != elem(a.type) and ANY not in (elem(a.type), elem(b.type))):
        comp.err(args[1], f"without needs a list of the same items as its first argument ({a.type}), found {b.type}")
    comp.charge(comp.bound_of(a) + comp.bound_of(b))
    return Code(f"_without({a.src}, {b.src})", list_of(elem(a.type)), size=comp.bound_of(a))
