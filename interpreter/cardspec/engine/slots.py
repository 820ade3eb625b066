"""Fixed slots of ``State.v`` (the ruleset's vars follow them)."""
from ..lang import CARD, INT, STR, SUIT

# Fixed slots of State.v (the ruleset's vars follow).
DEALER, LEADER, DEAL_NUMBER, TRICK_NUMBER, TRICKS_TOTAL, LED_SUIT, WINNER, TO_ACT, TRUMP, TURN = range(10)
# The auction's standing (then winning) bid, sides, rounds (docs/auction.md, docs/sides.md, docs/rulesets.md).
(DECLARER, BID_NUMBER, BID_SUIT, BID_RANK, BID_CONTRACT, BID_LEVEL, CALLED_BY, ROUND_NUMBER, DEAL_IN_ROUND,
 REDEALS, SITS_OUT) = range(10, 21)
SYSTEM_VARS = [
    ("dealer", INT, "the dealer's seat"),
    ("leader", INT, "the seat that led (or leads) the current trick"),
    ("deal_number", INT, "1 for the first deal of the match"),
    ("trick_number", INT, "the trick in progress, 1 from the first lead's choice on (0 before play)"),
    ("tricks_total", INT, "tricks in this deal (the hand size when play began)"),
    ("led_suit", SUIT, "the suit led to the current trick (no_suit before the lead)"),
    ("winner", INT, "the winner of the last trick (-1 before)"),
    ("to_act", INT, "the seat to act (-1 when none)"),
    ("trump", SUIT, "the trump suit (no_suit when none)"),
    ("turn_number", INT, "turns taken in this deal"),
    ("declarer", INT, "the auction's high bidder so far, then the declarer (-1 when none)"),
    ("bid_number", INT, "the number of the standing (then winning) bid (0 when none)"),
    ("bid_suit", SUIT, "the suit of the standing (then winning) bid (no_suit when none)"),
    ("bid_rank", INT, "the rank of the standing (then winning) bid, as card.rank (0 when none)"),
    ("bid_contract", STR, "the named contract of the standing (then winning) bid (\"\" when none)"),
    ("bid_level", INT, "the standing bid's place in the auction's list of bids (-1 before any bid)"),
    ("called_by", INT, "the seat that played the called card of sides: (-1 before it is played)"),
    ("round_number", INT, "1 for the match's first round (match: rounds)"),
    ("deal_in_round", INT, "1 for the first deal of a round"),
    ("redeals", INT, "deals thrown in and dealt again by the same dealer in this match"),
    ("sits_out", INT, "the seat that sits out this deal (a sits_out step; -1 when every seat plays)"),
]
