"""Bots cannot cheat: they get a seat's view and the legal actions, never the State (issue 9)."""
import pytest

import cardspec
from cardspec.players import Bot, RandomBot, make_bot, take_turn
from cardspec.errors import IllegalAction
from cardspec.players.ismcts import ISMCTSBot


@pytest.fixture(scope="module")
def game():
    return cardspec.load("hearts", 4, {"deals": 1})


def test_a_bot_given_the_state_is_rejected(game):
    state = game.new_state(seed=1)
    legal = state.legal_actions()
    for bot in (RandomBot(1), ISMCTSBot(game, seed=1, iterations=5)):
        with pytest.raises(TypeError, match="not State"):
            bot.act(state, legal)
        with pytest.raises(TypeError):
            bot.act(state.view(state.to_act), state)     # the state in place of the legal list


def test_every_bot_subclass_is_guarded(game):
    """A new bot's act is wrapped too: even a bot written to peek cannot receive a State."""
    class Peeker(Bot):
        def act(self, view, legal):
            return view.z  # would read the hidden zones of a State

    state = game.new_state(seed=2)
    with pytest.raises(TypeError, match="not State"):
        Peeker().act(state, state.legal_actions())

    class ViewSubclass(dict):
        state = None

    with pytest.raises(TypeError):
        Peeker().act(ViewSubclass(), state.legal_actions())


def test_ismcts_takes_the_rules_not_a_state(game):
    with pytest.raises(TypeError, match="not State"):
        ISMCTSBot(game.new_state(seed=1))


def test_take_turn_passes_only_the_view(game):
    seen = []

    class Spy(Bot):
        wants_log = True

        def act(self, view, legal):
            seen.append((view, legal))
            return legal[-1]

    state = game.new_state(seed=3)
    seat = state.to_act
    action = take_turn(state, Spy())
    view, legal = seen[0]
    assert type(view) is dict and view["seat"] == seat and legal == view["legal_actions"]
    assert "log" in view and all(isinstance(ev, dict) for ev in view["log"])
    # Other seats' hands appear only as counts.
    hands = view["zones"]["hand"]
    assert all(isinstance(hands[str(k)], dict) for k in range(4) if k != seat)
    assert state.history[-1] == action


def test_an_illegal_answer_leaves_the_state_unchanged(game):
    class Liar(Bot):
        def act(self, view, legal):
            return "bid 99"      # no such action in a Hearts pass

    state = game.new_state(seed=4)
    before = state.view(state.to_act)
    with pytest.raises(IllegalAction):
        take_turn(state, Liar())
    assert state.view(before["seat"]) == before


def test_make_bot_specs(game):
    assert isinstance(make_bot("random", 1), RandomBot)
    b = make_bot("ismcts:25", 1, game=game)
    assert isinstance(b, ISMCTSBot) and b.iterations == 25
    assert make_bot("ismcts:0.05s", 1, game=game).seconds == 0.05
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("oracle")
    with pytest.raises(ValueError, match="iterations"):
        make_bot("ismcts:lots", game=game)
    with pytest.raises(ValueError, match="at least 1"):
        make_bot("ismcts:0", game=game)
