"""Cards played in sequence that stay their players' (engine/plays.py; docs/turns.md, "Plays in sequence"):
the ``play`` effect lays a card face up, last of the plays (``trick``, ``trick_seats``, the view's
``trick``); ``plays_to`` sends them to each player's pile of a per-seat zone or all into a shared zone.

The rule served: docs/rules/cribbage.md, "Play (the pegging)" — "A turn is one card from hand, laid face
up in front of its player; the count is the running total of the values played since the count began …
Each player then takes back his own 4 played cards: they are his hand for the show." The shared-pile
example is tests/plays/ninety-nine.yaml (a running total to 99, the cards swept into one pile).
"""
from __future__ import annotations

import os
import random

import pytest

import cardspec
from cardspec.engine.determinize import Determinizer
from cardspec.errors import RulesetError

TOY = os.path.join(os.path.dirname(__file__), "plays", "ninety-nine.yaml")


def _codes(g, cards):
    return [g.deck.code[c] for c in cards]


def test_the_plays_keep_their_order_and_players():
    g = cardspec.load(TOY)
    s = g.new_state(seed=4)
    seen = []
    for _ in range(5):
        seat = s.to_act
        act = s.legal_actions()[0]
        s.apply(act)
        seen.append([seat, act.split()[1]])
        assert s.view(None)["trick"] == seen      # public, in play order, with the seat of each
    hand = s.z[g.zone["hand"].index]
    assert all(g.deck.face(c) not in hand[st] for st, c in seen)


def test_plays_to_a_shared_zone_keeps_the_order():
    g = cardspec.load(TOY)
    s = g.new_state(seed=2)
    played = []
    while s.v[2] == 1:
        act = s.legal_actions()[0]
        played.append(act.split()[1])
        s.apply(act)
    sweep = [e for e in s.log_all() if e["type"] == "swept"][0]
    assert sweep["count"] == len(played)
    disc = [e for e in s.log_all() if e["type"] == "deal_start"]
    assert len(disc) == 2


def test_plays_to_a_per_seat_zone_gives_each_card_back_to_its_player():
    """Cribbage: at the end of a count each card goes before its own player (zone played)."""
    g = cardspec.load("cribbage")
    s = g.new_state(seed=11)
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    mine = {0: [], 1: []}
    running = g.var["running"].index
    while True:
        seat = s.to_act
        act = sorted(s.legal_actions())[0]
        mine[seat].append(act.split()[1])
        s.apply(act)
        if s.v[running] == 0:
            break
    played = s.z[g.zone["played"].index]
    assert {st: sorted(_codes(g, played[st])) for st in (0, 1)} == {st: sorted(mine[st]) for st in (0, 1)}
    assert s.view(None)["trick"] == []


def test_every_card_is_in_one_place_and_search_bots_rebuild_the_table():
    g = cardspec.load(TOY, players=3)
    rng = random.Random(5)
    for seed in range(20):
        s = g.new_state(seed=seed)
        while not s.terminal:
            held = sum(len(z) if not zn.per_seat else sum(map(len, z)) for z, zn in zip(s.z, g.zones))
            assert held + len(s.plays) == 52
            if s.plays and rng.random() < 0.3:
                view = s.view(s.to_act, log=True)
                d = Determinizer(g, view).sample(random.Random(seed))
                assert [list(p) for p in d.plays] == [list(p) for p in s.plays]
            s.apply(rng.choice(s.legal_actions()))


def test_a_play_from_the_wrong_zone_is_a_ruleset_error(tmp_path):
    text = open(TOY).read().replace("      - play: card", "      - play: {card: card, from: discard}")
    p = tmp_path / "bad.yaml"
    p.write_text(text)
    g = cardspec.load(str(p))
    s = g.new_state(seed=1)
    with pytest.raises(RulesetError) as info:
        s.apply(s.legal_actions()[0])
    assert "is not in the zone it is played from" in str(info.value)


def test_plays_to_an_unknown_zone_is_an_error_at_load(tmp_path):
    text = open(TOY).read().replace("plays_to: discard", "plays_to: discrad")
    p = tmp_path / "bad.yaml"
    p.write_text(text)
    with pytest.raises(RulesetError) as info:
        cardspec.load(str(p))
    assert "did you mean 'discard'" in str(info.value)


def test_the_others_read_a_played_card_in_the_log():
    """A card laid face up is public: the action's text names it to every seat (engine/information.py)."""
    g = cardspec.load(TOY)
    s = g.new_state(seed=3)
    first = s.to_act
    act = s.legal_actions()[0]
    s.apply(act)
    other = [e for e in s.log((first + 1) % 2) if e["type"] == "action"]
    assert other[-1]["action"] == act
