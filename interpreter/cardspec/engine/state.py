"""The engine: ``Game`` (a compiled ruleset, immutable) and ``State`` (one position).

A ``Game`` is a ruleset compiled for a player count and option values: the
deck's tables, zones, counters and vars resolved to list indexes, every
expression turned into a Python function, the deal's steps built. Only the
Game makes States (OpenSpiel's split).

A ``State`` holds zones (``s.z``: one list of card faces per shared zone, one
list of lists per per-seat zone), per-seat counters (``s.c``), scalar values
(``s.v``: dealer, leader, deal number, … then the ruleset's vars), the step
being played (``s.pc``) and its own seeded RNG. Public methods check (whose
turn, is the game over, is the action legal) and leave the state unchanged on
error; the steps in ``_steps.py`` compute.

Seats are 0..n-1 clockwise; seat i+1 is at seat i's left (DESIGN.md).
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

from .steps import base as _steps
from . import melds as _melds  # noqa: F401  (meld functions for expressions, meld/lay_off effects)
from .compiler import INTS, SEAT_ZONE, ZONE, Compiler
from .fixed_deal import apply_deal_override
from ..cards import COLORS, RANK_VALUES, SUIT_NAMES, Deck, normalize_code, CardError
from ..lang import (ANY, BOOL, CARD, COLOR, INT, STR, SUIT, Binding, Env, inline_body, list_of, literal_src,
                    name_problem, rank_strength_helper)
from ..errors import BUG_HINT, CardspecError, GameOver, IllegalAction, Problem, RulesetError, _detail
from ..lang import RuleFault
from ..rules import Ruleset, is_by_option, read_ruleset

from .names import check_names
from .slots import *  # noqa: F401,F403  (slot indexes of State.v)
from .steps.turns import TURNS as _TS_TURNS
from .slots import DEALER, LEADER, DEAL_NUMBER, TRICK_NUMBER, TRICKS_TOTAL, LED_SUIT, WINNER, TO_ACT, TRUMP, TURN, SYSTEM_VARS
from .slots import (DECLARER, BID_NUMBER, BID_SUIT, BID_RANK, BID_CONTRACT, BID_LEVEL, CALLED_BY, ROUND_NUMBER,
                    DEAL_IN_ROUND, REDEALS)
from . import sides as _sides
VISIBILITY = ("owner", "all", "none", "all_but_owner", "top")


def _next_player_fn(comp, n, args):
    """``next_player(S)``: the seat after S in play order (``match: next_player``; default left_of(S))."""
    from ..lang.dsl import Code, _argc
    _argc(comp, n, args, 1)
    a = comp.c(args[0])
    comp.want(args[0], a, INT)
    return Code(f"_next_player(s, {a.src})", INT)


from ..lang.dsl import BUILTINS as _BUILTINS  # noqa: E402
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


@dataclass
class Counter:
    name: str
    index: int
    per: str          # "match" or "deal"
    initial: int = 0
    visibility: str = "all"   # "owner": a view shows only the seat's own value (others None)


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

    def shown_to(self, s, seat) -> bool:
        """Whether ``seat``'s view (None: a spectator's) shows this var now (docs/rulesets.md, vars)."""
        if not self.hidden and self.seen_by is None:
            return True
        if s.terminal or (self.public_when is not None and self.public_when(s)):
            return True
        return not self.hidden and seat is not None and self.seen_by(s) == seat


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


class Game:
    """A ruleset compiled for ``players`` seats and option values.

    Parameters:
        ruleset: a ``Ruleset`` or a built-in name / file path.
        players: number of seats (within the ruleset's ``players`` range).
        options: option name → value (text or typed), over the declared defaults.

    Raises ``RulesetError`` for any problem (each with file:line:col).
    """

    def __init__(self, ruleset, players: int | None = None, options: dict | None = None):
        if not isinstance(ruleset, Ruleset):
            ruleset = read_ruleset(str(ruleset))
        self.ruleset = rs = ruleset
        self.name = rs.name
        lo, hi = rs.players
        if players is None:
            players = rs.default_players
        self.options = rs.option_values(options)
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
                                   bool(spec.get("melds", False)), str(spec.get("order", "all"))))
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
        self.stock = self.zone["stock"].index
        # Counters (per seat) and vars (scalar).
        self.counters = []
        for name, spec in (data.get("counters") or {}).items():
            spec = spec or {}
            c = Counter(name, len(self.counters), spec.get("per", "match"),
                        int(comp.constant(spec.get("initial", 0), ("counters", name, "initial"))))
            c.visibility = str(spec.get("visibility", "all"))
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
        self.next_expr = comp.expr(m["next_player"], ("match", "next_player"), (("seat", INT),), (INT,)) \
            if "next_player" in m else None
        # Steps of a deal and the match structure.
        self.steps = []
        for i, spec in enumerate(data.get("deal") or []):
            step = _steps.build(self, comp, spec, ("deal", i))
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
        self._semantic_checks(comp)
        comp.finish()
        self.n_v = len(SYSTEM_VARS) + len(self.vars)
        self.per_seat = tuple(z.per_seat for z in self.zones)
        # how State.position_key keys each zone: 0 in order, 1 per seat as multisets, 2 top card + multiset
        self.key_mode = tuple(1 if z.per_seat else 2 if z.order == "top_only" else 0 for z in self.zones)

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
        for name, value in self.options.items():
            t = {"int": INT, "bool": BOOL, "list": list_of(STR)}.get(
                (self.ruleset.options.get(name) or {}).get("type", "int"), STR)
            try:
                src = literal_src(value)
            except ValueError as e:
                comp.problem(("options", name), f"option '{_shown(name)}': {e}")
                src = "0"
            env.names[name] = Binding(src, t, const=True)

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
            code = comp.code(text, ("define", key), tuple(zip([p for p, _ in params], ptypes)))
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
            # Definitions that read the trick in progress (docs/tricks.md): the tricks step keeps the list of
            # plays in its random playouts for the rulesets that call them.
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
        return State(self, seed, dealer, deck_order, record, deal, rng)

    def next_player(self, s, seat: int) -> int:
        """The seat after ``seat`` in play order this deal (``match: next_player``; default: to the left)."""
        return s.nxt[seat % self.n] if s.nxt is not None else (seat + 1) % self.n

    def order_table(self, s):
        """``match: next_player`` for every seat, as a tuple (None without one: play goes left)."""
        if self.next_expr is None:
            return None
        f = self.next_expr
        return tuple(f(s, seat) % self.n for seat in range(self.n))

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


def _signature(key):
    """``(name, [(param, type), …])`` of a ``define:`` key ``NAME`` or ``NAME(a, c: card)`` (spaces around the
    parts allowed); ``(None, [])`` unless the name and every parameter pass ``dsl.name_problem`` (the
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


#: Sections whose keys are names expressions use (docs/rulesets.md): each must pass ``dsl.name_problem``.
NAME_SECTIONS = ("zones", "counters", "vars", "options")


def _check_names(comp: Compiler, data: dict):
    """A problem at each key of zones:, counters:, vars:, options: that is not a name (``dsl.name_problem``)."""
    for section in NAME_SECTIONS:
        entries = data.get(section)
        if not isinstance(entries, dict):
            continue
        for name in entries:
            why = name_problem(name)
            if why is not None:
                comp.problem((section, name), f"{section}: {why}", "a name is letters, digits and _ "
                             "(not starting with a digit), e.g. won_tricks")


class State:
    """One position of a match. Make one with ``Game.new_state``.

    Public: ``to_act`` (seat or None), ``terminal``, ``legal_actions()``,
    ``apply(text)``, ``parse_action(text)``, ``view(seat)``, ``log(seat)``,
    ``scores()``, ``clone()``.
    """

    __slots__ = ("game", "n", "z", "c", "v", "rng", "pc", "entered", "terminal", "events", "face_up",
                 "plays", "flight", "queue", "carried", "history", "_stack_order", "_result", "_deal_override", "ts", "_cache",
                 "positions", "nxt")

    def __init__(self, game: Game, seed=None, dealer=None, deck_order=None, record=True, deal=None, rng=None):
        self.game = game
        self.n = n = game.n
        self.rng = rng if rng is not None else random.Random(seed)
        self.z = [[[] for _ in range(n)] if zn.per_seat else [] for zn in game.zones]
        self.c = [[c.initial] * n for c in game.counters]
        self.v = [0] * (len(SYSTEM_VARS) + len(game.vars))
        self.face_up = [0] * len(game.zones)
        self.plays = []       # (seat, card) of the current trick
        self.flight = None    # cards chosen in a simultaneous step, per seat
        self.queue = []       # seats still to decide in a simultaneous step
        self.carried = []     # cards of tricks carried to the next trick's winner
        self.events = [] if record else None
        self.history = []     # actions applied, as text (for replay)
        self.terminal = False
        self.entered = False
        self._result = None
        self.pc = 0
        self._stack_order = None
        self._deal_override = deal
        self._cache = None
        self.ts = None        # the turns step's own counters (see _turns.py)
        self.positions = None  # positions seen, for repetition: (hash, key, older) chain (effect `repetition`)
        self.nxt = None        # match: next_player for every seat (None: play goes left)
        if deck_order is not None:
            self._stack_order = [game.deck.face(c) for c in deck_order]
        v = self.v
        v[DEALER] = game.first_dealer if dealer is None else int(dealer) % n
        v[DEAL_NUMBER] = 1
        v[ROUND_NUMBER] = 1
        v[DEAL_IN_ROUND] = 1
        self._start_deal()
        self._advance()

    # ---- copying ------------------------------------------------------------
    def clone(self, share_rng: bool = False) -> "State":
        """An independent copy (zones, counters, values, RNG, log).

        ``share_rng=True`` gives the copy this state's RNG object instead of a copy of it (a
        search over positions without chance: copying the RNG's state is most of a clone's cost).
        """
        s = State.__new__(State)
        s.game = self.game
        s.n = self.n
        s.z = [[list(h) for h in z] if per else list(z) for per, z in zip(self.game.per_seat, self.z)]
        s.c = [list(c) for c in self.c]
        s.v = list(self.v)
        if share_rng:
            s.rng = self.rng
        else:
            r = random.Random()
            r.setstate(self.rng.getstate())
            s.rng = r
        s.pc = self.pc
        s.entered = self.entered
        s.terminal = self.terminal
        s.events = list(self.events) if self.events is not None else None
        s.face_up = list(self.face_up)
        s.plays = list(self.plays)
        s.flight = [list(f) if f is not None else None for f in self.flight] if self.flight is not None else None
        s.queue = list(self.queue)
        s.carried = list(self.carried)
        s.history = list(self.history)
        s._stack_order = self._stack_order
        s._result = self._result
        s._deal_override = None
        s._cache = None
        s.ts = list(self.ts) if self.ts is not None else None
        s.positions = self.positions   # an immutable chain: shared, never copied
        s.nxt = self.nxt               # a tuple: shared
        return s

    def position_key(self) -> tuple:
        """A hashable key of the position: two states with equal keys have the same future under the rules.

        Covers the step being played, every zone (per-seat zones as sorted multisets, shared zones in
        order, a zone declared ``order: top_only`` as ``(top card, sorted rest)``: its order below the top
        is no part of the position, docs/rulesets.md), counters, vars and system values (but not the turn count), the trick, cards in flight and
        the turns step's counters (but not its count of turns taken). Leaves out the log, the action
        history, the RNG and the repetition history. Used by the ``repetition`` effect and by
        ``cardspec.solve``'s transposition table (a game whose rules read ``turn_number`` or a turn cap
        is keyed as if the turn count did not matter).
        """
        z = tuple([tuple(map(tuple, map(sorted, zone))) if mode == 1 else tuple(zone) if not mode or not zone
                   else (zone[-1], tuple(sorted(zone[:-1])))
                   for mode, zone in zip(self.game.key_mode, self.z)])
        v = self.v
        ts = self.ts
        if ts is not None:
            ts = tuple(ts[:_TS_TURNS]) + tuple(ts[_TS_TURNS + 1:])
        fl = tuple([tuple(f) if f is not None else None for f in self.flight]) if self.flight is not None else None
        return (self.pc, self.terminal, z, tuple(map(tuple, self.c)), tuple(v[:TURN]),
                tuple(v[TURN + 1:]), ts, tuple(self.face_up), tuple(self.plays), fl, tuple(self.queue),
                tuple(self.carried))

    __copy__ = clone

    # ---- flow ---------------------------------------------------------------
    def emit(self, event: dict, to=None):
        """Record an event; ``to`` = seats that may see it (None: everyone)."""
        if self.events is not None:
            if to is not None:
                event["_to"] = tuple(to)
            self.events.append(event)

    def _start_deal(self):
        g = self.game
        v = self.v
        for var in g.vars:
            if var.per == "deal" or v[DEAL_NUMBER] == 1:
                v[var.index] = var.default
        for c in g.counters:
            if c.per == "deal":
                self.c[c.index] = [c.initial] * self.n
        v[LEADER] = -1
        v[TRICK_NUMBER] = 0
        v[TRICKS_TOTAL] = 0
        v[LED_SUIT] = -1
        v[WINNER] = -1
        v[TO_ACT] = -1
        v[TRUMP] = -1 if "trump" not in g.var else v[TRUMP]
        v[TURN] = 0
        v[DECLARER] = -1
        v[BID_NUMBER] = v[BID_RANK] = 0
        v[BID_SUIT] = v[BID_LEVEL] = v[CALLED_BY] = -1
        v[BID_CONTRACT] = ""
        if g.next_expr is not None:
            self.nxt = g.order_table(self)
        self.pc = 0
        self.entered = False
        self.plays = []
        self.carried = []
        self.emit({"type": "deal_start", "deal": v[DEAL_NUMBER], "dealer": v[DEALER]})

    def _advance(self):
        """Run automatic steps until a seat must decide or the match ends (``_failed`` for a fault)."""
        try:
            self._advance_steps()
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001 - the rules failed: a RulesetError at the step, not a traceback
            raise self._failed(e) from None

    def _failed(self, e: Exception) -> RulesetError:
        """The ``RulesetError`` for exception ``e`` raised while the rules ran, at the step in progress.

        A ``RuleFault`` (the rules did what docs/dsl.md forbids: cards moved into the zone of no seat,
        a decision with no legal action, …) has code ``ruleset/runtime``; any other exception is a bug
        of cardspec or a fault ``cardspec validate`` should have found: code ``internal/runtime`` and
        the bug-report hint. Either way the state is not to be used further.
        """
        steps = self.game.steps
        step = steps[self.pc] if 0 <= self.pc < len(steps) and not self.terminal else None
        path = tuple(step.path) if step is not None else ("match",)
        where = f"with {self.n} players, deal {self.v[DEAL_NUMBER]}" + (f", step '{step.name}'" if step else "")
        if not isinstance(e, RuleFault) and step is not None and step.decision and self.entered:
            try:   # a decision step with nothing to choose: the rules are at fault, not cardspec
                if not step.legal(self):
                    e = RuleFault(f"seat {self.v[TO_ACT]} has no legal action")
            except Exception:  # noqa: BLE001
                pass
        if isinstance(e, RuleFault):
            err = RulesetError(self.game.ruleset.problem(path, f"{where}: {e}",
                                                         "cardspec validate plays random games to find such faults"))
            err.code = "ruleset/runtime"
        else:
            err = RulesetError(self.game.ruleset.problem(
                path, f"{where}: the rules failed with an unexpected {type(e).__name__}: {_detail(e)}", BUG_HINT))
            err.code = "internal/runtime"
        err.problems[0].code = err.code
        return err

    def _advance_steps(self):
        steps = self.game.steps
        while not self.terminal:
            if self.pc >= len(steps):
                self._end_deal()
                continue
            step = steps[self.pc]
            if step.when is not None and not self.entered and not step.when(self):
                self.pc += 1
                continue
            if self.game.next_expr is not None and not self.entered:   # seats may have changed places
                self.nxt = self.game.order_table(self)
            if step.decision:
                if self.entered:
                    return
                if self._deal_override is not None and not step.before_deal:   # choices before the deal: later
                    override, self._deal_override = self._deal_override, None
                    apply_deal_override(self, override)
                try:
                    entered = step.enter(self)
                except _steps.DealError as e:
                    raise RulesetError(self.game.ruleset.problem(
                        step.path, f"with {self.n} players, deal {self.v[DEAL_NUMBER]} fails: {e}",
                        "check the deck size, the deal and pass sizes and the players range")) from None
                if entered:
                    self.entered = True
                    return
                self.pc += 1
            else:
                try:
                    step.run(self)
                except _steps.DealError as e:   # e.g. more cards asked for than the stock holds
                    raise RulesetError(self.game.ruleset.problem(
                        step.path, f"with {self.n} players, deal {self.v[DEAL_NUMBER]} fails: {e}",
                        "check the deck size, the deal sizes and the players range")) from None
                self.pc += 1

    def _finish_step(self):
        self.entered = False
        self.v[TO_ACT] = -1
        self.pc += 1
        self._advance()

    def _end_deal(self):
        g = self.game
        v = self.v
        self.emit({"type": "deal_end", "deal": v[DEAL_NUMBER]})
        deals = g.match_deals(self)
        round_over = g.rounds is not None and (g.round_end is None or g.round_end(self))
        rounds = g.rounds(self) if g.rounds is not None else 0
        over = (deals > 0 and v[DEAL_NUMBER] >= deals) or (g.match_end is not None and g.match_end(self)) \
            or v[DEAL_NUMBER] + v[REDEALS] >= g.max_deals \
            or (round_over and rounds > 0 and v[ROUND_NUMBER] >= rounds)
        if over:
            self._game_over()
            return
        v[DEAL_NUMBER] += 1
        if g.rounds is not None and not round_over:   # the same dealer deals the round's next deal
            v[DEAL_IN_ROUND] += 1
        else:
            if g.rounds is not None:
                v[ROUND_NUMBER] += 1
                v[DEAL_IN_ROUND] = 1
            if g.next_dealer is not None:
                v[DEALER] = g.next_dealer(self) % self.n
            elif g.rotate == "next":
                v[DEALER] = g.next_player(self, v[DEALER])
            else:
                step = {"left": 1, "right": -1, "none": 0}.get(g.rotate, 1)
                v[DEALER] = (v[DEALER] + step) % self.n
        self._start_deal()

    def redeal(self):
        """Throw the deal in and deal again: same dealer, same deal number (an auction's ``all_pass:
        redeal``). Counts in ``redeals``; the match ends at ``match: max_deals`` deals and redeals."""
        self.emit({"type": "deal_end", "deal": self.v[DEAL_NUMBER], "redeal": True})
        if self.v[DEAL_NUMBER] + self.v[REDEALS] >= self.game.max_deals:
            self._game_over()
            return
        self.entered = False
        self._start_deal()
        self._advance()

    def _game_over(self):
        self.terminal = True
        self.v[TO_ACT] = -1
        self._result = None
        if self.events is not None:
            self.emit(self.result)

    @property
    def result(self):
        """The ``game_over`` event (scores, ranking, loser, winner) once the match is over, else None."""
        if self._result is None and self.terminal:
            g = self.game
            vals = self.game_scores()
            ranking = sorted(vals, key=lambda k: (vals[k] if g.ranking == "lowest" else -vals[k], k))
            # match: winner (docs/rulesets.md, "How a match ends"): those seats win and rank first.
            chosen = list(dict.fromkeys(g.match_winner(self))) if g.match_winner is not None else []
            if chosen:
                ranking = chosen + [k for k in ranking if k not in chosen]
            ev = {"type": "game_over", "scores": {str(k): x for k, x in vals.items()}, "ranking": ranking}
            if vals and g.loser in ("highest", "lowest"):
                worst = max(vals.values()) if g.loser == "highest" else min(vals.values())
                ev["loser"] = [k for k, x in vals.items() if x == worst]
            elif g.match_loser is not None:
                ev["loser"] = sorted(set(g.match_loser(self)))
            ev["winner"] = chosen or ([k for k in ranking if vals[k] == vals[ranking[0]]] if ranking else [])
            why = self._end_reason()
            if why:
                ev["reason"] = why
            self._result = ev
        return self._result

    def _end_reason(self):
        """Why the match ended (text for ``game_over``'s ``reason``), from what ended it: an ``end:``
        effect or turn cap that ended the match, the match's ``end:`` condition, its deal count (with
        one deal: what ended that deal, e.g. a turns step's ``until_reason``), or ``max_deals``."""
        g = self.game
        ts = self.ts
        why = ts[7] if ts is not None and len(ts) > 7 else None
        if why is not None and why[0] >= 4:
            return why[1]
        m = g.data.get("match") or {}
        if g.match_end is not None and g.match_end(self):
            return str(m.get("end_reason") or "the match's end condition is met")
        deals = g.match_deals(self)
        if deals > 0 and self.v[DEAL_NUMBER] >= deals:
            if deals == 1:
                return why[1] if why is not None else "the deal is over"
            return f"all {deals} deals are played"
        if g.rounds is not None and 0 < g.rounds(self) <= self.v[ROUND_NUMBER]:
            return f"all {g.rounds(self)} rounds are played"
        if self.v[DEAL_NUMBER] + self.v[REDEALS] >= g.max_deals:
            return f"the deal limit ({g.max_deals} deals, match: max_deals)"
        return why[1] if why is not None else None

    @result.setter
    def result(self, value):
        self._result = value

    # ---- scores -------------------------------------------------------------
    def game_scores(self) -> dict:
        """Match totals by seat (or by team when the ruleset has teams): ``{seat: points}``."""
        g = self.game
        if g.score_counter is None:
            return {}
        c = self.c[g.score_counter.index]
        if g.teams:
            return {i: c[t[0]] for i, t in enumerate(g.teams)}
        return {i: c[i] for i in range(self.n)}

    def scores(self) -> dict:
        """JSON-ready match totals: ``{"0": 13, "1": 0, …}`` (string keys, by seat or team)."""
        return {str(k): v for k, v in self.game_scores().items()}

    def ranking(self) -> list:
        """Seats (or teams) best first by the match counter (the ruleset says lowest or highest best)."""
        vals = self.game_scores()
        return sorted(vals, key=lambda k: (vals[k] if self.game.ranking == "lowest" else -vals[k], k))

    # ---- the public step API ------------------------------------------------
    @property
    def to_act(self):
        """The seat that must act now, or None when the match is over."""
        t = self.v[TO_ACT]
        return None if self.terminal or t < 0 else t

    def current_step(self):
        return None if self.terminal else self.game.steps[self.pc]

    def legal_actions(self) -> list:
        """The legal actions of the seat to act, as text forms, in a stable order (empty when over)."""
        if self.terminal:
            return []
        c = self._cache   # the same as _legal_cached(), inlined: this is the API's hottest call
        if c is None:
            c = self._legal_cached()
        return list(c[0])

    def _legal_map(self) -> dict:
        """text → internal move for the seat to act."""
        texts, moves = self._legal_cached()
        return dict(zip(texts, moves))

    def _legal_cached(self):
        """``(texts, moves)`` for the seat to act, cached until the state changes."""
        c = self._cache   # reset by apply, apply_move and random_playout
        if c is None:
            step = self.game.steps[self.pc]
            try:
                moves = step.legal_sorted(self)
                if not moves:
                    raise RuleFault(f"seat {self.v[TO_ACT]} has no legal action")
                c = self._cache = (step.texts(self, moves), moves)
            except CardspecError:
                raise
            except Exception as e:  # noqa: BLE001
                raise self._failed(e) from None
        return c

    def parse_action(self, text: str):
        """Read an action's text form for the seat to act. Returns the canonical text.

        Raises ``IllegalAction`` when it is not a legal action now (the message lists the legal ones).
        """
        self._parse(text)
        step = self.game.steps[self.pc]
        return step.text(self, self._parse(text))

    def _parse(self, text):
        if self.terminal:
            raise GameOver(None, text, [], "given after the game ended")
        step = self.game.steps[self.pc]
        seat = self.v[TO_ACT]
        try:
            move = step.parse(self, str(text))
        except (ValueError, CardError) as e:
            raise IllegalAction(seat, text, self.legal_actions(), f"not understood ({e})") from None
        if not step.is_legal(self, move):
            raise IllegalAction(seat, text, self.legal_actions(), step.why_illegal(self, move))
        return move

    def apply(self, action: str, seat: int | None = None):
        """Apply an action given in its text form (``QS``, ``pass 2C 3C``, ``bid 3``).

        ``seat``, if given, must be the seat to act. Raises ``IllegalAction`` (state unchanged).
        """
        if seat is not None and not self.terminal and seat != self.v[TO_ACT]:
            raise IllegalAction(seat, action, [], f"not your turn (seat {self.v[TO_ACT]} is to act)")
        if self.terminal:
            raise GameOver(None, action, [], "given after the game ended")
        step = self.game.steps[self.pc]
        c = self._cache   # set by legal_actions(): then the action is a look-up
        try:
            move = c[1][c[0].index(action)]
        except (TypeError, ValueError):  # no list yet, another spelling ("10H"), or an illegal action
            move = self._parse(action)    # parses and checks it directly, without listing every move
            action = step.text(self, move)
        self._cache = None
        self.history.append(action)
        try:
            if step.apply(self, move):
                self._finish_step()
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001
            raise self._failed(e) from None
        return self

    def apply_move(self, move):
        """Apply an internal move (from ``step.legal``) without checks: the fast path for playouts."""
        self._cache = None
        step = self.game.steps[self.pc]
        try:
            if step.apply(self, move):
                self._finish_step()
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001
            raise self._failed(e) from None

    def random_playout(self, rng=None):
        """Play uniformly random legal moves to the end of the match (the fastest loop; no texts)."""
        rng = rng or self.rng
        self._cache = None
        steps = self.game.steps
        try:
            while not self.terminal:
                step = steps[self.pc]
                if step.playout is not None:
                    step.playout(self, rng)
                    self._finish_step()
                else:
                    self.apply_move(step.random_move(self, rng))
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001
            raise self._failed(e) from None
        return self

    def random_move(self, rng):
        """A uniformly random legal internal move (steps may sample without listing every move)."""
        try:
            return self.game.steps[self.pc].random_move(self, rng)
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001
            raise self._failed(e) from None

    # ---- views ----------------------------------------------------------------
    def can_see(self, zone: Zone, owner, seat) -> bool:
        vis = zone.visibility
        if vis == "all":
            return True
        if seat is None:
            return False
        if vis == "owner":
            return owner == seat
        if vis == "all_but_owner":
            return owner != seat
        return False

    def view(self, seat=None, log: bool = False, legal: bool = True) -> dict:
        """What ``seat`` may see, JSON-ready (``seat=None``: a spectator, public facts only).

        Keys: ``seat``, ``players``, ``deal``, ``dealer``, ``to_act``, ``step``, ``zones``
        (name → codes when visible, else ``{"count": n}``; per-seat zones by seat),
        ``counters``, ``vars``, ``trick`` (``[[seat, code], …]``), ``legal_actions`` (when
        ``seat`` is to act), ``terminal``, ``scores``, ``step_index`` (the step being played,
        None when over) and ``system`` (the public system values: trick_number, winner, …).
        ``log=True`` adds ``log``: ``self.log(seat)``, the events this seat has seen. ``legal=False``
        leaves out ``legal_actions`` (a bot that builds its own action text; a play of ordered cards
        can have tens of thousands of legal actions).
        """
        try:
            return self._view(seat, log, legal)
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001
            raise self._failed(e) from None

    def _view(self, seat, log, legal):
        g = self.game
        code = g.deck.code
        zones = {}
        for zn in g.zones:
            if zn.name == "stock" and zn.visibility == "none" and zn.name not in (g.data.get("zones") or {}):
                zones[zn.name] = {"count": len(self.z[zn.index])}
                continue
            if zn.per_seat:
                per = {}
                for owner, cards in enumerate(self.z[zn.index]):
                    if zn.melds:
                        per[str(owner)] = [[code[c] for c in m] for m in cards]
                    elif self.can_see(zn, owner, seat):
                        per[str(owner)] = [code[c] for c in g.deck.sorted(cards)] if zn.name == "hand" \
                            else [code[c] for c in cards]
                    else:
                        per[str(owner)] = {"count": len(cards)}
                zones[zn.name] = per
            else:
                cards = self.z[zn.index]
                if zn.melds:
                    zones[zn.name] = [[code[c] for c in m] for m in cards]
                elif self.can_see(zn, None, seat):
                    zones[zn.name] = [code[c] for c in cards]
                else:
                    k = self.face_up[zn.index]
                    entry = {"count": len(cards)}
                    if k:
                        entry["face_up"] = [code[c] for c in cards[:k]]
                    if zn.visibility == "top":   # a discard pile: only its top card shows
                        entry["top"] = code[cards[-1]] if cards else None
                    zones[zn.name] = entry
        out = {
            "seat": seat, "players": self.n, "deal": self.v[DEAL_NUMBER], "dealer": self.v[DEALER],
            "to_act": self.to_act, "terminal": self.terminal,
            "step": None if self.terminal else g.steps[self.pc].name,
            "zones": zones,
            "counters": {c.name: list(self.c[c.index]) if c.visibility == "all" else
                         [x if i == seat else None for i, x in enumerate(self.c[c.index])] for c in g.counters},
            "vars": {var.name: self.v[var.index] if var.type != "card" else self._code_or_none(self.v[var.index])
                     for var in g.vars if var.shown_to(self, seat)},
            "trick": [[st, code[c]] for st, c in self.plays],
            "leader": self.v[LEADER], "led_suit": g.deck.suits[self.v[LED_SUIT]] if self.v[LED_SUIT] >= 0 else None,
            "trump": g.deck.suits[self.v[TRUMP]] if self.v[TRUMP] >= 0 else None,
            "scores": self.scores(),
            "step_index": None if self.terminal else self.pc,
            "system": {name: self.v[i] for i, (name, _, _) in enumerate(SYSTEM_VARS)},
        }
        if g.sides is not None:
            out["sides"] = g.sides.view(self, seat)
        if log:
            out["log"] = self.log(seat)
        if not self.terminal:
            g.steps[self.pc].add_view(self, seat, out)
        if legal and seat is not None and self.to_act == seat:
            out["legal_actions"] = self.legal_actions()
        return out

    def _code_or_none(self, face):
        return self.game.deck.code[face] if face >= 0 else None

    def log_all(self) -> list:
        """Every event with every field (an omniscient log: replays, tests, referees)."""
        return [{k: v for k, v in ev.items() if not k.startswith("_")} for ev in self.events or ()]

    @property
    def event_count(self) -> int:
        """How many events have been recorded (every seat's): a cursor for ``log(seat, since=…)``."""
        return len(self.events or ())

    def log(self, seat=None, since: int = 0) -> list:
        """Events ``seat`` may see (``None``: public ones), private fields removed.

        ``since``: look only at the events recorded after the first ``since`` (an ``event_count``
        taken earlier), so a follower fetches what is new without filtering the whole log again.
        """
        out = []
        events = self.events or ()
        for ev in (events[since:] if since else events):
            to = ev.get("_to")
            if to is not None and (seat is None or seat not in to):
                redacted = ev.get("_public")
                if redacted is not None:
                    out.append(dict(redacted))
                continue
            out.append({k: v for k, v in ev.items() if not k.startswith("_")})
        return out
