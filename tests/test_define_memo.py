"""Definitions that read only their arguments keep their values by argument (engine/game.py ``_memoized``;
docs/performance.md, "Random burraco matches"): the same values as the plain definition, and a
definition that reads the state is never kept."""
from __future__ import annotations

import random

import cardspec
from cardspec.engine import melds as M


def test_pure_definitions_are_memoized_and_give_the_same_values():
    g = cardspec.load("burraco")
    ns = g.ns
    kept = {k for k, v in ns.items() if k.startswith("_d_") and getattr(v, "__wrapped__", None)}
    assert "_d_wild_count" in kept and "_d_meld_points" in kept
    # may_leave and may_discard read the pots and the table; team is too cheap to keep
    assert not kept & {"_d_may_leave", "_d_may_discard", "_d_has_canasta", "_d_team", "_d_deal_points"}
    RANK, SUIT, KEY = ns["RANK"], ns["SUIT"], ns["SORT_KEY"]
    wild = tuple(sorted({c for c in g.deck.cards if RANK[c] in (0, 2)}))
    rng = random.Random(3)
    s = g.new_state(rng=random.Random(1))
    checked = 0
    for _ in range(40):
        hand = rng.sample(list(g.deck.cards), 14)
        cands = [tuple(m) for m in M.MeldsIn(hand, wild, 13, RANK, SUIT, KEY)] + [tuple(hand[:k]) for k in (3, 4, 5)]
        for m in cands:
            for name in ("_d_wild_count", "_d_is_set", "_d_valid", "_d_meld_points"):
                f = ns[name]
                assert f(s, m) == f.__wrapped__(s, m) == f(s, m), (name, m)
                assert f(s, list(m)) == f.__wrapped__(s, list(m))   # a list argument: computed, not kept
                checked += 1
    assert checked > 400
