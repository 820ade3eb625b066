"""The random move of a card-set parameter answers its per-card questions from the sets made once a decision.

A cards parameter without ``candidates:`` that ends its action (a capture of table cards adding up to
the card played) is searched by prefixes: "is there a legal set holding these cards?" for each card a
small choice may add. ``ActionSearch._listed_witness`` (engine/steps/turns/search.py) answers them from
the zone's sets, made once per decision, instead of a new ``Cards.matching`` enumeration per prefix. It
must find the same set after the same checks (so seeded games stay identical), and ``matching`` must no
longer be searched for a non-empty prefix.
"""
from __future__ import annotations

import itertools
import random

import cardspec
from cardspec.engine.steps.turns import cards as cards_mod
from cardspec.engine.steps.turns import search as search_mod
from cardspec.engine.steps.turns.core import Turns
from cardspec.engine.steps.turns.moves import ACTOR


def _decisions(game, seed, limit=400):
    """The states of a seeded random match at a turns decision (at most ``limit``)."""
    rng = random.Random(seed)
    s = game.new_state(record=False, rng=random.Random(seed))
    n = 0
    while not s.terminal and n < limit:
        step = game.steps[s.pc]
        if step.playout is not None:
            step.playout(s, rng)
            s._finish_step()
            continue
        if isinstance(step, Turns):
            n += 1
            yield s, step
        s.apply_move(step.random_move(s, rng))


def _old_witness(step, s, a, seat, bound, cur):
    """The per-prefix search as it was: ``matching``'s sets holding ``cur``, each checked, the first legal."""
    tried = 0
    for v in a.params[1].matching(s, a, 1, seat, bound, cur, {}):
        tried += 1
        if step._check(s, a, seat, bound + (v,)):
            return v, tried
    return None, tried


def test_listed_witness_finds_the_set_matching_found_after_as_many_tries():
    game = cardspec.load("scopa")
    compared = 0
    for seed in (1, 2):
        for s, step in _decisions(game, seed, limit=120):
            seat = s.ts[ACTOR]
            for a in step.actions:
                if len(a.params) != 2 or not a.params[1].cardset:
                    continue
                for u in a.params[0].units(s, a, 0, seat, (), (), {}, cheap=True):
                    pool = a.params[1].values(s, seat, u)[3]
                    prefixes = [c for k in (1, 2) for c in itertools.combinations(pool, k)]
                    for cur in prefixes + [(u,)]:   # (u,): a card not in the zone
                        cur = tuple(sorted(cur, key=game.deck.sort_key.__getitem__))
                        memo = {}
                        r = step._witness(s, a, 1, seat, (u,), cur, memo)
                        got = (None if r is search_mod._NONE else r, memo.get(search_mod._TRIED, 0))
                        assert got == _old_witness(step, s, a, seat, (u,), cur), (cur, u)
                        compared += 1
    assert compared > 1000


def test_a_seeded_playout_searches_no_card_set_prefix_with_matching(monkeypatch):
    """Would fail if the random move went back to one ``matching`` enumeration per card chosen."""
    calls = {"prefix": 0, "listed": 0}
    matching = cards_mod.Cards.matching
    listed = search_mod.ActionSearch._listed_witness

    def counted_matching(self, s, a, j, seat, bound, cur, memo):
        if cur:
            calls["prefix"] += 1
        return matching(self, s, a, j, seat, bound, cur, memo)

    def counted_listed(self, *args):
        calls["listed"] += 1
        return listed(self, *args)

    monkeypatch.setattr(cards_mod.Cards, "matching", counted_matching)
    monkeypatch.setattr(search_mod.ActionSearch, "_listed_witness", counted_listed)
    game = cardspec.load("scopa")
    before = game.new_state(record=False, rng=random.Random(5)).random_playout(random.Random(5))
    assert before.terminal
    assert calls["listed"] > 100
    assert calls["prefix"] == 0
