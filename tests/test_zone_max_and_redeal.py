"""Two general mechanisms Scopa needed (issue 34; docs/rulesets.md "Caps" and "A void deal"):

- ``zones: NAME: max: N`` — the most cards the rules let a zone hold. A ``cards:`` parameter choosing a set
  of a zone's cards is listed over every subset, so its load-time bound was the whole deck's (Scopa's
  capture by a sum of table cards: 4.9e10 sets, refused); the rules bound the table (13 cards in Scopa),
  and that number now bounds the listing. The engine checks it after every action and automatic step:
  a game past it stops with a ruleset error naming the zone (validate's random games find it).
- the ``redeal`` step — the deal is void when a condition holds after dealing, the same dealer deals
  again (Scopa's three kings on the table; Euchre's house rule of a "farmer's hand").
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import cardspec
from cardspec.errors import RulesetError

ROOT = Path(__file__).resolve().parent.parent


def test_without_max_the_scopa_capture_is_refused_at_load_and_with_it_the_bound_is_the_tables(tmp_path):
    """The same ruleset without the table's max: is refused (the listing bound counts subsets of the whole
    deck); with max: 13 it loads and every listing stays small."""
    text = (ROOT / "rulesets" / "scopa.yaml").read_text()
    assert "max: 13" in text
    f = tmp_path / "scopa-nomax.yaml"
    f.write_text(text.replace("max: 13, ", "").replace("max: 3, ", ""))
    with pytest.raises(RulesetError, match="budget is 100,000,000"):
        cardspec.load(str(f))
    cardspec.load("scopa")


TOY = textwrap.dedent("""\
    name: piles
    players: {min: 2, max: 2}
    deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K], suits: [S, H, D, C]}
    zones:
      hand: {owner: seat, visibility: owner}
      table: {visibility: all, max: 3}
    counters: {score: {per: match}}
    match: {deals: 1}
    deal:
      - shuffle: {}
      - deal: {to: hand, each: 5}
      - turns:
          until: count(hand[0]) == 0
          actions:
            lay: {params: {c: {card: hand}}, effects: [{move: {from: "hand[seat]", to: table, cards: c}}]}
          turn:
            - one: lay
    """)


def test_a_zone_past_its_max_stops_the_game_with_a_ruleset_error_naming_it(tmp_path):
    """A ruleset whose play puts a fourth card on a table declared max: 3: the fourth card is refused as a
    fault of the rules (ruleset/runtime), naming the zone and its max."""
    f = tmp_path / "piles.yaml"
    f.write_text(TOY)
    s = cardspec.load(str(f)).new_state(seed=1)
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    with pytest.raises(RulesetError, match="zone 'table' holds 4 cards, more than its max: 3") as e:
        s.apply(s.legal_actions()[0])
    assert e.value.code == "ruleset/runtime"


def test_validate_finds_a_max_the_rules_break(tmp_path):
    """cardspec validate plays random games: the broken max is reported at the ruleset, not in play."""
    from cardspec.authoring.validate import validate_ruleset
    f = tmp_path / "piles.yaml"
    f.write_text(TOY)
    problems, code = validate_ruleset(str(f))
    assert code == 1 and any("more than its max: 3" in p.message for p in problems), problems


def test_redeal_throws_the_deal_in_and_a_condition_that_always_holds_ends_at_max_deals(tmp_path):
    """docs/rulesets.md, "A void deal": `redeal:` counts in redeals and keeps the deal number and dealer;
    a condition that always holds cannot loop: the match ends at match: max_deals deals and redeals."""
    f = tmp_path / "void.yaml"
    f.write_text(TOY.replace("  - turns:", "  - redeal: {if: 'true', reason: always}\n  - turns:", 1)
                 .replace("match: {deals: 1}", "match: {deals: 1, max_deals: 5}"))
    s = cardspec.load(str(f)).new_state(seed=1)
    assert s.terminal
    ends = [e for e in s.log_all() if e["type"] == "deal_end"]
    assert len(ends) >= 4 and all(e.get("redeal") and e["deal"] == 1 and e["reason"] == "always" for e in ends)
