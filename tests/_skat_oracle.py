"""An independent reading of docs/rules/skat.md in plain Python (no cardspec code): the oracle that
tests/test_skat.py holds rulesets/skat.yaml to. Cards are codes such as ``TS`` (ranks 7 8 9 T J Q K A,
suits C S H D); a game is ``"C" "S" "H" "D"`` (a suit game), ``"grand"`` or ``"null"``.

- ``Auction``: "Bidding" — middlehand says to forehand, who holds or passes; rearhand says to the survivor;
  no bid: forehand may play at 18.
- ``legal_cards(hand, led, game)`` / ``trick_winner(plays, game)``: "Cards", "Play".
- ``matadors(cards, game)``: "Scoring" — with / without n over the declarer's 12 cards.
- ``score(...)``: "Scoring" — card points, levels, schneider, schwarz, overbid, null values; the declarer's
  score for the deal.
"""
from __future__ import annotations

BIDS = [18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60, 63, 66, 70, 72, 77,
        80, 81, 84, 88, 90, 96, 99, 100, 108, 110, 117, 120, 121, 126, 130, 132, 135, 140, 143, 144, 150,
        153, 154, 156, 160, 162, 165, 168, 170, 176, 180, 187, 192, 198, 204, 216, 240, 264]
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
JACKS = ["JC", "JS", "JH", "JD"]
PLAIN = "789QKTA"            # suit and grand games, low to high (jacks apart)
NULL = "789TJQKA"            # null games
BASE = {"D": 9, "H": 10, "S": 11, "C": 12, "grand": 24}


def bid_values_ok() -> bool:
    """The bid list is every value of a possible game: 9-12 x 2-18, 24 x 2-11, and 23, 35, 46, 59."""
    values = {b * m for b in (9, 10, 11, 12) for m in range(2, 19)} | {24 * m for m in range(2, 12)} \
        | {23, 35, 46, 59}
    return sorted(values) == BIDS


class Auction:
    """Say and hold among forehand F, middlehand M, rearhand R (seats)."""

    def __init__(self, dealer: int):
        self.f, self.m, self.r = (dealer + 1) % 3, (dealer + 2) % 3, dealer
        self.holder, self.sayer, self.phase = self.f, self.m, "say"
        self.high, self.high_seat, self.any_bid = 0, -1, False
        self.result = None          # None: going on; ("declarer", seat, bid); ("thrown",)

    def to_act(self):
        return self.holder if self.phase in ("answer", "alone") else self.sayer

    def legal(self) -> set:
        if self.phase == "answer":
            return {"hold", "pass"}
        if self.phase == "alone":
            return {"pass", "bid 18"}
        return {"pass"} | {f"bid {b}" for b in BIDS if b > self.high}

    def apply(self, call: str):
        assert call in self.legal(), (call, self.legal())
        if self.phase == "say":
            if call == "pass":
                self._sayer_out()
            else:
                self.high, self.high_seat, self.any_bid = int(call.split()[1]), self.sayer, True
                self.phase = "answer"
        elif self.phase == "answer":
            if call == "hold":
                self.high_seat, self.phase = self.holder, "say"
            else:
                self.holder = self.sayer
                self._sayer_out()
        else:
            self.result = ("declarer", self.f, 18) if call == "bid 18" else ("thrown",)

    def _sayer_out(self):
        if self.sayer == self.m:
            self.sayer, self.phase = self.r, "say"
        elif self.any_bid:
            self.result = ("declarer", self.holder, self.high)
        else:
            self.phase = "alone"


def effective_suit(card: str, game: str) -> str:
    if game == "null" or card[0] != "J":
        return card[1]
    return "trumps" if game == "grand" else game


def legal_cards(hand: list, led, game: str) -> set:
    """Follow the led card's effective suit if able, else any card (``led``: the trick's first card)."""
    if led is None:
        return set(hand)
    suit = effective_suit(led, game)
    same = {c for c in hand if effective_suit(c, game) == suit}
    return same or set(hand)


def power(card: str, led_suit: str, game: str) -> int:
    if game == "null":
        return NULL.index(card[0]) if card[1] == led_suit else -1
    if card[0] == "J":
        return 100 + 3 - JACKS.index(card)
    if card[1] == game:
        return 50 + PLAIN.index(card[0])
    return PLAIN.index(card[0]) if card[1] == led_suit else -1


def trick_winner(plays: list, game: str) -> int:
    """The seat of the highest trump, else of the highest card of the led suit."""
    led = effective_suit(plays[0][1], game)
    return max(plays, key=lambda sc: power(sc[1], led, game))[0]


def top_trumps(game: str) -> list:
    if game == "grand":
        return list(JACKS)
    return JACKS + [r + game for r in reversed(PLAIN)]


def matadors(cards, game: str) -> int:
    """With or without n: the run of top trumps held (or missing) from the club jack down."""
    tops = top_trumps(game)
    held = set(cards)
    first = tops[0] in held
    n = 0
    for c in tops:
        if (c in held) != first:
            break
        n += 1
    return n


def card_points(cards) -> int:
    return sum(POINTS.get(c[0], 0) for c in cards)


def score(game: str, bid: int, twelve, picked: bool, announced: str, points: int, tricks: int) -> int:
    """The declarer's score: + game value when won, - twice it when lost (``announced``: "", "schneider",
    "schwarz" or "ouvert"; ``points``: his card points incl. the skat; ``tricks``: tricks he took)."""
    hand = not picked
    ouvert = announced == "ouvert"
    if game == "null":
        value = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}[(hand, ouvert)]
        return value if tricks == 0 else -2 * value
    sch_ann = announced in ("schneider", "schwarz", "ouvert")
    schw_ann = announced in ("schwarz", "ouvert")
    schneider = points >= 90 or points <= 30 or sch_ann
    schwarz = tricks in (0, 10) or schw_ann
    level = matadors(twelve, game) + 1 + hand + schneider + sch_ann + schwarz + schw_ann + ouvert
    value = BASE[game] * level
    won = points >= 61 and (not sch_ann or points >= 90) and (not schw_ann or tricks == 10)
    if value < bid:
        base = BASE[game]
        value = base * -(-bid // base)
        won = False
    return value if won else -2 * value
