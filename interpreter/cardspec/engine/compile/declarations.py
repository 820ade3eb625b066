"""Pass 5 of compiling (``engine/compile``): what the ruleset declares — the deck's effective suits, zones,
counters, vars and sides.

Reads: ``data`` (``deck: suit_of:``, ``zones:``, ``counters:``, ``vars:``, ``sides:``), ``deck``, ``comp``,
``env``, ``ns``. Adds: ``zones``/``zone`` (list and by name of ``model.Zone``; ``stock`` is always there),
``stock`` (its index), ``counters``/``counter``, ``vars``/``var`` (``model.Var``; their ``seen_by``,
``public_when`` and ``guess`` expressions are compiled by the next pass, which may read definitions:
``_pending_vis``) and ``sides`` (``engine/sides.py``, or None). Binds every declared name in ``env``
to its slot of the State (``s.z[i]``, ``s.c[i]``, ``s.v[i]``).
"""
from __future__ import annotations

import re

from .. import sides as _sides
from .. import teams as _teams
from ..compiler import INTS, SEAT_ZONE, ZONE, Compiler
from ..model import Counter, Var, Zone
from ..slots import SYSTEM_VARS, TRUMP
from ...cards import CardError
from ...lang import CARD, INT, SUIT, Binding, list_of

ADDS = ("zones", "zone", "_pending_zone_vis", "stock", "capped_zones", "counters", "counter", "vars", "var", "_pending_vis", "sides", "eff_inputs",
        "eff_of")


def run(g):
    comp, data, env = g.comp, g.data, g.env
    g.eff_inputs = g.eff_of = None   # (set by suit_of when suits depend on the deal)
    dspec = data.get("deck") or {}
    # Zones.
    g.zones = []
    g._pending_zone_vis = []   # (zone, public_when:) compiled once definitions are known
    zspec = data.get("zones") or {}
    for name, spec in zspec.items():
        spec = spec or {}
        vis = spec.get("visibility", "owner" if spec.get("owner") == "seat" else "all")
        g.zones.append(Zone(name, len(g.zones), spec.get("owner") == "seat", vis, spec.get("help", ""),
                            bool(spec.get("melds", False)), str(spec.get("order", "all")),
                            str(spec.get("label") or name.replace("_", " "))))
        if spec.get("max") is not None:
            cap = comp.constant(spec["max"], ("zones", name, "max"))
            if not isinstance(cap, int) or cap < 0:
                comp.problem(("zones", name, "max"), f"max is a whole number of cards, not '{cap}'")
            else:
                g.zones[-1].max = cap
        if spec.get("public_when") is not None:   # compiled with the definitions (compile/definitions.py)
            g._pending_zone_vis.append((g.zones[-1], spec["public_when"]))
        if g.zones[-1].order == "top_only" and (g.zones[-1].per_seat or g.zones[-1].melds):
            comp.problem(("zones", name, "order"), "order: top_only is for a shared zone of cards "
                         "(a per-seat zone is already keyed as a set of cards)")
    if "stock" not in zspec:
        g.zones.append(Zone("stock", len(g.zones), False, "none", "the undealt cards"))
    g.zone = {z.name: z for z in g.zones}
    #: (index, per seat, max, name) of the zones with a max: (checked after every action: State._check_caps)
    g.capped_zones = tuple((z.index, z.per_seat, z.max, z.name) for z in g.zones if z.max is not None)
    # zone index -> name of the zones declared order: top_only (their uses are checked as compiled)
    comp.top_only = {z.index: z.name for z in g.zones if z.order == "top_only"}
    for z in g.zones:
        zt = SEAT_ZONE if z.per_seat else ZONE
        env.names[z.name] = Binding(f"s.z[{z.index}]", list_of(zt) if z.melds else zt,
                                    size=float(z.max) if z.max is not None and not z.per_seat else None)
    env.seat_zones = frozenset(f"s.z[{z.index}]" for z in g.zones if z.per_seat and not z.melds)
    env.pile_max = {f"s.z[{z.index}]": float(z.max) for z in g.zones if z.per_seat and not z.melds and z.max is not None}
    g.stock = g.zone["stock"].index
    # Counters (per seat) and vars (scalar).
    g.counters = []
    for name, spec in (data.get("counters") or {}).items():
        spec = spec or {}
        c = Counter(name, len(g.counters), spec.get("per", "match"),
                    int(comp.constant(spec.get("initial", 0), ("counters", name, "initial"))))
        c.visibility = str(spec.get("visibility", "all"))
        c.label, c.show = _display_decl(spec, {True: "seats", "teams": "teams"})
        c.by = str(spec.get("by", "seat"))
        c.shown_as = str(spec.get("shown_as", "number"))
        if c.by not in _teams.BY:
            comp.problem(("counters", name, "by"), f"by: is seat, team or side, not '{c.by}'",
                         "team: the partnerships of match: teams; side: the sides of sides: (docs/teams.md)")
            c.by = "seat"
        g.counters.append(c)
        env.names[name] = Binding(_teams.read_src(c), INTS)
    g.counter = {c.name: c for c in g.counters}
    env.seat_counters = frozenset(f"s.c[{c.index}]" for c in g.counters if _teams.read_src(c) == f"s.c[{c.index}]")
    _teams.install(g)
    g.vars = []
    g._pending_vis = pending_vis = []   # (var, spec): seen_by/public_when/guess, compiled once every var has its name
    for name, spec in (data.get("vars") or {}).items():
        if not isinstance(spec, dict):
            spec = {"default": spec}
        default = spec.get("default", 0)
        t = spec.get("type") or ("bool" if isinstance(default, bool) else "int" if isinstance(default, int)
                                 else "suit" if str(default) in ("no_suit",) else "int")
        if t == "suit":
            default = -1 if default in (None, "no_suit") else g.deck.suit_index(str(default))
        elif t == "card":   # a card code, or none / no_card (-1)
            default = _card_default(g, comp, name, default)
        elif t == "seat":   # a seat number, or none (-1)
            default = -1 if default in (None, "none", -1) else int(default) if isinstance(default, int) else 0
        v = Var(name, len(SYSTEM_VARS) + len(g.vars), t, default, spec.get("per", "deal"))
        vis = str(spec.get("visibility", "all"))
        if vis not in ("all", "none"):
            comp.problem(("vars", name, "visibility"), f"a var's visibility is all or none (one seat: seen_by:), "
                         f"not '{vis}'")
        v.hidden = vis == "none"
        v.label = _display_decl(spec, {True: "value"})[0]
        pending_vis.append((v, spec))
        g.vars.append(v)
        env.names[name] = Binding(f"s.v[{v.index}]", {"seat": INT, "card": CARD}.get(t, t))
    g.var = {v.name: v for v in g.vars}
    if dspec.get("suit_of") is not None:
        _suit_of(g, comp, dspec["suit_of"])
    # Sides (docs/sides.md): the names partner, alone, partner_known, on_declarer_side(s) exist
    # before define: (definitions and scores use them); its expressions compile after.
    g.sides = _sides.install(g, data["sides"]) if data.get("sides") is not None else None
    if g.sides is not None:
        _sides.add_played_effect(data.get("deal") or [])
    return g


def _display_decl(spec, shows):
    """``(label, show)`` of a counter's or var's ``label:``/``show:`` (docs/rulesets.md, "What a view
    shows"): shown only with a label and unless ``show: false``; ``shows`` maps a ``show:`` value to
    its kind (``True``: the default kind). Unlabelled: ``("", "")``, a bookkeeping value."""
    label = str(spec.get("label") or "").strip()
    show = spec.get("show", True)
    if not label or show is False:
        return "", ""
    return label, shows.get(show, shows[True])


def _card_default(g, comp, name, default):
    if default in (None, "none", "no_card", -1):
        return -1
    try:
        return g.deck.face(str(default))
    except CardError:
        comp.problem(("vars", name, "default"), f"'{default}' is not a card of this deck",
                     "a card var's default is a card code (AS) or none")
        return -1


def _suit_of(g, comp: Compiler, text):
    """``deck: suit_of:`` (docs/tricks.md): every card's effective suit.

    The expression sees ``card`` (``card.suit`` is still the printed suit here) and options, and may read
    the trump and the ruleset's vars (a left bower is a trump once trumps are made; jacks that
    join the declared suit). Reading neither, it is made into a table now. Reading them, the suits depend
    on the deal: the State keeps the table of the current values (``s.eff``, made again whenever the
    trump or one of those vars changes: ``eff_inputs``, ``eff_of``) and ``card.suit`` in every expression,
    following and the led suit read it. Afterwards ``card.suit`` is the effective suit everywhere;
    ``card.printed_suit`` reads ``PSUIT``. Anything else of the state (a zone, a counter) is a problem.
    """
    from .flow import _slots_read   # (a helper of the flow pass: which slots a generated expression reads)
    path = ("deck", "suit_of")
    code = comp.code(text, path, (("card", CARD),), (SUIT,))
    if code is None:
        return
    d = g.deck
    reads = _slots_read(code.src, getattr(g.env, "def_src", {})) if re.search(r"\bs\.|\(s[,)]", code.src) \
        else ((), ())
    allowed = {TRUMP} | {v.index for v in g.vars}
    if reads is None or reads[1] or not set(reads[0]) <= allowed:
        comp.problem(path, "suit_of may read the card, options, the trump and the ruleset's vars (not zones or "
                     "counters): a card's suit is made into a table", "e.g. if card.rank == J and card.color == "
                     "trump.color then trump else card.suit")
        return
    f = comp.function(code.src, (("card", CARD),))
    n_suits = d.n_suits   # (printed and extra suits)
    if not reads[0]:   # the same for the whole match: one table, now
        table = []
        for face in range(d.n_faces):
            x = f(None, face)
            table.append(x if 0 <= x < n_suits else -1)
        d.set_effective_suits(table)
        g.ns.update(SUIT=tuple(table) + (-1,), SORT_KEY=d.sort_key)
        return
    inputs = tuple(reads[0])
    g.eff_inputs = inputs
    g.env.dynamic_suit = True
    tables = {}
    faces = range(d.n_faces)

    def eff_of(s):
        """``(suit table, follow tables)`` for the current values of the inputs (kept by those values)."""
        key = tuple([s.v[i] for i in inputs])
        got = tables.get(key)
        if got is None:
            suit = [f(s, face) for face in faces]
            suit = tuple(x if 0 <= x < n_suits else -1 for x in suit) + (-1,)
            follow = tuple(frozenset(c for c in faces if suit[c] == x).__contains__ for x in range(n_suits)) \
                + (frozenset(c for c in faces if suit[c] < 0).__contains__,)
            got = tables[key] = (suit, follow)
        return got
    g.eff_of = eff_of
    g.ns["_EFF_OF"] = eff_of
