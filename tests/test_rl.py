"""The learning front ends (issue 21, items 3–5): ``cardspec.rl.pettingzoo`` and ``cardspec.rl.openspiel``.

For every built-in ruleset: PettingZoo's own ``api_test`` and ``seed_test`` pass on the AEC env, and
OpenSpiel's own ``random_sim_test`` (with serialization) passes on the registered game. Then the
promises of docs/rl.md one by one: chance nodes are the cards dealt (in order, with their
probabilities), observations are fixed-length and show only what the seat may see, rewards add up
to the signed match score, an illegal action raises a clear error and changes nothing, a state
pickles, a resampled state has the player's information state, OpenSpiel's MCTS and ISMCTS bots
play a Hearts deal, and the loop printed in docs/rl.md runs.

Matches are kept short (the options below and capped cycles): the full games are in benchmarks/.
"""
from __future__ import annotations

import contextlib
import copy
import io
import os
import pickle
import random
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import cardspec
from cardspec.rules import builtin_names

pettingzoo = pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from cardspec.rl.observation import ObservationEncoder, seat_scores  # noqa: E402
from cardspec.rl.openspiel import register  # noqa: E402
from cardspec.rl.pettingzoo import IllegalActionError, env  # noqa: E402

#: options that shorten a match (one deal, a low target), so a random match ends quickly
SHORT = {
    "auction-pitch": {},
    "black-lady": {"deals": 1},
    "briscola-bugiarda": {"deals": 1},
    "briscola-chiamata": {"target": 1},
    "burraco": {"target": 1},
    "burraco-fibur": {"target": 1},
    "cancellation-black-lady": {"deals": 1},
    "cancellation-black-lady-8-widow": {"deals": 1},
    "eleusis-prophets": {"hand_size": 4, "sudden_death": 10},
    "gin-rummy": {"target": 10},
    "cribbage": {"target": 61},
    "four-jacks": {},
    "four-jacks-3": {},
    "four-jacks-polignac": {},
    "goninkan": {"rounds": 1},
    "hearts": {"deals": 1},
    "knave": {},
    "napoleon": {"deals": 1},
    "oh-hell": {"deals": 1},
    "red-dog": {"max_turns": 20},
    "red-dog-casino": {"hands": 3},
    "scopa": {"target": 1},
    "sheepshead": {},
    "svoyi-koziri": {"max_turns": 60},
    "vanishing-whist": {"deals": 1},
    "euchre": {"target": 2},
    "bridge": {"boards": 1},
    "skat": {"deals": 3},
    "wizard": {"rounds": 3},
}
#: PettingZoo cycles (steps per agent) for api_test / seed_test: fewer where a step is slow
CYCLES = {"eleusis-prophets": 15, "burraco": 25, "burraco-fibur": 25}


def test_every_builtin_has_short_options():
    assert set(SHORT) == set(builtin_names())


def _quiet(fn, *args, **kw):
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


@pytest.mark.parametrize("name", builtin_names())
def test_pettingzoo_api_and_seed_tests_pass(name):
    """PettingZoo's api_test and seed_test on the AEC env of every built-in ruleset (issue 21, item 3)."""
    cycles = CYCLES.get(name, 60)
    _quiet(api_test, env(name, options=SHORT[name]), num_cycles=cycles)
    _quiet(seed_test, lambda: env(name, options=SHORT[name]), num_cycles=cycles)


@pytest.mark.parametrize("name", builtin_names())
def test_openspiel_random_sim_test_passes(name):
    """OpenSpiel's random_sim_test (with serialization) on every built-in ruleset (issue 21, item 4)."""
    game = pyspiel.load_game(register(name), SHORT[name])
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _sitting_out_counts():
    """(ruleset, player count) of every built-in whose player count has a seat that sits out a deal
    (a ``sits_out`` step, docs/rulesets.md): the new counts the adapters must handle too."""
    out = []
    for name in builtin_names():
        rs = cardspec.rules.read_ruleset(name)
        for n in range(rs.players[0], rs.players[1] + 1):
            if cardspec.load(name, players=n).may_sit_out:
                out.append((name, n))
    return out


@pytest.mark.parametrize("name,players", _sitting_out_counts())
def test_adapters_at_a_player_count_where_a_seat_sits_out(name, players):
    """PettingZoo's api_test and OpenSpiel's random_sim_test at the player count where a seat sits out
    each deal (Briscola Chiamata and Goninkan with six): that seat never acts, the tests still pass."""
    _quiet(api_test, env(name, players=players, options=SHORT[name]), num_cycles=40)
    game = pyspiel.load_game(register(name), dict(SHORT[name], players=players))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    e = env(name, players=players, options=SHORT[name])
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if not (term or trunc):
            out = e.unwrapped.state.view(None)["system"]["sits_out"]
            assert out < 0 or e.unwrapped._seat[agent] != out
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def _playout(e, rng):
    """Play random legal actions to the end; return every agent's summed rewards."""
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


@pytest.mark.parametrize("name", ["hearts", "oh-hell", "red-dog"])
def test_rewards_sum_to_the_signed_final_score(name):
    """An agent's rewards over a match add up to its final score less its starting score (chips), negated
    where the lowest ranks best."""
    e = env(name, options=SHORT[name])
    e.reset(seed=5)
    state = e.state
    total = _playout(e, random.Random(5))
    assert state.terminal
    signed = seat_scores(state)
    scores = state.game_scores()
    sign = -1 if state.game.ranking == "lowest" else 1
    start = state.game.score_counter.initial
    for seat, agent in enumerate(e.possible_agents):
        assert total[agent] == pytest.approx(signed[seat] - sign * start)
        assert signed[seat] == sign * scores[seat]
    if name == "hearts":     # hearts ranks the lowest total best: penalty points are negative rewards
        assert sign == -1 and any(total[a] < 0 for a in total)


def test_illegal_action_raises_a_clear_error_and_changes_nothing():
    e = env("hearts", options={"deals": 1})
    e.reset(seed=2)
    agent = e.agent_selection
    obs = e.observe(agent)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.state.position_key()
    with pytest.raises(IllegalActionError) as info:
        e.step(illegal)
    msg = str(info.value)
    assert f"seat {agent.rpartition('_')[2]}" in msg and "legal:" in msg
    assert isinstance(info.value, ValueError) and isinstance(info.value, cardspec.IllegalAction)
    with pytest.raises(IllegalActionError, match="outside Discrete"):
        e.step(e.codec.n + 3)
    assert e.state.position_key() == before and e.agent_selection == agent
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))    # the game goes on


@pytest.mark.parametrize("name", ["hearts", "burraco", "napoleon"])
def test_observation_is_fixed_length_relative_and_hides_what_the_seat_may_not_see(name):
    """The vector has the encoder's length in every state; seat s's own hand is at relative slot 0; the
    hand of another seat shows only its size."""
    game = cardspec.load(name, options=SHORT[name])
    enc = ObservationEncoder(game)
    offs = {part: (off, size) for part, off, size in enc.layout}
    F = game.deck.n_faces
    state = game.new_state(seed=3)
    rng = random.Random(3)
    for _ in range(40):
        if state.terminal:
            break
        seat = state.to_act
        other = (seat + 1) % game.n
        v = enc.encode(state, seat)
        assert v.shape == (enc.size,) and v.dtype == np.float32
        own, _ = offs["zone:hand:0"]
        hand = state.view(seat)["zones"]["hand"][str(seat)]
        assert v[own:own + F].sum() == len(hand) == v[own + F]
        for code in hand:
            assert v[own + game.deck.face(code)] >= 1
        left, _ = offs["zone:hand:1"]
        assert v[left:left + F].sum() == 0
        assert v[left + F] == len(state.z[game.zone["hand"].index][other])
        assert v[offs["to_act"][0]] == 1.0
        state.apply(rng.choice(state.legal_actions()))


def _deal_all(state, faces):
    for f in faces:
        if not state.is_chance_node():
            break
        state.apply_action(f)


def test_chance_nodes_are_the_cards_dealt_in_order():
    """A shuffle is one chance node per card: the outcome is the next card dealt, with probability its
    share of the cards not yet placed; the resulting deal is the one a stacked deck gives."""
    game = pyspiel.load_game(register("hearts"), {"deals": 1})
    s = game.new_initial_state()
    assert s.is_chance_node()
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 52 and all(p == pytest.approx(1 / 52) for _, p in outcomes)
    order = list(range(52))
    random.Random(9).shuffle(order)
    s.apply_action(order[0])
    assert len(s.chance_outcomes()) == 51 and order[0] not in dict(s.chance_outcomes())
    _deal_all(s, order[1:])
    assert not s.is_chance_node()
    cg = cardspec.load("hearts", options={"deals": 1})
    codes = [cg.deck.code[f] for f in order]
    stacked = cg.new_state(seed=0, deck_order=codes)
    for seat in range(4):
        want = stacked.view(seat)["zones"]["hand"][str(seat)]
        got = s._run.s.view(seat)["zones"]["hand"][str(seat)]
        assert got == want


def test_a_later_deal_is_chance_again():
    """The second deal of a match waits for chance outcomes after the first deal's last action."""
    game = pyspiel.load_game(register("hearts"), {"deals": 2})
    s = game.new_initial_state()
    rng = random.Random(1)
    chance_runs, was_chance = 0, False
    while not s.is_terminal():
        if s.is_chance_node():
            if not was_chance:
                chance_runs += 1
            was_chance = True
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
        else:
            was_chance = False
            s.apply_action(rng.choice(s.legal_actions()))
    assert chance_runs == 2


def _advance(s, rng, steps):
    for _ in range(steps):
        if s.is_terminal():
            break
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
        else:
            s.apply_action(rng.choice(s.legal_actions()))


def test_a_state_pickles_clones_and_serializes_by_replay():
    game = pyspiel.load_game(register("hearts"), {"deals": 1})
    s = game.new_initial_state()
    _advance(s, random.Random(4), 70)
    back = pickle.loads(pickle.dumps(s))
    assert back.history() == s.history() and str(back) == str(s)
    # a fresh process reads the pickle once it has registered the ruleset (as for any Python game of OpenSpiel)
    code = ("import pickle, sys; from cardspec.rl.openspiel import register; register('hearts'); "
            "s = pickle.loads(sys.stdin.buffer.read()); print(len(s.history()), s.current_player())")
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(s), capture_output=True, check=True,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert out.stdout.decode().split() == [str(len(s.history())), str(s.current_player())]
    assert back.legal_actions() == s.legal_actions()
    text = pyspiel.serialize_game_and_state(game, s)
    g2, s2 = pyspiel.deserialize_game_and_state(text)
    assert str(s2) == str(s) and s2.history() == s.history()
    c = s.clone()
    c2 = copy.deepcopy(s)
    _advance(c, random.Random(5), 5)
    assert str(c2) == str(s) and c.history() != s.history()


def test_resample_from_infostate_keeps_the_information_state():
    game = pyspiel.load_game(register("hearts"), {"deals": 1})
    s = game.new_initial_state()
    _advance(s, random.Random(6), 52 + 12 + 9)
    p = s.current_player()
    key = s.information_state_string(p)
    assert key.startswith(s.observation_string(p)) and "\nlog: " in key   # the seat's log: perfect recall
    hands = set()
    for i in range(5):
        r = s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert r.information_state_string(p) == key
        assert r.legal_actions() == s.legal_actions()
        hands.add(str(r._run.s.view(None, legal=False)) + str(r._run.s.z))
    assert len(hands) > 1    # other seats' hidden cards differ between samples


def test_mcts_and_ismcts_bots_play_a_hearts_deal():
    """OpenSpiel's own MCTS and ISMCTS bots (two seats each) play a whole deal through the adapter."""
    from open_spiel.python.algorithms import ismcts, mcts
    game = pyspiel.load_game(register("hearts"), {"deals": 1})
    rs = np.random.RandomState(3)
    ev = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=ev, random_state=rs),
            ismcts.ISMCTSBot(game, ev, uct_c=2.0, max_simulations=4, random_state=rs)]
    s = game.new_initial_state()
    rng = random.Random(3)
    moves = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            continue
        action = bots[s.current_player() % 2].step(s)
        assert action in s.legal_actions()
        s.apply_action(action)
        moves += 1
    assert moves >= 52
    assert sum(s.returns()) == pytest.approx(-26.0) or sum(s.returns()) == pytest.approx(-78.0)


def test_the_loop_in_docs_rl_runs():
    """The evaluation loop printed in docs/rl.md runs as written."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", doc, re.S)
    loop = next(b for b in blocks if "agent_iter" in b)
    assert len(loop.strip().splitlines()) <= 20
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(loop, "docs/rl.md", "exec"), {})
    assert "win rate" in out.getvalue()


def test_render_is_the_text_view_of_the_agent_to_act():
    e = env("hearts", options={"deals": 1}, render_mode="ansi")
    e.reset(seed=8)
    seat = e.state.to_act
    text = e.render()
    hand = e.state.view(seat)["zones"]["hand"][str(seat)]
    assert " ".join(hand) in text and f"seat {seat} to act" in text
    other = (seat + 1) % 4
    assert f"hand {other}: 13 cards" in text


def test_openspiel_illegal_action_raises_naming_the_legal_ones_and_changes_nothing():
    game = pyspiel.load_game(register("hearts"), {"deals": 1})
    s = game.new_initial_state()
    _advance(s, random.Random(2), 51)
    legal = s.legal_actions()
    bad = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    history = s.history()
    with pytest.raises(ValueError, match=r"is not legal now; legal: \d+ \(pass "):
        s.apply_action(bad)
    assert s.history() == history and s.legal_actions() == legal


def test_the_partial_choice_is_part_of_the_observation():
    """Black Lady's pass of three cards is three small choices: after the first, the chooser's
    observation shows the card chosen (the view's ``choosing``), and the same agent acts again."""
    e = env("black-lady", options={"deals": 1})
    e.reset(seed=4)
    agent = e.agent_selection
    off, size = next((o, n) for name, o, n in e.encoder.layout if name == "choosing")
    assert e.observe(agent)["observation"][off:off + size].sum() == 0
    first = int(np.flatnonzero(e.observe(agent)["action_mask"])[0])
    card = e.codec.decode(first).split()[-1]
    e.step(first)
    assert e.agent_selection == agent and e.state.choosing == e.codec.decode(first)
    part = e.observe(agent)["observation"][off:off + size]
    assert part[e.state.game.deck.face(card)] == 1 and part[-1] == 2   # "pass 3H": two words
