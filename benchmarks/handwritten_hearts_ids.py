"""Hand-written Hearts behind the action-id API: the floor a pure-Python state API can approach.

``benchmarks/handwritten_hearts.py`` is a tight loop that plays a deal with no API; this module is
the same game behind the API an agent drives (issue 21, item 6: ``legal_action_ids()`` /
``apply_id(i)`` against OpenSpiel's ``legal_actions()`` / ``apply_action(a)``), written by hand
with every shortcut a game-specific engine may take, and nothing an API may not skip:

* the legal ids are a new sorted list on every call (the caller may keep or change it);
* ``apply_id`` refuses an id that is not legal now (``ValueError``), leaving the state unchanged;
* the history keeps each action's text (``pass 2C``, ``QS``), as a replayable record must;
* ``terminal`` is a plain attribute; the scores exist when the deal ends.

The game is cardspec's ``hearts`` with ``deals: 1`` (OpenSpiel's ``hearts`` with the pass fixed to
the left): deal 13 each, every seat passes three cards to the left one card at a time (seat 1's
three, then seat 2's, 3's and the dealer 0's), the holder of 2C leads it, no points on the first trick unless a
player holds nothing else, hearts not led until broken (a heart or QS played) unless the leader
holds only hearts, QS 13 and hearts 1 each, shooting the moon scores 0 and 26 to the others.

Cards: ``suit * 13 + rank`` (suits C, D, H, S; ranks 2..A as 0..12), so a sorted hand keeps each
suit together and a suit's cards are one slice. Ids: ``pass C`` is ``C``, playing ``C`` is ``52 + C``.

Used by ``benchmarks/hearts_games.py N handwritten_ids`` (instruction counts under callgrind,
``python benchmarks/rl.py --callgrind N``): its ratio to OpenSpiel says how far a pure-Python state
API can get at all, whatever engine computes the rules.
"""
from __future__ import annotations

from bisect import bisect_left as _bisect

_RANKS, _SUITS = "23456789TJQKA", "CDHS"
HEARTS = 2
TWO_CLUBS, QUEEN_SPADES = 0, 3 * 13 + 10
NAMES = tuple(f"pass {_RANKS[c % 13]}{_SUITS[c // 13]}" for c in range(52)) + \
    tuple(f"{_RANKS[c % 13]}{_SUITS[c // 13]}" for c in range(52))
POINTS = tuple(13 if c == QUEEN_SPADES else 1 if c // 13 == HEARTS else 0 for c in range(52))
_SUIT = tuple(c // 13 for c in range(52))
_LO = tuple(13 * s for s in range(4))
_HI = tuple(13 * s + 13 for s in range(4))
_NO_POINTS = tuple(not POINTS[c] for c in range(52))   # may be played on the first trick
_NOT_HEART = tuple(_SUIT[c] != HEARTS for c in range(52))
_PLAY_ID = (52).__add__
_NEXT = (1, 2, 3, 0)


class HeartsState:
    """One Hearts deal behind ``legal_action_ids()`` / ``apply_id(i)``. ``rng`` (``random.Random``)
    shuffles the deck and seat ``p`` is dealt cards ``13p .. 13p+12`` of it; ``hands`` (four lists of 13
    card numbers) deals those instead."""

    __slots__ = ("hands", "passed", "to_act", "passing", "trick", "leader", "tricks", "broken",
                 "taken", "history", "terminal", "scores", "_legal")

    def __init__(self, rng, hands=None):
        if hands is None:
            deck = list(range(52))
            rng.shuffle(deck)
            hands = [deck[13 * p:13 * p + 13] for p in range(4)]
        self.hands = [sorted(h) for h in hands]
        self.passed = [[], [], [], []]
        self.to_act = 1   # (seat 0 deals; the seat on its left passes first)
        self.passing = True
        self.trick = []
        self.leader = 0
        self.tricks = 0
        self.broken = False
        self.taken = [0, 0, 0, 0]
        self.history = []
        self.terminal = False
        self.scores = None
        self._legal = None

    def legal_action_ids(self) -> list:
        """The legal ids now, sorted ascending (a new list); ``[]`` when the deal is over."""
        if self.terminal:
            return []
        hand = self.hands[self.to_act]
        if self.passing:
            legal = hand
        elif self.trick:
            led = _SUIT[self.trick[0]]
            lo = _bisect(hand, _LO[led])
            hi = _bisect(hand, _HI[led], lo)
            if hi > lo:
                legal = hand[lo:hi]
            elif self.tricks == 0:
                legal = list(filter(_NO_POINTS.__getitem__, hand)) or hand
            else:
                legal = hand
        elif self.tricks == 0:
            legal = [TWO_CLUBS]
        elif self.broken:
            legal = hand
        else:
            legal = list(filter(_NOT_HEART.__getitem__, hand)) or hand
        self._legal = legal
        return hand[:] if self.passing else list(map(_PLAY_ID, legal))

    def apply_id(self, i: int) -> "HeartsState":
        """Apply the action of id ``i``. Raises ``ValueError`` when ``i`` is not legal now."""
        legal = self._legal
        if legal is None:
            self.legal_action_ids()
            legal = self._legal
        card = i if self.passing else i - 52
        if type(i) is not int or card not in legal:
            raise ValueError(f"action id {i!r} is not legal now: {self.legal_action_ids()}")
        self._legal = None
        self.history.append(NAMES[i])
        seat = self.to_act
        hand = self.hands[seat]
        hand.remove(card)
        if self.passing:
            mine = self.passed[seat]
            mine.append(card)
            if len(mine) == 3:
                if seat != 0:
                    self.to_act = _NEXT[seat]
                else:   # every seat has passed: deliver to the left, 2C leads
                    for p in range(4):
                        h = self.hands[_NEXT[p]]
                        h.extend(self.passed[p])
                        h.sort()
                    self.passing = False
                    self.to_act = self.leader = next(p for p in range(4) if self.hands[p][0] == TWO_CLUBS)
            return self
        trick = self.trick
        trick.append(card)
        if POINTS[card] and not self.broken:
            self.broken = True
        if len(trick) < 4:
            self.to_act = _NEXT[seat]
            return self
        led = _SUIT[trick[0]]
        best, win = trick[0], 0
        for k in (1, 2, 3):
            c = trick[k]
            if _SUIT[c] == led and c > best:
                best, win = c, k
        winner = (self.leader + win) & 3
        self.taken[winner] += POINTS[trick[0]] + POINTS[trick[1]] + POINTS[trick[2]] + POINTS[trick[3]]
        self.trick = []
        self.tricks += 1
        self.leader = self.to_act = winner
        if self.tricks == 13:
            self.terminal = True
            taken = self.taken
            self.scores = [0 if t == 26 else 26 for t in taken] if 26 in taken else list(taken)
        return self


def play_random_deal(rng) -> list:
    """One deal with uniformly random legal ids drawn by ``rng.random()``; returns the scores."""
    s = HeartsState(rng)
    rnd = rng.random
    while not s.terminal:
        ids = s.legal_action_ids()
        s.apply_id(ids[int(rnd() * len(ids))])
    return s.scores
