"""The ``shuffle`` and ``deal`` steps: gather and shuffle the deck; deal cards from a zone to seats or a zone."""
from __future__ import annotations

from math import floor as _floor

from ...lang import INT, EngineText
from .base import DealError, Step, step_type, zone_of
from ..slots import SITS_OUT


#: Fisher-Yates' positions per deck size: ``(i, float(i + 1))`` for i = size - 1 … 1 (``Shuffle.run``).
_FISHER_YATES: dict = {}


@step_type("shuffle")
class Shuffle(Step):
    """Gather every card into the stock and shuffle it with the state's RNG.

    The first deal of a state made with ``deck_order`` uses that order (top first). An RNG with a
    ``deal_order(cards)`` method chooses the order itself (it returns the stock, top last): the
    OpenSpiel adapter's chance nodes (``cardspec.observation.ChanceRNG``, docs/rl.md).
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
        chosen = getattr(s.rng, "deal_order", None)
        if chosen is not None and s._stack_order is None:
            s.z[g.stock] = chosen(cards)
            if s.events is not None:
                s.emit({"type": "shuffle", "cards": len(cards)})
            return
        # Fisher-Yates with the RNG's floats (twice as fast as random.shuffle's bit draws):
        # for i = len-1 … 1, j = int(random() * (i + 1)); swap. floor() is int() for these
        # non-negative floats (the same j's) at half the cost of int()'s conversion: a 53-card
        # shuffle is about 70,000 instructions instead of 104,000 for the draws made through C
        # iterators (map(int, …)) and the swaps in Python.
        # The pairs (i, i + 1) are made once per deck size, i + 1 as a float (exact: the same products,
        # the same j's): no addition and no int-to-float conversion per card, 16% less (about 58,000
        # instructions for 53 cards).
        random = s.rng.random
        pairs = _FISHER_YATES.get(len(cards))
        if pairs is None:
            pairs = _FISHER_YATES[len(cards)] = tuple((i, float(i + 1)) for i in range(len(cards) - 1, 0, -1))
        for i, k in pairs:
            j = _floor(random() * k)
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
    reads_order = True
    """Deal from the stock (or ``from:``) one card at a time.

    ``to``: a zone. Per-seat zone: ``each`` cards to every seat, starting at
    ``start`` (default: the dealer's left) clockwise, or in play order (``match: next_player``). Shared zone: ``count``
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
        self._misused_keys(game, comp, body, path)
        if self.per_seat:
            self.each = comp.expr(body.get("each", 1), path + ("each",), (), (INT,))
            self.start = comp.expr(body.get("start", EngineText("next_player(dealer)") if game.next_expr is not None
                                           else EngineText("left_of(dealer)")), path + ("start",), (), (INT,))
        else:
            self.rest = bool(body.get("rest", False))
            self.count = comp.expr(body.get("count", 0), path + ("count",), (), (INT,)) if not self.rest else None
        self.face_up = comp.expr(body["face_up"], path + ("face_up",), (), (INT,)) if "face_up" in body else None
        self.path = path

    #: Keys that mean something only for one kind of zone (a per-seat zone takes ``each``/``start``, a
    #: shared zone ``count``/``rest``/``face_up``), with the key of the other kind an author may have meant.
    _PER_SEAT_KEYS = {"each": "count", "start": None}
    _SHARED_KEYS = {"count": "each", "rest": None, "face_up": None}

    def _misused_keys(self, game, comp, body, path):
        """A problem at each key that the zone's kind would silently ignore: ``deal: {to: hand, count: 26}``
        (meant ``each: 26``) dealt one card each; ``each:`` into a shared zone dealt nothing."""
        zone = game.zones[self.to]
        if self.per_seat:
            wrong, mine, other = self._SHARED_KEYS, "per seat (owner: seat)", "each: (cards to every seat) and start:"
        else:
            wrong, mine, other = self._PER_SEAT_KEYS, "shared", "count:, rest: and face_up:"
        for key, meant in wrong.items():
            if key not in body:
                continue
            if key == "rest":
                hint = "deal the rest evenly with each: count(stock) / players"
            elif meant:
                hint = f"did you mean {meant}: {body[key]}?"
            else:
                hint = f"leave out {key}:, or deal to a {'shared' if self.per_seat else 'per-seat'} zone"
            comp.problems.append(comp.pos.problem(
                path + (key,), f"{key}: is for a {'shared' if self.per_seat else 'per-seat'} zone and would be "
                f"ignored here: '{zone.name}' is {mine}, dealt with {other}", hint, key=True))

    def run(self, s):
        src = s.z[self.src]
        n = s.n
        if self.per_seat:
            k = self.each(s)
            start = self.start(s)
            dst = s.z[self.to]
            nxt = s.nxt
            if s.game.may_sit_out and s.v[SITS_OUT] >= 0:   # a seat sits out: the others, in play order
                n = s.n - 1
                start = s.game.seated(s, start)
                nxt = s.nxt or s.game.order_table(s)
            if k * n > len(src):
                raise DealError(self, f"cannot deal {k} cards to each of {n} players: {len(src)} left")
            if k > 0:
                # One at a time from the top (the end of the list), clockwise from `start`:
                # the j-th card from the top goes to seat start + j (mod n).
                top = src[len(src) - k * n:][::-1]
                del src[len(src) - k * n:]
                if nxt is None:
                    for i in range(n):
                        dst[(start + i) % n].extend(top[i::n])
                else:   # in play order (match: next_player)
                    seat = start % s.n
                    for i in range(n):
                        dst[seat].extend(top[i::n])
                        seat = nxt[seat]
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
