"""The size and cost of listing a decision's legal actions are bounded when the ruleset loads (issue 16,
Deliver 2: "every evaluation has a cost bound known at load"; docs/dsl.md, "Bounds", "Listing").

For every decision step and turns action kind, engine/listing.py computes from the deck (the most cards a
zone can hold), the parameter kinds and their candidates, card-set counts (C(n, k) summed over the allowed
k) and number ranges: the most actions a full listing can hold (budget LISTED_BUDGET) and the cost of
deciding one small choice, a search for a legal completion checked with the action's own legality check
(budget CHOICE_BUDGET). Over either, the ruleset is refused at the step's (or action's) file:line:col with
the estimate and the budget. The run-time caps stay as a safety net (tests/test_bounds.py).
"""
from __future__ import annotations

import time

import pytest

import cardspec
from cardspec.engine import listing
from cardspec.errors import RulesetError
from cardspec.lang.bounds import CHOICE_BUDGET, LISTED_BUDGET, RULE_BUDGET
from cardspec.rules import builtin_names, read_ruleset
from cardspec.authoring.validate import validate_ruleset


def _ruleset(params: str = "      group: {cards: hand}", legal: str = "true", pass_count: int | None = None) -> str:
    pass_step = f"  - pass: {{count: {pass_count}, to: left_of(seat)}}\n" if pass_count is not None else ""
    return f'''\
name: listing
players: {{min: 2, max: 2}}
deck:
  ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A]
  suits: [S, H, D, C]
zones:
  hand: {{owner: seat, visibility: owner}}
  table: {{visibility: all}}
counters:
  pts: {{per: match}}
actions:
  lay:
    params:
{params}
    legal: {legal}
    effects:
      - move: {{from: "hand[seat]", to: table, cards: group}}
  draw:
    effects:
      - move: {{from: "hand[seat]", to: table, count: 1}}
deal:
  - shuffle: {{}}
  - deal: {{to: hand, each: 26}}
{pass_step}  - turns:
      first: 0
      until: count(table) > 40
      turn:
        - one: [lay, draw]
match:
  deals: 1
  score: pts
'''


def _refused(tmp_path, text, name="listing.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        cardspec.load(str(path), players=2)
    problems, status = validate_ruleset(str(path), play=False)
    assert status == 1 and [p.message for p in problems] == [p.message for p in info.value.problems]
    return info.value.problems


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_pass_over_the_budget_is_refused_with_its_estimate(tmp_path):
    """`pass: {count: 13}` from a hand of 26 (C(26, 13) = 10,400,600 passes, and a hand may hold the whole
    deck: C(52, 13) = 635,013,559,600): refused at the pass step with the estimate and the budget; a pass of 3
    (C(52, 3) = 22,100) loads."""
    text = _ruleset(pass_count=13)
    problems = _refused(tmp_path, text)
    assert len(problems) == 1, problems
    p = problems[0]
    assert (p.line, p.col) == (_line_of(text, "- pass:"), 5), p
    assert "635,013,559,600 actions" in p.message and f"the budget is {LISTED_BUDGET:,}" in p.message
    assert "a pass of 13 cards from a hand of up to 52" in p.message
    path = tmp_path / "three.yaml"
    path.write_text(_ruleset(pass_count=3), encoding="utf-8")
    game = cardspec.load(str(path), players=2)
    step = next(s for s in game.steps if s.kind == "pass")
    assert step.listing.moves == 22_100


def test_a_card_set_parameter_over_the_budget_is_refused_at_its_action(tmp_path):
    """A turns action of any 1 to 26 cards of the hand (2**52-ish sets from a hand that may hold the deck) is
    refused at the action's file:line:col; 1 to 3 cards (23,478 sets) load."""
    text = _ruleset("      group: {cards: hand, count: {min: 1, max: 26}}")
    problems = _refused(tmp_path, text)
    assert len(problems) == 1, problems
    p = problems[0]
    assert (p.line, p.col) == (_line_of(text, "  lay:"), 3), p
    assert "'lay' (sets of 1 to 26 cards from up to 52)" in p.message and "actions" in p.message
    assert f"{LISTED_BUDGET:,}" in p.message
    path = tmp_path / "small.yaml"
    path.write_text(_ruleset("      group: {cards: hand, count: {min: 1, max: 3}}"), encoding="utf-8")
    game = cardspec.load(str(path), players=2)
    turns = next(s for s in game.steps if s.kind == "turns")
    assert turns.action_listing["lay"].moves == 52 + 1326 + 22100


def test_number_parameters_multiply_and_are_refused_together(tmp_path):
    """Two number parameters of 10,000 values with a card: 52 * 10**8 actions, refused at load (each number
    alone is within its own run-time cap)."""
    params = ("      group: {cards: hand}\n      a: {number: {min: 1, max: 10000}}\n"
              "      b: {number: {min: 1, max: 10000}}")
    problems = _refused(tmp_path, _ruleset(params, legal="a == b"))
    assert "5,200,000,000 actions" in problems[0].message, problems


def test_a_search_that_must_try_every_card_set_is_refused(tmp_path):
    """A legal: that depends on the cards chosen makes the search for a legal completion try every set: 1 to 6
    cards of up to 52 (23,282,252 sets) is within the listing budget, but deciding one small choice may
    check every set: refused by CHOICE_BUDGET with the estimate."""
    text = _ruleset("      group: {cards: hand, count: {min: 1, max: 6}}",
                    legal="sum(c.rank for c in group) == 1000")
    problems = _refused(tmp_path, text)
    assert len(problems) == 1 and "deciding one small choice may take about" in problems[0].message, problems
    assert f"the budget is {CHOICE_BUDGET:,}" in problems[0].message
    # the same sets with a legal: that names no parameter are checked once: it loads
    path = tmp_path / "free.yaml"
    path.write_text(_ruleset("      group: {cards: hand, count: {min: 1, max: 6}}", legal="count(table) < 100"),
                    encoding="utf-8")
    game = cardspec.load(str(path), players=2)
    lay = next(s for s in game.steps if s.kind == "turns").action_listing["lay"]
    assert lay.choices < CHOICE_BUDGET / 100 < lay.moves * lay.check


def test_a_false_legal_that_names_no_parameter_is_not_searched(tmp_path, monkeypatch):
    """Found while bounding the search: a one phase asks whether some action is legal; with legal: false for
    every card set (it names no parameter), the search used to try all of them (any 1 to 26 of 26 cards: it
    never ended). The condition is now checked first; with the load budgets lifted, the first turn is ready
    at once and offers only the other action."""
    monkeypatch.setattr(listing, "LISTED_BUDGET", 10 ** 30)
    path = tmp_path / "hang.yaml"
    path.write_text(_ruleset("      group: {cards: hand, count: {min: 1, max: 26}}", legal="count(table) > 100"),
                    encoding="utf-8")
    game = cardspec.load(str(path), players=2)
    start = time.process_time()
    state = game.new_state(seed=1)
    assert state.legal_choices() == ["draw"] and state.legal_actions() == ["draw"]
    assert time.process_time() - start < 5


def test_the_search_has_a_run_time_net(tmp_path, monkeypatch):
    """Behind the load-time bound, a search for a legal completion stops past MAX_LISTED values tried with a
    ruleset error at the step (here the cap is lowered to keep the test short)."""
    from cardspec.engine.steps import turns
    monkeypatch.setattr(listing, "LISTED_BUDGET", 10 ** 30)
    monkeypatch.setattr(listing, "CHOICE_BUDGET", 10 ** 30)
    for room in (turns.cards, turns.actions, turns.search, turns.lazy):   # the modules of the turns step that read the cap
        monkeypatch.setattr(room, "MAX_LISTED", 5_000)
    path = tmp_path / "search.yaml"
    path.write_text(_ruleset("      group: {cards: hand, count: {min: 1, max: 26}}",
                             legal="sum(c.rank for c in group) == 1000"), encoding="utf-8")
    game = cardspec.load(str(path), players=2)
    with pytest.raises(RulesetError) as info:
        game.new_state(seed=1)
    assert "step 'turns': the search for a legal 'lay' would list more than" in str(info.value), str(info.value)
    assert info.value.code == "ruleset/runtime"


def test_a_typed_rule_judged_for_every_listed_play_is_bounded(tmp_path):
    """Eleusis: judging a rule costs up to RULE_BUDGET steps (a typed rule is refused above it,
    tests/test_bounds.py), and the plays are listed without judging (the judgement is an effect of the play,
    once per card played). A legal: that judges each listed play would cost RULE_BUDGET per play checked: the
    search among the 14,909,960 plays is over CHOICE_BUDGET and refused at the action."""
    game = cardspec.load("eleusis-prophets", players=4)
    play = next(s for s in game.steps if s.kind == "turns").action_listing["play"]
    assert play.check < RULE_BUDGET and play.moves == 14_909_960
    path = tmp_path / "judging.yaml"
    path.write_text('''\
extends: eleusis-prophets
actions:
  play:
    legal: judge(rule, cards[0], line)
''', encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        cardspec.load(str(path), players=4)
    p = info.value.problems[0]
    assert (p.line, p.col) == (3, 3) and "deciding one small choice" in p.message, info.value
    assert play.moves * RULE_BUDGET > CHOICE_BUDGET


def test_a_bid_range_too_large_to_list_is_a_ruleset_error_not_a_hang(tmp_path):
    """The bid step listed range(min, max + 1) with no cap (max: 10**9 from an expression would list a billion
    bids): it stops with a ruleset error at the step past MAX_NUMBER_VALUES, like a number parameter."""
    path = tmp_path / "bids.yaml"
    path.write_text('''\
extends: oh-hell
vars: {huge: 1000000000}
deal:
  - id: bid
    bid: {counter: bids, min: 0, max: huge}
''', encoding="utf-8")
    game = cardspec.load(str(path), players=3)
    with pytest.raises(RulesetError) as info:
        game.new_state(seed=1).legal_actions()
    assert "1,000,000,001 bids; at most 10,000" in str(info.value)


def _figures():
    out = {}
    for name in builtin_names():
        lo, hi = read_ruleset(name).players
        for n in range(lo, hi + 1):
            game = cardspec.load(name, players=n)
            for step in game.steps:
                b = getattr(step, "listing", None)
                if b is None:
                    continue
                key = (name, step.name)
                old = out.get(key)
                if old is None or (b.moves, b.choices) > (old[1].moves, old[1].choices):
                    out[key] = (n, b)
    return out


def test_every_builtin_is_well_within_the_listing_budgets():
    """Every built-in at every player count: the largest full listing is at most a fifth of LISTED_BUDGET and
    the costliest small choice at most a fourth of CHOICE_BUDGET (the table printed is docs/dsl.md's)."""
    figs = _figures()
    for (name, step), (n, b) in sorted(figs.items(), key=lambda kv: -kv[1][1].moves)[:8]:
        print(f"{name} {step} ({n} players): {b.moves:,.0f} actions, {b.check:,.0f} per check, "
              f"{b.listing:,.0f} listing, {b.choices:,.0f} per small choice")
    moves = max(b.moves for _, b in figs.values())
    choices = max(b.choices for _, b in figs.values())
    assert moves * 5 <= LISTED_BUDGET and choices * 4 <= CHOICE_BUDGET, (moves, choices)
    assert {"eleusis-prophets", "burraco", "hearts", "napoleon"} <= {name for name, _ in figs}
