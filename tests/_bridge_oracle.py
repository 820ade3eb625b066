"""An independent reading of docs/rules/bridge.md in plain Python (no cardspec code): the oracle that
tests/test_bridge.py holds rulesets/bridge.yaml to. Cards are codes such as ``TS`` (ranks 2-9 T J Q K A,
suits S H D C); seats 0-3 are North, East, South, West; strains C D H S N (N: no trumps).

- ``legal_calls(calls, seat)``: "Bidding": pass; a bid higher than the last bid (level 1-7, then strain
  C < D < H < S < NT); double when the last call other than pass is an opponent's bid; redouble when it
  is an opponent's double.
- ``auction_over(calls)`` / ``contract(calls)``: three passes after a bid, double or redouble end it; four
  passes: passed out. The declarer is the first of the winning side to name the contract's strain.
- ``legal_cards(hand, led)`` and ``trick_winner(plays, trump)``: "Play".
- ``vulnerable(board, side)``: Law 2's cycle of 16 boards.
- ``duplicate_score(level, strain, mult, vul, tricks)``: "Scoring", signed for the declarer's side.
- ``Rubber``: rubber scoring, deal by deal (below/above the line, games, the rubber bonus, honours).
"""
from __future__ import annotations

RANKS = "23456789TJQKA"
STRAINS = "CDHSN"


def bid_rank(level: int, strain: str) -> int:
    return (level - 1) * 5 + STRAINS.index(strain)


def parse_call(text: str):
    """``("pass",)``, ``("double",)``, ``("redouble",)`` or ``("bid", level, strain)`` from an action or event
    text (``bid 3 NT``, ``3 NT``, ``1 S``)."""
    words = text.replace("bid ", "").split()
    if words[0] in ("pass", "double", "redouble"):
        return (words[0],)
    return ("bid", int(words[0]), "N" if words[1] == "NT" else words[1])


def call_text(call) -> str:
    if call[0] != "bid":
        return call[0]
    return f"bid {call[1]} {'NT' if call[2] == 'N' else call[2]}"


def side(seat: int) -> int:
    return seat % 2


def legal_calls(calls: list, seat: int) -> set:
    """The texts of the legal calls of ``seat`` after ``calls`` ([(seat, call)], in order)."""
    out = {"pass"}
    bids = [c for _, c in calls if c[0] == "bid"]
    low = bid_rank(*bids[-1][1:]) + 1 if bids else 0
    for level in range(1, 8):
        for strain in STRAINS:
            if bid_rank(level, strain) >= low:
                out.add(call_text(("bid", level, strain)))
    last = next(((st, c) for st, c in reversed(calls) if c[0] != "pass"), None)
    if last is not None and side(last[0]) != side(seat):
        if last[1][0] == "bid":
            out.add("double")
        elif last[1][0] == "double":
            out.add("redouble")
    return out


def auction_over(calls: list) -> bool:
    if len(calls) >= 4 and all(c[0] == "pass" for _, c in calls):
        return True
    return len(calls) >= 4 and all(c[0] == "pass" for _, c in calls[-3:]) and \
        any(c[0] != "pass" for _, c in calls)


def contract(calls: list):
    """``None`` (passed out) or ``(level, strain, declarer, mult)`` of a finished auction."""
    bids = [(st, c) for st, c in calls if c[0] == "bid"]
    if not bids:
        return None
    high_seat, (_, level, strain) = bids[-1]
    declarer = next(st for st, c in bids if side(st) == side(high_seat) and c[2] == strain)
    after = [c[0] for _, c in calls[calls.index(bids[-1]) + 1:] if c[0] != "pass"]
    mult = 4 if "redouble" in after else 2 if "double" in after else 1
    return level, strain, declarer, mult


def legal_cards(hand: list, led) -> set:
    """Follow the led suit if able; else any card (``led``: the suit of the trick's first card, or None)."""
    if led is None:
        return set(hand)
    same = {c for c in hand if c[1] == led}
    return same or set(hand)


def trick_winner(plays: list, trump) -> int:
    """The seat of the highest trump, else of the highest card of the led suit (``trump`` None: NT)."""
    led = plays[0][1][1]

    def power(card):
        if trump is not None and card[1] == trump:
            return 100 + RANKS.index(card[0])
        return RANKS.index(card[0]) if card[1] == led else -1
    return max(plays, key=lambda sc: power(sc[1]))[0]


VUL_NS = {2, 4, 5, 7, 10, 12, 13, 15}
VUL_EW = {3, 4, 6, 7, 9, 10, 13, 16}


def vulnerable(board: int, side_: int) -> bool:
    b = (board - 1) % 16 + 1
    return b in (VUL_NS if side_ == 0 else VUL_EW)


def trick_score(level: int, strain: str, mult: int) -> int:
    per = 20 if strain in "CD" else 30
    return (level * per + (10 if strain == "N" else 0)) * mult


def undertricks(down: int, mult: int, vul: bool) -> int:
    if mult == 1:
        return down * (100 if vul else 50)
    if vul:
        pts = [200] + [300] * (down - 1)
    else:
        pts = [100] + [200, 200][:down - 1] + [300] * max(0, down - 3)
    return sum(pts) * (mult // 2)


def premiums(level, strain, mult, vul, tricks) -> int:
    """Overtricks, slam and insult of a made contract (everything but the trick score and game bonus)."""
    over = tricks - level - 6
    if mult == 1:
        ot = over * (20 if strain in "CD" else 30)
    else:
        ot = over * (200 if vul else 100) * (mult // 2)
    slam = {6: 750 if vul else 500, 7: 1500 if vul else 1000}.get(level, 0)
    insult = {1: 0, 2: 50, 4: 100}[mult]
    return ot + slam + insult


def duplicate_score(level: int, strain: str, mult: int, vul: bool, tricks: int) -> int:
    """The board's score for the declarer's side (negative: the defenders score it)."""
    if tricks < level + 6:
        return -undertricks(level + 6 - tricks, mult, vul)
    ts = trick_score(level, strain, mult)
    game = (500 if vul else 300) if ts >= 100 else 50
    return ts + game + premiums(level, strain, mult, vul, tricks)


def honours(hand: list, strain: str) -> int:
    """Honours held in one hand (rubber option): four trump honours 100, five 150; NT four aces 150."""
    if strain == "N":
        return 150 if sum(1 for c in hand if c[0] == "A") == 4 else 0
    k = sum(1 for c in hand if c[1] == strain and c[0] in "TJQKA")
    return 150 if k == 5 else 100 if k == 4 else 0


class Rubber:
    """Rubber scoring (docs/rules/bridge.md): ``deal(...)`` scores one played deal; ``over`` when a side
    has two games; ``total`` per side (above + below the line)."""

    def __init__(self, with_honours: bool = False):
        self.total = [0, 0]
        self.below = [0, 0]
        self.games = [0, 0]
        self.with_honours = with_honours

    @property
    def over(self) -> bool:
        return max(self.games) >= 2

    def deal(self, level, strain, declarer, mult, tricks, hands=None):
        ds = side(declarer)
        vul = self.games[ds] > 0
        if tricks >= level + 6:
            ts = trick_score(level, strain, mult)
            self.total[ds] += ts + premiums(level, strain, mult, vul, tricks)
            self.below[ds] += ts
        else:
            self.total[1 - ds] += undertricks(level + 6 - tricks, mult, vul)
        if self.with_honours and hands is not None:
            for seat, hand in enumerate(hands):
                self.total[side(seat)] += honours(hand, strain)
        if max(self.below) >= 100:
            w = 0 if self.below[0] >= 100 else 1
            self.games[w] += 1
            if self.games[w] >= 2:
                self.total[w] += 700 if self.games[1 - w] == 0 else 500
            self.below = [0, 0]
