"""The ``pass`` step: every seat passes cards face down to another seat, or into one shared zone, all at once."""
from __future__ import annotations

import itertools
import math
from itertools import combinations, combinations_with_replacement
from operator import itemgetter

from ...lang import INT, EngineText, RuleFault
from .base import MAX_LISTED, DealError, Step, _listing_too_large, _sub_multiset, step_type, zone_of
from ..slots import SITS_OUT

_first = itemgetter(0)

#: The most texts of passes of one count a ``Pass`` step keeps (``Pass._table``: 22,100 sets of three cards
#: from 52, about 3 MB); past it they are made at each listing.
_MAX_TEXTS = 30_000


class KSets:
    """The k-sets of a sorted hand without repeats, in ``itertools.combinations`` order, as a read-only
    sequence made without a tuple per set: the moves of a listing of which one is applied (``State``'s
    cache: ``moves[texts.index(text)]``). ``ksets[i]`` is the i-th set (a tuple of faces, made on demand),
    ``len``, iteration and ``==`` with a list as the list ``list(combinations(hand, k))``."""

    __slots__ = ("hand", "k", "n")

    def __init__(self, hand: list, k: int):
        self.hand, self.k, self.n = hand, k, math.comb(len(hand), k)

    def __len__(self) -> int:
        return self.n

    def __iter__(self):
        return combinations(self.hand, self.k)

    def __getitem__(self, i: int) -> tuple:
        """The i-th set (``IndexError`` out of range; a negative i counts from the end)."""
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError("k-set index out of range")
        hand, k = self.hand, self.k
        out, j, m = [], 0, len(hand)
        while k:   # the first card is hand[j] for the first j whose sets with it reach past i
            c = math.comb(m - j - 1, k - 1)
            if i < c:
                out.append(hand[j])
                k -= 1
            else:
                i -= c
            j += 1
        return tuple(out)

    def __eq__(self, other) -> bool:
        return list(self) == (list(other) if isinstance(other, KSets) else other)

    __hash__ = None

    def __repr__(self) -> str:
        return f"KSets({self.hand!r}, {self.k})"


@step_type("pass")
class Pass(Step):
    """Every seat passes ``count`` cards face down to ``to`` (an expression of ``seat``), at once.

    Seats choose one at a time from the dealer's left clockwise; passed cards
    stay hidden (in flight) until every seat has chosen, then arrive together.
    ``to`` sends each seat's cards to a different seat (left, right, across, or
    ``seat`` itself to keep them), so every hand keeps its size; two seats passing
    to one is a fault of the ruleset (``DealError``, reported at this step).
    With ``into:`` a shared zone the pass is many-to-one: every seat's cards go into that one zone
    (a crib: each player lays away two cards for the dealer; a bid of one card face down from each
    player; docs/rulesets.md, "A pass into one shared zone"), ``to`` has no meaning there and is refused.
    Action text: ``pass 2C 3C`` (any order; shown in display order).
    ``count: 0`` skips the step. With ``one_at_a_time: true`` a seat picks its
    cards in ``count`` actions of one card each (``pass 2C``), as OpenSpiel's
    Hearts does: a small action space for bots and learning environments; the
    listed actions are one card each, but a person may still type several of
    the cards left to choose in one action (``pass 2C 3C 4C``: issue 21).
    """

    decision = True

    def __init__(self, game, comp, body, path):
        super().__init__(game, comp, body, path)
        body = body or {}
        self.count = comp.expr(body.get("count", 3), path + ("count",), (), (INT,))
        self.zone = zone_of(game, comp, body.get("from", "hand"), path + ("from",), per_seat=True)
        into = game.zone.get(str(body.get("into")))
        #: many-to-one: ``into`` is a shared zone and every seat's cards go there (class doc)
        self.shared = into is not None and not into.per_seat
        if self.shared and "to" in body:
            comp.problem(path + ("to",), f"to: names a receiving seat, but into: '{into.name}' is a shared zone: "
                                         "every seat's cards go there", "drop to:, or make into: a per-seat zone")
        self.to = None if self.shared else \
            comp.expr(body.get("to", EngineText("right_of(seat)")), path + ("to",), (("seat", INT),), (INT,))
        self.dest = zone_of(game, comp, body.get("into", body.get("from", "hand")), path + ("into",),
                            per_seat=None if self.shared else True)
        self.dest_name = str(body.get("into", body.get("from", "hand")))
        self.single = bool(body.get("one_at_a_time", False))
        self._sort_key = game.deck.sort_key.__getitem__
        self._one_text = tuple("pass " + c for c in game.deck.code).__getitem__   # "pass XX" per face
        self._unique = len(set(game.deck.cards)) == len(game.deck.cards)   # a hand never holds a face twice
        self.legal_sorted = self.legal   # already in display order: one call less per action
        self._tables = {}   # k -> {a pass's k faces in display order: its text} (_table)
        if not self.single:
            self.legal_texts = self._legal_texts

    def _k(self, s):
        """Cards the seat to act picks with its next action."""
        return 1 if self.single else self.count(s)

    def enter(self, s):
        k = self.count(s)
        if k <= 0:
            return False
        n = s.n
        out = s.v[SITS_OUT] if s.game.may_sit_out else -1   # a seat that sits out passes nothing
        short = min(len(h) for i, h in enumerate(s.z[self.zone]) if i != out)
        if short < k:
            raise DealError(self, f"cannot pass {k} cards from a hand of {short}")
        d = s.v[0]
        s.flight = [None] * n
        s.queue = [x for x in ((d + 1 + i) % n for i in range(n)) if x != out]
        s.v[7] = s.queue[0]
        return True

    def legal(self, s):
        hand = s.z[self.zone][s.v[7]]
        if self.single:   # one card per action: 1-tuples of the hand in display order, repeats once
            if self._unique:
                return list(zip(sorted(hand, key=self._sort_key)))
            distinct = set(hand)
            return list(zip(sorted(distinct if len(distinct) != len(hand) else hand, key=self._sort_key)))
        k = self._k(s)
        if k < 0 or math.comb(len(hand), k) > MAX_LISTED:   # (k changed since the step began)
            if k < 0:
                raise RuleFault(f"the pass count is {k}")
            _listing_too_large(f"a pass of {k} cards from {len(hand)}")
        combos = itertools.combinations(sorted(hand, key=s.game.deck.sort_key.__getitem__), k)
        if len(set(hand)) == len(hand):
            return list(combos)      # already in display order, no repeats
        return list(dict.fromkeys(combos))

    def _legal_texts(self, s):
        """``(texts, moves)``: ``legal``'s moves and their ``texts`` in one call, the same lists — for a
        hand without repeats made without a new tuple per set, and, when the deck's sets of k cards are
        at most ``_MAX_TEXTS``, without a new string (680 of three cards from seventeen: 22,100 sets of
        three from 52): the texts are read from the step's table of every set's text (``_table``, made
        once per count), the moves are ``KSets`` (a set made only when one is applied). Raises what
        ``legal`` raises."""
        hand = s.z[self.zone][s.v[7]]
        k = self._k(s)
        n = len(hand)
        if not 0 < k <= n or math.comb(n, k) > MAX_LISTED or len(set(hand)) != n:
            moves = self.legal(s)
            if 0 < k <= n and not self._unique:   # a hand with repeats (several decks): the texts of the
                table = self._tables.get(-k)       # table of every multiset of k faces, when one is made
                if table is None:
                    table = self._table(s, k, True)
                if table:
                    try:
                        return list(map(table.__getitem__, moves)), moves
                    except KeyError:   # (a face of two sort places: the texts made one by one)
                        pass
            return self.texts(s, moves), moves
        hand = sorted(hand, key=s.game.deck.sort_key.__getitem__)
        moves = KSets(hand, k)
        table = self._tables.get(k)
        if table is None:
            table = self._table(s, k)
        if table:
            return list(map(table.__getitem__, combinations(hand, k))), moves
        return self.texts(s, moves), moves

    def _table(self, s, k: int, repeats: bool = False) -> dict:
        """Every pass of ``k`` of the deck's faces (a tuple in display order) -> its text, kept per ``k``
        (``repeats``: every multiset of ``k`` faces, for a deck holding a face more than once, kept
        under ``-k``); empty when they are more than ``_MAX_TEXTS``. At most two tables per pass count,
        each of at most ``_MAX_TEXTS`` entries."""
        deck = s.game.deck
        faces = sorted(set(deck.cards), key=deck.sort_key.__getitem__)
        table = {}
        sets = combinations_with_replacement if repeats else combinations
        if (math.comb(len(faces) + k - 1, k) if repeats else math.comb(len(faces), k)) <= _MAX_TEXTS:
            table = dict(zip(sets(faces, k), self.texts(s, list(sets(faces, k)))))
        self._tables[-k if repeats else k] = table
        return table

    def _left(self, s):
        """Cards the seat to act has still to choose (``one_at_a_time``: the pass may be typed whole)."""
        chosen = s.flight[s.v[7]] if s.flight is not None else None
        return self.count(s) - len(chosen or ())

    def is_legal(self, s, move):
        if self.single:
            return 1 <= len(move) <= self._left(s) and _sub_multiset(move, s.z[self.zone][s.v[7]])
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
        if self.shared:   # many-to-one: every seat's cards into the one zone, from the dealer's left
            for seat in self._order(s):
                cards = s.flight[seat]
                if cards is None:
                    continue
                dest.extend(cards)
                if s.events is not None:
                    s.emit({"type": "pass", "seat": seat, "into": self.dest_name, "cards": [code[c] for c in cards],
                            "_public": {"type": "pass", "seat": seat, "into": self.dest_name, "count": len(cards)}},
                           to=(seat,))
            s.flight = None
            return
        n = s.n
        out = s.v[SITS_OUT] if s.game.may_sit_out else -1
        # a seat that sits out receives nothing: a pass to it goes on to the next seat in play order
        targets = [s.game.seated(s, self.to(s, seat)) if seat != out else -1 for seat in range(n)]
        playing = [x for x in targets if x >= 0]
        if len(set(playing)) < len(playing):   # two seats passing to one: hands would change size (class doc)
            t = next(t for t in playing if targets.count(t) > 1)
            raise DealError(self, f"to: sends the cards of seats {', '.join(str(i) for i, x in enumerate(targets) if x == t)}"
                                  f" all to seat {t}: each seat must receive the cards of exactly one seat")
        for seat, cards in enumerate(s.flight):
            if cards is None:
                continue
            target = targets[seat]
            dest[target].extend(cards)
            if s.events is not None:
                s.emit({"type": "pass", "seat": seat, "to": target, "cards": [code[c] for c in cards],
                        "_public": {"type": "pass", "seat": seat, "to": target, "count": len(cards)}},
                       to=(seat, target))
        s.flight = None

    @staticmethod
    def _order(s):
        """Seats from the dealer's left clockwise (the order the seats chose in)."""
        d = s.v[0]
        return [(d + 1 + i) % s.n for i in range(s.n)]

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
        # A pass of several cards lists every set of the hand (680 of three from seventeen): for the usual
        # sizes each text is one f-string of the codes, the move unpacked (no list and no join per move).
        code = s.game.deck.code
        sizes = set(map(len, moves))
        k = sizes.pop() if len(sizes) == 1 else 0
        if k == 3:
            return [f"pass {code[a]} {code[b]} {code[c]}" for a, b, c in moves]
        if k == 2:
            return [f"pass {code[a]} {code[b]}" for a, b in moves]
        if k == 4:
            return [f"pass {code[a]} {code[b]} {code[c]} {code[d]}" for a, b, c, d in moves]
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
        if self.single and not 1 <= len(move) <= self._left(s):
            left = self._left(s)
            return f"not legal: pass 1 card (or up to the {left} left to choose)" if left > 1 else \
                "not legal: pass 1 card"
        if not self.single and len(move) != k:
            return f"not legal: pass exactly {k} card(s)"
        hand = s.z[self.zone][s.v[7]]
        code = s.game.deck.code
        for c in dict.fromkeys(move):
            held, given = hand.count(c), move.count(c)
            if held == 0:
                return f"not legal: {code[c]} is not in your hand"
            if given > held:
                return f"not legal: {code[c]} is named {given} times and you hold " + \
                    ("one" if held == 1 else str(held))
        return "not legal: pass cards from your own hand"

    # ---- small choices (docs/actions.md) ---------------------------------------------------------
    @property
    def compound(self):
        return not self.single

    def choice_names(self, game):
        """``pass C`` per card (the first card, or the only one with ``one_at_a_time``), then each card."""
        codes = self.card_codes(game)
        return ["pass " + c for c in codes] + ([] if self.single else codes)

    def move_ids(self, codec):
        if not self.single:
            return None
        tab = [codec._index.get("pass " + c, -1) for c in self.game.deck.code]
        inv = {i: (f,) for f, i in enumerate(tab) if i >= 0}
        return (lambda s, moves: [tab[m[0]] for m in moves]), inv, None

    def id_fast_path(self, codec, table):
        """One card per action: the keys are the cards of the hand itself (the state's list, in hand
        order: the caller sorts the ids), applied by ``_pass_one``."""
        if not self.single or table is None:
            return None
        tab = [codec._index.get("pass " + c, -1) for c in self.game.deck.code]
        return tab.__getitem__, self._held, self._pass_one, {i: f for f, i in enumerate(tab) if i >= 0}, False

    def id_fused(self, codec):
        """``(keys lines, play lines, names)`` for ``fused_state_class``: the keys are the hand itself
        (``_held``), one card is passed as ``_pass_one`` passes it."""
        if self.id_fast is None:
            return None
        k = f"_{id(self)}"
        lines = ([f"c1 = s.z[{int(self.zone)}][s.v[7]]"],
                 ["_ps = s.v[7]",
                  f"s.z[{int(self.zone)}][_ps].remove(p_card)",
                  "_ch = s.flight[_ps]",
                  "if _ch is None:",
                  "    _ch = s.flight[_ps] = []",
                  "_ch.append(p_card)",
                  f"done = len(_ch) >= _pass_count{k}(s) and _pass_apply{k}(s, ())"])
        return lines[0], lines[1], {f"_pass_count{k}": self.count, f"_pass_apply{k}": self.apply}

    def _held(self, s):
        return s.z[self.zone][s.v[7]]

    def _pass_one(self, s, card):
        """``apply(s, (card,))`` of a one-card pass without the generic loop."""
        seat = s.v[7]
        s.z[self.zone][seat].remove(card)
        chosen = s.flight[seat]
        if chosen is None:
            chosen = s.flight[seat] = []
        chosen.append(card)
        if len(chosen) < self.count(s):
            return False
        return self.apply(s, ())

    def choice_options(self, s, pos):
        """A pass of k cards: one card at a time (``pass 2C``, then ``3C``, ``4C``) in any order; any
        cards of the hand make a legal pass, so every card still held is offered until k are chosen."""
        if self.single:
            return Step.choice_options(self, s, pos)
        chosen = pos or ()
        key = self._sort_key
        if len(chosen) >= self.count(s):
            return [], tuple(sorted(chosen, key=key))
        rest = list(s.z[self.zone][s.v[7]])
        for c in chosen:
            rest.remove(c)
        code = s.game.deck.code
        faces = sorted(set(rest), key=key)
        if not chosen:
            return ["pass " + code[f] for f in faces], None
        return [code[f] for f in faces], None

    def choice_next(self, s, pos, chunk):
        if self.single:
            return Step.choice_next(self, s, pos, chunk)
        return (pos or ()) + (s.game.deck.face(chunk.split()[-1]),)

    def add_view(self, s, seat, out):
        if seat is not None and s.flight is not None and s.flight[seat] is not None:
            out["passing"] = s.game.deck.codes(s.flight[seat])
        if self.single and seat is not None and seat == s.to_act and s.flight is not None:
            out["pass_left"] = self._left(s)   # cards still to choose (typed one or several at a time)
