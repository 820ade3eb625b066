"""The steps of a deal: general mechanisms configured by YAML and expressions.

Every step is built from one YAML item of ``deal:`` (``- shuffle``,
``- deal: {…}``, ``- pass: {…}``, ``- tricks: {…}``, ``- score: {…}``,
``- do: [effects]``) and registered in ``STEP_TYPES`` by its keyword
(jsonschema's ``_keywords.py`` idea: one table, one signature); ``cardspec.engine.steps``
imports every mechanism's module, so the table is full once the package is imported. Automatic
steps implement ``run(s)``; decision steps implement ``enter(s)`` (False when
there is nothing to decide), ``legal(s)`` (internal moves), ``apply(s, move)``
(True when the step is over), ``text``/``parse`` (the action's text form).

No step knows a game: everything game-specific is an expression or an effect
list in the ruleset.
"""
from __future__ import annotations

import itertools
from itertools import islice
from operator import itemgetter
from operator import mul as _mul

from ..compiler import Compiler, ZONE, SEAT_ZONE
from ..effects import compile_effects
from ...lang import BOOL, CARD, INT, STR, SUIT, list_of

STEP_TYPES = {}


def _sub_multiset(cards, zone):
    """True when every card of ``cards`` (with repeats) is in ``zone``."""
    if len(cards) == 1:
        return cards[0] in zone
    rest = list(zone)
    for c in cards:
        if c not in rest:
            return False
        rest.remove(c)
    return True


def step_type(name):
    def deco(cls):
        STEP_TYPES[name] = cls
        cls.kind = name
        return cls
    return deco


def build(game, comp: Compiler, spec, path):
    """Build the step for one item of ``deal:``; records a problem and returns None when unknown."""
    if isinstance(spec, str):
        kind, body = spec, {}
    elif isinstance(spec, dict):
        kinds = [k for k in spec if k not in ("id", "if", "name", "before_deal")]
        if len(kinds) != 1:
            comp.problem(path, f"a step has exactly one kind ({', '.join(sorted(STEP_TYPES))}); found "
                               f"{', '.join(kinds) or 'none'}")
            return None
        kind, body = kinds[0], spec[kinds[0]]
    else:
        comp.problem(path, "a step is a name (shuffle) or a mapping (deal: {...})")
        return None
    cls = STEP_TYPES.get(kind)
    if cls is None:
        import difflib
        close = difflib.get_close_matches(str(kind), list(STEP_TYPES), n=1)
        comp.problem(path, f"unknown step '{kind}'", f"did you mean '{close[0]}'?" if close else
                     "steps: " + ", ".join(sorted(STEP_TYPES)))
        return None
    body_path = path if isinstance(spec, str) else path + (kind,)
    step = cls(game, comp, body if body is not None else {}, body_path)
    step.id = spec.get("id") if isinstance(spec, dict) else None
    step.name = step.id or kind
    step.path = path
    step.when = comp.expr(spec["if"], path + ("if",), (), (BOOL,)) if isinstance(spec, dict) and "if" in spec else None
    # A decision step before the deal is complete (e.g. choosing suits that the deal depends on): a
    # scenario's `deal:` (the first deal's result) is applied at the first decision step after it.
    step.before_deal = bool(spec.get("before_deal", False)) if isinstance(spec, dict) else False
    return step


class Step:
    """Base class. ``decision`` steps wait for seats; others run at once."""

    decision = False
    kind = "step"
    before_deal = False

    def __init__(self, game, comp: Compiler, body, path):
        self.game = game
        self.body = body

    def check(self, game, comp):
        pass

    # automatic
    def run(self, s):  # pragma: no cover - overridden
        pass

    # decisions
    def enter(self, s) -> bool:
        return False

    def legal(self, s) -> list:
        return []

    def legal_sorted(self, s) -> list:
        return self.legal(s)

    def random_move(self, s, rng):
        return rng.choice(self.legal(s))

    def is_legal(self, s, move) -> bool:
        """Whether ``move`` is legal now (steps may check faster than listing every move)."""
        return move in self.legal(s)

    #: ``playout(s, rng)``: plays random moves until the step ends (optional fast path).
    playout = None

    def apply(self, s, move) -> bool:  # pragma: no cover - overridden
        return True

    def text(self, s, move) -> str:
        return str(move)

    def texts(self, s, moves) -> list:
        """Text forms of ``moves`` (steps may build many at once faster)."""
        return [self.text(s, m) for m in moves]

    def parse(self, s, text):
        return text

    def why_illegal(self, s, move) -> str:
        return "not a legal action now"

    def add_view(self, s, seat, out):
        pass


def zone_of(game, comp, name, path, per_seat=None):
    """Zone index by name; records a problem (with a hint) when unknown or of the wrong kind."""
    z = game.zone.get(str(name))
    if z is None:
        import difflib
        close = difflib.get_close_matches(str(name), list(game.zone), n=1)
        comp.problem(path, f"unknown zone '{name}'", f"did you mean '{close[0]}'?" if close else
                     "zones: " + ", ".join(game.zone))
        return 0
    if z.order == "top_only":   # a step's own code is not checked against it (docs/rulesets.md): refused
        comp.problem(path, f"zone '{name}' is declared order: top_only; a step may not name it",
                     f"drop order: top_only from zones: {name}, or fill it with a move effect")
    if per_seat is True and not z.per_seat:
        comp.problem(path, f"zone '{name}' is shared; this needs a per-seat zone (owner: seat)")
    if per_seat is False and z.per_seat:
        comp.problem(path, f"zone '{name}' is per seat; this needs a shared zone")
    return z.index


_first = itemgetter(0)


# ---------------------------------------------------------------------------
@step_type("shuffle")
class Shuffle(Step):
    """Gather every card into the stock and shuffle it with the state's RNG.

    The first deal of a state made with ``deck_order`` uses that order (top first).
    """

    def run(self, s):
        g = s.game
        for zn in g.zones:
            if zn.per_seat:
                for h in s.z[zn.index]:
                    h.clear()
            else:
                s.z[zn.index].clear()
        s.face_up = [0] * len(g.zones)
        cards = list(g.deck.cards)
        # Fisher-Yates with the RNG's floats (twice as fast as random.shuffle's bit draws):
        # for i = len-1 … 1, j = int(random() * (i + 1)); swap. The draws and the j's are made
        # in C (same floats, same order), only the swaps run as Python.
        m = len(cards)
        if m > 1:
            js = map(int, map(_mul, islice(iter(s.rng.random, None), m - 1), range(m, 1, -1)))
            for i, j in zip(range(m - 1, 0, -1), js):
                cards[i], cards[j] = cards[j], cards[i]
        if s._stack_order is not None:
            order = list(s._stack_order)
            rest = list(cards)
            for c in order:
                rest.remove(c)
            cards = list(reversed(order + rest[::-1]))
            s._stack_order = None
        s.z[g.stock] = cards   # the top of the stock is the end of the list
        if s.events is not None:
            s.emit({"type": "shuffle", "cards": len(cards)})


@step_type("deal")
class Deal(Step):
    """Deal from the stock (or ``from:``) one card at a time.

    ``to``: a zone. Per-seat zone: ``each`` cards to every seat, starting at
    ``start`` (default: the dealer's left) clockwise. Shared zone: ``count``
    cards, or ``rest: true`` for all that remain. ``face_up``: how many of the
    zone's cards lie face up (an expression evaluated after dealing).

    Event: ``{"type": "deal", "zone", "each"}`` (per-seat) or ``{…, "count"}`` (shared), public; a
    shared zone also logs what every seat now sees of it: ``face_up`` (codes), ``cards`` (the dealt
    codes, bottom first, ``visibility: all``) or ``top`` (its top code, ``visibility: top``).
    """

    def __init__(self, game, comp, body, path):
        super().__init__(game, comp, body, path)
        if not isinstance(body, dict) or "to" not in body:
            comp.problem(path, "deal needs 'to:' (a zone)")
            body = {"to": "stock"}
        self.to = zone_of(game, comp, body["to"], path + ("to",))
        self.src = zone_of(game, comp, body.get("from", "stock"), path + ("from",), per_seat=False)
        self.per_seat = game.zones[self.to].per_seat
        if self.per_seat:
            self.each = comp.expr(body.get("each", 1), path + ("each",), (), (INT,))
            self.start = comp.expr(body.get("start", "left_of(dealer)"), path + ("start",), (), (INT,))
        else:
            self.rest = bool(body.get("rest", False))
            self.count = comp.expr(body.get("count", 0), path + ("count",), (), (INT,)) if not self.rest else None
        self.face_up = comp.expr(body["face_up"], path + ("face_up",), (), (INT,)) if "face_up" in body else None
        self.path = path

    def run(self, s):
        src = s.z[self.src]
        n = s.n
        if self.per_seat:
            k = self.each(s)
            start = self.start(s)
            dst = s.z[self.to]
            if k * n > len(src):
                raise DealError(self, f"cannot deal {k} cards to each of {n} players: {len(src)} left")
            if k > 0:
                # One at a time from the top (the end of the list), clockwise from `start`:
                # the j-th card from the top goes to seat start + j (mod n).
                top = src[len(src) - k * n:][::-1]
                del src[len(src) - k * n:]
                for i in range(n):
                    dst[(start + i) % n].extend(top[i::n])
            if s.events is not None:
                s.emit({"type": "deal", "zone": s.game.zones[self.to].name, "each": k})
        else:
            k = len(src) if self.rest else self.count(s)
            if k > len(src) or k < 0:
                raise DealError(self, f"cannot deal {k} cards to {s.game.zones[self.to].name}: {len(src)} left")
            dst = s.z[self.to]
            if k:
                dst.extend(src[len(src) - k:][::-1])
                del src[len(src) - k:]
            if self.face_up is not None:
                s.face_up[self.to] = max(0, min(self.face_up(s), len(dst)))
            if s.events is not None:
                ev = {"type": "deal", "zone": s.game.zones[self.to].name, "count": k}
                if s.face_up[self.to]:
                    ev["face_up"] = s.game.deck.codes(dst[:s.face_up[self.to]])
                if k:   # what every seat now sees: a face-up zone's dealt cards, a pile's new top
                    vis = s.game.zones[self.to].visibility
                    if vis == "all":
                        ev["cards"] = s.game.deck.codes(dst[len(dst) - k:])
                    elif vis == "top":
                        ev["top"] = s.game.deck.code[dst[-1]]
                s.emit(ev)


class DealError(RuntimeError):
    def __init__(self, step, message):
        super().__init__(message)
        self.step = step


@step_type("pass")
class Pass(Step):
    """Every seat passes ``count`` cards face down to ``to`` (an expression of ``seat``), at once.

    Seats choose one at a time from the dealer's left clockwise; passed cards
    stay hidden (in flight) until every seat has chosen, then arrive together.
    Action text: ``pass 2C 3C`` (any order; shown in display order).
    ``count: 0`` skips the step. With ``one_at_a_time: true`` a seat picks its
    cards in ``count`` actions of one card each (``pass 2C``), as OpenSpiel's
    Hearts does: a small action space for bots and learning environments.
    """

    decision = True

    def __init__(self, game, comp, body, path):
        super().__init__(game, comp, body, path)
        body = body or {}
        self.count = comp.expr(body.get("count", 3), path + ("count",), (), (INT,))
        self.to = comp.expr(body.get("to", "right_of(seat)"), path + ("to",), (("seat", INT),), (INT,))
        self.zone = zone_of(game, comp, body.get("from", "hand"), path + ("from",), per_seat=True)
        self.dest = zone_of(game, comp, body.get("into", body.get("from", "hand")), path + ("into",), per_seat=True)
        self.single = bool(body.get("one_at_a_time", False))
        self._sort_key = game.deck.sort_key.__getitem__
        self._one_text = tuple("pass " + c for c in game.deck.code).__getitem__   # "pass XX" per face
        self._unique = len(set(game.deck.cards)) == len(game.deck.cards)   # a hand never holds a face twice
        self.legal_sorted = self.legal   # already in display order: one call less per action

    def _k(self, s):
        """Cards the seat to act picks with its next action."""
        return 1 if self.single else self.count(s)

    def enter(self, s):
        k = self.count(s)
        if k <= 0:
            return False
        n = s.n
        short = min(map(len, s.z[self.zone]))
        if short < k:
            raise DealError(self, f"cannot pass {k} cards from a hand of {short}")
        d = s.v[0]
        s.flight = [None] * n
        s.queue = [(d + 1 + i) % n for i in range(n)]
        s.v[7] = s.queue[0]
        return True

    def legal(self, s):
        hand = s.z[self.zone][s.v[7]]
        if self.single:   # one card per action: 1-tuples of the hand in display order, repeats once
            if self._unique:
                return list(zip(sorted(hand, key=self._sort_key)))
            distinct = set(hand)
            return list(zip(sorted(distinct if len(distinct) != len(hand) else hand, key=self._sort_key)))
        combos = itertools.combinations(sorted(hand, key=s.game.deck.sort_key.__getitem__), self._k(s))
        if len(set(hand)) == len(hand):
            return list(combos)      # already in display order, no repeats
        return list(dict.fromkeys(combos))

    def is_legal(self, s, move):
        return len(move) == self._k(s) and _sub_multiset(move, s.z[self.zone][s.v[7]])

    def random_move(self, s, rng):
        hand = s.z[self.zone][s.v[7]]
        return tuple(sorted(rng.sample(hand, self._k(s)), key=s.game.deck.sort_key.__getitem__))

    def apply(self, s, move):
        seat = s.v[7]
        hand = s.z[self.zone][seat]
        for c in move:
            hand.remove(c)
        if s.flight[seat] is None:
            s.flight[seat] = []
        s.flight[seat].extend(move)
        if self.single and len(s.flight[seat]) < self.count(s):
            return False
        move = s.flight[seat]
        s.queue.pop(0)
        if s.events is not None:
            s.emit({"type": "pass_chosen", "seat": seat, "cards": s.game.deck.codes(move),
                    "_public": {"type": "pass_chosen", "seat": seat, "count": len(move)}}, to=(seat,))
        if s.queue:
            s.v[7] = s.queue[0]
            return False
        self._deliver(s)
        return True

    def _deliver(self, s):
        """Every seat's chosen cards arrive at once."""
        code = s.game.deck.code
        dest = s.z[self.dest]
        for seat, cards in enumerate(s.flight):
            if cards is None:
                continue
            target = self.to(s, seat) % s.n
            dest[target].extend(cards)
            if s.events is not None:
                s.emit({"type": "pass", "seat": seat, "to": target, "cards": [code[c] for c in cards],
                        "_public": {"type": "pass", "seat": seat, "to": target, "count": len(cards)}},
                       to=(seat, target))
        s.flight = None

    def playout(self, s, rng):
        """Random passes for every seat still to choose (the fast random-playout loop)."""
        k = self.count(s)
        hands = s.z[self.zone]
        rnd = rng.random
        for seat in s.queue:
            hand = hands[seat]
            # A uniform random sample, one float per card (cheaper than random.sample's bit draws).
            chosen = [hand.pop(int(rnd() * len(hand))) for _ in range(k - len(s.flight[seat] or ()))]
            s.flight[seat] = (s.flight[seat] or []) + chosen
        s.queue = []
        self._deliver(s)

    def text(self, s, move):
        code = s.game.deck.code
        return "pass " + " ".join([code[c] for c in move])

    def texts(self, s, moves):
        if self.single:
            return list(map(self._one_text, map(_first, moves)))
        code = s.game.deck.code
        return ["pass " + " ".join([code[c] for c in m]) for m in moves]

    def parse(self, s, text):
        parts = text.replace(",", " ").split()
        if parts and parts[0].lower() == "pass":
            parts = parts[1:]
        deck = s.game.deck
        faces = [deck.face(p) for p in parts]
        return tuple(sorted(faces, key=deck.sort_key.__getitem__))

    def why_illegal(self, s, move):
        k = self._k(s)
        if len(move) != k:
            return f"not legal: pass exactly {k} card(s)"
        return "not legal: pass cards from your own hand"

    def add_view(self, s, seat, out):
        if seat is not None and s.flight is not None and s.flight[seat] is not None:
            out["passing"] = s.game.deck.codes(s.flight[seat])


@step_type("score")
class Score(Step):
    """Score the deal: ``value`` (an expression of ``seat``) into ``counter``, then added to ``add_to``.

    All seats' values are computed before any is stored, so a value may look at
    every seat's cards. Emits ``deal_score`` with the points and the totals
    (unless ``report: false``, for an intermediate step).
    """

    def __init__(self, game, comp, body, path):
        super().__init__(game, comp, body, path)
        value = comp.code(body.get("value", 0), path + ("value",), (("seat", INT),), (INT,))
        # Every seat's value in one generated function (no call per seat).
        self.values = comp.function("", (), statements=[
            f"return [{value.src if value is not None else 0} for p_seat in range({game.n})]"])
        self.counter = self._counter(game, comp, body.get("counter"), path + ("counter",))
        self.add_to = self._counter(game, comp, body.get("add_to"), path + ("add_to",))
        self.report = bool(body.get("report", True))

    @staticmethod
    def _counter(game, comp, name, path):
        if name is None:
            return None
        c = game.counter.get(str(name))
        if c is None:
            import difflib
            close = difflib.get_close_matches(str(name), list(game.counter), n=1)
            comp.problem(path, f"unknown counter '{name}'", f"did you mean '{close[0]}'?" if close else
                         "counters: " + ", ".join(game.counter))
            return None
        return c.index

    def run(self, s):
        vals = self.values(s)
        if self.counter is not None:
            s.c[self.counter] = list(vals)
        if self.add_to is not None:
            tot = s.c[self.add_to]
            for i, x in enumerate(vals):
                tot[i] += x
        if not self.report or s.events is None:
            return
        ev = {"type": "deal_score", "deal": s.v[2], "points": {str(i): x for i, x in enumerate(vals)}}
        if self.add_to is not None:
            ev["totals"] = {str(i): x for i, x in enumerate(s.c[self.add_to])}
        s.emit(ev)


@step_type("do")
class Do(Step):
    """Run a list of effects (``set``, ``add``, ``move``, ``emit``; each may have ``if:``)."""

    def __init__(self, game, comp, body, path):
        super().__init__(game, comp, body, path)
        self.fx = compile_effects(game, comp, body, path, ())

    def run(self, s):
        if self.fx is not None:
            self.fx(s)

