"""Cards and decks.

A card is a small ``int``: its *face*, ``suit_index * len(ranks) + rank_index``,
with jokers after the last suit. Two decks give two cards with the same face:
they are identical for every rule (DESIGN.md, "Cards"). All per-card facts
(suit, rank value, points, colour, code) are looked up in tuples built once
per deck, so a rule never parses a code during play.

Card codes (contract): rank then suit, ``AS KH QD JC TS 9H … 2C``; ``10`` is
accepted for ``T`` and the suit symbols ``♠ ♥ ♦ ♣`` for ``S H D C``; jokers are
``JK``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

SUIT_LETTERS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
SUIT_COLORS = {"S": "black", "C": "black", "H": "red", "D": "red"}
#: Numeric value of each rank letter; the ace is 14 when high and 1 when low.
RANK_VALUES = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
               "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
STANDARD_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
JOKER = "JK"
COLORS = {"black": 0, "red": 1, "none": 2}


class CardError(ValueError):
    """A card code that the deck does not know (``ValueError``)."""


def normalize_code(text: str) -> str:
    """Return the canonical code of ``text`` (``'10♥'`` → ``'TH'``, ``'qs'`` → ``'QS'``).

    Raises:
        CardError: when ``text`` is not shaped like a card code.
    """
    t = text.strip()
    if not t:
        raise CardError("empty card code")
    for sym, letter in SUIT_SYMBOLS.items():
        t = t.replace(sym, letter)
    t = t.upper()
    if t == JOKER:
        return t
    # Symbols may stand before the rank (♥10) as people write them.
    if len(t) >= 2 and t[0] in SUIT_LETTERS and t[1:] in ("10",) + tuple(RANK_VALUES):
        t = t[1:] + t[0]
    rank, suit = t[:-1], t[-1:]
    if rank == "10":
        rank = "T"
    if rank == "1":
        rank = "A"
    if rank not in RANK_VALUES or suit not in SUIT_LETTERS:
        raise CardError(f"'{text}' is not a card code (rank then suit, e.g. QS, 10H, 2C, JK)")
    return rank + suit


@dataclass
class Deck:
    """The card tables of one ruleset's deck.

    Parameters:
        ranks: rank letters of one suit, lowest first (e.g. ``['7', '8', …, 'A']``): the order of
            strength (a pack ranking A 3 K Q J 7 6 5 4 2 is ``['2', '4', '5', '6', '7', 'J', 'Q',
            'K', '3', 'A']``; docs/tricks.md).
        suits: suit letters, in display order (``['S', 'H', 'D', 'C']``).
        copies: how many of each card (2 for two decks shuffled together).
        jokers: jokers per copy.
        ace: ``'high'`` (A = 14) or ``'low'`` (A = 1) for ``card.rank``.
        points: card code, suit name or ``'joker'`` → points; a code wins over a suit.

    Attributes (tuples indexed by face): ``suit`` (printed suit index, -1 for jokers),
    ``rank`` (numeric rank value), ``strength`` (place in ``ranks``: 1 for the first listed, 0 for
    a joker; ``ace='low'`` puts the ace first), ``points``, ``color`` (0 black, 1 red, 2 none),
    ``code``; ``eff_suit`` (the effective suit, ``deck: suit_of:``; the printed suit unless
    ``set_effective_suits`` was called); ``sort_key`` (display order); ``cards`` is the full
    unshuffled deck (faces, with repeats).
    """

    ranks: list
    suits: list
    copies: int = 1
    jokers: int = 0
    ace: str = "high"
    points: dict = field(default_factory=dict)

    def __post_init__(self):
        ranks = [normalize_code(r + "S")[:-1] for r in self.ranks]
        self.ranks = ranks
        self.suits = [normalize_code("A" + s)[-1] for s in self.suits]
        for what, items in (("rank", ranks), ("suit", self.suits)):
            twice = next((x for i, x in enumerate(items) if x in items[:i]), None)
            if twice is not None:   # two faces with one code: no action text could tell them apart
                raise CardError(f"{what} '{twice}' is listed twice in the deck (use copies: 2 for two decks)")
        nr = len(ranks)
        codes, suit, rank, color, strength = [], [], [], [], []
        # Strength: the place in the list (lowest first); `ace: low` puts the ace below every rank.
        listed = list(ranks)
        if self.ace == "low" and "A" in listed:
            listed.remove("A")
            listed.insert(0, "A")
        place = {r: i + 1 for i, r in enumerate(listed)}
        for si, s in enumerate(self.suits):
            for r in ranks:
                codes.append(r + s)
                suit.append(si)
                v = RANK_VALUES[r]
                rank.append(1 if (r == "A" and self.ace == "low") else v)
                strength.append(place[r])
                color.append(COLORS[SUIT_COLORS[s]])
        self.joker_face = len(codes) if self.jokers else -1
        if self.jokers:
            codes.append(JOKER)
            suit.append(-1)
            rank.append(0)
            strength.append(0)
            color.append(COLORS["none"])
        self.code = tuple(codes)
        self.suit = tuple(suit)
        self.rank = tuple(rank)
        self.strength = tuple(strength)
        #: rank value (0 … 14) -> strength in this deck (0: a rank the deck does not have)
        self.rank_strength = tuple(next((strength[f] for f in range(len(codes)) if rank[f] == v and suit[f] >= 0), 0)
                                   for v in range(15))
        self.color = tuple(color)
        self.n_faces = len(codes)
        self.face_of = {c: i for i, c in enumerate(codes)}
        pts = [0] * len(codes)
        for key in (self.points or {}):
            k = str(key)
            if not any(self._faces_for_key(k, level) for level in ("suit", "rank", "card")) and \
                    k.lower() not in ("joker", "jokers", "jk"):
                err = CardError(f"points: '{k}' is not a suit, a rank or a card of this deck")
                err.key = k
                raise err
        # Most specific entry wins: a suit, then a rank, then a card code.
        for level in ("suit", "rank", "card"):
            for key, value in (self.points or {}).items():
                for f in self._faces_for_key(str(key), level):
                    pts[f] = int(value)
        self.points_of = tuple(pts)
        one = list(range(nr * len(self.suits)))
        one += [self.joker_face] * self.jokers
        self.cards = tuple(one * self.copies)
        self.eff_suit = self.suit
        self._make_sort_key()

    def _make_sort_key(self):
        """Display order: by (effective) suit as listed, strongest first, jokers last.

        An int per face (cheap to compare); cards of one effective suit and strength (queens
        moved into the trump suit) follow the printed suits' order.
        """
        eff, printed, strength = self.eff_suit, self.suit, self.strength
        self.sort_key = tuple(((eff[f] if eff[f] >= 0 else 99) * 64 + (63 - strength[f])) * 128
                              + (printed[f] if printed[f] >= 0 else 99) for f in range(len(self.code)))

    def set_effective_suits(self, table) -> None:
        """Give every face its effective suit (``deck: suit_of:``, docs/tricks.md): ``table[face]`` is a
        suit index or -1 (no suit). Display order then groups cards by effective suit."""
        self.eff_suit = tuple(table)
        self._make_sort_key()

    def _faces_for_key(self, key: str, level: str) -> list:
        """Faces a ``points:`` key names at ``level`` (suit name, rank letter, card code, joker)."""
        low = key.lower()
        codes = self.code
        if level == "suit":
            letter = next((l for l, n in SUIT_NAMES.items() if low in (n, n[:-1])), None)
            return [f for f, c in enumerate(codes) if letter and c != JOKER and c[-1] == letter]
        if level == "rank":
            r = "T" if key == "10" else key.upper()
            if r in RANK_VALUES and len(key) <= 2:
                return [f for f, c in enumerate(codes) if c != JOKER and c[:-1] == r]
            return []
        if low in ("joker", "jokers", "jk"):
            return [self.joker_face] if self.jokers else []
        try:
            code = normalize_code(key)
        except CardError:
            return []
        return [self.face_of[code]] if len(key) >= 2 and code in self.face_of else []

    def __len__(self) -> int:
        return len(self.cards)

    def face(self, text: str) -> int:
        """Face of a card code in this deck.

        Raises:
            CardError: not a code, or a card this deck does not hold.
        """
        f = self.face_of.get(text)
        if f is not None:
            return f
        code = normalize_code(text)
        try:
            return self.face_of[code]
        except KeyError:
            raise CardError(f"'{text}' is not in this deck "
                            f"({len(self.cards)} cards: ranks {' '.join(self.ranks)}, suits {' '.join(self.suits)})") from None

    def codes(self, faces) -> list:
        """Codes of ``faces`` in the given order."""
        c = self.code
        return [c[f] for f in faces]

    def sorted(self, faces) -> list:
        """``faces`` in display order: suits as the deck lists them, high rank first."""
        return sorted(faces, key=self.sort_key.__getitem__)

    def suit_index(self, name: str) -> int:
        """Index of a suit given by letter or name (``'H'``, ``'hearts'``); -1 if absent."""
        low = name.lower()
        for i, s in enumerate(self.suits):
            if low in (s.lower(), SUIT_NAMES[s], SUIT_NAMES[s][:-1]):
                return i
        return -1
