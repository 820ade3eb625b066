"""Cards and decks.

A card is a small ``int``: its *face*, ``suit_index * len(ranks) + rank_index``,
with jokers after the last suit. Two decks give two cards with the same face:
they are identical for every rule (DESIGN.md, "Cards"). All per-card facts
(suit, rank value, points, colour, code) are looked up in tuples built once
per deck, so a rule never parses a code during play.

Card codes (contract): rank then suit, ``AS KH QD JC TS 9H … 2C``; ``10`` is
accepted for ``T`` and the suit symbols ``♠ ♥ ♦ ♣`` for ``S H D C``; jokers are
``JK``. A deck may add **special cards** with codes of their own (``deck: specials:``, docs/cards.md):
two to four capital letters or digits that read as no rank-then-suit code (``WZ``, ``NR``, ``DRG``),
each with a name shown by the front ends and its own rank, suit, strength, points and colour.
"""
from __future__ import annotations

import re

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
#: The shape of a special card's code (``deck: specials:``): a capital letter, then 1–3 capitals or digits.
SPECIAL_CODE = re.compile(r"[A-Z][A-Z0-9]{1,3}")
#: Most special cards a deck may declare (each kind; ``count`` copies of each).
MAX_SPECIALS = 32


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


@dataclass(frozen=True)
class Special:
    """A special card of a deck (``deck: specials:``; docs/cards.md): a card with its own code and name, outside
    the ranks × suits grid.

    Parameters:
        code: its code in actions, logs, views and expressions (``SPECIAL_CODE``: ``WZ``, ``NR``, ``DRG``).
        name: what the front ends show (``Wizard``).
        count: copies of it in one copy of the deck (4 Wizards).
        rank: ``card.rank`` (int, default 0).
        suit: a suit letter of the deck, or None for no suit (``card.suit`` is ``no_suit``; default).
        strength: ``card.strength`` (int, default 0; may exceed every rank's: a card above the aces).
        points: ``card.points`` (None: from the deck's ``points:`` table by code, else 0).
        color: ``'red'``/``'black'``/``'none'`` (None: the suit's colour, or none).

    Raises:
        CardError: a code of the wrong shape, one that reads as a card code, or a bad count.
    """

    code: str
    name: str
    count: int = 1
    rank: int = 0
    suit: str | None = None
    strength: int = 0
    points: int | None = None
    color: str | None = None

    def __post_init__(self):
        if not isinstance(self.code, str) or not SPECIAL_CODE.fullmatch(self.code):
            raise CardError(f"special card code '{self.code}': two to four capital letters or digits, "
                            f"starting with a letter (e.g. WZ, NR, DRG)")
        if self.code == JOKER or _reads_as_card(self.code):
            raise CardError(f"special card code '{self.code}' reads as a card code (rank then suit); choose "
                            f"another (e.g. WZ, NR, DRG)")
        if not 1 <= int(self.count) <= 64:
            raise CardError(f"special card '{self.code}': count {self.count} is not between 1 and 64")
        if self.color is not None and self.color not in COLORS:
            raise CardError(f"special card '{self.code}': colour '{self.color}' is not one of red, black, none")


def _reads_as_card(code: str) -> bool:
    try:
        normalize_code(code)
    except CardError:
        return False
    return True


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
        specials: special cards (``deck: specials:``, docs/cards.md), each a ``Special``; they come after
            the jokers, ``count`` of each per copy.

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
    specials: list = field(default_factory=list)
    #: names of effective suits no printed card has (``deck: extra_suits:``, docs/tricks.md): suit indexes
    #: ``len(suits)``, ``len(suits) + 1``, … that ``suit_of:`` may give and a trump may name (a trump suit
    #: made of cards of several printed suits, e.g. the jacks alone as a suit of their own; the games: docs/tricks.md)
    extra_suits: list = field(default_factory=list)

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
        #: face -> display name of each special card (empty without specials)
        self.special_names = {}
        self.special_faces = []
        if len(self.specials) > MAX_SPECIALS:
            raise CardError(f"{len(self.specials)} special cards: at most {MAX_SPECIALS} kinds")
        for sp in self.specials:
            if sp.code in codes or sp.code in self.special_names:
                raise CardError(f"special card '{sp.code}' is declared twice (use count: for copies)")
            face = len(codes)
            self.special_faces.append(face)
            self.special_names[sp.code] = sp.name
            codes.append(sp.code)
            si = self.suits.index(sp.suit) if sp.suit in self.suits else -1
            if sp.suit is not None and si < 0:
                raise CardError(f"special card '{sp.code}': suit '{sp.suit}' is not a suit of this deck")
            suit.append(si)
            rank.append(sp.rank)
            strength.append(sp.strength)
            color.append(COLORS[sp.color] if sp.color else
                         (COLORS[SUIT_COLORS[sp.suit]] if sp.suit is not None else COLORS["none"]))
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
        one = list(range(nr * len(self.suits)))
        one += [self.joker_face] * self.jokers
        for sp, face in zip(self.specials, self.special_faces):
            one += [face] * sp.count
            if sp.points is not None:
                pts[face] = sp.points
        self.points_of = tuple(pts)
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
        if key.upper() in self.special_names:
            return [self.face_of[key.upper()]]
        try:
            code = normalize_code(key)
        except CardError:
            return []
        return [self.face_of[code]] if len(key) >= 2 and code in self.face_of else []

    @property
    def has_repeats(self) -> bool:
        """Whether some face is in the deck more than once (two decks, two jokers, four of a special card)."""
        return self.copies > 1 or self.jokers > 1 or any(sp.count > 1 for sp in self.specials)

    def name_of(self, code: str) -> str:
        """The name a front end shows for ``code``: a special card's name, else the code itself."""
        return self.special_names.get(code, code)

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
        if self.special_names:
            f = self.face_of.get(text.strip().upper())
            if f is not None and self.code[f] in self.special_names:
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

    @property
    def n_suits(self) -> int:
        """Printed suits and extra (effective-only) suits: the suit indexes are ``0 .. n_suits - 1``."""
        return len(self.suits) + len(self.extra_suits)

    def suit_label(self, x):
        """The text of suit index ``x`` in views and events: a printed suit's letter, an extra suit's name,
        None for -1 (no suit)."""
        if x is None or x < 0:
            return None
        return self.suits[x] if x < len(self.suits) else self.extra_suits[x - len(self.suits)]

    def suit_index(self, name: str) -> int:
        """Index of a suit given by letter or name (``'H'``, ``'hearts'``); -1 if absent."""
        low = name.lower()
        for i, s in enumerate(self.suits):
            if low in (s.lower(), SUIT_NAMES[s], SUIT_NAMES[s][:-1]):
                return i
        for i, s in enumerate(self.extra_suits):   # an effective-only suit, by its name
            if low == s.lower():
                return len(self.suits) + i
        return -1
