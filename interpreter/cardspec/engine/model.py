"""What a compiled ruleset declares, as the ``Game`` and the ``State`` both read it: zones, counters, vars.

Made by the compile pipeline (``engine/compile/declarations.py``) from ``zones:``, ``counters:`` and
``vars:`` (docs/rulesets.md); read during play by the ``State`` (its lists ``s.z``, ``s.c``, ``s.v`` are
indexed by them) and by views. A module of its own so that the compile-time ``Game`` and the run-time
``State`` share these shapes without importing each other.
"""
from __future__ import annotations

from dataclasses import dataclass

#: A zone's ``visibility:`` values (docs/rulesets.md, "Zones"): who sees its cards.
VISIBILITY = ("owner", "all", "none", "all_but_owner", "top")


@dataclass
class Zone:
    name: str
    index: int
    per_seat: bool
    visibility: str
    help: str = ""
    melds: bool = False   # items are melds (tuples of cards), not cards (cardspec._melds)
    order: str = "all"    # "top_only": only its top card and its size matter to the rules (position keys)
    label: str = ""       # what front ends call it (default: the name, _ as a space)
    max: int | None = None   # the most cards the rules let it (each seat's pile) hold (zones: max:), else None
    public_when: object = None   # f(s, p) -> bool: while it holds every seat sees the pile of owner p (zones:
                                 # public_when:, docs/rulesets.md "A zone shown during the deal"); None: never


@dataclass
class Counter:
    name: str
    index: int
    per: str          # "match" or "deal"
    initial: int = 0
    visibility: str = "all"   # "owner": a view shows only the seat's own value (others None)
    label: str = ""           # what front ends call it; "" = not shown to players (bookkeeping)
    show: str = ""            # "seats" | "teams" (one value per team) | "" (not shown)
    by: str = "seat"          # "seat" | "team" | "side": read as a team's total (engine/teams.py)
    shown_as: str = "number"  # "number" | "yes_no" (a flag: front ends print yes / no, engine/display.py)


@dataclass
class Var:
    name: str
    index: int
    type: str
    default: object
    per: str
    seen_by: object = None   # f(s) -> the one seat whose view shows it (None: every seat)
    hidden: bool = False     # visibility: none (no seat's view shows it until public_when or the end)
    public_when: object = None   # f(s) -> bool: from then on every view shows it
    guess: object = None     # f(s) -> the value a determinization gives it when a view hides it
    label: str = ""          # what front ends call it; "" = not shown to players (bookkeeping)

    def shown_to(self, s, seat) -> bool:
        """Whether ``seat``'s view (None: a spectator's) shows this var now (docs/rulesets.md, vars)."""
        if not self.hidden and self.seen_by is None:
            return True
        if s.terminal or (self.public_when is not None and self.public_when(s)):
            return True
        return not self.hidden and seat is not None and self.seen_by(s) == seat
