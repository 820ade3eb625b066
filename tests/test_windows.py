"""Decisions out of the turn of play (issue 38 item 3): windows of a tricks step (docs/tricks.md, "Decisions
between plays"; engine/steps/tricks/windows.py), on two games:

- Goninkan's juroku (rulesets/goninkan.yaml, option ``juroku``; ../shared/rules/goninkan.md Options): the
  winner of the trick that made a sukonku may declare 16 — a window after that trick; the play goes on
  in the same step (the duplicated tricks step of issue 34 is gone); tests/test_goninkan.py holds the
  scoring to the digest;
- Jass's Stöck (tests/windows/jass-stoeck.yaml; pagat.com/jass/schieber.html): the holder of the king and
  queen of trumps may announce it when he plays the second — a window after that card, or after the
  trick when it was the trick's last card.

Only one seat decides at a time (turn with priority), so the adapters' own API tests pass unchanged.
"""
from __future__ import annotations

import contextlib
import io
import random
import warnings
from pathlib import Path

import pytest

import cardspec
from cardspec import IllegalAction, RulesetError

JASS = str(Path(__file__).resolve().parent / "windows" / "jass-stoeck.yaml")


def events(s, kind):
    return [e for e in s.log_all() if e["type"] == kind]


def _stoeck_games(n):
    g = cardspec.load(JASS)
    for seed in range(n):
        yield g, seed, g.new_state(seed=seed)


def test_stoeck_is_offered_to_its_holder_at_once_and_play_goes_on():
    """Jass, Stöck: when a player plays the second of the king and queen of trumps, having played the
    first, he (and nobody else) may announce Stöck or say nothing, at once; then the play goes on with the
    seat whose turn it was; an announcement adds 20 to his team."""
    offered = moments = 0
    seen = set()
    for g, seed, s in _stoeck_games(120):
        rng = random.Random(seed)
        played = {}   # card -> seat, of KH / QH
        while not s.terminal:
            v = s.view(None)
            if v.get("window"):
                holder = played.get("KH")
                assert holder is not None and holder == played.get("QH") and s.to_act == holder
                assert sorted(s.legal_actions()) == ["no stoeck", "stoeck"]
                seen.add(v["window"]["after"])
                offered += 1
                choice = rng.choice(s.legal_actions())
                trick_before = v["trick"]
                s.apply(choice)
                after = s.view(None)
                assert after.get("window") is None and after["trick"] == trick_before
                want = after["leader"] if not trick_before else (trick_before[-1][0] + 1) % 4
                assert s.terminal or s.to_act == want
                continue
            seat = s.to_act
            card = rng.choice(s.legal_actions())
            s.apply(card)
            if card in ("KH", "QH"):
                played[card] = seat
                if len(played) == 2:
                    moments += 1
                    both = played["KH"] == played["QH"]
                    assert bool(s.view(None).get("window")) == both or s.terminal
        scores = s.game_scores()
        stoeck = s.view(None)["vars"]["stoeck"]
        tricks = {0: 0, 1: 0}
        for t in events(s, "trick"):
            tricks[t["winner"] % 2] += 1
        for team in (0, 1):
            assert scores[team] == tricks[team] + (20 if stoeck is not None and stoeck >= 0 and stoeck % 2 == team else 0)
    assert offered >= 5 and moments > offered and seen == {"card", "trick"}


def test_a_window_refuses_other_seats_and_names_its_actions():
    """While a window is open only its seat may act, with its actions (a card is not one of them); the
    state is unchanged by a refused action."""
    for g, seed, s in _stoeck_games(200):
        rng = random.Random(seed)
        while not s.terminal and not s.view(None).get("window"):
            s.apply(rng.choice(s.legal_actions()))
        if s.terminal:
            continue
        before = s.view(None)
        other = (s.to_act + 1) % 4
        with pytest.raises(IllegalAction):
            s.apply("stoeck", seat=other)
        hand = s.view(s.to_act)["zones"]["hand"][str(s.to_act)]
        with pytest.raises(IllegalAction) as e:
            s.apply(hand[0])
        assert "stoeck" in str(e.value)
        assert s.view(None) == before
        return
    pytest.fail("no Stöck in 200 deals")


def test_windows_in_playouts_ids_and_determinization():
    """Random playouts open the windows (the general loop); integer ids list a window's actions; a bot's
    determinization rebuilds an open window from its view."""
    from cardspec.engine.determinize import Determinizer
    g = cardspec.load(JASS)
    windows = 0
    for seed in range(60):
        s = g.new_state(seed=seed)
        s.random_playout(random.Random(seed))
        windows += len(events(s, "window"))
    assert windows >= 3
    for seed in range(300):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.terminal and not s.view(None).get("window"):
            ids = s.legal_action_ids()
            s.apply_id(ids[int(rng.random() * len(ids))])
        if s.terminal:
            continue
        ids = s.legal_action_ids()
        assert len(ids) == 2 and sorted(g.actions.decode(i) for i in ids) == ["no stoeck", "stoeck"]
        t = Determinizer(g, s.view(s.to_act, log=True)).sample(random.Random(0))
        assert t.view(None)["window"] == s.view(None)["window"] and t.legal_actions() == s.legal_actions()
        t.apply("stoeck")
        assert t.view(None).get("window") is None
        return
    pytest.fail("no Stöck in 300 deals")


def test_goninkan_juroku_is_a_window_and_the_tricks_go_on_in_one_step():
    """Goninkan with juroku: the 16 decision is a window after the sukonku trick; the tricks of a deal are
    numbered 1, 2, … once (one tricks step, no restart after the decision)."""
    g = cardspec.load("goninkan", 5, {"juroku": True, "early_end": False})
    opened = 0
    for seed in range(80):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.terminal and s.view(None)["round_number" if False else "deal"] <= 3:
            v = s.view(None)
            if v.get("window"):
                assert v["window"]["name"] == "sixteen" and sorted(s.legal_actions()) == ["decline", "juroku"]
                opened += 1
            s.apply(rng.choice(s.legal_actions()))
        deals = {}
        for e in s.log_all():
            if e["type"] == "deal_start":
                cur = deals.setdefault(e["deal"], [])
            elif e["type"] == "trick":
                cur.append(e["number"])
        for nums in deals.values():
            assert nums == list(range(1, len(nums) + 1))
        if opened >= 3:
            break
    assert opened >= 3


def test_window_keys_refused_where_they_cannot_work(tmp_path):
    """A window with auto: (a forced card would pass it by), an action with parameters in a window, and an
    unknown moment are refused at load with their position."""
    base = Path(JASS).read_text()
    for old, new, words in (
        ("  - tricks:\n", "  - tricks:\n      auto: true\n", "windows cannot be used with auto"),
        ("after: card, when", "after: lead, when", "expected one of trick, card"),
        ("  keep_quiet:\n", "  keep_quiet:\n    params: {n: {number: {min: 1, max: 2}}}\n", "take no parameters"),
    ):
        p = tmp_path / "w.yaml"
        p.write_text(base.replace(old, new, 1))
        with pytest.raises(RulesetError) as e:
            cardspec.load(str(p))
        assert words in str(e.value), str(e.value)


def _quiet(fn, *args, **kw):
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


@pytest.mark.parametrize("ruleset,options", [(JASS, None), ("goninkan", {"juroku": True, "rounds": 1})])
def test_adapters_api_tests_with_windows(ruleset, options):
    """PettingZoo's api_test and OpenSpiel's random_sim_test on rulesets with windows: one agent acts at a
    time (the window's seat), so the adapters need nothing new."""
    pettingzoo = pytest.importorskip("pettingzoo")
    pyspiel = pytest.importorskip("pyspiel")
    from pettingzoo.test import api_test
    from cardspec.rl.openspiel import register
    from cardspec.rl.pettingzoo import env
    _quiet(api_test, env(ruleset, options=options), num_cycles=60)
    game = pyspiel.load_game(register(ruleset), options or {})
    _quiet(pyspiel.random_sim_test, game, num_sims=2, serialize=True, verbose=False)
