"""A phase whose actions list one parameter over the same sorted values has one lister (issue 37 item 4).

A discard and a knock each list a card of the hand (``where: may_throw(card)``): ``core._shared_lister``
makes that list once and then each action's moves in declaration order. The moves must be those the
actions' own listers make, in the same order, at every decision of seeded matches.
"""
from __future__ import annotations

import random

import cardspec
from cardspec.engine.steps.turns.core import Turns
from cardspec.engine.steps.turns.moves import ACTOR, PH


def _one_by_one(step, s):
    what = step.phases[s.ts[PH]][3]
    out = []
    for a in step.actions:
        if a.index in what and not a.never:
            out += a.moves_fn(s, s.ts[ACTOR], a.index)
    return out


def test_a_shared_lister_lists_what_each_action_lists():
    game = cardspec.load("gin-rummy")
    shared = [st for st in game.steps if isinstance(st, Turns)
              and any(v[0][0] == -1 for v in st._listers.values())]
    assert shared   # (would fail with the shared lister switched off)
    compared = 0
    for seed in range(3):
        rng = random.Random(seed)
        s = game.new_state(rng=random.Random(seed))
        while not s.terminal and compared < 3000:
            step = game.steps[s.pc]
            if step in shared and step.phases[s.ts[PH]][0] != "do":
                what = step.phases[s.ts[PH]][3]
                assert step._moves(s, what, s.ts[ACTOR]) == _one_by_one(step, s)
                compared += 1
            legal = s.legal_actions()
            s.apply(legal[int(rng.random() * len(legal))])
    assert compared > 1000
