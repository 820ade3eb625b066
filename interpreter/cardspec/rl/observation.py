"""Fixed-length observations and rewards for learning front ends (``cardspec.pettingzoo``, ``cardspec.openspiel``).

``ObservationEncoder(game)`` reads one seat's ``State.view(seat)`` (so it sees exactly what that seat may
see) and writes it into a flat ``float32`` vector whose length and layout depend only on the ``Game``
(the ruleset, its player count and options), fixed when the encoder is built. Seats are written
relative to the observing seat: slot 0 is the seat itself, slot 1 the seat at its left (seat + 1), …
The layout, in order (``encoder.layout`` lists every part as ``(name, offset, size)``; docs/rl.md):

- ``to_act``: one-hot over relative seats (all zero when the match is over);
- ``step``: one-hot over the deal's steps (``game.steps``; none when over);
- every zone, in the ruleset's order: a per-seat zone gives, for every relative seat, a vector of
  card counts by face (``deck.n_faces`` entries; zero where the seat may not see the zone) and the
  zone's size; a shared zone gives the counts of the cards the seat sees there (all of a visible
  zone, the face-up cards, the top of a ``visibility: top`` pile) and its size. A zone of melds gives
  the cards of all its melds and its number of melds;
- ``trick``: for every relative seat, the face it played to the current trick (one-hot);
- ``leader``: one-hot over relative seats; ``led_suit`` and ``trump``: one-hot over the deck's suits;
- every counter, by relative seat (a value the seat may not see is 0);
- every var: ``int``/``bool`` as its value, ``suit`` one-hot over suits, ``card`` one-hot over faces,
  ``seat`` one-hot over relative seats, each followed by 1 when the seat's view shows the var;
- the system values: ``dealer``, ``winner``, ``declarer``, ``called_by`` (one-hot, relative),
  ``deal_number``, ``trick_number``, ``tricks_total``, ``turn_number``, ``bid_number``,
  ``bid_rank``, ``bid_level``, ``round_number``, ``deal_in_round``, ``redeals`` (values) and
  ``bid_suit`` (one-hot);
- ``sides`` (rulesets with ``sides:``): the declarer and the partner (one-hot, relative; zero when
  unknown to the seat), the called card (one-hot), whether the partner is known;
- ``passing``: the cards this seat has chosen to pass and not yet delivered; ``choosing``: the
  cards named by the small choices of the seat's compound decision so far (the view's ``choosing``
  text: ``State.choosing``, ``cardspec.actions``); each followed by its number of cards (of words, for ``choosing``);
- ``terminal``: 1 once the match is over.

Counts and values are raw (not scaled). Rewards: ``seat_scores(state)[seat]`` is the seat's match
score (its team's when the ruleset has teams), negated when the ruleset ranks the lowest score best
(``match: ranking: lowest``), so a larger reward is always better.

Only the public ``State`` API is read (``view``, ``game_scores``); nothing here names a game.
"""
from __future__ import annotations

import random

import numpy as np

from ..errors import CardspecError
from ..engine.slots import SYSTEM_VARS

_SEAT_SYSTEM = ("dealer", "winner", "declarer", "called_by", "sits_out")
_VALUE_SYSTEM = ("deal_number", "trick_number", "tricks_total", "turn_number", "bid_number", "bid_rank",
                 "bid_level", "round_number", "deal_in_round", "redeals")
#: view entries (beyond the zones) that hold the observing seat's own choices: a list of card codes
#: (``passing``: a pass chosen, not yet delivered) or one text (``choosing``: the small choices of a
#: compound decision made so far, e.g. "pass 2C 3C"; ``State.choosing``)
_CARD_LISTS = ("passing", "choosing")


class ObservationEncoder:
    """A ``Game``'s fixed-length observation vector, written from ``State.view(seat)``.

    Attributes:
        size (int): the vector's length (the same for every state and seat of the game).
        layout (list[tuple[str, int, int]]): ``(part name, offset, size)`` of every part, in order.
    """

    def __init__(self, game):
        self.game = g = game
        self.n = n = g.n
        deck = g.deck
        self.faces = deck.n_faces
        self.face_of = deck.face_of
        self.suits = list(deck.suits) + list(deck.extra_suits)   # (extra suits: effective only, by name)
        self.step_names = [st.name for st in g.steps]
        self.layout = []
        self._off = 0

        def part(name, size):
            self.layout.append((name, self._off, size))
            self._off += size
            return self._off - size

        F, S = self.faces, len(self.suits)
        self.o_to_act = part("to_act", n)
        self.o_step = part("step", len(g.steps))
        self.zones = []
        for zn in g.zones:
            if zn.per_seat:
                offs = [part(f"zone:{zn.name}:{r}", F + 1) for r in range(n)]
            else:
                offs = [part(f"zone:{zn.name}", F + 1)]
            self.zones.append((zn.name, zn.per_seat, zn.melds, offs))
        self.o_trick = part("trick", n * F)
        self.o_leader = part("leader", n)
        self.o_led = part("led_suit", S)
        self.o_trump = part("trump", S)
        self.counters = [(c.name, part(f"counter:{c.name}", n)) for c in g.counters]
        self.vars = []
        for var in g.vars:
            width = {"suit": S, "card": F, "seat": n}.get(var.type, 1)
            self.vars.append((var.name, var.type, part(f"var:{var.name}", width + 1), width))
        self.sys_seat = [(name, part(f"system:{name}", n)) for name in _SEAT_SYSTEM]
        self.sys_value = [(name, part(f"system:{name}", 1)) for name in _VALUE_SYSTEM]
        self.o_bid_suit = part("system:bid_suit", S)
        self.o_sides = part("sides", 2 * n + F + 1) if g.sides is not None else None
        self.card_lists = [(key, part(key, F + 1)) for key in _CARD_LISTS]
        self.o_terminal = part("terminal", 1)
        self.size = self._off
        assert {name for name, _, _ in SYSTEM_VARS} >= set(_SEAT_SYSTEM + _VALUE_SYSTEM)

    def _cards(self, hits, off, codes):
        face = self.face_of
        for c in codes:
            f = face.get(c)
            if f is not None:
                hits.append(off + f)

    def encode(self, state, seat: int, view: dict | None = None) -> np.ndarray:
        """The observation of ``seat`` in ``state`` (a new ``float32`` array of ``self.size``).

        ``view``: ``state.view(seat, legal=False)`` when the caller has it already.
        """
        v = view if view is not None else state.view(seat, legal=False)
        return self.encode_view(v, seat)

    def encode_view(self, v: dict, seat: int) -> np.ndarray:
        """The observation vector of a view made by ``State.view(seat)``."""
        n, F = self.n, self.faces
        # The writes are collected — ``hits``: indexes that get 1 added (one-hots, card counts);
        # ``at``/``vals``: indexes set to a value — and made by numpy at once: one numpy call per item
        # would cost more than the view itself.
        hits, at, vals = [], [], []
        t = v.get("to_act")
        if t is not None:
            hits.append(self.o_to_act + (t - seat) % n)
        si = v.get("step_index")
        if si is not None:
            hits.append(self.o_step + si)
        zones = v["zones"]
        for name, per_seat, melds, offs in self.zones:
            entry = zones.get(name)
            if entry is None:
                continue
            if per_seat:
                for owner in range(n):
                    self._zone(hits, at, vals, offs[(owner - seat) % n], entry.get(str(owner)), melds)
            else:
                self._zone(hits, at, vals, offs[0], entry, melds)
        face = self.face_of
        for st, code in v.get("trick") or ():
            f = face.get(code)
            if f is not None:
                hits.append(self.o_trick + ((st - seat) % n) * F + f)
        lead = v.get("leader")
        if lead is not None and lead >= 0:
            hits.append(self.o_leader + (lead - seat) % n)
        for off, suit in ((self.o_led, v.get("led_suit")), (self.o_trump, v.get("trump"))):
            if suit is not None and suit in self.suits:
                hits.append(off + self.suits.index(suit))
        counters = v.get("counters") or {}
        for name, off in self.counters:
            for owner, x in enumerate(counters.get(name) or ()):
                if x:
                    at.append(off + (owner - seat) % n)
                    vals.append(float(x))
        shown = v.get("vars") or {}
        for name, typ, off, width in self.vars:
            if name not in shown:
                continue
            x = shown[name]
            hits.append(off + width)
            if x is None:
                continue
            if typ == "suit":
                if isinstance(x, int) and 0 <= x < len(self.suits):
                    hits.append(off + x)
                elif isinstance(x, str) and x in self.suits:
                    hits.append(off + self.suits.index(x))
            elif typ == "card":
                f = face.get(x) if isinstance(x, str) else (x if isinstance(x, int) and 0 <= x < F else None)
                if f is not None:
                    hits.append(off + f)
            elif typ == "seat":
                if isinstance(x, int) and 0 <= x < n:
                    hits.append(off + (x - seat) % n)
            elif isinstance(x, (int, float, bool)) and x:
                at.append(off)
                vals.append(float(x))
        system = v.get("system") or {}
        for name, off in self.sys_seat:
            x = system.get(name, -1)
            if isinstance(x, int) and 0 <= x < n:
                hits.append(off + (x - seat) % n)
        for name, off in self.sys_value:
            x = system.get(name, 0)
            if isinstance(x, (int, float)) and x:
                at.append(off)
                vals.append(float(x))
        bs = system.get("bid_suit", -1)
        if isinstance(bs, int) and 0 <= bs < len(self.suits):
            hits.append(self.o_bid_suit + bs)
        if self.o_sides is not None:
            sd = v.get("sides") or {}
            off = self.o_sides
            for k, key in enumerate(("declarer", "partner")):
                x = sd.get(key)
                if isinstance(x, int) and 0 <= x < n:
                    hits.append(off + k * n + (x - seat) % n)
            if sd.get("called"):
                self._cards(hits, off + 2 * n, (sd["called"],))
            if sd.get("known"):
                hits.append(off + 2 * n + F)
        for key, off in self.card_lists:
            cards = v.get(key)
            if isinstance(cards, str):
                cards = cards.split()
            if isinstance(cards, (list, tuple)) and cards:
                self._cards(hits, off, [c for c in cards if isinstance(c, str)])
                at.append(off + F)
                vals.append(float(len(cards)))
        if v.get("terminal"):
            hits.append(self.o_terminal)
        out = np.bincount(hits, minlength=self.size).astype(np.float32) if hits else np.zeros(self.size, np.float32)
        if at:
            out[at] = vals
        return out

    def _zone(self, hits, at, vals, off, entry, melds):
        F = self.faces
        if entry is None:
            return
        if isinstance(entry, list):
            if melds:
                for m in entry:
                    self._cards(hits, off, m)
            else:
                self._cards(hits, off, entry)
            size = len(entry)
        else:
            self._cards(hits, off, entry.get("face_up") or ())
            top = entry.get("top")
            if top is not None:
                self._cards(hits, off, (top,))
            size = entry.get("count", 0)
        if size:
            at.append(off + F)
            vals.append(float(size))


def action_codec(game):
    """The game's action codec (``cardspec.actions``): ``game.actions`` when the Game carries one."""
    codec = getattr(game, "actions", None)
    if codec is None:
        from .actions import codec as make   # noqa: PLC0415
        codec = make(game)
    return codec


def start_scores(game) -> list:
    """Every seat's score before play (the score counter's ``initial``), signed as ``seat_scores``."""
    c = game.score_counter
    x = float(c.initial) if c is not None else 0.0
    return [-x if game.ranking == "lowest" else x] * game.n


def seat_scores(state) -> list:
    """Every seat's match score as a reward, by seat: its own (or its team's) total, negated when the
    ruleset ranks the lowest total best (``match: ranking: lowest``). All 0 for a ruleset without a
    score counter."""
    g = state.game
    vals = state.game_scores()
    sign = -1.0 if g.ranking == "lowest" else 1.0
    if g.teams:
        team = {seat: i for i, t in enumerate(g.teams) for seat in t}
        return [sign * float(vals.get(team.get(seat), 0)) for seat in range(state.n)]
    return [sign * float(vals.get(seat, 0)) for seat in range(state.n)]


class NeedShuffle(CardspecError):
    """Raised by a ``ChanceRNG`` asked to shuffle before its chance outcomes are known.

    ``cards``: the faces to be shuffled (a list, with repeats for a multi-deck game).
    """

    code = "adapter/chance"

    def __init__(self, cards):
        super().__init__(f"a shuffle of {len(cards)} cards waits for its chance outcomes")
        self.cards = list(cards)


class ChanceRNG(random.Random):
    """A ``random.Random`` whose deal shuffles are chosen from outside, card by card (chance nodes).

    The ``shuffle`` step (engine/steps/deal.py) asks ``deal_order(cards)`` for the stock's order; this
    RNG answers with the next order queued by ``queue(order)`` (``order``: faces in the order they are
    dealt, the first dealt first) or raises ``NeedShuffle``. Every other draw (an effect's
    ``shuffle``, a refilled stock, ``insert_random``) comes from the Mersenne Twister seeded with
    ``seed``: fixed by the seed, not chance nodes (docs/rl.md).
    """

    def __init__(self, seed=0):
        super().__init__(seed)
        self.orders = []

    def queue(self, order) -> None:
        """Use ``order`` (faces, first dealt first) for the next deal's shuffle."""
        self.orders.append(list(order))

    def deal_order(self, cards) -> list:
        """The stock for a shuffle of ``cards`` (the top, dealt first, at the end of the list)."""
        if not self.orders:
            raise NeedShuffle(cards)
        order = self.orders.pop(0)
        if sorted(order) != sorted(cards):
            raise CardspecError(f"a queued deal order of {len(order)} cards does not match the {len(cards)} cards "
                                "to shuffle")
        return order[::-1]

    def copy(self) -> "ChanceRNG":
        """An independent copy (the generator's state and the queued orders)."""
        r = ChanceRNG()
        r.setstate(self.getstate())
        r.orders = [list(o) for o in self.orders]
        return r
