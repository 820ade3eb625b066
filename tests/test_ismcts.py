"""ISMCTS and its determinizations (issue 9): a determinization never contradicts the seat's view,
a shown void, or the cards the seat passed; ``Game.state_from_view`` rebuilds a position exactly."""
import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

import cardspec
from _positions import random_position
from cardspec.engine.determinize import Determinizer, DeterminizeError, FLIGHT
from cardspec.players.ismcts import ISMCTSBot

GAME = cardspec.load("hearts", 4, {"deals": 1})
SUITS = GAME.deck.suits


def _position(seed, steps, game=GAME):
    """A real Hearts position after ``steps`` random actions (None when the deal ended)."""
    return random_position(game, seed, steps)


def _facts(state, seat):
    """Public facts computed independently from the omniscient log: voids and passed cards still held."""
    voids = {}
    passed = {}
    for ev in state.log_all():
        if ev["type"] == "pass" and ev["seat"] == seat:
            passed = {c: ev["to"] for c in ev["cards"]}
        if ev["type"] == "trick":
            led = ev["cards"][0][1][-1]
            for who, c in ev["cards"]:
                if c[-1] != led:
                    voids.setdefault(who, set()).add(led)
                passed.pop(c, None)
    if state.plays:
        trick = state.view(seat)["trick"]
        led = trick[0][1][-1]
        for who, c in trick:
            if c[-1] != led:
                voids.setdefault(who, set()).add(led)
            passed.pop(c, None)
    return voids, passed


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10 ** 6), steps=st.integers(0, 55), draws=st.integers(1, 4))
def test_determinizations_agree_with_the_view_voids_and_passes(seed, steps, draws):
    s = _position(seed, steps)
    if s is None:
        return
    seat = s.to_act
    real = s.view(seat)
    det = Determinizer(GAME, s.view(seat, log=True))
    voids, passed = _facts(s, seat)
    rng = random.Random(seed)
    for _ in range(draws):
        d = det.sample(rng)
        assert d.view(seat) == real                     # nothing the seat sees differs
        assert d.legal_actions() == s.legal_actions()
        everything = [c for zn in GAME.zones for cards in (d.z[zn.index] if zn.per_seat else [d.z[zn.index]])
                      for c in cards] + [c for _, c in d.plays]
        if d.flight is not None:
            everything += [c for f in d.flight if f for c in f]
        assert Counter(everything) == Counter(GAME.deck.cards)   # every card exactly once
        hands = d.view(None)  # spectator view: counts only; read the determinized hands directly
        for who, suits in voids.items():
            held = {SUITS[GAME.deck.suit[c]] for c in d.z[GAME.zone["hand"].index][who]}
            assert not (held & suits), f"seat {who} showed void in {suits} but holds {held & suits}"
        for code, to in passed.items():
            assert GAME.deck.face(code) in d.z[GAME.zone["hand"].index][to]
        assert hands["to_act"] == seat


def test_voids_force_the_only_consistent_deal():
    """When voids leave one way to place the hidden cards, every sample finds it."""
    # Play until some seat shows a void, then check all samples against the real hands' suit sets.
    for seed in range(200):
        s = _position(seed, 40)
        if s is None:
            continue
        det = Determinizer(GAME, s.view(s.to_act, log=True))
        if det.voids:
            rng = random.Random(1)
            for _ in range(20):
                d = det.sample(rng)
                for who, suits in det.voids.items():
                    assert all(GAME.deck.suit[c] not in suits for c in d.z[GAME.zone["hand"].index][who])
            return
    pytest.fail("no position with a shown void in 200 seeds")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10 ** 6), steps=st.integers(0, 55))
def test_state_from_view_with_the_real_hidden_cards_rebuilds_the_position(seed, steps):
    s = _position(seed, steps)
    if s is None:
        return
    seat = s.to_act
    view = s.view(seat, log=True)
    hidden = {}
    for zn in GAME.zones:
        entry = view["zones"][zn.name]
        if zn.per_seat:
            for owner in range(4):
                if isinstance(entry[str(owner)], dict):
                    hidden[(zn.name, owner)] = list(s.z[zn.index][owner])
        elif isinstance(entry, dict):
            hidden[(zn.name, None)] = list(s.z[zn.index][s.face_up[zn.index]:])
    if s.flight is not None:
        for k, f in enumerate(s.flight):
            if f is not None and k != seat:
                hidden[(FLIGHT, k)] = list(f)
    r = GAME.state_from_view(view, hidden)
    for k in [None, 0, 1, 2, 3]:
        assert r.view(k) == s.view(k)
    assert r.legal_actions() == s.legal_actions()
    # Both continue identically under the same actions.
    rng = random.Random(seed)
    while not s.terminal:
        a = rng.choice(s.legal_actions())
        assert r.legal_actions() == s.legal_actions()
        s.apply(a)
        r.apply(a)
    assert r.terminal and r.game_scores() == s.game_scores()


def test_state_from_view_rejects_wrong_hidden_cards():
    s = _position(3, 10)
    view = s.view(s.to_act)
    with pytest.raises(DeterminizeError, match="needs"):
        GAME.state_from_view(view, {})
    with pytest.raises(DeterminizeError, match="over"):
        done = _position(3, 0)
        while not done.terminal:
            done.apply(done.legal_actions()[0])
        GAME.state_from_view(done.view(0))


@pytest.mark.parametrize("ruleset, players", [("black-lady", 5), ("cancellation-black-lady", 7)])
def test_determinizations_on_other_trick_rulesets(ruleset, players):
    """Widow, 2 decks, cancellation: samples still match the view (engine-generic determinizer)."""
    game = cardspec.load(ruleset, players)
    for seed in range(15):
        s = _position(seed, (seed * 7) % 40, game)
        if s is None:
            continue
        seat = s.to_act
        det = Determinizer(game, s.view(seat, log=True))
        d = det.sample(random.Random(seed))
        assert d.view(seat) == s.view(seat)
        assert d.legal_actions() == s.legal_actions()


def test_ismcts_returns_a_legal_action_and_respects_its_budget():
    s = _position(9, 14)
    bot = ISMCTSBot(GAME, seed=1, iterations=40)
    view = s.view(s.to_act, log=True)
    a = bot.act(view, view["legal_actions"])
    assert a in view["legal_actions"] and bot.last_iterations == 40 and bot.fallbacks == 0
    bot = ISMCTSBot(GAME, seed=1, seconds=0.05)
    assert bot.act(view, view["legal_actions"]) in view["legal_actions"]


def test_ismcts_refuses_a_view_without_its_log():
    """Without the log, cards played earlier would look unknown and could be dealt back into hands."""
    s = _position(9, 20)
    view = s.view(s.to_act)
    with pytest.raises(ValueError, match="log=True"):
        ISMCTSBot(GAME, seed=1, iterations=5).act(view, view["legal_actions"])


def test_ismcts_is_reproducible_for_a_seed():
    s = _position(21, 20)
    view = s.view(s.to_act, log=True)
    picks = {ISMCTSBot(GAME, seed=5, iterations=60).act(view, view["legal_actions"]) for _ in range(3)}
    assert len(picks) == 1
