"""An independent reading of docs/rules/cribbage.md in plain Python (no cardspec code): the legal cards of the
play, the points pegged card by card, the go, who plays next, the show in order, his heels and the win at
once. tests/test_cribbage_oracle.py drives it beside the engine over random deals.

Cards are codes such as ``"5S"``, ``"TD"``, ``"AH"`` (rank letter then suit letter).
"""
from __future__ import annotations

from itertools import combinations

RANKS = "A23456789TJQK"


def rank(card: str) -> int:
    """Rank for runs and pairs, the ace low: A 1 … K 13 (cribbage.md, Cards)."""
    return RANKS.index(card[0]) + 1


def value(card: str) -> int:
    """Counting value: A 1, 2–10 their pips, J Q K 10 (cribbage.md, Cards)."""
    return min(rank(card), 10)


def suit(card: str) -> str:
    return card[-1]


# ---- the show (cribbage.md, "Scoring (the show)") ---------------------------------------------------------
def fifteens(cards) -> int:
    """2 for every distinct subset of 2 or more cards totalling 15."""
    return 2 * sum(1 for k in range(2, len(cards) + 1) for c in combinations(cards, k)
                   if sum(value(x) for x in c) == 15)


def pairs(cards) -> int:
    """2 for every pair of cards of the same rank."""
    return 2 * sum(1 for a, b in combinations(cards, 2) if rank(a) == rank(b))


def runs(cards) -> int:
    """The longest run length L >= 3 found among the cards, times the number of card sets forming it."""
    for length in range(len(cards), 2, -1):
        found = 0
        for c in combinations(cards, length):
            rs = sorted(rank(x) for x in c)
            if all(rs[i + 1] == rs[i] + 1 for i in range(length - 1)):
                found += 1
        if found:
            return length * found
    return 0


def flush(four, starter, crib: bool) -> int:
    """A hand: 4 of one suit 4, and 5 with the starter; the crib: only all 5 of one suit, 5."""
    suits = {suit(c) for c in four}
    if len(suits) != 1:
        return 0
    same = suit(starter) in suits
    if crib:
        return 5 if same else 0
    return 5 if same else 4


def nobs(four, starter) -> int:
    """1 for the jack of the starter's suit among the four (never the starter itself)."""
    return 1 if any(c[0] == "J" and suit(c) == suit(starter) for c in four) else 0


def show(four, starter, crib=False) -> int:
    five = list(four) + [starter]
    return fifteens(five) + pairs(five) + runs(five) + flush(four, starter, crib) + nobs(four, starter)


# ---- the play (cribbage.md, "Play (the pegging)") -------------------------------------------------------
def pegged(count_cards) -> int:
    """Points for the last card of the current count (the cards since the count began, in order)."""
    total = sum(value(c) for c in count_cards)
    pts = 0
    if total == 15:
        pts += 2
    if total == 31:
        pts += 2
    last = rank(count_cards[-1])
    k = 0
    for c in reversed(count_cards):
        if rank(c) != last:
            break
        k += 1
    pts += {2: 2, 3: 6, 4: 12}.get(k, 0)
    best = 0
    for n in range(3, len(count_cards) + 1):
        rs = sorted(rank(c) for c in count_cards[-n:])
        if len(set(rs)) == n and rs[-1] - rs[0] == n - 1:
            best = n
    return pts + best


class Deal:
    """One deal from the laying away on: ``hands`` ({seat: [4 codes]}), the ``starter``, the dealer, the
    scores before the starter is cut and the target. ``events`` collects (seat, points, why) in order."""

    def __init__(self, hands, crib, starter, dealer, scores, target=121):
        self.hands = {s: list(h) for s, h in hands.items()}
        self.kept = {s: list(h) for s, h in hands.items()}
        self.crib = list(crib)
        self.starter = starter
        self.dealer = dealer
        self.pone = 1 - dealer
        self.scores = dict(scores)
        self.target = target
        self.over = False
        self.count = []            # the cards of the current count, in order
        self.last = None           # who played the last card
        self.turn = self.pone
        self.events = []
        if starter[0] == "J":      # his heels
            self._peg(dealer, 2, "his heels")

    def _peg(self, seat, pts, why):
        if self.over or pts == 0:
            return
        self.scores[seat] += pts
        self.events.append((seat, pts, why))
        if self.scores[seat] >= self.target:
            self.over = True       # the game ends at once: nothing after this is counted

    def total(self) -> int:
        return sum(value(c) for c in self.count)

    def can_play(self, seat) -> bool:
        return any(self.total() + value(c) <= 31 for c in self.hands[seat])

    def legal(self):
        return sorted(c for c in self.hands[self.turn] if self.total() + value(c) <= 31)

    def play_done(self) -> bool:
        return not self.hands[0] and not self.hands[1]

    def play(self, card):
        seat = self.turn
        assert card in self.legal(), (card, self.legal())
        self.hands[seat].remove(card)
        self.count.append(card)
        self.last = seat
        self._peg(seat, pegged(self.count), "play")
        if self.over:
            return
        opp = 1 - seat
        if self.can_play(opp):
            self.turn = opp
        elif self.can_play(seat):
            self.turn = seat
        else:   # neither can play: the count ends; the go, unless 31
            if self.total() != 31:
                self._peg(seat, 1, "go")
            self.count = []
            self.turn = opp if self.hands[opp] else seat
        if self.play_done() and not self.over:
            self._show()

    def _show(self):
        self._peg(self.pone, show(self.kept[self.pone], self.starter), "pone's hand")
        self._peg(self.dealer, show(self.kept[self.dealer], self.starter), "dealer's hand")
        self._peg(self.dealer, show(self.crib, self.starter, crib=True), "crib")
