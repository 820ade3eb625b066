"""The caps of a ruleset (docs/rulesets.md, "Caps"): a value beyond one is refused at load with its position.

Used by the passes that read the capped values (``deck`` for copies, jokers and the deck's size, ``flow``
for ``match: max_deals``).
"""
from __future__ import annotations

MAX_COPIES = 16          # deck: copies
MAX_JOKERS = 64          # deck: jokers
MAX_DECK_CARDS = 1040    # all cards of the deck (20 packs of 52)
MAX_DEALS = 10_000       # match: max_deals (the default is 1,000)


def capped(comp, value, path, lo: int, hi: int, what: str) -> int:
    """``value`` as an int in ``lo..hi``; else a problem at ``path`` and the nearest bound."""
    if isinstance(value, bool) or not isinstance(value, int):
        comp.problem(path, f"{what} is a whole number from {lo:,} to {hi:,}, not '{shown(value)}'")
        return lo
    if not lo <= value <= hi:
        comp.problem(path, f"{what} is at most {hi:,} (and at least {lo:,}); found {value:,}",
                     "docs/rulesets.md, Caps")
        return min(max(value, lo), hi)
    return value


def deck_caps(comp, dspec: dict, copies, jokers) -> tuple:
    """``(copies, jokers)`` within the caps (else a problem and values within): checked before the deck's
    cards are made, so ``copies: 1000000`` is refused at once instead of filling memory."""
    if isinstance(copies, int) and not isinstance(copies, bool):
        copies = max(copies, 1)   # (0 or less: one pack, as before)
    copies = capped(comp, copies, ("deck", "copies"), 1, MAX_COPIES, "copies")
    jokers = capped(comp, jokers, ("deck", "jokers"), 0, MAX_JOKERS, "jokers")
    ranks, suits = dspec.get("ranks") or [], dspec.get("suits") or []
    total = ((len(ranks) if isinstance(ranks, list) else 0) * (len(suits) if isinstance(suits, list) else 0)
             + jokers) * copies   # jokers are per copy (cards.Deck)
    if total > MAX_DECK_CARDS:
        comp.problem(("deck",), f"the deck has {total:,} cards; at most {MAX_DECK_CARDS:,}", "docs/rulesets.md, Caps")
        copies, jokers = 1, 0
    return copies, jokers


def shown(text) -> str:
    """``text`` in a message: one line, at most 40 characters."""
    r = repr(str(text))[1:-1]
    return r if len(r) <= 40 else r[:39] + "…"
