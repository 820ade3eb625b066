"""A seat that sits out a deal (the ``sits_out`` step, engine/steps/sitout.py; docs/rulesets.md, "A seat
that sits out a deal"), on the toy ruleset tests/sides/sitout.yaml: five players, 24 cards, the dealer
(or the seat at his left) sits out. The rules behind it: briscola-chiamata.md and goninkan.md, Options
"players: 5 | 6" (the dealer sits out each deal). Checked for every step kind that orders seats: the
deal, an auction, a bid step, a pass, a turns step and the tricks, in the default play order (left)."""
import pathlib
import random

import pytest

import cardspec
from cardspec.errors import RulesetError
from cardspec.engine.determinize import Determinizer

TOY = pathlib.Path(__file__).parent / "sides" / "sitout.yaml"


def game(players=5, **options):
    return cardspec.load(str(TOY), players, options)


def actors(s, rng, deal=1):
    """Play the deal ``deal`` at random; the seats asked to act, in order."""
    seen = []
    while not s.terminal and s.view(None)["deal"] == deal:
        seen.append(s.to_act)
        s.apply(rng.choice(s.legal_actions()))
    return seen


@pytest.mark.parametrize("step", ["none", "auction", "bid", "pass", "turns"])
def test_the_seat_that_sits_out_gets_no_cards_and_never_acts(step):
    """briscola-chiamata.md / goninkan.md Options "players: 6 (the dealer sits out each deal)": the dealer
    is dealt nothing, the others 6 each (all 24 cards), every step goes round without him and each
    trick has one card fewer, so he never acts; the deal passes left and the next dealer sits out."""
    g = game(step=step)
    assert g.may_sit_out
    s = g.new_state(seed=3)
    hand = g.zone["hand"].index
    assert [len(h) for h in s.z[hand]] == [0, 6, 6, 6, 6]
    who = actors(s, random.Random(3))
    assert who and 0 not in who
    tricks = [e for e in s.log_all() if e["type"] == "trick"]
    assert len(tricks) == 6 and all([p for p, _ in t["cards"]] == [(t["leader"] + i - 1) % 4 + 1 for i in range(4)]
                                    for t in tricks)
    if step == "turns":   # the turns step starts at the dealer: the next seat in play order takes his turn
        assert who[:4] == [1, 2, 3, 4]
    assert s.view(None)["dealer"] == 1 and s.view(None)["system"]["sits_out"] == 1
    assert [len(h) for h in s.z[hand]] == [6, 0, 6, 6, 6]


def test_a_seat_that_is_not_the_dealer_may_sit_out():
    """The expression names any seat: here the dealer's left, who would lead and be dealt first."""
    g = game(who="left")
    s = g.new_state(seed=5)
    assert [len(h) for h in s.z[g.zone["hand"].index]] == [6, 0, 6, 6, 6]
    assert s.to_act == 2                                   # first_leader left_of(dealer) = 1 sits out
    assert 1 not in actors(s, random.Random(5))


def test_none_and_a_constant_none_fold_away():
    """sits_out: none for this player count compiles as if there were no step (the fast tricks code):
    at four players, or with an option that makes the expression the constant none; five players who
    all play cannot be dealt 6 each from 24 cards, which the deal reports at the step."""
    for g in (game(4), game(who="nobody")):
        assert g.may_sit_out is False
    s = game(4).new_state(seed=1)
    assert [len(h) for h in s.z[s.game.zone["hand"].index]] == [6, 6, 6, 6]
    assert s.view(None)["system"]["sits_out"] == -1
    with pytest.raises(RulesetError, match="cannot deal 6 cards to each of 5 players"):
        game(who="nobody").new_state(seed=2)


def test_views_logs_and_determinizations():
    """The seat that sits out sees the table as a spectator: its view holds nothing a spectator's does
    not (its own hand is empty: no zone of its own to see); the display and the log say who sits out; a bot's guesses
    deal it no cards."""
    g = game(step="turns")
    s = g.new_state(seed=2)
    rng = random.Random(2)
    for _ in range(5):
        s.apply(rng.choice(s.legal_actions()))
    mine, spectator = s.view(0, log=True), s.view(None, log=True)
    for key in ("zones", "counters", "vars", "trick"):
        assert mine[key] == spectator[key]
    assert mine["display"]["sits_out_text"] == "you sit out this deal"
    assert s.view(1)["display"]["sits_out_text"] == "seat 0 sits out this deal"
    assert {"type": "sits_out", "seat": 0} in spectator["log"]
    from cardspec.play.terminal import display_lines, format_events
    assert "seat 0 sits out this deal" in display_lines(s.view(1))
    assert "  seat 0 sits out this deal" in format_events(g, spectator["log"])
    det = Determinizer(g, s.view(s.to_act, log=True))
    for _ in range(10):
        guess = det.sample(rng)
        assert guess.z[g.zone["hand"].index][0] == []


def test_a_bad_sits_out_is_an_error_at_its_position(tmp_path):
    """A sits_out that is not a seat expression is refused at load with its file:line:col."""
    from cardspec.authoring.validate import validate_ruleset
    src = TOY.read_text()
    start = src.index("    sits_out: >")
    end = src.index("else dealer\n", start) + len("else dealer\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text(src[:start] + "    sits_out: [1, 2]\n" + src[end:])
    problems, status = validate_ruleset(str(bad))
    assert status == 1 and problems and all(p.line >= 1 for p in problems), problems
    assert any("sits_out" in p.message for p in problems), problems


def test_validate_checks_every_player_count_and_option():
    """cardspec validate deals every deal of the schedule at every player count and option value: the
    toy's who=nobody at five players (all five play, 6 cards each from 24) is reported at the deal."""
    from cardspec.authoring.validate import validate_ruleset
    problems, status = validate_ruleset(str(TOY))
    assert status == 1 and len(problems) == 1
    assert "who=nobody" in problems[0].message and "with 5 players" in problems[0].message
    assert "cannot deal 6 cards to each of 5 players" in problems[0].message and problems[0].line == 28


def test_a_seat_sitting_out_decided_after_the_deal_or_nobody():
    """Issue 34 item 11 (docs/rules/euchre.md, "Partners": a maker going alone, his partner sits out): a
    ``sits_out`` step after the deal whose seat is decided in play (tests/sides/sitout_after_deal.yaml)
    once made the tricks step raise ``TypeError: 'NoneType' object is not subscriptable`` in every deal
    where it named nobody (the play-order table was left unmade). Both branches, many deals: when the
    seat at the dealer's left plays alone his partner never plays and each trick has 3 cards; else 4."""
    g = cardspec.load(str(TOY.parent / "sitout_after_deal.yaml"))
    assert g.may_sit_out
    seen = set()
    for seed in range(40):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.terminal:
            s.apply(rng.choice(s.legal_actions()))
        log = s.log_all()
        deal = 0
        for ev in log:
            if ev["type"] == "deal_start":
                deal, out = ev.get("dealer", 0), None
            elif ev["type"] == "sits_out":
                out = ev["seat"]
            elif ev["type"] == "trick":
                seats = [p for p, _ in ev["cards"]]
                if out is None:
                    assert len(seats) == 4
                else:
                    assert len(seats) == 3 and out not in seats
                    assert out == (deal + 3) % 4   # the partner of the dealer's left
                seen.add(out is None)
    assert seen == {True, False}
