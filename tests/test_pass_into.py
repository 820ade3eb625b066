"""A pass into one shared zone: every seat's cards go into it at once (issue 34 item 6; docs/rulesets.md,
"A pass into one shared zone"). The rule it serves: docs/rules/cribbage.md, "Deal" — "each player puts 2
of his 6 cards face down into the crib ... Both choose at the same time; neither sees the other's
discards, and nobody sees the crib before the show". tests/pass_into/three-crib.yaml lays away one card
each with three players (three-handed cribbage), then one card of the stock joins the crib.
"""
from __future__ import annotations

import os

import pytest

import cardspec
from cardspec.errors import IllegalAction, RulesetError

HERE = os.path.dirname(__file__)
TOY = os.path.join(HERE, "pass_into", "three-crib.yaml")


def _hands(s, g):
    return s.z[g.zone["hand"].index]


def test_every_seat_lays_away_into_the_one_zone():
    """Each player lays away one card: the crib holds one card of each hand (and then the stock's)."""
    g = cardspec.load(TOY)
    s = g.new_state(seed=3)
    before = [list(h) for h in _hands(s, g)]
    chosen = []
    for _ in range(3):
        seat = s.to_act
        act = sorted(s.legal_actions())[0]
        assert len(s.legal_actions()) == 5    # any one of the five cards
        chosen.append((seat, g.deck.face(act.split()[1])))
        s.apply(act)
    crib = s.z[g.zone["crib"].index]
    assert [seat for seat, _ in chosen] == [1, 2, 0]   # from the dealer's left
    for seat, card in chosen:
        assert card in before[seat] and card not in _hands(s, g)[seat]
        assert len(_hands(s, g)[seat]) == 4
    assert s.terminal
    assert sorted(crib[:3]) == sorted(c for _, c in chosen) and len(crib) == 4
    assert s.result["scores"] == {"0": 8, "1": 8, "2": 8}


def test_the_cards_stay_hidden_until_all_have_chosen_and_after():
    """Neither sees the others' discards: the pass event names the cards to the passer only; the others
    read a count and the zone's name, and the crib (visibility none) shows only its size."""
    g = cardspec.load(TOY)
    s = g.new_state(seed=5)
    first = s.to_act
    card = s.legal_actions()[0].split()[1]
    s.apply(s.legal_actions()[0])
    other = s.to_act
    assert card not in str(s.view(other))
    assert card in str(s.view(first)["passing"])
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    mine = [e for e in s.log(first) if e["type"] == "pass" and e["seat"] == first]
    theirs = [e for e in s.log(other) if e["type"] == "pass" and e["seat"] == first]
    assert mine == [{"type": "pass", "seat": first, "into": "crib", "cards": [card]}]
    assert theirs == [{"type": "pass", "seat": first, "into": "crib", "count": 1}]
    view = s.view(other)
    assert "passing" not in view


def test_a_wrong_count_names_the_legal_actions_and_changes_nothing():
    g = cardspec.load(TOY)
    s = g.new_state(seed=1)
    hand = list(_hands(s, g)[s.to_act])
    two = " ".join(g.deck.code[c] for c in hand[:2])
    with pytest.raises(IllegalAction) as info:
        s.apply("pass " + two)
    assert "pass exactly 1 card" in str(info.value)
    assert _hands(s, g)[s.to_act] == hand


def test_to_with_a_shared_zone_is_an_error_at_its_position(tmp_path):
    text = open(TOY).read().replace("pass: {count: 1, into: crib}", "pass: {count: 1, into: crib, to: left_of(seat)}")
    p = tmp_path / "bad.yaml"
    p.write_text(text)
    with pytest.raises(RulesetError) as info:
        cardspec.load(str(p))
    msg = str(info.value)
    assert "bad.yaml:19:38:" in msg and "into: 'crib' is a shared zone" in msg


def test_random_play_replays_and_conserves_cards():
    """Random playouts: every card is in one place; the text log replays the same state."""
    g = cardspec.load(TOY)
    for seed in range(30):
        s = g.new_state(seed=seed)
        s.random_playout()
        assert s.terminal
        crib = s.z[g.zone["crib"].index]
        assert len(crib) == 4 and len(set(crib)) == 4
        t = g.new_state(seed=seed)
        while not t.terminal:
            t.apply(t.legal_actions()[seed % len(t.legal_actions())])
        assert len(t.z[g.zone["crib"].index]) == 4
