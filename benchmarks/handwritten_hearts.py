"""Hand-written 4-player Hearts: the speed baseline for the interpreter.

This is the "floor a Python interpreter can approach": a plain, reasonably
optimised pure-Python engine (lists, ints, precomputed tables, no numpy)
playing exactly OpenSpiel's ``hearts`` with its default parameters:

* pass 3 cards; the direction is drawn uniformly among no pass / left /
  across / right (OpenSpiel's first chance node);
* the holder of 2C leads it;
* no points on the first trick: a player void in clubs may not discard a
  heart or QS unless they hold nothing else;
* hearts may not be led until broken (a heart played, or QS played), unless
  the leader holds only hearts;
* QS 13, hearts 1 each; shooting the moon (taking every heart and the QS):
  the shooter scores 0 and everybody else 26.

Card encoding is OpenSpiel's: ``card = rank * 4 + suit`` with suits
C=0, D=1, H=2, S=3 and ranks 2..A = 0..12, so 2C = 0, QS = 43, AS = 51.
Within one suit a larger card id is a higher card.  Seats 0..3 are
OpenSpiel's N, E, S, W; "left" passes to seat + 1.

Legal moves are enumerated as lists (as any engine serving agents must) and
one is drawn with ``rng.choice``; nothing is faked to look fast.
"""

from __future__ import annotations

import random
import time

__all__ = [
    "CLUBS", "DIAMONDS", "HEARTS", "SPADES", "TWO_CLUBS", "QUEEN_SPADES",
    "PASS_NONE", "PASS_LEFT", "PASS_ACROSS", "PASS_RIGHT",
    "POINTS", "card_str", "legal_plays", "trick_winner", "score_deal",
    "play_random_game", "play_random_game_logged", "DealLog",
]

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
TWO_CLUBS = 0
QUEEN_SPADES = 10 * 4 + SPADES  # 43
# Pass directions, numbered as OpenSpiel's chance outcomes (= seat offset).
PASS_NONE, PASS_LEFT, PASS_ACROSS, PASS_RIGHT = 0, 1, 2, 3
PASS_NAMES = ("No Pass", "Left", "Across", "Right")

# Precomputed per-card tables.
POINTS = tuple(13 if c == QUEEN_SPADES else (1 if c & 3 == HEARTS else 0)
               for c in range(52))
# Cards that may be discarded on the first trick (no heart, no QS).
_FIRST_TRICK_OK = tuple(c & 3 != HEARTS and c != QUEEN_SPADES for c in range(52))
_BREAKS_HEARTS = tuple(c & 3 == HEARTS or c == QUEEN_SPADES for c in range(52))
_NEXT = (1, 2, 3, 0)

_RANKS = "23456789TJQKA"
_SUITS = "CDHS"


def card_str(card: int) -> str:
    """OpenSpiel's spelling: rank then suit, e.g. ``2C``, ``QS``."""
    return _RANKS[card >> 2] + _SUITS[card & 3]


def legal_plays(hand: list[int], trick: list[int], first_trick: bool,
                hearts_broken: bool) -> list[int]:
    """Legal cards for the player to move.

    ``hand``: the player's cards; ``trick``: cards already played to the
    current trick (empty when leading); ``first_trick``: this is trick 1;
    ``hearts_broken``: a heart or the QS has been played earlier.
    """
    if trick:
        led = trick[0] & 3
        follow = [c for c in hand if c & 3 == led]
        if follow:
            return follow
        if first_trick:
            safe = [c for c in hand if _FIRST_TRICK_OK[c]]
            if safe:
                return safe
        return list(hand)
    if first_trick:
        return [TWO_CLUBS]  # the 2C holder leads it (caller's seat has it)
    if not hearts_broken:
        leads = [c for c in hand if c & 3 != HEARTS]
        if leads:
            return leads
    return list(hand)


def trick_winner(leader: int, cards: list[int]) -> int:
    """Seat winning a 4-card trick led by ``leader``."""
    led = cards[0] & 3
    best = cards[0]
    win = 0
    for i in (1, 2, 3):
        c = cards[i]
        if c & 3 == led and c > best:
            best = c
            win = i
    return (leader + win) & 3


def score_deal(taken: list[int]) -> list[int]:
    """Apply shooting the moon to raw points taken per seat.

    With no negative cards (OpenSpiel's default, no JD bonus) a seat has all
    26 raw points exactly when it took all 13 hearts and the QS.
    """
    for seat in range(4):
        if taken[seat] == 26:
            return [0 if s == seat else 26 for s in range(4)]
    return list(taken)


def _deal_and_pass(rng: random.Random):
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [deck[0:13], deck[13:26], deck[26:39], deck[39:52]]
    direction = rng.randrange(4)
    passed = None
    if direction:
        sample = rng.sample
        passed = [sample(h, 3) for h in hands]
        for seat in range(4):
            h = hands[seat]
            for c in passed[seat]:
                h.remove(c)
        for seat in range(4):
            hands[(seat + direction) & 3].extend(passed[seat])
    return deck, direction, passed, hands


def _play(rng: random.Random, log: list | None) -> list[int]:
    deck, direction, passed, hands = _deal_and_pass(rng)
    if log is not None:
        log.append((deck, direction, passed))

    # Hands split by suit: suits[seat][suit] -> list of cards.
    suits = [[[], [], [], []] for _ in range(4)]
    leader = 0
    for seat in range(4):
        ss = suits[seat]
        for c in hands[seat]:
            ss[c & 3].append(c)
            if c == TWO_CLUBS:
                leader = seat

    choice = rng.choice
    first_ok = _FIRST_TRICK_OK
    breaks = _BREAKS_HEARTS
    pts_of = POINTS
    nxt = _NEXT
    taken = [0, 0, 0, 0]
    broken = False

    for trick_no in range(13):
        ss = suits[leader]
        # --- lead -------------------------------------------------------
        if trick_no == 0:
            card = TWO_CLUBS
            ss[CLUBS].remove(TWO_CLUBS)
        else:
            if broken:
                legal = ss[0] + ss[1] + ss[2] + ss[3]
            else:
                legal = ss[0] + ss[1] + ss[3]
                if not legal:
                    legal = ss[2]
            card = choice(legal)
            ss[card & 3].remove(card)
        led = card & 3
        best = card
        winner = leader
        pts = pts_of[card]
        if breaks[card]:
            broken = True
        if log is not None:
            played = [card]
        # --- three followers -------------------------------------------
        seat = leader
        for _ in (0, 1, 2):
            seat = nxt[seat]
            ss = suits[seat]
            follow = ss[led]
            if follow:
                card = choice(follow)
                follow.remove(card)
                if card > best:
                    best = card
                    winner = seat
                # following suit in trick 1 means clubs: no points, no break
                if trick_no:
                    pts += pts_of[card]
                    if breaks[card]:
                        broken = True
            else:
                legal = ss[0] + ss[1] + ss[2] + ss[3]
                if trick_no == 0:
                    safe = [c for c in legal if first_ok[c]]
                    if safe:
                        legal = safe
                card = choice(legal)
                ss[card & 3].remove(card)
                pts += pts_of[card]
                if breaks[card]:
                    broken = True
            if log is not None:
                played.append(card)
        taken[winner] += pts
        if log is not None:
            log.append((leader, played))
        leader = winner

    return score_deal(taken)


def play_random_game(rng: random.Random) -> list[int]:
    """Play one whole random deal; return penalty points per seat (N,E,S,W)."""
    return _play(rng, None)


class DealLog:
    """Record of one deal from :func:`play_random_game_logged`."""

    __slots__ = ("deck", "direction", "passed", "tricks", "points")

    def __init__(self, deck, direction, passed, tricks, points):
        self.deck = deck            # shuffled deck; seat s dealt deck[13s:13s+13]
        self.direction = direction  # 0 none, 1 left, 2 across, 3 right
        self.passed = passed        # None or [3 cards] per seat, in pass order
        self.tricks = tricks        # [(leader, [4 cards in play order])] * 13
        self.points = points        # final penalty points per seat

    def dealt(self, seat: int) -> list[int]:
        return self.deck[13 * seat:13 * seat + 13]


def play_random_game_logged(rng: random.Random) -> DealLog:
    """Same game as :func:`play_random_game` (same rng draws), with a record."""
    log: list = []
    points = _play(rng, log)
    deck, direction, passed = log[0]
    return DealLog(deck, direction, passed, log[1:], points)


def _main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    for _ in range(args.games):
        play_random_game(rng)
    dt = time.perf_counter() - t0
    print(f"handwritten hearts: {args.games} games in {dt:.3f} s "
          f"= {args.games / dt:,.0f} games/s")


if __name__ == "__main__":
    _main()
