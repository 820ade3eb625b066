"""The solver (cardspec.players.solve, docs/solve.md) against a brute-force minimax written apart (tests/_positions.py).

Positions are Svoyi Koziri endings (../shared/rules/svoyi-koziri.md: perfect information, two players),
fixed with a scenario's ``deal:``. The brute force enumerates every line with plain minimax, no table and
no pruning; a position that recurs on the line is a draw (the rule the solver uses, docs/solve.md).
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import cardspec
from _positions import brute, svoyi_ending
from cardspec.players.solve import DRAW, LOSS, WIN, SolveError, SolverBot, solve, state_from_public_view, terminal_value

HERE = Path(__file__).parent / "svoyi_koziri"


def position(tmp_path, k, seed, cards=24):
    return svoyi_ending(tmp_path, k, seed, cards)


CASES = [(k, seed) for k in (1, 2) for seed in range(6)] + [(3, seed) for seed in range(4)]


@pytest.mark.parametrize("k,seed", CASES)
@pytest.mark.parametrize("method", ["dfpn", "pns", "alphabeta"])
def test_solver_value_agrees_with_brute_force(tmp_path, k, seed, method):
    s = position(tmp_path, k, seed)
    s.events = None
    want = brute(s)
    res = solve(s, 30, method)
    assert res.value == want, (res.describe(), want)
    assert res.best in s.legal_actions()
    # The best move keeps the value: after it, the brute force agrees (seen from the same seat).
    c = s.clone()
    c.apply(res.best)
    if c.terminal:
        got = terminal_value(c, s.to_act)
    else:
        got = brute(c, line=frozenset({s.position_key()}))
        got = got if c.to_act == s.to_act else -got
    assert got == want
    # Every move the solver lists as a proven win is one (the per-move list lines up with the legal moves).
    assert set(res.moves) == set(s.legal_actions())
    for text, (lo, hi) in res.moves.items():
        if lo == WIN:
            c = s.clone()
            c.apply(text)
            if c.terminal:
                v = terminal_value(c, s.to_act)
            else:
                v = brute(c, line=frozenset({s.position_key()}))
                v = v if c.to_act == s.to_act else -v
            assert v == WIN, (text, res.moves)


def test_some_small_positions_are_wins_and_some_losses(tmp_path):
    """The brute-force cases are not all of one value (a test that could not fail otherwise)."""
    vals = {brute(position(tmp_path, k, seed)) for k, seed in CASES}
    assert {WIN, LOSS} <= vals


def test_solve_refuses_hidden_cards_and_more_players():
    with pytest.raises(SolveError, match="two-player"):
        solve(cardspec.load("hearts", 4).new_state(seed=1))
    s = cardspec.load("vanishing-whist", 2).new_state(seed=1)     # two players, hands hidden
    with pytest.raises(SolveError, match="hidden"):
        solve(s)


def test_state_from_public_view_rebuilds_the_position(tmp_path):
    s = position(tmp_path, 4, 1)
    s.apply(s.legal_actions()[0])
    t = state_from_public_view(s.game, s.view(s.to_act))
    assert t.position_key()[:-6] == s.position_key()[:-6]     # zones, counters, vars, turns step
    assert t.legal_actions() == s.legal_actions()


def test_solver_bot_plays_a_proven_win(tmp_path):
    s = position(tmp_path, 3, 0)
    want = brute(s)
    bot = SolverBot(s.game, max_cards=16, seconds=10)
    action = bot.act(s.view(s.to_act), s.legal_actions())
    assert bot.last is not None and bot.last.value == want
    assert action == bot.last.best


def test_cli_solve_answers_a_6_card_position():
    """Done-when of issue 5: `cardspec solve` answers a position of 6 cards per hand."""
    out = subprocess.run([sys.executable, "-m", "cardspec.cli", "solve", str(HERE / "solve-6-cards-quick.yaml"),
                          "--json", "--seconds", "60"], capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    assert res["value"] in ("win", "loss", "draw") and res["best"].startswith("lead ")


def test_cli_solve_bad_scenario_exits_2_without_traceback(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: svoyi-koziri\nactions: [fly]\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "cardspec.cli", "solve", str(bad)], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 2 and "Traceback" not in out.stderr and "fly" in out.stderr


def test_legal_after_apply_is_legal_along_random_lines(tmp_path):
    """The turns step's fast path (legal_after_apply, used by the solver) lists exactly ``legal``'s moves right
    after every apply, and falls back to ``legal`` for a state it did not just stop at (a clone)."""
    rng = random.Random(5)
    for seed in range(4):
        s = position(tmp_path, 5, seed, cards=32)
        s.events = None
        for _ in range(60):
            if s.terminal:
                break
            step = s.game.steps[s.pc]
            fast = step.legal_after_apply(s)
            assert fast == step.legal(s)
            c = s.clone()
            assert step.legal_after_apply(c) == fast
            s.apply_move(fast[int(rng.random() * len(fast))])


def test_pns_with_the_shedding_estimate_agrees_with_brute_force_32_cards(tmp_path):
    """Proof-number search starts from a shedding estimate (docs/solve.md); it steers the search but must not
    change a value: 3-card positions of the 32-card deck against the brute force."""
    vals = []
    for seed in range(6):
        s = position(tmp_path, 3, seed, cards=32)
        s.events = None
        want = brute(s)
        res = solve(s, 60)
        assert res.value == want, (seed, res.describe(), want)
        vals.append(want)
    assert len(set(vals)) > 1, vals   # not all of one value


def test_dfpn_agrees_with_best_first_pns_and_its_best_move_keeps_the_value(tmp_path):
    """Depth-first proof-number search (the default, docs/solve.md) and best-first proof-number search give the
    same value on 5-card positions of the 32-card deck (too big for the brute force), and df-pn's best move
    for a proven win leads to a position that the best-first search proves lost for the other side."""
    vals = []
    for seed in range(6):
        s = position(tmp_path, 5, seed, cards=32)
        s.events = None
        a = solve(s, 60, "dfpn")
        b = solve(s, 60, "pns")
        assert a.value is not None and a.value == b.value, (seed, a.describe(), b.describe())
        vals.append(a.value)
        if a.value == WIN:
            c = s.clone()
            c.apply(a.best)
            if not c.terminal:
                r = solve(c, 60, "pns")
                assert r.value == (WIN if c.to_act == s.to_act else LOSS), (seed, a.best, r.describe())
    assert len(set(vals)) > 1, vals


def test_repetitions_before_the_root_still_count(tmp_path):
    """The search reads the root's repetition history without extending it (docs/solve.md, "Repetition"): a
    position seen twice before the root ends the match as a draw the third time (svoyi-koziri.md "End"), one
    that recurs on the searched line is a draw. Roots reached by random lines whose history holds a position
    twice; the brute force plays through the engine's own repetition rule."""
    from cardspec.engine.effects import FrozenPositions
    found = 0
    for seed in range(16):
        rng = random.Random(seed)
        start = position(tmp_path, 3, seed)
        for _ in range(30):
            s = start.clone()
            while not s.terminal and FrozenPositions(s.positions).most < 2 and len(s.history) < 40:
                s.apply(rng.choice(s.legal_actions()))
            if s.terminal or FrozenPositions(s.positions).most < 2:
                continue
            s.events = None
            want = brute(s)
            for method in ("dfpn", "pns", "alphabeta"):
                assert solve(s, 30, method).value == want, (seed, method, s.history)
            assert s.positions.__class__ is tuple    # the caller's state keeps its history
            found += 1
            break
    assert found >= 4, found


def test_children_cache_drops_the_least_recently_used_half():
    """dfpn's children cache (docs/solve.md, "Depth-first proof-number search") is bounded by the children it
    holds; past the limit it drops the least recently used entries holding half of them, not everything."""
    from cardspec.players.solve import KidCache
    c = KidCache()
    c.add("a", [1, 2], 10)
    c.add("b", [1, 2], 10)
    c.add("c", [1, 2], 10)
    assert c.use("a") == [1, 2] and c.use("x") is None
    c.add("d", [1, 2, 3, 4, 5], 10)          # 11 held > 10: drop b, c and a (least recently used first)
    assert list(c) == ["d"] and c.held == 5
    c.add("e", [1], 10)
    c.discard("d")
    c.discard("zz")
    assert list(c) == ["e"] and c.held == 1


def test_dfpn_with_a_tiny_children_cache_agrees_with_brute_force(tmp_path, monkeypatch):
    """The children cache only saves regenerating positions: with room for a few children (evicting all the
    time, docs/solve.md) df-pn gives the brute force's value."""
    import cardspec.players.solve as solve_mod
    drops = []
    add = solve_mod.KidCache.add

    def counting_add(self, key, kids, limit):
        before = len(self)
        add(self, key, kids, limit)
        drops.append(before + 1 - len(self))

    monkeypatch.setattr(solve_mod._dfpn, "CACHE_STATES", 6)   # (the part of the package that reads it)
    monkeypatch.setattr(solve_mod.KidCache, "add", counting_add)
    for k, seed in CASES:
        s = position(tmp_path, k, seed)
        s.events = None
        res = solve(s, 30, "dfpn")
        assert res.value == brute(s), (k, seed, res.describe())
    assert sum(drops) > 0    # the cache did evict


@pytest.mark.parametrize("chain", [0, 1, 16])
def test_dfpn_playing_forced_moves_inside_a_child_agrees_with_brute_force(tmp_path, monkeypatch, chain):
    """df-pn plays a child's forced moves (one legal move) at once instead of making each such position a node
    (docs/solve.md, "Depth-first proof-number search"): a cycle through a forced position still passes the
    position after it, so repetitions are found one move later with the same value. With no chain, chains
    cut short after one move, and the default, the values are the brute force's; with the default no cached
    child is left with one legal move, without chains some are (a responder who cannot beat must pick up,
    svoyi-koziri.md "Play")."""
    import cardspec.players.solve as solve_mod
    single = []
    add = solve_mod.KidCache.add

    def spy(self, key, kids, limit):
        single.extend(1 for ck, c, cm, v in kids if c is not None and len(cm) == 1)
        add(self, key, kids, limit)

    monkeypatch.setattr(solve_mod._dfpn, "FORCED_CHAIN", chain)   # (the part of the package that reads it)
    monkeypatch.setattr(solve_mod.KidCache, "add", spy)
    for k, seed in CASES:
        s = position(tmp_path, k, seed)
        s.events = None
        res = solve(s, 30, "dfpn")
        assert res.value == brute(s), (k, seed, chain, res.describe())
    if chain == 0:
        assert single
    elif chain == 16:
        assert not single


@pytest.mark.parametrize("name,players", [("svoyi-koziri", 2), ("hearts", 4), ("burraco", 4), ("oh-hell", 3),
                                          ("red-dog", 3), ("eleusis-prophets", 4)])
def test_search_key_equal_exactly_when_position_keys_are(name, players):
    """The search's table key (``solve._key``, docs/solve.md "The position") is built from the same parts as
    ``State.position_key()`` without copying them into tuples: two positions get equal keys exactly when
    their position keys are equal. Positions on random lines of several rulesets, plus copies with a hand
    reordered and the turn count changed (neither is part of the position)."""
    import cardspec.players.solve as solve_mod
    from cardspec.engine.slots import TURN
    game = cardspec.load(name, players)
    rng = random.Random(7)
    states = []
    for seed in range(6):
        s = game.new_state(seed=seed)
        s.events = None
        for _ in range(60):
            if s.terminal:
                break
            states.append(s)
            c = s.clone()
            for hands in (c.z[zn.index] for zn in game.zones if zn.per_seat):
                for h in hands:
                    rng.shuffle(h)
            c.v[TURN] += 3
            states.append(c)
            legal = game.steps[s.pc].legal(s)
            s = s.clone()
            s.apply_move(legal[int(rng.random() * len(legal))])
    assert len(states[0].position_key()) == solve_mod._KEY_PARTS   # a new part of the position: add it to _key
    by_pk, by_key = {}, {}
    for s in states:
        pk, k = s.position_key(), solve_mod._key(s)
        assert by_pk.setdefault(pk, k) == k
        assert by_key.setdefault(k, pk) == pk
    assert len(by_pk) < len(states) and len(by_pk) > len(states) // 4   # equal and different positions both seen


@pytest.mark.parametrize("name,players", [("svoyi-koziri", 2), ("hearts", 4), ("burraco", 4), ("oh-hell", 3),
                                          ("red-dog", 3), ("eleusis-prophets", 4)])
def test_search_key_and_copy_written_out_per_game_are_key_and_clone(name, players):
    """``solve._search_fns(game)`` (docs/solve.md "How far it reaches"): the key and the copy the searches use,
    generated for the game's zones, give ``_key``'s bytes and a state equal to ``State.clone(True)`` in every
    slot (but the action history, shared, and the log, which search states do not keep), independent of the
    original: applying a move to the copy leaves the original's key unchanged. Positions on random lines."""
    import cardspec.players.solve as solve_mod
    from cardspec.engine import State
    game = cardspec.load(name, players)
    keyof, copy = solve_mod._search_fns(game)
    assert solve_mod._search_fns(game) == (keyof, copy)   # made once per game
    rng = random.Random(11)
    seen = 0
    for seed in range(4):
        s = game.new_state(seed=seed)
        s.events = None
        for _ in range(60):
            if s.terminal:
                break
            assert keyof(s) == solve_mod._key(s)
            c, d = copy(s), s.clone(True)
            for slot in State.__slots__:
                if slot != "history":
                    assert getattr(c, slot) == getattr(d, slot), slot
            assert c.history is s.history and c.rng is s.rng
            before = keyof(s)
            legal = game.steps[c.pc].legal(c)
            c.apply_move(legal[int(rng.random() * len(legal))])
            assert keyof(s) == before
            s = c
            seen += 1
    assert seen > 40
