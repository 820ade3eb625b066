"""``game_over`` says why the match ended (docs/events.md, game_over ``reason``; docs/turns.md).

Red Dog (../shared/rules/red-dog.md, "End": once a player is bankrupt the game ends the next time
the pot is emptied; an option caps the turns; one player left with chips ends it too) gives each
ending its own text: ``until_reason`` of its turns step, an ``end: {level, reason}`` effect, and
the generic turn cap. Other endings are generic: an ``end: match`` effect, the match's ``end:``
condition, the deal count.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import cardspec
from cardspec import RulesetError
from cardspec.play.terminal import format_events

TOY = str(Path(__file__).parent / "turns" / "toy.yaml")


def play_out(g, seed):
    s = g.new_state(seed=seed)
    rng = random.Random(seed)
    while not s.terminal:
        s.apply(rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize("players", [2, 3, 5])
def test_red_dog_game_over_names_the_ending_that_happened(players):
    """red-dog.md "End": the reason matches the final state (chips, pot, turn cap event)."""
    g = cardspec.load("red-dog", players, {"max_turns": 60})
    seen = set()
    for seed in range(30):
        s = play_out(g, seed)
        ev = s.log_all()[-1]
        assert ev["type"] == "game_over"
        chips = s.view(None)["counters"]["chips"]
        capped = any(e["type"] == "turn_cap" for e in s.log_all())
        if capped:
            assert ev["reason"] == "the turn cap of 60 turns"
        elif sum(1 for c in chips if c > 0) <= 1:
            assert ev["reason"] == "only one player has chips left"
        else:
            assert 0 in chips and s.view(None)["vars"]["pot"] == 0
            assert ev["reason"] == "a player is bankrupt and the pot is empty"
        seen.add(ev["reason"])
        last = [ln for ln in format_events(g, s.log_all()) if ln.startswith("Game over")]
        assert last == [f"Game over ({ev['reason']}). Totals: " +
                        ", ".join(f"{k}: {v}" for k, v in ev["scores"].items())]
    assert len(seen) >= 2, seen


def test_end_match_effect_and_its_reason(tmp_path):
    g = cardspec.load(TOY, 3)
    s = g.new_state(seed=2)
    while "stop" not in s.legal_actions():
        legal = s.legal_actions()
        s.apply(next((a for a in ("skip", "grab", "done") if a in legal), None) or
                next(a for a in legal if a.startswith(("beat", "pick"))))
    s.apply("stop")
    assert "reason" not in s.log_all()[-1]   # no reason given: none made up from the YAML
    text = Path(TOY).read_text().replace("      - end: match",
                                         "      - end: {level: match, reason: the player said stop}")
    p = tmp_path / "toy.yaml"
    p.write_text(text)
    s2 = cardspec.load(str(p), 3).new_state(seed=2)
    for a in s.history:
        s2.apply(a)
    assert s2.terminal and s2.log_all()[-1]["reason"] == "the player said stop"
    p.write_text(text.replace("reason: the player said stop", "why: no"))
    with pytest.raises(RulesetError, match="level: LEVEL, reason: TEXT"):
        cardspec.load(str(p), 3)


def test_generic_reasons_match_end_condition_and_deal_count():
    s = play_out(cardspec.load("hearts", 4), 1)
    assert s.log_all()[-1]["reason"] == "a player reached the target score"   # black-lady.yaml match: end_reason
    bare = cardspec.load("hearts", 4)
    bare.data["match"].pop("end_reason")     # no end_reason: a generic text, not the YAML expression
    s = play_out(bare, 1)
    assert s.log_all()[-1]["reason"] == "the match's end condition is met"
    s = play_out(cardspec.load("hearts", 4, {"deals": 2}), 1)
    assert s.log_all()[-1]["reason"] == "all 2 deals are played"


def test_until_reason_when_no_seat_can_play_from_the_start():
    """red-dog.md (casino): a player below the minimum bet cannot bet; with every bankroll below it the
    session ends at once, and the reason is the turns step's own (`until_reason`), not 'the deal is over'."""
    import cardspec
    g = cardspec.load("red-dog-casino", 1, {"bankroll": 5, "min_bet": 10})
    s = g.new_state(seed=1)
    assert s.terminal
    assert s.log_all()[-1]["reason"] == "no player has chips for the minimum bet"
