"""Lazy listings of a turns step (interpreter/cardspec/engine/steps/turns/lazy.py): a play of card sets or
sequences whose actions are many is listed as a read-only sequence computed from its structure; it must
hold exactly the full listing's actions, in its order, with the same moves and faults (issue 37, item 4)."""
from __future__ import annotations

import json
import random

import pytest

import cardspec
from cardspec.engine.steps.base import ListingTooLarge
from cardspec.engine.steps.turns import lazy
from cardspec.engine.steps.turns.cards import _combos, _perms
from cardspec.engine.steps.turns.lazy import Arrangements, LazyMoves, LazyTexts, phase_listing

KEY = list(range(64)).__getitem__   # faces in the order of their numbers


@pytest.mark.parametrize("ordered", [True, False])
def test_arrangements_are_the_distinct_tuples_in_the_listing_order(ordered):
    rng = random.Random(5)
    make = _perms if ordered else _combos
    for _ in range(300):
        pool = [rng.randrange(10) for _ in range(rng.randrange(0, 9))]   # repeated faces (two decks) too
        kmin, kmax = rng.randrange(-1, 4), rng.randrange(-1, 6)
        want = make(pool, kmin, kmax, KEY)
        got = Arrangements(pool, kmin, kmax, KEY, ordered)
        assert len(got) == len(want) and list(got) == want
        assert [got[i] for i in range(len(want))] == want
        assert got[-1:] == want[-1:] and got[1:7:2] == want[1:7:2]
        with pytest.raises(IndexError):
            got[len(want)]
        assert [got.rank(t) for t in want] == list(range(len(want)))
        where = {t: i for i, t in enumerate(want)}
        for _ in range(30):   # any tuple: its index when listed, else None
            t = tuple(rng.randrange(11) for _ in range(rng.randrange(0, 6)))
            assert got.rank(t) == where.get(t)


@pytest.mark.parametrize("ordered", [True, False])
def test_arrangements_of_faces_sharing_a_display_position(ordered):
    key = [0, 0, 1, 1, 2].__getitem__   # faces 0 and 1 sort alike (two jokers)
    make = _perms if ordered else _combos
    assert list(Arrangements([1, 0, 2], 1, 3, key, ordered)) == make([1, 0, 2], 1, 3, key)
    with pytest.raises(lazy.NotIndexable):   # copies apart once sorted: phase_listing lists it instead
        Arrangements([0, 1, 0, 2], 1, 3, key, ordered)


@pytest.mark.parametrize("ordered", [True, False])
def test_arrangements_fault_past_the_cap_as_the_listing(ordered):
    make = _perms if ordered else _combos
    with pytest.raises(ListingTooLarge) as full:
        make(list(range(40)), 1, 6, KEY)
    with pytest.raises(ListingTooLarge) as lazily:
        Arrangements(list(range(40)), 1, 6, KEY, ordered)
    assert str(full.value) == str(lazily.value)


def _play(game, seed, check, decisions=150):
    """A seeded random game through the text API; ``check(s, legal)`` at each decision. Its history."""
    s = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if s.terminal:
            break
        legal = s.legal_actions()
        check(s, legal)
        s.apply(legal[rng.randrange(len(legal))])
    return s.history


def _switched_off(game):
    for step in game.steps:
        if getattr(step, "legal_texts", None) is not None and hasattr(step, "_lazy"):
            step.legal_texts = None   # the instance's hook: Turns.legal and texts, as before lazy.py


def _same_as_full_listing(seen):
    def check(s, legal):
        step = s.game.steps[s.pc]
        moves = step.legal(s)
        texts = step.texts(s, moves)
        if isinstance(legal, LazyTexts):
            seen.append(len(legal))
            lazy_moves = s._cache[1]
            assert isinstance(lazy_moves, LazyMoves)
            assert list(lazy_moves) == moves and lazy_moves == moves
            rng = random.Random(len(legal))
            for i in [0, len(legal) - 1] + [rng.randrange(len(legal)) for _ in range(20)]:
                assert legal[i] == texts[i] and lazy_moves[i] == moves[i] and legal.index(texts[i]) == i
                assert texts[i] in legal
            assert legal[-1] == texts[-1] and legal[3:9] == texts[3:9]
            assert texts[0].upper() not in legal and "nothing" not in legal and 7 not in legal
            with pytest.raises(ValueError):
                legal.index(texts[0] + " 2C")
        assert list(legal) == texts and legal == texts
    return check


def test_eleusis_plays_listed_lazily_are_the_full_listing():
    game = cardspec.load("eleusis-prophets", options={"hand_size": 7})
    seen = []
    for seed in range(3):
        _play(game, seed, _same_as_full_listing(seen), decisions=60)
    assert len(seen) >= 10 and max(seen) > 2000   # the lazy path ran (it fails when switched off)


@pytest.mark.parametrize("name", ["napoleon", "skat"])
def test_card_sets_listed_lazily_play_the_same_games(name, monkeypatch):
    monkeypatch.setattr(lazy, "LAZY_MIN", 0)   # every listing of a card-set action lazily
    game = cardspec.load(name)
    seen = []
    lazily = [_play(game, seed, _same_as_full_listing(seen)) for seed in range(4)]
    assert seen   # discards of card sets, listed lazily
    game = cardspec.load(name)
    _switched_off(game)
    assert [_play(game, seed, lambda s, legal: None) for seed in range(4)] == lazily


def test_eleusis_games_the_same_with_the_lazy_listing_switched_off():
    game = cardspec.load("eleusis-prophets", options={"hand_size": 5})
    lazily = [_play(game, seed, lambda s, legal: None, decisions=80) for seed in range(3)]
    game = cardspec.load("eleusis-prophets", options={"hand_size": 5})
    _switched_off(game)
    assert [_play(game, seed, lambda s, legal: None, decisions=80) for seed in range(3)] == lazily


def test_lazy_legal_actions_read_as_a_list_by_their_consumers():
    game = cardspec.load("eleusis-prophets")
    s = game.new_state(seed=1)
    while not isinstance(s.legal_actions(), LazyTexts):   # the secret rule, then the first play
        s.apply(s.legal_actions()[0])
    legal = s.legal_actions()
    assert len(legal) > 10_000
    assert s.legal_actions() is legal   # kept: read-only, not copied
    with pytest.raises(TypeError):
        legal[0] = "play"   # read-only
    view = s.view(s.to_act)
    assert view["legal_actions"].__class__ is list and view["legal_actions"] == list(legal)
    json.dumps(view["legal_actions"][:3])
    s2 = game.new_state(seed=1)
    for a in s.history:
        s2.apply(a)
    s2.apply(list(legal)[len(legal) // 2])
    s.apply(legal[len(legal) // 2])
    assert s.history == s2.history
