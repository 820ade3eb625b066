"""What a view shows is declared (issue 23, item 1; docs/rulesets.md, "What a view shows").

A counter or var reaches a front end only with a ``label:``; which seats see it stays its visibility;
team totals are labelled by team; zones are drawn by kind (melds, a pile's top card, hidden counts).
The terminal's lines (``cardspec.play.terminal.display_lines``) and the play log (``format_events``) of every
built-in ruleset are checked for undeclared counter and var names.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import cardspec
from cardspec.errors import RulesetError
from cardspec.play.terminal import display_lines, format_events

ROOT = Path(__file__).resolve().parent.parent
BUILTINS = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))


def _undeclared_patterns(game):
    """Regexes for an unlabelled counter's or var's name printed as a fact (``went_out -1``,
    ``in flight``, ``armed: false``, ``lo=5``): names with ``_`` anywhere (also with spaces), single words
    followed by ``=``/``:`` and a value or by true/false."""
    out = []
    for name in [c.name for c in game.counters if not c.label] + [v.name for v in game.vars if not v.label]:
        if "_" in name:
            for form in (name, name.replace("_", " ")):
                out.append((name, re.compile(rf"(?<![\w-]){re.escape(form)}(?![\w-])")))
        else:
            out.append((name, re.compile(rf"(?<![\w-]){re.escape(name)}(?:\s*[=:]\s*(?:-?\d+|true|false|yes|no|none)"
                                         rf"|\s+(?:true|false))\b")))
    return out


def _front_end_text(game, seed=3, actions=300):
    """The terminal's view lines (every 5th decision, the acting seat's and a spectator's) and the play
    log (every seat's and the whole) of one random match of ``game``."""
    s = game.new_state(seed=seed)
    rng = random.Random(seed)
    lines = []
    k = 0
    while not s.terminal and k < actions:
        v = s.view(s.to_act)
        if k % 5 == 0:
            lines += display_lines(v) + display_lines(s.view(None, legal=False))
        s.apply(rng.choice(v["legal_actions"]))
        k += 1
    lines += format_events(game, s.log_all())
    for seat in range(game.n):
        lines += display_lines(s.view(seat, legal=False)) + format_events(game, s.log(seat))
    return lines


@pytest.mark.parametrize("name", BUILTINS)
def test_no_front_end_line_of_a_builtin_names_an_undeclared_counter_or_var(name):
    """Issue 23: "no front end prints an engine internal (e.g. went out -1, in flight false, armed false,
    lo 5)" — the terminal and the log print only labelled counters and vars, and no event as raw fields."""
    game = cardspec.load(name)
    lines = _front_end_text(game)
    pats = _undeclared_patterns(game)
    bad = [(n, ln) for ln in lines for n, p in pats if p.search(ln)]
    assert not bad, bad[:5]
    raw = [ln for ln in lines if re.match(r"\s*\w+: (\w+=\S+)(, \w+=\S+)*$", ln)]   # format_events' fallback
    assert not raw, raw[:5]


def test_unlabelled_vars_are_not_in_the_display_and_labelled_ones_are_in_words():
    """burraco.yaml: went_out and in_flight are bookkeeping (no label); last_turn is shown as yes/no."""
    g = cardspec.load("burraco")
    s = g.new_state(seed=2)
    d = s.view(0)["display"]
    names = {v["name"] for v in d["vars"]}
    assert "went_out" not in names and "in_flight" not in names
    assert [v["text"] for v in d["vars"] if v["name"] == "last_turn"] == ["no"]
    assert {c["name"] for c in d["counters"]} == {"score", "pots"}   # `last` has no label


def test_team_scores_are_labelled_by_team():
    """Issue 23: "team scores are labelled with seat names" — burraco.yaml's score has show: teams."""
    g = cardspec.load("burraco")
    d = g.new_state(seed=2).view(1)["display"]
    score = [c for c in d["counters"] if c["name"] == "score"][0]
    assert score["by"] == "team"
    assert [(v["who"], v["seats"]) for v in score["values"]] == [("team 0 (seats 0+2)", [0, 2]),
                                                                 ("team 1 (seats 1+3)", [1, 3])]


def test_melds_are_numbered_by_team_and_the_discard_pile_shows_its_top_card():
    """burraco.md "A turn": melds on the table by partnership, the discard pile's top card only."""
    g = cardspec.load("burraco")
    s = g.new_state(seed=2)
    rng = random.Random(0)
    while not any(z["kind"] == "melds" and z["melds"] for z in s.view(0)["display"]["zones"]):
        s.apply(rng.choice([a for a in s.legal_actions() if a.startswith("meld")] or s.legal_actions()))
    v = s.view(0)
    zones = v["display"]["zones"]
    melds = [z for z in zones if z["kind"] == "melds" and z["melds"]][0]
    assert melds["owner_label"] == f"team {melds['owner']}"
    assert [m["cards"] for m in melds["melds"]] == v["zones"]["table"][str(melds["owner"])]
    assert [m["number"] for m in melds["melds"]] == list(range(1, len(melds["melds"]) + 1))
    pile = [z for z in zones if z["name"] == "discard"][0]
    assert pile["kind"] == "pile" and pile["top"] == v["zones"]["discard"]["top"]
    assert "cards" not in pile
    line = [ln for ln in display_lines(v) if ln.startswith("discard: top ")]
    assert line, display_lines(v)


def test_the_display_hides_what_the_view_hides():
    """The visibility rules hold: another seat's hand is a count, never cards; a secret var
    (eleusis-prophets.yaml rule: seen_by dealer) is in no display (it has no label either)."""
    g = cardspec.load("hearts")
    s = g.new_state(seed=1)
    d = s.view(2)["display"]
    hands = {z["owner"]: z for z in d["zones"] if z["name"] == "hand"}
    assert hands[2]["kind"] == "cards" and len(hands[2]["cards"]) == 13
    assert all(hands[k]["kind"] == "hidden" and "cards" not in hands[k] for k in (0, 1, 3))
    judged = cardspec.load("eleusis-prophets")
    assert not judged.counter["judged"].label   # a secret judgement: owner-only and not labelled


def test_owner_only_counter_values_stay_hidden_in_the_display(tmp_path):
    """A labelled counter with visibility: owner shows only the seat's own value (others None)."""
    p = tmp_path / "v.yaml"
    p.write_text((ROOT / "rulesets" / "black-lady.yaml").read_text().replace(
        "points: {label: Points this deal, per: deal,", "points: {label: Points this deal, visibility: owner, per: deal,"))
    g = cardspec.load(str(p), players=4)
    d = g.new_state(seed=1).view(1)["display"]
    pts = [c for c in d["counters"] if c["name"] == "points"][0]
    assert [v["value"] is None for v in pts["values"]] == [True, False, True, True]


def test_hearts_points_this_deal_run_during_the_deal():
    """Issue 23: "Hearts' running points this deal stays 0 all deal" — after each trick the taker's
    points are the points of the cards he has taken (black-lady.md "Scoring": hearts 1, QS 13)."""
    g = cardspec.load("hearts")
    s = g.new_state(seed=3)
    rng = random.Random(3)
    seen_nonzero = False
    while not s.terminal and s.v[g.var["hearts_broken"].index] is not None:
        s.apply(rng.choice(s.legal_actions()))
        if s.terminal or s.view(0)["step"] != "play" or s.plays:
            continue
        pts = [c for c in s.view(0)["display"]["counters"] if c["name"] == "points"][0]
        won = g.zone["won"].index
        for v in pts["values"]:
            seat = v["seats"][0]
            assert v["value"] == sum(g.deck.points_of[c] for c in s.z[won][seat]), (seat, v)
        seen_nonzero = seen_nonzero or any(v["value"] for v in pts["values"])
        if s.v[g.var["hearts_broken"].index] and seen_nonzero:
            break
    assert seen_nonzero


def test_show_teams_without_teams_is_an_error_at_its_key(tmp_path):
    p = tmp_path / "v.yaml"
    p.write_text("extends: black-lady\nname: v\ncounters:\n  score: {show: teams}\n")
    with pytest.raises(RulesetError) as e:
        cardspec.load(str(p), players=4)
    assert "show: teams needs match: teams" in str(e.value)
    assert re.search(r"v\.yaml:4:\d+", str(e.value)), str(e.value)


def test_a_flag_counter_is_shown_as_yes_or_no():
    """Issue 35 item 8: "Pot taken (1 = yes): 0", "Prophet (1 = yes)" — a counter kept as 0/1 is declared
    ``shown_as: yes_no`` and every front end prints yes / no (the display's ``text``); a number stays one."""
    import cardspec
    g = cardspec.load("burraco")
    s = g.new_state(seed=1)
    d = s.view(0)["display"]
    pots = next(c for c in d["counters"] if c["name"] == "pots")
    assert pots["label"] == "Pot taken" and {v["text"] for v in pots["values"]} == {"no"}
    score = next(c for c in d["counters"] if c["name"] == "score")
    assert all("text" not in v for v in score["values"])   # a number stays a number (views of frozen rulesets)
    from cardspec.play.terminal import display_lines
    text = "\n".join(display_lines(s.view(0)))
    assert "Pot taken" in text and "(1 = yes)" not in text and ": no" in text


def test_the_contract_is_on_the_table():
    """Issue 35 item 3: "The contract is only in the log. Napoleon's declarer and bid (20 ♠), the Auction
    Pitch pitcher and bid, the standing high bid during an auction." ``engine.display.contract`` gives the
    standing high bid during the auction, then the contract and its declarer, from any seat's or the
    spectator's view (front ends show it; it is not stored in the view, whose shape frozen rulesets pin);
    a game without an auction has none."""
    import random
    import cardspec
    from cardspec.engine.display import contract
    from cardspec.play.terminal import display_lines
    for name in ("napoleon", "auction-pitch", "briscola-chiamata", "sheepshead"):
        g = cardspec.load(name)
        s, rng = g.new_state(seed=3), random.Random(3)
        seen_high = seen_contract = False
        for _ in range(60):
            if s.terminal:
                break
            view = s.view(None)
            c = contract(g, view)
            live = view.get("auction")
            if c is not None:
                assert c["declarer"] == view["system"]["declarer"]
                if live:
                    assert c["standing"] and c["bid"] == live["high"], (name, c, live)
                    seen_high = True
                else:
                    ends = [e for e in s.log_all() if e["type"] == "auction_end"]
                    assert not c["standing"] and ends and c["bid"] == ends[-1]["bid"], (name, c, ends[-1:])
                    lines = display_lines(s.view(0), contract=contract(g, s.view(0)))
                    assert any(line.startswith("Contract: ") for line in lines)
                    seen_contract = True
            s.apply(rng.choice(s.legal_actions()))
        assert seen_contract, name
    g = cardspec.load("hearts")
    assert contract(g, g.new_state(seed=1).view(0)) is None
