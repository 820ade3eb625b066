"""A score step computes the parts of its value that do not depend on ``seat`` once (compiler.hoist_invariants).

docs/performance.md ("What made it fast"): a score value is one generated list over the seats; a call or
comprehension that names neither ``seat`` nor a variable bound around it, evaluated on every
evaluation of the value, is computed once before that list. Expressions are pure, so the scores must be
the same as computing it for every seat: checked on whole random matches of the rulesets whose score
values have such parts (black-lady's moon and "clear", shared/rules/black-lady.md), against the same
game compiled with nothing hoisted.
"""
from __future__ import annotations

import random

import pytest

import cardspec.engine.compiler as compiler
import cardspec.engine.steps.score as score_step
from cardspec import load
from cardspec.engine.compiler import hoist_invariants
from cardspec.engine.slots import DECLARER


def _names(assignments):
    return [name for name, _ in assignments]


def test_an_unconditional_call_without_the_variable_is_hoisted():
    hoisted, rest = hoist_invariants("(a(s, p_seat) + 1 if max([f(s, x) for x in (0, 1)]) == 26 else 0)", "p_seat")
    assert hoisted == [("_inv0", "max([f(s, x) for x in (0, 1)])")]
    assert rest == "a(s, p_seat) + 1 if _inv0 == 26 else 0"


def test_parts_naming_the_variable_stay():
    assert hoist_invariants("f(s, p_seat) + g(p_seat)", "p_seat") == ([], "f(s, p_seat) + g(p_seat)")


@pytest.mark.parametrize("src", [
    "(f(s) if p_seat == 0 else 1)",                 # a branch of if/else: computed only for some seats
    "(p_seat == 0 and f(s))",                       # after the first operand of and
    "(p_seat or f(s))",
    "(0 < p_seat < f(s))",                          # after the first comparison of a chain
    "sum([f(s) for x in range(p_seat)])",           # inside a comprehension
])
def test_parts_evaluated_only_sometimes_stay(src):
    hoisted, rest = hoist_invariants(src, "p_seat")
    assert hoisted == [] and rest == src


def test_a_part_naming_a_variable_bound_around_it_stays():
    src = "sum([g(x) + f(s, x) for x in (0, 1)]) + p_seat"
    hoisted, rest = hoist_invariants(src, "p_seat")
    assert _names(hoisted) == ["_inv0"]   # the whole comprehension, not f(s, x) inside it
    assert hoisted[0][1] == "sum([g(x) + f(s, x) for x in (0, 1)])"


def test_a_generator_alone_is_never_hoisted():
    hoisted, rest = hoist_invariants("h(p_seat, (f(s, x) for x in (0, 1)))", "p_seat")
    assert hoisted == []


def test_a_hoisted_part_also_replaces_its_conditional_copies():
    hoisted, rest = hoist_invariants("(1 if m(s) == 2 else 3 if m(s) == 4 else p_seat)", "p_seat")
    assert hoisted == [("_inv0", "m(s)")]
    assert rest.count("_inv0") == 2 and "m(s)" not in rest


def _hoists(step) -> bool:
    """The score step's generated function computes something before its loop over the seats."""
    co = step.values.__code__
    return "_inv0" in co.co_varnames + co.co_cellvars


def _match(name, players, options, seed):
    g = load(name, players, options)
    s = g.new_state(seed=seed)
    rng = random.Random(seed)
    while not s.terminal:
        legal = s.legal_actions()
        s.apply(legal[int(rng.random() * len(legal))])
    return s.history, s.log_all()


CASES = [("hearts", 4, {}), ("black-lady", 4, {"moon": True}), ("black-lady", 3, {"clear": True}),
         ("black-lady", 5, {"moon": True, "clear": True, "pass_count": 0}),
         ("cancellation-black-lady", 6, {"moon": True, "clear": True})]


@pytest.mark.parametrize("name,players,options", CASES)
def test_hoisted_scores_equal_scores_computed_per_seat(name, players, options, monkeypatch):
    """black-lady.md, "Shooting the moon" and "clear": the same deal scores the same with the seat-independent
    test (one seat took every penalty point) computed once or once per seat."""
    g = load(name, players, options)
    steps = [st for st in g.steps if type(st).__name__ == "Score"]
    assert any(_hoists(st) for st in steps), "nothing hoisted: the test tests nothing"
    fast = [_match(name, players, options, seed) for seed in range(12)]
    monkeypatch.setattr(score_step, "hoist_invariants", lambda src, var, **kw: ([], src))
    assert compiler.hoist_invariants is not score_step.hoist_invariants
    g2 = load(name, players, options)
    plain = [st for st in g2.steps if type(st).__name__ == "Score"]
    assert not any(_hoists(st) for st in plain)
    slow = [_match(name, players, options, seed) for seed in range(12)]
    assert fast == slow
    # Random play rarely shoots the moon: deal the won piles so that one seat often takes every penalty
    # card (or no one does), and compare every score step's values directly.
    rng = random.Random(5)
    won = g.zone["won"].index
    counter = g.counter["points"].index
    for _ in range(200):
        s = g.new_state(seed=rng.randrange(1 << 30), record=False)
        cards = list(g.deck.cards)
        rng.shuffle(cards)
        piles = [[] for _ in range(players)]
        shooter = rng.randrange(players) if rng.random() < 0.5 else None
        for c in cards:
            piles[shooter if shooter is not None and g.deck.points_of[c] > 0 else rng.randrange(players)].append(c)
        s.z[won] = piles
        s.c[counter] = [rng.randrange(30) for _ in range(players)]
        for a, b in zip(steps, plain):
            assert a.values(s) == b.values(s)


def test_a_conditional_part_is_kept_once_made_not_computed_before():
    """``lazy``: a part evaluated only on some evaluations is made where it is first needed, then read."""
    hoisted, rest = hoist_invariants("(0 if v(s) < 0 else f(s) if p_seat == g(s, 1) else 0)", "p_seat", lazy="_lz")
    assert hoisted == [("_inv0", "v(s)")]
    assert "setdefault(1, f(s))" in rest and "setdefault(0, g(s, 1))" in rest   # (keys in the order met)
    assert hoist_invariants("(0 if p_seat else h(p_seat))", "p_seat", lazy="_lz") == ([], "(0 if p_seat else h(p_seat))")
    # a generator cannot be read twice: its consumer is kept, not the generator
    _, rest = hoist_invariants("(0 if p_seat else max((f(s, x) for x in y(s))))", "p_seat", lazy="_lz")
    assert "_lz[0] if 0 in _lz else _lz.setdefault(0, max((f(s, x) for x in y(s))))" in rest
    calls = []

    def f(s):
        calls.append(s)
        return 7
    ns = {"f": f}
    exec("def values(s):\n    _lz = {}\n    return [" + hoist_invariants(
        "(f(s) if p_seat > 0 else 0)", "p_seat", lazy="_lz")[1] + " for p_seat in range(4)]", ns)
    assert ns["values"]("S") == [0, 7, 7, 7] and calls == ["S"]   # made once, at the first seat that needs it


def test_euchre_scores_with_lazy_parts_equal_the_plain_ones(monkeypatch):
    """euchre.md, Scoring: ``deal_points(seat)`` reads the makers' tricks (a team total) in branches: kept
    once a step. The same values as the value computed per seat with nothing kept, on dealt positions."""
    g = load("euchre")
    steps = [st for st in g.steps if type(st).__name__ == "Score"]
    assert any("_lz" in st.values.__code__.co_varnames + st.values.__code__.co_cellvars for st in steps)
    monkeypatch.setattr(score_step, "hoist_invariants", lambda src, var, **kw: ([], src))
    plain = [st for st in load("euchre").steps if type(st).__name__ == "Score"]
    rng = random.Random(11)
    tricks = g.counter["tricks"].index
    seen = set()
    for _ in range(400):
        s = g.new_state(seed=rng.randrange(1 << 30), record=False)
        s.v[DECLARER] = rng.choice([-1, 0, 1, 2, 3])
        k = rng.randrange(6)
        s.c[tricks] = [k, 5 - k, k, 5 - k]
        s.v[g.var["lone"].index] = rng.random() < 0.5
        for a, b in zip(steps, plain):
            got = a.values(s)
            assert got == b.values(s)
            seen.add(tuple(got))
    assert len(seen) >= 5
