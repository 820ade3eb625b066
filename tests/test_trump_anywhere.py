"""A trump set anywhere a step or an effect can be is the trump every expression reads (issue 38, item 1).

Before: the engine looked only under ``deal:`` for something that sets the trump; a ``trump:`` effect in a
top-level ``actions:`` block (a trump chosen by an action during the deal) was missed, so every expression
read ``trump`` as no suit while the views showed the trump — 1,931 of 21,248 checked positions of an outside
ruleset had wrong legal plays and trick winners. Each place a trump can be set is tried here: the same small
trick game, its trump set in one place, then a trick whose winner depends on the trump and a var copied
from ``trump`` by an expression.
"""
from __future__ import annotations

import textwrap

import pytest

import cardspec

BASE = """
name: trump-anywhere
players: {min: 2, max: 2}
deck: {ranks: [9, T, J, Q, K, A], suits: [S, H, D, C]}
zones:
  hand: {owner: seat, visibility: owner}
  won: {owner: seat, visibility: all}
vars:
  seen: {type: suit, default: no_suit, label: Trump read by an expression}
counters:
  score: {per: match}
{actions}
deal:
  - shuffle
  - deal: {to: hand, each: 6}
{before}
  - do: [{set: {seen: trump}}]
  - tricks:
      first_leader: 0
      follow: suit
      to: won
{after}
  - score: {counter: score, value: "count(won[seat])"}
"""

CHOOSE = """
actions:
  choose:
    params: {suit: {choice: "[spades, hearts, diamonds, clubs]"}}
    effects: [{trump: suit}]
"""

PLACES = {
    "a trump step in deal:": ("", "  - trump: hearts", ""),
    "a trump effect in a do: step": ("", "  - do: [{trump: hearts}]", ""),
    "an effect nested in an if:": ("", "  - do: [{if: 'players == 2', trump: hearts}]", ""),
    "an effect nested in for_each": ("", "  - do: [{for_each: {in: '[0]', do: [{trump: hearts}]}}]", ""),
    "an action of the top-level actions: block": (CHOOSE, textwrap.indent(textwrap.dedent("""\
        - turns:
            first: 0
            until: turn_number >= 1
            turn: [{one: choose}]"""), "  "), ""),
    "an action of the step's own actions:": ("", textwrap.indent(textwrap.dedent("""\
        - turns:
            first: 0
            until: turn_number >= 1
            actions:
              choose:
                params: {suit: {choice: "[spades, hearts, diamonds, clubs]"}}
                effects: [{trump: suit}]
            turn: [{one: choose}]"""), "  "), ""),
    "an auction's after_bid:": ("", textwrap.indent(textwrap.dedent("""\
        - auction:
            bids: {number: {min: 1, max: 2}}
            once: true
            after_bid: [{if: 'not passed', trump: hearts}]"""), "  "), ""),
}


def _game(tmp_path, place):
    actions, before, after = PLACES[place]
    text = BASE.replace("{actions}", actions).replace("{before}", before).replace("{after}", after)
    f = tmp_path / "trump-anywhere.yaml"
    f.write_text(text)
    return cardspec.load(str(f))


def _to_tricks(s):
    while s.view(None)["step"] != "tricks":
        legal = s.legal_actions()
        pick = next((a for a in legal if a.endswith("hearts") or a == "bid 1"), legal[0])
        s.apply(pick)
    return s


@pytest.mark.parametrize("place", sorted(PLACES))
def test_a_trump_set_there_is_the_trump_expressions_read(tmp_path, place):
    g = _game(tmp_path, place)
    s = _to_tricks(g.new_state(seed=3))
    view = s.view(0)
    assert view["trump"] == "H"
    assert view["vars"]["seen"] == s.game.deck.suit_index("H")   # the expression read the trump set
    # A trick's winner: a heart played to a led spade wins (when one of the seats can show it).
    for seed in range(40):
        s = _to_tricks(g.new_state(seed=seed))
        leader = s.to_act
        hand0 = s.view(leader)["zones"]["hand"][str(leader)]
        other = 1 - leader
        hand1 = s.view(other)["zones"]["hand"][str(other)]
        lead = next((c for c in hand0 if c.endswith("S")), None)
        trump = next((c for c in hand1 if c.endswith("H")), None)
        if lead is None or trump is None or any(c.endswith("S") for c in hand1):
            continue
        s.apply(lead)
        assert trump in s.legal_actions()   # void in spades: may trump
        s.apply(trump)
        ev = [e for e in s.log_all() if e["type"] == "trick"][-1]
        assert ev["winner"] == other, (place, lead, trump, ev)
        return
    pytest.fail("no seed gave a trick to trump")


def test_a_ruleset_that_sets_no_trump_still_folds_it_away(tmp_path):
    """The speed of games without trumps stays: with no trump step or effect anywhere, ``trump`` is a
    constant (``card.suit == trump`` is folded to false at load)."""
    f = tmp_path / "no-trump.yaml"
    f.write_text(BASE.replace("{actions}", "").replace("{before}", "").replace("{after}", ""))
    g = cardspec.load(str(f))
    assert g.env.names["trump"].const
    assert not cardspec.load("knave").env.names["trump"].const   # knave's trump step


def test_a_var_or_option_named_trump_is_not_a_trump_effect(tmp_path):
    """A key ``trump`` in a section of names (a var, an option, an event's log line) sets no trump."""
    f = tmp_path / "named.yaml"
    f.write_text(BASE.replace("{actions}", "log:\n  trump: 'the trump is {suit}'").replace("{before}", "")
                 .replace("{after}", ""))
    assert cardspec.load(str(f)).env.names["trump"].const
