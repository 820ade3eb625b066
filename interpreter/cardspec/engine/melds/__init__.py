"""Melds: card-collection functions for the expression language and the ``meld`` / ``lay_off`` effects.

Rummy-family rules (sets, sequences, wild cards, lay-offs) are written in a
ruleset as expressions over lists of cards; this module adds the few general
functions those expressions need, and a zone kind holding melds
(``zones: {table: {owner: seat, melds: true}}``: each item of ``table[i]`` is
a meld, a tuple of card faces laid out low to high for a sequence).

Expression functions (``wild`` is a list of the card faces that may stand in
for others, e.g. ``distinct(filter(c in deck where c.rank == 2 or c.rank == 0))``,
folded to a constant at load time)::

    join(a, b)                    list[card]  the cards of a, then those of b
    ranks(cards)                  list[int]   each card's rank, in order
    suits(cards)                  list[suit]  each card's suit, in order
    run_wilds(cards, wild)        int         fewest cards of ``wild`` standing in for another
                                              card in a layout of ``cards`` as one suit's sequence;
                                              -1 when there is none
    melds_in(hand, wild, k)       list[list[card]]  every set and sequence (3+ cards) that can be
                                              made from ``hand`` with at most ``k`` stand-ins
                                              (a ``MeldsIn``: the list, searchable, below)
    extensions(meld, hand, wild, k)  list[list[card]]  card sets of ``hand`` that make ``meld``
                                              a larger set or sequence with at most ``k`` stand-ins
                                              (an ``Extensions``)
    fits_in_place(meld, cards, wild)  bool  ``cards`` laid off on sequence ``meld`` with its wilds kept
                                              in place (``fixed_layout``); a set: true
    wild_goes_high(meld, cards, wild)  bool  that lay-off puts a wild on the high end, the low end free too
    wild_moves_low(meld, wild)    bool        the wild on ``meld``'s high end could stand on its low end

Sequences (``run_wilds``): cards of one suit on consecutive places; the ace
is low (place 1, before the 2) or high (place 14, after the king), never
both and never around the corner (K-A-2 is not a sequence); at most 13
places. A card of ``wild`` of the sequence's suit whose rank is 2 may stand
naturally on place 2 (A-2-3, 2-3-4-5); every other card of ``wild`` stands in
for the natural card of the place it fills, so a wild always has a definite
place. At least one card must not be in ``wild``. Two ways to lay off on a
sequence: free (validity depends only on the cards, so ``run_wilds(meld + cards,
wild)`` is the check and the ``lay_off`` effect lays the meld out again — an end
wild may jump to the other end), or fixed (``fits_in_place`` and the effect's
``fixed: true``: every card keeps its place, except a wild whose natural card is
laid off; it moves to an end, 9-10-★-Q + J → 9-10-J-Q-★, and the
``wild_to_low_end`` effect may then move it to the low end).
Source of these rules: the partnership rummy digest in shared/rules/ ("Melds", "Moving a wild").

``melds_in`` and ``extensions`` never list every subset of the hand: they
walk each rank's cards (sets) and each suit's windows of consecutive places
(sequences), so the work grows with the hand's structure, not 2^len(hand).
In a window every choice of the held naturals is tried, the rest of the
places taking wild cards (so a wild may fill a place whose natural card the
hand also holds: 7-★-9 from 7 8 9 ★), with a 2 of the suit on place 2 as a
natural or not. They list every set and sequence with at most ``k``
stand-ins, none missing (the tests compare them with a brute-force walk over
every subset checked directly); the ruleset's ``legal:`` still decides.
``extensions`` builds only supersets of the meld (its cards are always kept,
its places always in the window), so a lay-off costs no more than its meld's
neighbourhood. Their values are ``CardSetSearch`` objects (engine/choices.py):
the list above when listed, and searched by the cards a small choice has chosen
so far (``containing``, ``holds``, ``units``; "searching without listing" below).

Effects::

    - meld: {from: "hand[seat]", to: "table[team]", cards: cards, wild: wild_cards}
    - lay_off: {from: "hand[seat]", to: "table[team]", index: "meld - 1", cards: cards, wild: wild_cards,
               fixed: true}          # optional: the meld's wilds keep their places (default false)
    - wild_to_low_end: {to: "table[team]", index: "meld - 1", wild: wild_cards}

The package's parts, each importing only those above it (and ``engine.choices``, ``engine.effects`` and
the expression language below them)::

    _layout.py     sequences with wild cards, a meld's layout on the table, the fixed lay-off
    _listing.py    melds_in and extensions as lists (the walks of ranks and windows of places)
    _hand.py       a hand split once for the searches, and its quick tests
    _kept.py       listings kept between decisions: a hand's listing worked out from a close hand's
    _search.py     MeldsIn and Extensions: searched by the cards chosen so far (small choices)
    _effects.py    the meld, lay_off and wild_to_low_end effects (registered on import)
    _functions.py  the expression functions (registered as builtins on import)

Importing the package registers the effects and the expression functions (``engine/game.py`` imports it
for that). The names of the one module it was are names of this package too.
"""
from __future__ import annotations

from ._layout import ACE, MAX_PLACES, fixed_layout, layout, run_layout, run_wilds, wild_to_low_end
from ._listing import _runs, _sets, extensions, melds_in   # noqa: F401  (_sets, _runs: tests count what they build)
from ._search import Extensions, MeldsIn
from ._effects import fx_lay_off, fx_meld, fx_wild_to_low_end
from . import _functions  # noqa: F401  (registers the expression functions)

__all__ = ["ACE", "MAX_PLACES", "run_layout", "run_wilds", "layout", "fixed_layout", "wild_to_low_end", "melds_in",
           "extensions", "MeldsIn", "Extensions", "fx_meld", "fx_lay_off", "fx_wild_to_low_end"]
