"""One test over every built-in ruleset (STYLE.md: OpenSpiel's games_sim_test).

For each ruleset, at its smallest and largest player count, random actions
(chosen among the legal internal moves, applied through their text form with
``State.apply``) check that:
- every action's text form reads back (``apply(text)`` accepts it);
- a copy equals the original, and playing on from the copy does not change it;
- no view shows another seat's cards in a zone it may not see;
- replaying the recorded actions from the same seed gives the identical log;
- a finished match has no legal actions and says who won.
Matches are capped at a number of actions, so long games (rummy, induction)
stay fast; what is checked up to the cap still holds.
"""
import random

import pytest

import cardspec
from cardspec.rules import builtin_names, read_ruleset

CAP = 250


def _player_counts(name):
    lo, hi = read_ruleset(name).players
    return sorted({lo, hi})


CASES = [(name, n) for name in builtin_names() for n in _player_counts(name)]


def test_enough_rulesets_are_registered():
    assert len(builtin_names()) >= 12


def _hidden_ok(state, seat):
    """No per-seat zone that only its owner sees shows cards of another seat in ``view(seat)`` — unless the
    zone's ``public_when:`` holds for that pile (a dummy exposed), or ``seat`` is to act and plays from it
    (``played_by:``, a declarer playing the dummy)."""
    view = state.view(seat)
    step = state.current_step()
    playing_for = step.played_for(state) if step is not None and seat == state.to_act else None
    for zone in state.game.zones:
        if not zone.per_seat or zone.visibility != "owner" or zone.melds:
            continue
        for owner, shown in view["zones"][zone.name].items():
            if int(owner) != seat and isinstance(shown, list):
                if zone.public_when is not None and zone.public_when(state, int(owner)):
                    continue
                if playing_for == (zone.index, int(owner)):
                    continue
                return False
    return True


@pytest.mark.parametrize("name,players", CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_random_play(name, players):
    game = cardspec.load(name, players)
    rng = random.Random(f"{name}/{players}")
    state = game.new_state(seed=7)
    for i in range(CAP):
        if state.terminal:
            break
        step = game.steps[state.pc]
        text = step.text(state, state.random_move(rng))
        if i % 50 == 0:
            assert _hidden_ok(state, state.to_act)
            copy = state.clone()
            assert copy.view(copy.to_act) == state.view(state.to_act)
            before = state.log_all()
            copy.apply(text)
            assert state.log_all() == before          # the original did not move
        state.apply(text)
    if state.terminal:
        assert state.legal_actions() == []
        # a ranking, or (match: ranking: none, a game against the house) each seat's net result
        assert state.result["type"] == "game_over" and (state.result["ranking"] or "net" in state.result)
    replay = game.new_state(seed=7)
    for text in state.history:
        replay.apply(text)
    assert replay.log_all() == state.log_all()
    assert replay.scores() == state.scores()
