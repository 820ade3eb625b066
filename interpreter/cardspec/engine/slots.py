"""Fixed slots of ``State.v`` (the ruleset's vars follow them)."""
from ..lang import INT, SUIT

# Fixed slots of State.v (the ruleset's vars follow).
DEALER, LEADER, DEAL_NUMBER, TRICK_NUMBER, TRICKS_TOTAL, LED_SUIT, WINNER, TO_ACT, TRUMP, TURN = range(10)
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
]
