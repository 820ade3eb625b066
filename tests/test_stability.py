"""An upgrade never takes a name away from a ruleset (issue 32 item 4; docs/rulesets.md, "Stability").

Of seven outside rulesets written against one release, three stopped validating when the engine later gave
meaning to names they had declared (``passed``, ``level``, ``strength``, ``taker``, ``bid_suit``). The
stability rule: a name a ruleset declares always means the declaration in that ruleset's expressions; it
hides the engine's name of that spelling (a ``name/hides-engine`` warning at the key), wherever the engine
binds it — a table value, a constant, a suit or rank letter, an expression function, a step's parameter or a
name of ``sides:``.

This file checks the whole kind, not the five names of the report: every name the checker's environment
gives a ruleset (``engine.compile.names.engine_names`` of a probe game that has every step that binds names
of its own: an auction, a turns step, tricks, ``sides:``) is declared in turn as a var, a counter, a
definition, a definition with a parameter and a shared zone. Each such ruleset must validate with no
error, warn at the declaring key, play to the end, and read the author's value in every context that binds
names: a deal-level effect, an auction's ``after_bid:``, a turns action, a trick's ``after_play:`` and
``after_trick:``, and a score step's value. The list of names is read from the engine at test time, so a
name a later mechanism adds is checked without editing this file (and a test fails if the enumeration
shrinks below the names the issue named).
"""
from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

import pytest

import cardspec
from cardspec.engine.compile.names import HIDES, engine_names
from cardspec.validate import validate_ruleset

#: Where the probe reads the declared name: each context binds names of its own (docs/dsl.md, "Extra names
#: in each context"). A var per context records what the author's name meant there.
BID_WHIST = Path(__file__).resolve().parent / "corpus" / "bid-whist.yaml"

CONTEXTS = ("seen_deal", "seen_bid", "seen_turn", "seen_play", "seen_trick")

#: The probe: every expression of the ruleset is a literal, an EngineText default or the probe's read of
#: NAME, so nothing but the declaration under test can be hidden. {decl} declares NAME, {deal_zone} puts
#: cards in it when it is a zone, {read} reads it (an int: 7 for a var, a counter or a definition, 2 for a
#: zone holding two cards).
BASE = """\
name: probe
players: {{min: 4, max: 4}}
deck: {{ranks: [9, T, J, Q, K, A], suits: [S, H, D, C]}}
zones:
  hand: {{owner: seat, visibility: owner}}
  won: {{owner: seat, visibility: all}}
{zones}
counters:
  pts: {{per: match}}
{counters}
vars:
  seen_deal: {{type: int, default: -1, per: match}}
  seen_bid: {{type: int, default: -1, per: match}}
  seen_turn: {{type: int, default: -1, per: match}}
  seen_play: {{type: int, default: -1, per: match}}
  seen_trick: {{type: int, default: -1, per: match}}
{vars}
{define}
sides: {{}}
actions:
  poke:
    effects: [{{set: {{seen_turn: "{read}"}}}}]
match: {{deals: 1}}
deal:
  - shuffle
{deal_zone}
  - deal: {{to: hand, each: 5}}
  - auction:
      bids: {{number: {{min: 1, max: 9}}}}
      once: true
      may_pass: false
      after_bid: [{{set: {{seen_bid: "{read}"}}}}]
  - turns:
      until: false
      max_turns: 1
      at_max: step
      turn: [{{one: poke}}]
  - tricks:
      follow: suit
      to: won
      after_play: [{{set: {{seen_play: "{read}"}}}}]
      after_trick: [{{set: {{seen_trick: "{read}"}}}}]
  - do: [{{set: {{seen_deal: "{read}"}}}}]
  - score: {{counter: pts, value: "{read}"}}
"""

#: The kinds of declaration an author writes: (kind, the section's entry, how it is read, the value read).
KINDS = {
    "var": ("vars", "{n}: {{type: int, default: 7}}", "{n}", 7),
    "counter": ("counters", "{n}: {{initial: 7}}", "{n}[0]", 7),
    "definition": ("define", "{n}: 7", "{n}", 7),
    "definition with a parameter": ("define", '"{n}(x)": x + 7', "{n}(0)", 7),
    "zone": ("zones", "{n}: {{visibility: all}}", "{size}", 2),
}


def probe_text(name: str, kind: str) -> str:
    section, entry, read, _ = KINDS[kind]
    parts = {"zones": "", "counters": "", "vars": "", "define": "", "deal_zone": ""}
    line = "  " + entry.format(n=name)
    if section == "define":
        parts["define"] = "define:\n" + line
    else:
        parts[section] = line
    if kind == "zone":
        parts["deal_zone"] = f"  - deal: {{to: {name}, count: 2}}"
    size = f"count({name})" if name != "count" else f"sum(1 for c in {name})"
    return BASE.format(read=read.format(n=name, size=size), **parts)


def engine_name_list() -> list:
    """Every name the engine gives the probe's expressions (read from the engine, not written here)."""
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "probe.yaml")
        with open(p, "w") as f:
            f.write(probe_text("probe_own", "var"))
        game = cardspec.load(p, players=4)
    return sorted(engine_names(game, game.data))


NAMES = engine_name_list()


def test_the_enumeration_holds_every_kind_of_engine_name():
    """The list this file checks is the engine's whole list, of every kind (issue 32 item 4: the five names
    of the report, a table value, a constant, a suit, a rank letter, a function, a step's parameter, a
    name of sides:)."""
    for name in ("passed", "level", "strength", "taker", "bid_suit",      # the report's names
                 "leader", "players", "no_suit", "spades", "J", "red",    # values, constants, deck
                 "count", "left_of", "seat", "card", "next_leader",       # functions, step parameters
                 "partner", "alone", "turn_seat"):                         # sides:, turns
        assert name in NAMES, name
    assert len(NAMES) >= 80, len(NAMES)


def _play(path) -> dict:
    game = cardspec.load(str(path), players=4)
    s = game.new_state(seed=3)
    rng = random.Random(3)
    for _ in range(500):
        if s.terminal:
            break
        s.apply(rng.choice(s.legal_actions()))
    assert s.terminal, "the probe did not finish in 500 actions"
    return s.view(None)


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("name", NAMES)
def test_an_engine_name_declared_by_the_ruleset_is_the_rulesets(tmp_path, name, kind):
    """docs/rulesets.md, "Stability": the ruleset declares NAME; it validates (a warning, no error), the
    warning is at the declaring key and names the code name/hides-engine, and every context reads the
    author's value, even where a step gives its expressions a parameter of that name."""
    path = tmp_path / "probe.yaml"
    path.write_text(probe_text(name, kind))
    problems, status = validate_ruleset(str(path))
    errors = [p for p in problems if p.severity == "error"]
    assert status == 0 and not errors, "\n".join(p.format() for p in problems)
    hides = [p for p in problems if p.code == HIDES]
    assert len(hides) == 1 and f"'{name}' hides" in hides[0].message, [p.format() for p in problems]
    want = KINDS[kind][3]
    view = _play(path)
    seen = {c: view["vars"][c] for c in CONTEXTS}
    assert seen == {c: want for c in CONTEXTS}, seen
    assert view["counters"]["pts"] == [want] * 4


def test_a_declared_name_that_the_engine_does_not_have_gives_no_warning(tmp_path):
    """The check can fail: the same probe with a name of the author's own has no hides-engine warning, and
    reads the value the same way."""
    path = tmp_path / "probe.yaml"
    path.write_text(probe_text("probe_own", "counter"))
    problems, status = validate_ruleset(str(path))
    assert status == 0 and not [p for p in problems if p.code == HIDES]
    view = _play(path)
    assert [view["vars"][c] for c in CONTEXTS] == [7] * len(CONTEXTS)


RANKS = "23456789TJQKA"
SUITS = "SHDC"


def test_the_issue_ruleset_uses_the_five_names_as_its_own():
    """Issue 32 item 4, "Done when": a ruleset using passed, level, strength, taker and bid_suit as its own
    names validates and plays (tests/corpus/bid-whist.yaml, frozen with its digests). Each keeps the author's
    meaning over the engine's: the counter `passed` counts each seat's passes (not the after_bid: parameter),
    the vars `taker` and `level` hold the auction's winner and bid (set from the engine's declarer and
    bid_number), the var `bid_suit` holds the suit the taker named while the engine's bid_suit stays no_suit
    (the bids name no suit), and the definition `strength(c: card)` ranks the trick (a trump above every card
    of the led suit; the function strength(card) would rank by rank alone)."""
    problems, status = validate_ruleset(str(BID_WHIST))
    assert status == 0 and not [p for p in problems if p.severity == "error"]
    assert {p.message.split("'")[1] for p in problems if p.code == HIDES} == \
        {"passed", "level", "strength", "taker", "bid_suit"}
    game = cardspec.load(str(BID_WHIST), players=4)
    ruffs = 0
    for seed in range(8):
        s = game.new_state(seed=seed)
        rng = random.Random(seed)
        passes = [0] * 4
        while not s.terminal:
            seat, text = s.to_act, rng.choice(s.legal_actions())
            before = s.view(None)
            s.apply(text)
            after = s.view(None)
            if text == "pass":
                passes[seat] += 1
            if text.startswith("name "):
                v, system = after["vars"], after["system"]
                assert v["taker"] == seat == system["declarer"] and v["level"] == system["bid_number"] >= 3
                assert "SHDC"[v["bid_suit"]] == after["trump"] == text.split()[1][0].upper()
                assert system["bid_suit"] == -1
            last = before["system"]["trick_number"] == before["system"]["tricks_total"]   # then the deal is scored
            if len(before["trick"]) == 3 and not after["trick"] and not last:
                plays = before["trick"] + [[seat, text]]
                trump, led = after["trump"], plays[0][1][-1]

                def strength(code):
                    return RANKS.index(code[:-1]) + 2 + (100 if code[-1] == trump else 0)
                eligible = [p for p in plays if p[1][-1] in (led, trump)]
                taker = max(eligible, key=lambda p: strength(p[1]))[0]
                ruffs += any(p[1][-1] == trump != led for p in plays)
                won = [a - b for a, b in zip(after["counters"]["books_won"], before["counters"]["books_won"])]
                assert won == [int(k == taker) for k in range(4)], (plays, trump, won)
        assert s.view(None)["counters"]["passed"] == passes
    assert ruffs > 0   # a trump took a trick of another suit: the definition's +100 was read


@pytest.mark.parametrize("name", ["QS", "TH", "JK"])
def test_a_name_spelled_like_a_card_is_a_warning(tmp_path, name):
    """docs/rulesets.md, "Names": the grammar reads QS as the queen of spades (its CARD token comes before
    NAME), so a var declared QS can never be read; validate said "ok" and every read got the card. It is a
    warning at the key (the ruleset ran as before: a new check never makes a valid ruleset invalid); a name
    that only starts like a card is not one."""
    path = tmp_path / "v.yaml"
    path.write_text(f"extends: black-lady\nname: v\nvars:\n  {name}: 0\n  {name}_count: 0\n")
    problems, status = validate_ruleset(str(path))
    assert status == 0
    cards = [p for p in problems if p.code == "name/card-literal"]
    assert [(p.line, p.severity) for p in cards] == [(4, "warning")] and f"'{name}'" in cards[0].message
