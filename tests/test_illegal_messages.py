"""An illegal action names the legal ones and leaves the state unchanged (house rule), for every
step type, and a lead / play restriction says which rule refused the card.

Hearts rules: ../shared/rules/black-lady.md, "Hearts" (the 2 of clubs leads, no points on the first
trick, hearts not led until broken).
"""
from __future__ import annotations

import dataclasses

import pytest

import cardspec
from cardspec import IllegalAction
from cardspec.engine import Game

HANDS = {0: "2C 3C 4C 5C 6C 7C 2H 3H 4H 5H 6H 7H 8H",
         1: "AC 2S 3S 4S 5S 6S 7S 8S 9H TH JH QH KH",
         2: "KC QC JC TC 9C 8C 2D 3D 4D 5D 6D 7D 8D",
         3: "AH 9S TS JS QS KS AS 9D TD JD QD KD AD"}



def _joined(actions):
    """How IllegalAction lists actions: " | " between them when one has a space ("pass 2C | pass 3C")."""
    return (" | " if any(" " in a for a in actions) else " ").join(actions)

def hearts(game=None):
    g = game or cardspec.load("hearts", players=4, options={"first_pass": "none", "deals": 1})
    d = g.deck
    return g.new_state(seed=0, dealer=0, deal={(g.zone["hand"].index, s): [d.face(c) for c in cs.split()]
                                              for s, cs in HANDS.items()})


def refuse(s, action):
    """The IllegalAction that ``s.apply(action)`` raises, after checking the state did not change."""
    before = (list(s.history), s.to_act, s.legal_actions(), s.view(s.to_act))
    with pytest.raises(IllegalAction) as e:
        s.apply(action)
    assert (list(s.history), s.to_act, s.legal_actions(), s.view(s.to_act)) == before
    assert str(e.value).endswith("legal: " + _joined(s.legal_actions()))
    return e.value


def test_hearts_lead_and_play_restrictions_say_which_rule():
    """black-lady.md, "Hearts": the 2C leads the first trick; no points on it; hearts not led until
    broken. Each refusal gives the ruleset's lead_reason / play_reason and lists the legal cards."""
    s = hearts()
    e = refuse(s, "3C")
    assert "the 2 of clubs leads the first trick" in e.reason and e.legal == ["2C"]
    s.apply("2C")
    e = refuse(s, "2S")
    assert "you must follow suit (C)" in e.reason and e.legal == ["AC"]
    s.apply("AC")
    e = refuse(s, "AH")
    assert "not in your hand" in str(e) and "legal: KC QC" in str(e)
    s.apply("KC")
    e = refuse(s, "AH")   # seat 3, void in clubs: no points on the first trick
    assert "no points (hearts, the queen of spades) on the first trick" in e.reason
    assert "AH" not in e.legal and "QS" not in e.legal and "9S" in e.legal
    s.apply("9S")
    assert s.to_act == 1   # AC won: seat 1 leads trick 2, holding spades and hearts
    e = refuse(s, "9H")
    assert "hearts are not led until broken" in e.reason
    assert e.legal and all(a.endswith("S") for a in e.legal)


def test_without_a_reason_the_restriction_is_quoted_as_written():
    """A tricks step without lead_reason / play_reason (and parts without reason:) quotes the part of its
    lead: / play: condition that refused the card, not the whole condition."""
    rs = cardspec.read_ruleset("hearts")
    data = dict(rs.data)
    steps = []
    for step in data["deal"]:
        if isinstance(step, dict) and "tricks" in step:
            step = {**step, "tricks": {k: ([x["rule"] if isinstance(x, dict) else x for x in v]
                                           if k in ("lead", "play") and isinstance(v, list) else v)
                                       for k, v in step["tricks"].items() if not k.endswith("_reason")}}
        steps.append(step)
    data["deal"] = steps
    g = Game(dataclasses.replace(rs, data=data), 4, {"first_pass": "none", "deals": 1})
    s = hearts(g)
    e = refuse(s, "3C")
    assert e.reason == "not legal: the rule lead: trick_number != 1 or card == 2C"
    for a in ("2C", "AC", "KC"):
        s.apply(a)
    e = refuse(s, "AH")
    assert e.reason == ("not legal: the rule play: trick_number != 1 or not penalty_card(card) or "
                        "all(c in hand where penalty_card(c))")


def test_many_legal_actions_are_listed_compactly():
    """str(e) lists the first 20 legal actions then '… and N more' (Black Lady's pass of 3 of 13 cards:
    286 actions); e.legal keeps them all."""
    s = cardspec.load("black-lady", players=4).new_state(seed=1)
    assert len(s.legal_actions()) == 286
    e = refuse_text(s, "pass ZZ")
    assert len(e.legal) == 286
    shown = str(e).split("legal: ", 1)[1]
    assert shown.endswith(" … and 266 more")
    assert shown.startswith(_joined(s.legal_actions()[:20]) + " …")


def refuse_text(s, action):
    before = list(s.history)
    with pytest.raises(IllegalAction) as e:
        s.apply(action)
    assert list(s.history) == before
    return e.value


@pytest.mark.parametrize("name,players,action", [("oh-hell", 4, "bid 99"), ("black-lady", 4, "pass 2C"),
                                                 ("vanishing-whist", None, "nonsense")])
def test_every_step_type_lists_the_legal_actions(name, players, action):
    """Bid, pass and other steps: the message names the legal actions (up to 20 of them)."""
    g = cardspec.load(name, players=players)
    s = g.new_state(seed=3)
    e = refuse_text(s, action)
    legal = s.legal_actions()
    assert e.legal == legal and legal
    assert "legal: " + _joined(legal[:20]) in str(e)
