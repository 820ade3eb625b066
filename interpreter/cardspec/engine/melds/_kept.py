"""Listings kept between decisions: a hand's melds (or a meld's lay-offs) worked out from those of a close hand.

A seat's hand changes by a few cards between two listings (a draw, a meld laid, a discard), and the melds of
``melds_in`` (the lay-offs of ``extensions``) depend on the hand only through which card sets it holds: a set
or sequence, or a lay-off on a given meld, is one whatever else the hand holds. So for a hand ``new`` close
to a hand ``old`` listed before (same wild cards, limit and tables)::

    listing(new) = [m in listing(old) if m fits in new]  +  the card sets of new holding a card new has more of

(a set holding none of the added faces is held by ``old`` too, so it was listed). The first part is a filter
of the kept list; the second is the search by cards (``containing((a,))`` of ``_search``: only the windows
and ranks around ``a``), sorted in with the listing's order. A kept listing is used when the hand gained at
most ``MAX_ADDED`` distinct faces; the last ``PER_KEY`` hands listed are kept per (wild cards, limit, meld,
tables), so each seat's last hand is found again at its next turn. tests/test_melds_listing.py holds the
result to a listing made from scratch (``melds_in_reference``/``extensions_reference``, tests/_melds_reference.py) over positions of
seeded random play. docs/performance.md ("Kept meld listings") says what it speeds up.
"""
from __future__ import annotations

from ._hand import _counts

#: The most distinct faces a hand may have gained over a kept one for the kept listing to be used.
MAX_ADDED = 3

#: Hands kept per key (the last ones listed): one per seat of a four-seat game, and room for a partner.
PER_KEY = 8

#: key → ``[RANK, SUIT, SORT_KEY, [(counts, listing), …]]``; cleared when it holds ``MAX_KEYS`` keys.
_KEPT = {}
MAX_KEYS = 512


def _fits(m, counts):
    """Whether the card set ``m`` (with repeats) is held by ``counts`` (``{card: n}``)."""
    need = {}
    get = counts.get
    for c in m:
        k = need.get(c, 0) + 1
        if k > get(c, 0):
            return False
        need[c] = k
    return True


def kept_listing(key, hand, RANK, SUIT, SORT_KEY, full, containing):
    """The listing for ``hand`` (a tuple of cards): ``full()`` (a list of card tuples in ``SORT_KEY`` order,
    each sorted so), or worked out from a kept listing of a close hand under the same ``key`` with
    ``containing((a,))`` (card sets of ``hand`` holding card ``a``, any order). Returns a new list; keeps
    the result for the next call. ``key`` must be hashable (else ``full()`` is returned, nothing kept)."""
    try:
        rec = _KEPT.get(key)
    except TypeError:
        return full()
    counts = _counts(hand)
    if rec is None or rec[0] is not RANK or rec[1] is not SUIT or rec[2] is not SORT_KEY:
        if len(_KEPT) >= MAX_KEYS:
            _KEPT.clear()
        rec = _KEPT[key] = [RANK, SUIT, SORT_KEY, []]
    entries = rec[3]
    best = None
    best_added = None
    for i in range(len(entries) - 1, -1, -1):
        old = entries[i][0]
        get = old.get
        added = []
        for c, k in counts.items():
            if k > get(c, 0):
                added.append(c)
                if len(added) > MAX_ADDED:
                    break
        else:
            if best is None or len(added) < len(best_added):
                best, best_added = i, added
                if not added:
                    break
    if best is None:
        listing = tuple(full())
    else:
        old, old_list = entries.pop(best)
        get = counts.get
        fell = {c for c, k in old.items() if get(c, 0) < k}
        if fell:
            kept = [m for m in old_list if fell.isdisjoint(m) or _fits(m, counts)]
        else:
            kept = old_list
        if best_added:
            sk = SORT_KEY.__getitem__
            found = set(kept)
            for a in best_added:
                for m in containing((a,)):
                    found.add(tuple(sorted(m, key=sk)))
            listing = tuple(sorted(found, key=lambda m: [sk(c) for c in m]))
        else:
            listing = tuple(kept)
    entries.append((counts, listing))
    if len(entries) > PER_KEY:
        del entries[0]
    return list(listing)


def clear():
    """Forget every kept listing (tests compare a listing made from scratch)."""
    _KEPT.clear()
