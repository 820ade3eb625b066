"""Definitions without parameters kept for the statements of one block of ``set:`` effects
(engine/shared_defs.py): the block gives the same state as when each statement evaluates them again, a
definition that reads a slot the block writes (or reads the state another way) is never kept, and the
rulesets that can use it do."""
import random

import pytest

import cardspec
from cardspec.engine import effects, shared_defs
from cardspec.engine.shared_defs import share

DEFS = {
    "_d_taken": ((), "[c for c in _FACES if s.v[8] == SUIT[c] and _holder(s.z[1], c) >= 0]"),
    "_d_high": ((), "_top(sorted(_d_taken(s)))"),
    "_d_low": ((), "_top(sorted(_d_taken(s), key=lambda c: -c))"),
    "_d_reads_21": ((), "s.v[21] + 1"),
    "_d_uses_21": ((), "_d_reads_21(s) * 2"),
    "_d_indirect": ((), "s.v[s.v[3]]"),
    "_d_other": ((), "s.plays[0]"),
    "_d_per_seat": (("p_x",), "s.c[0][p_x] + s.v[5]"),
    "_d_with_seat": ((), "_d_per_seat(s, 1) + _d_per_seat(s, 2)"),
}


def test_a_definition_read_twice_is_kept_and_those_between_are_written_out():
    out = share(["s.v[21] = _holder(s.z[1], _d_high(s))", "s.v[22] = _holder(s.z[1], _d_low(s))"], DEFS)
    assert out[0] == "_dm = {}"
    assert all("_dm.setdefault(0, _d_taken(s))" in ln for ln in out[1:])
    assert "_d_high" not in "".join(out) and "_d_low" not in "".join(out)


@pytest.mark.parametrize("lines", [
    ["s.v[21] = _d_uses_21(s)", "s.v[22] = _d_uses_21(s)"],      # reads a slot the block writes
    ["s.v[20] = _d_indirect(s)", "s.v[22] = _d_indirect(s)"],    # a slot given by an expression
    ["s.v[20] = _d_other(s)", "s.v[22] = _d_other(s)"],          # the state read another way
    ["s.v[20] = _d_high(s)", "s.z[1][0].append(3)", "s.v[22] = _d_low(s)"],   # not only var writes
    ["s.v[20] = _d_high(s)", "s.v[22] += _d_low(s)"],
    ["s.v[20] = _d_high(s)"],                                    # nothing evaluated twice
])
def test_nothing_is_kept_where_the_value_could_change_or_is_needed_once(lines):
    assert share(lines, DEFS) == lines


def test_a_definition_reading_fixed_slots_and_definitions_with_parameters_is_kept():
    lines = ["s.v[20] = _d_with_seat(s)", "s.v[22] = _d_with_seat(s) + 1"]
    assert share(lines, DEFS)[0] == "_dm = {}"
    assert share(lines, {**DEFS, "_d_per_seat": (("p_x",), "s.c[0][p_x] + s.v[22]")}) == lines


def _trajectory(game, seed, moves=400):
    s = game.new_state(seed=seed)
    rng = random.Random(seed)
    out = []
    for _ in range(moves):
        if s.terminal:
            break
        legal = s.legal_actions()
        s.apply(legal[int(rng.random() * len(legal))])
        out.append((tuple(s.v), tuple(map(tuple, s.c))))
    return out


@pytest.mark.parametrize("options", [{}, {"low_to": "holder"}, {"modern_auction": True}])
def test_a_ruleset_block_gives_the_same_states_kept_or_not(monkeypatch, options):
    kept = cardspec.load("auction-pitch", options=options)
    fx = next(st for st in kept.steps if st.kind == "do").fx
    assert "_dm" in fx.__code__.co_varnames + fx.__code__.co_cellvars   # the awards block keeps its definitions
    monkeypatch.setattr(effects, "share_definitions", lambda lines, defs: lines)
    plain = cardspec.load("auction-pitch", options=options)
    assert "_dm" not in (lambda c: c.co_varnames + c.co_cellvars)(next(st for st in plain.steps if st.kind == "do").fx.__code__)
    for seed in range(4):
        assert _trajectory(kept, seed) == _trajectory(plain, seed)


def test_the_bounds_are_numbers():
    assert shared_defs.MAX_INLINED > 0 and shared_defs.MAX_DEPTH > 0
