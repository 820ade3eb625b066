"""An independent reading of docs/rules/euchre.md in plain Python (no cardspec code): the oracle that
tests/test_euchre.py holds the ruleset to. Cards are codes such as ``JD`` (rank 9 T J Q K A, suit S H D C).

- ``effective_suit(card, trump)``: "Cards": once trumps are made the left bower (the J of the other suit
  of the same colour) belongs to the trump suit for every purpose; before (``trump`` None), its own suit.
- ``legal(hand, led, trump)``: "Play": follow the led card's suit (trump when a bower or trump is led)
  if able, else any card; any card to lead.
- ``trick_winner(plays, trump)``: "Play": the highest trump, else the highest card of the led suit;
  trumps run right bower, left bower, A K Q 10 9; plain suits A K Q J 10 9.
- ``deal_points(maker_side_tricks, alone)``: "Scoring": (points, to the makers?) — 3 or 4 tricks: 1;
  5: 2, alone 4; 0-2: the defenders 2.
"""
from __future__ import annotations

COLOUR = {"S": "black", "C": "black", "H": "red", "D": "red"}
PLAIN_ORDER = ["9", "T", "J", "Q", "K", "A"]
TRUMP_ORDER = ["9", "T", "Q", "K", "A"]          # below the two bowers


def is_left_bower(card: str, trump) -> bool:
    return trump is not None and card[0] == "J" and card[1] != trump and COLOUR[card[1]] == COLOUR[trump]


def effective_suit(card: str, trump) -> str:
    return trump if is_left_bower(card, trump) else card[1]


def legal(hand: list, led, trump) -> set:
    """The cards of ``hand`` that may be played to a trick whose first card is ``led`` (None: a lead)."""
    if led is None:
        return set(hand)
    suit = effective_suit(led, trump)
    follow = {c for c in hand if effective_suit(c, trump) == suit}
    return follow or set(hand)


def strength(card: str, led_suit: str, trump) -> int:
    """Higher wins; 0 for a card that can not win (neither trump nor the led suit)."""
    if trump is not None and card == "J" + trump:
        return 200
    if is_left_bower(card, trump):
        return 199
    if card[1] == trump:
        return 100 + TRUMP_ORDER.index(card[0])
    if card[1] == led_suit:
        return 1 + PLAIN_ORDER.index(card[0])
    return 0


def trick_winner(plays: list, trump) -> int:
    """The seat that wins ``plays`` ([(seat, card), …] in play order)."""
    led_suit = effective_suit(plays[0][1], trump)
    best = max(plays, key=lambda sc: strength(sc[1], led_suit, trump))
    return best[0]


def deal_points(maker_tricks: int, alone: bool) -> tuple:
    """``(points, makers_score)``: who scores the deal and how much."""
    if maker_tricks <= 2:
        return 2, False
    if maker_tricks == 5:
        return (4 if alone else 2), True
    return 1, True
