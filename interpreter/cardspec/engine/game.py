"""The ``Game``: a ruleset compiled for a player count and option values (immutable).

Compiling resolves the deck's tables, zones, counters and vars to list indexes, turns every
expression into a Python function (through ``cardspec.lang``) and builds the deal's steps
(``cardspec.engine.steps``). Only the Game makes States (OpenSpiel's split): ``Game.new_state``;
what happens during play is in ``state.py``.

Seats are 0..n-1 clockwise; seat i+1 is at seat i's left (DESIGN.md).
"""
from __future__ import annotations

import random
import re
import threading
from dataclasses import dataclass
from itertools import chain as _chain_iter

from .steps import base as _steps
from . import melds as _melds  # noqa: F401  (meld functions for expressions, meld/lay_off effects)
from .compiler import INTS, SEAT_ZONE, ZONE, Compiler
from ..cards import COLORS, RANK_VALUES, SUIT_NAMES, Deck, CardError
from ..lang import (ANY, BOOL, CARD, COLOR, INT, STR, SUIT, Binding, Env, inline_body, list_of, literal_src, py_param,
                    name_problem, rank_strength_helper)
from ..errors import RulesetError
from ..rules import Ruleset, by_option_nodes, is_by_option, read_ruleset

from .names import check_names
from .slots import SITS_OUT, SYSTEM_VARS
from . import sides as _sides
from .state import State


VISIBILITY = ("owner", "all", "none", "all_but_owner", "top")
_chain_lists = _chain_iter.from_iterable


def _next_player_fn(comp, n, args):
    """``next_player(S)``: the seat after S in play order (``match: next_player``; default left_of(S))."""
    from ..lang.types import Code
    from ..lang.builtins import _argc
    _argc(comp, n, args, 1)
    a = comp.c(args[0])
    comp.want(args[0], a, INT)
    return Code(f"_next_player(s, {a.src})", INT)


from ..lang.builtins import BUILTINS as _BUILTINS  # noqa: E402
_BUILTINS["next_player"] = _next_player_fn


@dataclass
class Zone:
    name: str
    index: int
    per_seat: bool
    visibility: str
    help: str = ""
    melds: bool = False   # items are melds (tuples of cards), not cards (cardspec._melds)
    order: str = "all"    # "top_only": only its top card and its size matter to the rules (position keys)
    label: str = ""       # what front ends call it (default: the name, _ as a space)


@dataclass
class Counter:
    name: str
    index: int
    per: str          # "match" or "deal"
    initial: int = 0
    visibility: str = "all"   # "owner": a view shows only the seat's own value (others None)
    label: str = ""           # what front ends call it; "" = not shown to players (bookkeeping)
    show: str = ""            # "seats" | "teams" (one value per team) | "" (not shown)


@dataclass
class Var:
    name: str
    index: int
    type: str
    default: object
    per: str
    seen_by: object = None   # f(s) -> the one seat whose view shows it (None: every seat)
    hidden: bool = False     # visibility: none (no seat's view shows it until public_when or the end)
    public_when: object = None   # f(s) -> bool: from then on every view shows it
    guess: object = None     # f(s) -> the value a determinization gives it when a view hides it
    label: str = ""          # what front ends call it; "" = not shown to players (bookkeeping)

    def shown_to(self, s, seat) -> bool:
        """Whether ``seat``'s view (None: a spectator's) shows this var now (docs/rulesets.md, vars)."""
        if not self.hidden and self.seen_by is None:
            return True
        if s.terminal or (self.public_when is not None and self.public_when(s)):
            return True
        return not self.hidden and seat is not None and self.seen_by(s) == seat


def _display_decl(spec, shows):
    """``(label, show)`` of a counter's or var's ``label:``/``show:`` (docs/rulesets.md, "What a view
    shows"): shown only with a label and unless ``show: false``; ``shows`` maps a ``show:`` value to
    its kind (``True``: the default kind). Unlabelled: ``("", "")``, a bookkeeping value."""
    label = str(spec.get("label") or "").strip()
    show = spec.get("show", True)
    if not label or show is False:
        return "", ""
    return label, shows.get(show, shows[True])


def _case_text(x) -> str:
    """A ``by_option`` case key or option value as text: a bool option's ``true`` matches the key
    ``true`` (YAML may hand the key over as text, the option's value is a bool)."""
    return ("true" if x else "false") if isinstance(x, bool) else str(x)


def _resolve_by_option(data, options):
    """Replace every ``{by_option: NAME, cases: {...}, default: …}`` with the chosen case
    (``{by_option: NAME}`` alone: the option's value itself)."""
    if isinstance(data, dict):
        if is_by_option(data):
            value = options.get(data["by_option"])
            if "cases" not in data:
                return value
            cases = data["cases"]
            for k, v in cases.items():
                if _case_text(k) == _case_text(value):
                    return _resolve_by_option(v, options)
            return _resolve_by_option(data.get("default"), options)
        return {k: _resolve_by_option(v, options) for k, v in data.items()}
    if isinstance(data, list):
        return [_resolve_by_option(v, options) for v in data]
    return data


#: Held while a Game compiles (Game.__init__): one compile at a time in a process.
_COMPILING = threading.RLock()


class Game:
    """A ruleset compiled for ``players`` seats and option values.

    Parameters:
        ruleset: a ``Ruleset`` or a built-in name / file path.
        players: number of seats (within the ruleset's ``players`` range).
        options: option name → value (text or typed), over the declared defaults.

    Raises ``RulesetError`` for any problem (each with file:line:col).
    """

    #: The class of the states ``new_state`` makes: ``State``, or once the codec is built a subclass with
    #: generated id methods (``state.fused_state_class``).
    _state_class = State

    def __init__(self, ruleset, players: int | None = None, options: dict | None = None):
        # One game compiles at a time in a process: compiling parses generated code with ast.parse, and
        # CPython 3.11's AST constructor keeps its recursion depth per interpreter, not per thread, so
        # two threads compiling at once may fail with "SystemError: AST constructor recursion depth
        # mismatch" (CPython gh-106905; seen with simulate's thread executor).
        with _COMPILING:
            self._compile(ruleset, players, options)

    def _compile(self, ruleset, players, options):
        if not isinstance(ruleset, Ruleset):
            ruleset = read_ruleset(str(ruleset))
        self.ruleset = rs = ruleset
        self.name = rs.name
        lo, hi = rs.players
        if players is None:
            players = rs.default_players
        self.options = rs.option_values(options)
        self._options_named = set()   # options a step field names (option_named), for options_read
        if not (lo <= players <= hi):
            count = f"{lo}" if lo == hi else f"{lo} to {hi}"
            err = RulesetError(rs.problem(("players",), f"{rs.name} is for {count} players, not {players}"))
            err.code = "players/out_of_range"
            raise err
        self.n = n = players
        data = _resolve_by_option(rs.data, self.options)
        self.data = data
        self.ns = {}
        env = Env(players=n, ns=self.ns)
        self.env = env
        comp = Compiler(rs, env, self.ns)
        _check_names(comp, data)
        self._base_names(env, comp)
        # Deck (fields may be expressions of options and players).
        dspec = data.get("deck") or {}
        copies = comp.constant(dspec.get("copies", 1), ("deck", "copies"))
        jokers = comp.constant(dspec.get("jokers", 0), ("deck", "jokers"))
        copies, jokers = _deck_caps(comp, dspec, copies, jokers)
        try:
            self.deck = Deck(ranks=[str(r) for r in dspec.get("ranks", [])], suits=[str(s) for s in dspec.get("suits", [])],
                             copies=max(int(copies), 1), jokers=int(jokers), ace=str(dspec.get("ace", "high")),
                             points=dspec.get("points") or {})
        except CardError as e:
            key = getattr(e, "key", None)
            path = ("deck", "points", key) if key is not None else ("deck",)
            raise RulesetError(rs.positions.problem(path, str(e), "e.g. hearts: 1, QS: 13, K: 10, joker: 30",
                                                    key=key is not None)) from None
        env.deck = self.deck
        d = self.deck
        # Expression tables carry one more entry, last, for -1 ("no card": `top` of an empty pile,
        # `holder` of a card nobody holds): no suit, rank 0, no points, no colour, code "none".
        self.ns.update(SUIT=d.suit + (-1,), PSUIT=d.suit + (-1,), RANK=d.rank + (0,), STRENGTH=d.strength + (0,),
                       _rank_strength=rank_strength_helper(d.rank_strength), POINTS=d.points_of + (0,),
                       COLOR=d.color + (COLORS["none"],), CODE=d.code + ("none",),
                       SORT_KEY=d.sort_key, SUIT_COLOR=tuple(COLORS["red" if s in "HD" else "black"] for s in d.suits),
                       DECK=d.cards)
        self._card_names(env)
        check_names(self, comp, data)   # declared names may not hide the engine's or each other (names.py)
        if dspec.get("suit_of") is not None:
            self._suit_of(comp, dspec["suit_of"])
        # Zones.
        self.zones = []
        zspec = data.get("zones") or {}
        for name, spec in zspec.items():
            spec = spec or {}
            vis = spec.get("visibility", "owner" if spec.get("owner") == "seat" else "all")
            self.zones.append(Zone(name, len(self.zones), spec.get("owner") == "seat", vis, spec.get("help", ""),
                                   bool(spec.get("melds", False)), str(spec.get("order", "all")),
                                   str(spec.get("label") or name.replace("_", " "))))
            if self.zones[-1].order == "top_only" and (self.zones[-1].per_seat or self.zones[-1].melds):
                comp.problem(("zones", name, "order"), "order: top_only is for a shared zone of cards "
                             "(a per-seat zone is already keyed as a set of cards)")
        if "stock" not in zspec:
            self.zones.append(Zone("stock", len(self.zones), False, "none", "the undealt cards"))
        self.zone = {z.name: z for z in self.zones}
        # zone index -> name of the zones declared order: top_only (their uses are checked as compiled)
        comp.top_only = {z.index: z.name for z in self.zones if z.order == "top_only"}
        for z in self.zones:
            zt = SEAT_ZONE if z.per_seat else ZONE
            env.names[z.name] = Binding(f"s.z[{z.index}]", list_of(zt) if z.melds else zt)
        env.seat_zones = frozenset(f"s.z[{z.index}]" for z in self.zones if z.per_seat and not z.melds)
        self.stock = self.zone["stock"].index
        # Counters (per seat) and vars (scalar).
        self.counters = []
        for name, spec in (data.get("counters") or {}).items():
            spec = spec or {}
            c = Counter(name, len(self.counters), spec.get("per", "match"),
                        int(comp.constant(spec.get("initial", 0), ("counters", name, "initial"))))
            c.visibility = str(spec.get("visibility", "all"))
            c.label, c.show = _display_decl(spec, {True: "seats", "teams": "teams"})
            self.counters.append(c)
            env.names[name] = Binding(f"s.c[{c.index}]", INTS)
        self.counter = {c.name: c for c in self.counters}
        self.vars = []
        pending_vis = []   # (var, spec): seen_by/public_when/guess, compiled once every var has its name
        for name, spec in (data.get("vars") or {}).items():
            if not isinstance(spec, dict):
                spec = {"default": spec}
            default = spec.get("default", 0)
            t = spec.get("type") or ("bool" if isinstance(default, bool) else "int" if isinstance(default, int)
                                     else "suit" if str(default) in ("no_suit",) else "int")
            if t == "suit":
                default = -1 if default in (None, "no_suit") else self.deck.suit_index(str(default))
            elif t == "card":   # a card code, or none / no_card (-1)
                default = self._card_default(comp, name, default)
            elif t == "seat":   # a seat number, or none (-1)
                default = -1 if default in (None, "none", -1) else int(default) if isinstance(default, int) else 0
            v = Var(name, len(SYSTEM_VARS) + len(self.vars), t, default, spec.get("per", "deal"))
            vis = str(spec.get("visibility", "all"))
            if vis not in ("all", "none"):
                comp.problem(("vars", name, "visibility"), f"a var's visibility is all or none (one seat: seen_by:), "
                             f"not '{vis}'")
            v.hidden = vis == "none"
            v.label = _display_decl(spec, {True: "value"})[0]
            pending_vis.append((v, spec))
            self.vars.append(v)
            env.names[name] = Binding(f"s.v[{v.index}]", {"seat": INT, "card": CARD}.get(t, t))
        self.var = {v.name: v for v in self.vars}
        # Sides (docs/sides.md): the names partner, alone, partner_known, on_declarer_side(s) exist
        # before define: (definitions and scores use them); its expressions compile after.
        self.sides = _sides.install(self, data["sides"]) if data.get("sides") is not None else None
        if self.sides is not None:
            _sides.add_played_effect(data.get("deal") or [])
        self.comp = comp
        # Definitions, in order: each may use the ones before it.
        self._defines(comp, data.get("define") or {})
        for v, spec in pending_vis:
            for key in ("seen_by", "public_when", "guess"):
                if key in spec:
                    want = {"seen_by": (INT,), "public_when": (BOOL,)}.get(key, ())
                    setattr(v, key, comp.expr(spec[key], ("vars", v.name, key), (), want))
        if self.sides is not None:
            self.sides.compile(self, comp)
        # Play order (docs/rulesets.md, "match"): next_player gives the seat after `seat` for dealing,
        # auctions and tricks (a table per State, recomputed as each decision step begins).
        m = data.get("match") or {}
        self.next_expr = None
        self._order_key, self._order_cache = None, {}
        if "next_player" in m:
            code = comp.code(m["next_player"], ("match", "next_player"), (("seat", INT),), (INT,))
            self.next_expr = comp.function(code.src, (("seat", INT),)) if code is not None else \
                comp.expr(m["next_player"], ("match", "next_player"), (("seat", INT),), (INT,))
            if code is not None:
                self._order_key = _slots_read(code.src, getattr(self.env, "def_src", {}))
        # Steps of a deal and the match structure. The sits_out steps are built first: whether a seat may
        # sit out at this player count (`may_sit_out`) decides how the other steps are compiled.
        from .steps.sitout import sits_out_steps
        deal_spec = data.get("deal") or []
        early = {i: _steps.build(self, comp, deal_spec[i], ("deal", i)) for i in sits_out_steps(deal_spec)}
        #: Whether a ``sits_out`` step may name a seat in this game (docs/rulesets.md): play orders skip it.
        self.may_sit_out = any(st is not None and not st.never for st in early.values())
        self.steps = []
        for i, spec in enumerate(deal_spec):
            step = early[i] if i in early else _steps.build(self, comp, spec, ("deal", i))
            if step is not None:
                self.steps.append(step)
        m = data.get("match") or {}
        self.match_deals = comp.expr(m.get("deals", 0 if "rounds" in m else 1), ("match", "deals"), (), (INT,))
        self.match_end = comp.expr(m["end"], ("match", "end"), (), (BOOL,)) if "end" in m else None
        self.first_dealer = int(m.get("first_dealer", 0)) % n
        self.rotate = m.get("rotate", "left")
        self.next_dealer = comp.expr(m["next_dealer"], ("match", "next_dealer"), (), (INT,)) \
            if "next_dealer" in m else None
        self.rounds = comp.expr(m["rounds"], ("match", "rounds"), (), (INT,)) if "rounds" in m else None
        self.round_end = comp.expr(m["round_end"], ("match", "round_end"), (), (BOOL,)) if "round_end" in m else None
        self.ranking = m.get("ranking", "highest")
        self.loser = m.get("loser")
        if self.ranking == "none":
            for key in ("winner", "loser"):
                if key in m:
                    comp.problem(("match", key), f"match: ranking: none has no {key} (each player plays against "
                                                 f"the house: the result is each seat's net)",
                                 "leave out ranking: none, or this key")
        # match: winner / loser as expressions (a seat or a list of seats), evaluated once the match is over.
        self.match_winner = self._seat_list(comp, m, "winner")
        self.match_loser = self._seat_list(comp, m, "loser") if self.loser not in (None, "highest", "lowest") \
            else None
        self.score_counter = self.counter.get(m.get("score", "score"))
        self.max_deals = _capped(comp, m.get("max_deals", 1000), ("match", "max_deals"), 1, MAX_DEALS,
                                 "the most deals a match may have")
        self.teams = None
        if m.get("teams"):
            self.teams = [list(t) for t in m["teams"]]
            seen: set = set()
            low = self.ruleset.players[0]
            for i, team in enumerate(self.teams):
                for j, seat in enumerate(team):
                    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < low:
                        comp.problem(("match", "teams", i, j),
                                     f"team seat {seat!r} is not a seat of every game: seats are 0 to {low - 1} "
                                     f"with the fewest players ({low})")
                    elif seat in seen:
                        comp.problem(("match", "teams", i, j), f"seat {seat} is in two teams (or twice in one)")
                    seen.add(seat)
        for c in self.counters:
            if c.show == "teams" and not self.teams:
                comp.problem(("counters", c.name, "show"), "show: teams needs match: teams (the seats of each team)")
                c.show = "seats"
        self._semantic_checks(comp)
        from ..rules import loglines
        loglines.check(comp, data)   # log: lines are {field} templates, never str.format (untrusted text)
        from .listing import check_listings
        check_listings(self, comp)   # the worst-case size and cost of every decision's listing (issue 16)
        comp.finish()
        self.n_v = len(SYSTEM_VARS) + len(self.vars)
        # State._start_deal: (slot, default) of the vars set again each deal, and of every var (the first
        # deal); (index, initial) of the per-deal counters.
        self.var_resets = (tuple((x.index, x.default) for x in self.vars if x.per == "deal"),
                           tuple((x.index, x.default) for x in self.vars))
        self.deal_counters = tuple((c.index, c.initial) for c in self.counters if c.per == "deal")
        self.per_seat = tuple(z.per_seat for z in self.zones)
        # how State.position_key keys each zone: 0 in order, 1 per seat as multisets, 2 top card + multiset
        self.key_mode = tuple(1 if z.per_seat else 2 if z.order == "top_only" else 0 for z in self.zones)
        from .state import text_state_class
        self._state_class = text_state_class(self) or State   # generated legal_actions/apply at trick steps

    def _seat_list(self, comp, m: dict, key: str):
        """``match: winner/loser`` compiled to a function giving a list of seats (None when absent)."""
        if key not in m:
            return None
        path = ("match", key)
        code = comp.code(m[key], path, (), (INT, INTS))
        if code is None:
            return None
        n = self.n
        body = code.src if code.type == INTS else f"({code.src},)"
        f = comp.function(f"[_x for _x in {body} if 0 <= _x < {n}]", ())
        return f

    # ---- names ------------------------------------------------------------
    def _base_names(self, env: Env, comp: Compiler):
        n = self.n
        for i, (name, t, _) in enumerate(SYSTEM_VARS):
            env.names[name] = Binding(f"s.v[{i}]", t)
        # Only a `trump` step or effect sets the trump suit: without one it is no_suit for the whole match,
        # a constant the expressions fold away (`card.suit == trump` is false for every card).
        from .steps.trumps import sets_trump
        if not sets_trump(self.data.get("deal") or []):
            env.names["trump"] = Binding("-1", SUIT, const=True)
        env.names["players"] = Binding(str(n), INT, const=True)
        env.names["seats"] = Binding(f"range({n})", INTS, const=True)
        # The trick in progress (docs/tricks.md): its cards and their seats in play order, its first card.
        env.names["trick"] = Binding("[_p[1] for _p in s.plays]", list_of(CARD))
        env.names["trick_seats"] = Binding("[_p[0] for _p in s.plays]", INTS)
        env.names["led_card"] = Binding("(s.plays[0][1] if s.plays else -1)", CARD)
        env.names["no_suit"] = Binding("-1", SUIT, const=True)
        env.names["none"] = Binding("-1", INT, const=True)
        env.names["no_card"] = Binding("-1", CARD, const=True)
        self.ns["_next_player"] = self.next_player
        # A seat that sits out a deal (steps/sitout.py): without a sits_out step nobody ever does.
        from .steps.sitout import sits_out_steps
        if not sits_out_steps(self.data.get("deal") or []):
            env.names["sits_out"] = Binding("-1", INT, const=True)
        for name, value in self.options.items():
            t = {"int": INT, "bool": BOOL, "list": list_of(STR)}.get(
                (self.ruleset.options.get(name) or {}).get("type", "int"), STR)
            try:
                src = literal_src(value)
            except ValueError as e:
                comp.problem(("options", name), f"option '{_shown(name)}': {e}")
                src = "0"
            env.names[name] = Binding(src, t, const=True)

    def option_named(self, value):
        """The value of the option a step field names (``if_none_wins: MODE_OPTION``), else ``None``;
        the option counts as read (``options_read``)."""
        if isinstance(value, str) and value in self.options:
            self._options_named.add(value)
            return self.options[value]
        return None

    @property
    def options_read(self) -> set:
        """Names of the options this compiled game reads: in an expression compiled for it (in a
        definition only if an expression outside the definitions uses it, directly or not), as a
        ``by_option`` (any of its cases, chosen or not), or named by a step field (``option_named``).
        ``cardspec validate`` warns about a declared option outside this set for every option value it
        tries (issue 20: an inherited option that changes nothing)."""
        by_option = {node["by_option"] for _, node in by_option_nodes(self.ruleset.data)}
        used, todo = set(), [None]   # names read from outside definitions, then from the definitions used
        while todo:
            for name in self.env.used.get(todo.pop(), ()):
                if name not in used:
                    used.add(name)
                    if name in self.env.used:
                        todo.append(name)
        return (used | by_option | self._options_named) & set(self.options)

    def _card_names(self, env: Env):
        d = self.deck
        for i, s in enumerate(d.suits):
            env.names[SUIT_NAMES[s]] = Binding(str(i), SUIT, const=True)
        for color, v in COLORS.items():
            if color != "none":
                env.names[color] = Binding(str(v), COLOR, const=True)
        for r in d.ranks:
            value = 1 if (r == "A" and d.ace == "low") else RANK_VALUES[r]
            if not r.isdigit():
                env.names[r] = Binding(str(value), INT, const=True)
        env.names["deck"] = Binding("DECK", list_of(CARD), const=True)

    def _suit_of(self, comp: Compiler, text):
        """``deck: suit_of:`` (docs/tricks.md): every card's effective suit, as a table made now.

        The expression sees ``card`` (``card.suit`` is still the printed suit here) and options; it may
        not read the state. Afterwards ``card.suit`` in every expression, following and the led suit
        are the effective suit (``SUIT``); ``card.printed_suit`` reads ``PSUIT``.
        """
        path = ("deck", "suit_of")
        code = comp.code(text, path, (("card", CARD),), (SUIT,))
        if code is None:
            return
        d = self.deck
        if re.search(r"\bs\.|\(s[,)]", code.src):
            comp.problem(path, "suit_of may read only the card and options (it is made into a table at load)",
                         "e.g. if card.rank == Q or card.rank == J then diamonds else card.suit")
            return
        f = comp.function(code.src, (("card", CARD),))
        table = []
        for face in range(d.n_faces):
            x = f(None, face)
            table.append(x if 0 <= x < len(d.suits) else -1)
        d.set_effective_suits(table)
        self.ns.update(SUIT=tuple(table) + (-1,), SORT_KEY=d.sort_key)

    def _defines(self, comp: Compiler, defines: dict):
        """Compile ``define:`` entries in dependency order; a cycle is an error (evaluation stays bounded)."""
        from ..lang import DslError, parse
        sigs = {}
        for key in defines:
            name, params = _signature(key)
            if name is not None:
                sigs[name] = (key, {p for p, _ in params})
        deps = {}
        for name, (key, params) in sigs.items():
            try:
                tree = parse(str(defines[key]))
                used = {str(t) for t in tree.scan_values(lambda v: getattr(v, "type", None) == "NAME")}
            except DslError:
                used = set()
            deps[name] = sorted((used & set(sigs)) - params - {name}) + ([name] if name in used - params else [])
        order, state, cyclic = [], {}, set()

        def visit(name, chain):
            if state.get(name) == 2:
                return
            if state.get(name) == 1 or name in deps[name]:
                cyc = chain[chain.index(name):] + [name] if name in chain else [name, name]
                comp.problem(("define", sigs[name][0]), "definitions refer to each other in a cycle: "
                             + " -> ".join(cyc), "a definition may not use itself, directly or indirectly")
                cyclic.update(cyc)
                state[name] = 2
                return
            state[name] = 1
            for d in deps[name]:
                if d != name:
                    visit(d, chain + [name])
            state[name] = 2
            order.append(sigs[name][0])

        for name in sigs:
            visit(name, [])
        ordered = order + [k for k in defines if k not in order]
        for name in cyclic:   # reported above; a placeholder keeps other uses from being reported again
            self.env.names[name] = Binding(f"_d_{name}", ANY, kind="define", params=tuple(
                p for p, _ in _signature(sigs[name][0])[1]), param_types=(ANY,) * len(_signature(sigs[name][0])[1]))
            self.ns[f"_d_{name}"] = lambda *a: 0
        pure = set()   # the definitions that read nothing but their arguments (``_pure``)
        for key in ordered:
            text = defines[key]
            name, params = _signature(key)
            if name in cyclic:
                continue
            if name is None:
                comp.problem(("define", key), f"'{_shown(key)}' is not a definition name (NAME or NAME(a, b), "
                             "each a name of letters, digits and _, not a word of the language, parameters distinct)")
                continue
            ptypes = []
            for p, t in params:
                ptypes.append({"card": CARD, "suit": SUIT, "int": INT, "seat": INT, "": INT,
                               "cards": list_of(CARD)}.get(t, INT))
            self.env.owner = name   # the names it reads count only if something uses the definition
            try:
                code = comp.code(text, ("define", key), tuple(zip([p for p, _ in params], ptypes)))
            finally:
                self.env.owner = None
            fname = f"_d_{name}"
            if code is None:
                self.env.names[name] = Binding(fname, ANY, kind="define", params=tuple(p for p, _ in params),
                                               param_types=tuple(ptypes))
                self.ns[fname] = lambda *a: 0
                continue
            if not params and code.const:   # folded at load time: a constant of this game
                self.env.names[name] = Binding(code.src, code.type, const=True)
                continue
            comp.function(code.src, tuple(zip([p for p, _ in params], ptypes)), name=fname)
            if params and _pure(code.src, pure):   # reads only its arguments (no state): memoized when worth it
                pure.add(fname)
                if code.type in (INT, BOOL) and code.cost >= _MEMO_COST:
                    self.ns[fname] = _memoized(self.ns[fname])
            # Definitions that read the trick in progress (docs/tricks.md): the tricks step keeps the list of
            # plays in its random playouts for the rulesets that call them.
            # Every definition's parameters and generated body: the score step specialises the one it calls
            # (steps/score.py).
            self.env.__dict__.setdefault("def_src", {})[fname] = (
                tuple(py_param(p) for p, _ in params), code.src)
            readers = self.env.__dict__.setdefault("trick_readers", set())
            if "s.plays" in code.src or any(re.search(rf"\b{r}\(", code.src) for r in readers):
                readers.add(fname)
            self.env.names[name] = Binding(fname, code.type, kind="define", params=tuple(p for p, _ in params),
                                           param_types=tuple(ptypes), body=inline_body(code.src),
                                           values=code.values, cost=code.cost, size=code.size, mag=code.mag)

    def _semantic_checks(self, comp: Compiler):
        rs = self.ruleset
        lo, hi = rs.players
        if lo < 1 or hi < lo:
            comp.problem(("players",), f"players: min {lo} and max {hi} make no sense")
        d = (self.data.get("players") or {}).get("default") if isinstance(self.data.get("players"), dict) else None
        if d is not None and not (isinstance(d, int) and lo <= d <= hi):
            comp.problem(("players", "default"), f"players: default {d} is not between min {lo} and max {hi}")
        if not self.steps:
            comp.problem(("deal",), "a deal needs at least one step")
        for step in self.steps:
            step.check(self, comp)
        if self.score_counter is None and "score" in (self.data.get("match") or {}):
            comp.problem(("match", "score"), f"no counter named '{self.data['match']['score']}'")
        # match.report: name -> (numerator counter index, denominator counter index, percent), for simulate.
        self.report = {}
        for rname, r in ((self.data.get("match") or {}).get("report") or {}).items():
            idx = [self.counter[r[k]].index if r.get(k) in self.counter else None for k in ("counter", "per")]
            for k, i in zip(("counter", "per"), idx):
                if i is None:
                    comp.problem(("match", "report", rname, k), f"no counter named '{r.get(k)}'")
            if None not in idx:
                self.report[str(rname)] = (idx[0], idx[1], bool(r.get("percent")))

    # ---- states -------------------------------------------------------------
    @property
    def actions(self):
        """The game's ``ActionCodec`` (engine/choices.py, docs/actions.md): its fixed integer action
        space, built on first use and kept. Raises ``ActionSpaceError`` when a step's small choices are
        not known at load time."""
        codec = self.__dict__.get("_codec")
        if codec is None:
            from .choices import ActionCodec
            codec = self.__dict__["_codec"] = ActionCodec(self)
            from .state import fused_state_class
            self._state_class = fused_state_class(self, codec) or self._state_class
        return codec

    def new_state(self, seed=None, dealer: int | None = None, deck_order=None, record: bool = True,
                  deal=None, rng: random.Random | None = None) -> "State":
        """A new match at its first decision.

        Parameters:
            seed: the RNG seed (any int or str); the same seed gives the same shuffles.
            dealer: the first dealer's seat (default: the ruleset's, usually 0).
            deck_order: optional list of card codes fixing the first deal's shuffled order, top first
                (cards not named follow in the seed's order).
            record: keep the event log (off for the fastest playouts).
            deal: optional ``{(zone_index, seat or None): [faces]}`` fixing the first deal's result
                (see ``cardspec.scenario``).
            rng: a ``random.Random`` to use instead of a new one seeded with ``seed`` (shared, not copied).
        """
        return self._state_class(self, seed, dealer, deck_order, record, deal, rng)

    def next_player(self, s, seat: int) -> int:
        """The seat after ``seat`` in play order this deal (``match: next_player``; default: to the left),
        skipping a seat that sits the deal out (``sits_out``)."""
        nxt = s.nxt
        if nxt is None:
            if self.next_expr is None and (not self.may_sit_out or s.v[SITS_OUT] < 0):
                return (seat + 1) % self.n
            nxt = s.nxt = self.order_table(s)   # not computed since the step began (State._advance_steps)
        return nxt[seat % self.n]

    def order_table(self, s):
        """``match: next_player`` for every seat, as a tuple (None without one and with nobody sitting
        out: play goes left). A seat that sits out (``sits_out``) is passed over: the seat before it is
        followed by the one after it (its own entry stays its successor, so a walk from it goes on)."""
        out = s.v[SITS_OUT] if self.may_sit_out else -1
        if self.next_expr is None:
            if out < 0:
                return None
            order = [(seat + 1) % self.n for seat in range(self.n)]
        else:
            order = self._expr_order(s)
            if out < 0:
                return order
            order = list(order)
        if out >= 0:
            after = order[out]
            for seat in range(self.n):
                if order[seat] == out and seat != out:
                    order[seat] = after
        return tuple(order)

    def playing(self, s) -> int:
        """How many seats play this deal: ``players``, one fewer while a seat sits out (``sits_out``)."""
        return self.n - (1 if self.may_sit_out and s.v[SITS_OUT] >= 0 else 0)

    def seated(self, s, seat: int) -> int:
        """``seat`` (mod players), or the next seat in play order when it sits this deal out: where a
        step given a first seat (a first leader, an auction's first bidder) starts."""
        seat %= self.n
        if self.may_sit_out and seat == s.v[SITS_OUT]:
            return self.next_player(s, seat)
        return seat

    def _expr_order(self, s) -> tuple:
        """``match: next_player`` of every seat, as a tuple. When the expression reads only counters and
        vars (``chair[p]``, ``dealer``), the table is kept per value of those (a seat change makes a new
        one): the same table, computed once."""
        f = self.next_expr
        slots = self._order_key
        if slots is None:
            return tuple([f(s, seat) % self.n for seat in range(self.n)])
        vs, cs = slots
        c = s.c
        key = (*map(s.v.__getitem__, vs), *_chain_lists(map(c.__getitem__, cs)))
        table = self._order_cache.get(key)
        if table is None:
            table = tuple([f(s, seat) % self.n for seat in range(self.n)])
            if len(self._order_cache) >= 256:
                self._order_cache.clear()
            self._order_cache[key] = table
        return table

    def _card_default(self, comp, name, default):
        if default in (None, "none", "no_card", -1):
            return -1
        try:
            return self.deck.face(str(default))
        except CardError:
            comp.problem(("vars", name, "default"), f"'{default}' is not a card of this deck",
                         "a card var's default is a card code (AS) or none")
            return -1

    def state_from_view(self, view: dict, hidden: dict | None = None, seed=None) -> "State":
        """A State built from one seat's ``view`` plus guesses for what it hides (``cardspec._determinize``)."""
        from .determinize import state_from_view
        return state_from_view(self, view, hidden, seed)

    def zone_index(self, name: str) -> Zone:
        return self.zone[name]


def _slots_read(src: str, defs: dict):
    """``(var slots, counter indices)`` that generated expression ``src`` reads, following the definitions it
    calls (``defs``: function name → (parameters, body)); None when it reads anything else of the state
    (a zone, the trick, a helper given the state) or a string literal might hide a name."""
    vs, cs, seen, todo = set(), set(), set(), [src]
    while todo:
        text = todo.pop()
        if "'" in text or '"' in text:
            return None
        for m in re.finditer(r"\b_d_\w+(?=\(s\b)", text):
            if m.group(0) not in defs:
                return None
            if m.group(0) not in seen:
                seen.add(m.group(0))
                todo.append(defs[m.group(0)][1])
        vs.update(int(x) for x in re.findall(r"\bs\.v\[(\d+)\]", text))
        cs.update(int(x) for x in re.findall(r"\bs\.c\[(\d+)\]", text))
        rest = re.sub(r"\bs\.[vc]\[\d+\]|\b_d_\w+\(s\b", "", text)
        if re.search(r"\bs\b", rest):
            return None
    return tuple(sorted(vs)), tuple(sorted(cs))


#: A definition with parameters whose value is a number or a truth value, reads no state and costs at
#: least this much (the load-time cost bound, docs/dsl.md "Bounds") keeps its values by argument
#: (``_memoized``): a meld's stand-ins are asked at every small choice of a lay-off.
_MEMO_COST = 500

#: The most argument tuples a memoized definition keeps (then it starts again).
_MEMO_SIZE = 4096


def _pure(src: str, pure: set) -> bool:
    """Whether the generated body ``src`` reads nothing but its parameters: no ``s`` (the state) but as
    the first argument of definitions in ``pure``."""
    for fname in pure:
        if fname in src:
            src = re.sub(rf"\b{fname}\(s\b,?", f"{fname}(", src)
    return re.search(r"\bs\b", src) is None


def _memoized(fn):
    """``fn(s, *args)`` of a definition that reads only ``args``, with its values kept by ``args`` (at
    most ``_MEMO_SIZE``; arguments that cannot be hashed, such as lists, are computed each time). The
    same values: a definition is pure (expressions have no effects)."""
    memo = {}

    def memo_fn(s, *args):
        try:
            return memo[args]
        except KeyError:
            pass
        except TypeError:
            return fn(s, *args)
        r = fn(s, *args)
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        memo[args] = r
        return r
    memo_fn.__wrapped__ = fn
    return memo_fn


def _signature(key):
    """``(name, [(param, type), …])`` of a ``define:`` key ``NAME`` or ``NAME(a, c: card)`` (spaces around the
    parts allowed); ``(None, [])`` unless the name and every parameter pass ``lang.names.name_problem`` (the
    grammar's NAME, no keyword) and the parameters are distinct."""
    if not isinstance(key, str):
        return None, []
    key = key.strip(' ')
    if "(" not in key:
        return (key, []) if name_problem(key) is None else (None, [])
    name, rest = key.split("(", 1)
    if not rest.endswith(")") or name_problem(name.strip(' ')) is not None:
        return None, []
    params = []
    for p in rest[:-1].split(","):
        p = p.strip(' ')
        if not p:
            continue
        pname, _, ptype = p.partition(":")
        if name_problem(pname.strip(' ')) is not None or pname.strip(' ') in [q for q, _ in params]:
            return None, []
        params.append((pname.strip(' '), ptype.strip(' ')))
    return name.strip(' '), params


#: Caps of a ruleset (docs/rulesets.md, "Caps"): a value beyond is refused at load with its position.
MAX_COPIES = 16          # deck: copies
MAX_JOKERS = 64          # deck: jokers
MAX_DECK_CARDS = 1040    # all cards of the deck (20 packs of 52)
MAX_DEALS = 10_000       # match: max_deals (the default is 1,000)


def _capped(comp: Compiler, value, path, lo: int, hi: int, what: str) -> int:
    """``value`` as an int in ``lo..hi``; else a problem at ``path`` and the nearest bound."""
    if isinstance(value, bool) or not isinstance(value, int):
        comp.problem(path, f"{what} is a whole number from {lo:,} to {hi:,}, not '{_shown(value)}'")
        return lo
    if not lo <= value <= hi:
        comp.problem(path, f"{what} is at most {hi:,} (and at least {lo:,}); found {value:,}",
                     "docs/rulesets.md, Caps")
        return min(max(value, lo), hi)
    return value


def _deck_caps(comp: Compiler, dspec: dict, copies, jokers) -> tuple:
    """``(copies, jokers)`` within the caps (else a problem and values within): checked before the deck's
    cards are made, so ``copies: 1000000`` is refused at once instead of filling memory."""
    if isinstance(copies, int) and not isinstance(copies, bool):
        copies = max(copies, 1)   # (0 or less: one pack, as before)
    copies = _capped(comp, copies, ("deck", "copies"), 1, MAX_COPIES, "copies")
    jokers = _capped(comp, jokers, ("deck", "jokers"), 0, MAX_JOKERS, "jokers")
    ranks, suits = dspec.get("ranks") or [], dspec.get("suits") or []
    total = ((len(ranks) if isinstance(ranks, list) else 0) * (len(suits) if isinstance(suits, list) else 0)
             + jokers) * copies   # jokers are per copy (cards.Deck)
    if total > MAX_DECK_CARDS:
        comp.problem(("deck",), f"the deck has {total:,} cards; at most {MAX_DECK_CARDS:,}", "docs/rulesets.md, Caps")
        copies, jokers = 1, 0
    return copies, jokers


def _shown(text) -> str:
    """``text`` in a message: one line, at most 40 characters."""
    r = repr(str(text))[1:-1]
    return r if len(r) <= 40 else r[:39] + "…"


#: Sections whose keys are names expressions use (docs/rulesets.md): each must pass ``lang.names.name_problem``.
NAME_SECTIONS = ("zones", "counters", "vars", "options")


def _check_names(comp: Compiler, data: dict):
    """A problem at each key of zones:, counters:, vars:, options: that is not a name (``lang.names.name_problem``)."""
    for section in NAME_SECTIONS:
        entries = data.get(section)
        if not isinstance(entries, dict):
            continue
        for name in entries:
            why = name_problem(name)
            if why is not None:
                comp.problem((section, name), f"{section}: {why}", "a name is letters, digits and _ "
                             "(not starting with a digit), e.g. won_tricks")
