"""Shortcuts for speed in generated code (issue 37 item 4, branch speed-bets) give the same answers as the
plain computation they replace, and are switched on where they apply.

- ``min``/``max`` of two numbers (``min(pot, chips[to_act])``) without the builtin (which parses its keywords
  at every call): inline for atoms, ``_min2``/``_max2`` otherwise; ``min(... for ...)`` of a list made by the
  expression as ``_min_l`` (the same as ``min(L, default=0)``).
- the amounts of ``transfer`` and the counts of ``move`` kept at 0 or more (and capped) by comparisons, not
  ``max``/``min`` calls;
- a seat loop's variable (``count(p in seats where chips[p] > 0)``) reads a per-seat counter with no range check;
- a card parameter's listing: ``sorted(zone)`` with no list made first, the parts of its ``where:`` that do
  not read the card kept once a listing; a listing of one unconditioned parameter made by zips.
"""
from __future__ import annotations

import random

import pytest

import cardspec
from cardspec.engine.effects import _at_least_0
from cardspec.engine.steps.turns import Turns
from cardspec.engine.steps.turns.moves import ACTOR, PH
from cardspec.lang import Binding, compile_expr, runtime_helpers
from cardspec.lang.builtins import _min_max2

INTS = [-3, -1, 0, 1, 2, 5, True, False]


def _fn(game, text, params):
    pmap = {name: Binding(f"p_{name}", t) for name, t in params}
    code = compile_expr(text, game.env, pmap)
    return code.src, game.comp.function(code.src, params)


def _positions(game, matches=3, cap=400):
    for seed in range(matches):
        rng = random.Random(seed)
        s = game.new_state(rng=random.Random(50 + seed))
        for _ in range(cap):
            if s.terminal:
                break
            yield s
            legal = s.legal_actions()
            s.apply(legal[int(rng.random() * len(legal))])


def test_min_max_of_two_is_the_builtins_choice():
    """The same object as the builtin picks (``b`` only when ``b < a`` / ``b > a``: ``min(0, False)`` is
    ``0``); and the compiled expression calls no ``min``/``max``."""
    h = runtime_helpers()
    for a in INTS:
        for b in INTS:
            for fn, helper in ((min, h["_min2"]), (max, h["_max2"])):
                want = fn(a, b)
                got = helper(a, b)
                assert got == want and type(got) is type(want), (fn, a, b)
                assert _min_max2(fn.__name__, "p_a", "p_b") == f"_{fn.__name__}2(p_a, p_b)"
    game = cardspec.load("red-dog")
    ab = (("a", "int"), ("b", "int"))
    for text, fn in (("min(a, b)", min), ("max(a, b + 1)", lambda a, b: max(a, b + 1)),
                     ("min(10, max(a, b))", lambda a, b: min(10, max(a, b)))):
        src, f = _fn(game, text, ab)
        assert "min(" not in src.replace("_min2(", "") and "max(" not in src.replace("_max2(", ""), src
        for a in range(-3, 13, 2):
            for b in range(-3, 13, 3):
                assert f(None, a, b) == fn(a, b), (text, a, b)


def test_min_max_of_a_list_is_the_builtins_with_default_0():
    h = runtime_helpers()
    for xs in ([], [3], [2, -1, 7], [0, 0], [-4]):
        assert h["_min_l"](xs) == min(xs, default=0) and h["_max_l"](xs) == max(xs, default=0)
    game = cardspec.load("red-dog")
    src, lo = _fn(game, "min(rk(c) for c in hand[seat])", (("seat", "int"),))
    _, hi = _fn(game, "max(rk(c) for c in hand[seat])", (("seat", "int"),))
    assert src.startswith("_min_l(") and "default" not in src
    rank = game.deck.rank
    hand = game.zone["hand"].index
    seen = 0
    for s in _positions(game):
        for seat in range(-1, game.n + 1):
            cards = s.z[hand][seat] if 0 <= seat < game.n else []
            assert lo(s, seat) == min((rank[c] for c in cards), default=0)
            assert hi(s, seat) == max((rank[c] for c in cards), default=0)
            seen += 1
    assert seen > 100


@pytest.mark.parametrize("src", ["-3", "0", "7", "p_x", "(p_x - 4)"])
def test_at_least_0_is_max_of_0(src):
    for x in range(-6, 7):
        env = {"p_x": x}
        exec("\n".join(_at_least_0("_a", src)), {}, env)   # noqa: S102 - statements made here
        assert env["_a"] == max(eval(src, {}, {"p_x": x}), 0)   # noqa: S307


def test_transfers_and_moves_call_no_max():
    """Red Dog's raise (transfers capped by the chips held, a card moved with a refill) runs with no
    ``max``/``min`` call; whole seeded games are compared by tests/_seeded_games.py."""
    game = cardspec.load("red-dog")
    turns = next(st for st in game.steps if isinstance(st, Turns))
    fx = turns.by_name["raise"].fx
    assert "max" not in fx.__code__.co_names and "min" not in fx.__code__.co_names


def test_a_seat_loop_reads_counters_without_a_range_check():
    game = cardspec.load("red-dog")
    src, f = _fn(game, "count(p in seats where chips[p] > 0)", ())
    assert "len(" not in src, src
    _, other = _fn(game, "count(p in [0, 1, 5] where chips[p] != 0)", ())   # 5 is no seat: -1, counted
    chips = game.counter["chips"].index
    for s in _positions(game):
        assert f(s) == sum(1 for x in s.c[chips] if x > 0)
        assert other(s) == sum(1 for x in s.c[chips] if x != 0) + 1


def test_card_listings_are_the_legal_cards_in_display_order():
    """Svoyi Koziri's lead (every card: made by zips) and beat (a ``where:`` reading the card to beat, kept
    once a listing) list exactly the cards their checks accept, in display order."""
    game = cardspec.load("svoyi-koziri")
    turns = next(st for st in game.steps if isinstance(st, Turns) and "beat" in st.by_name)
    lead, beat = turns.by_name["lead"], turns.by_name["beat"]
    assert "_t_repeat" in lead.moves_fn.__code__.co_names
    inner = [c for c in beat.moves_fn.__code__.co_consts if hasattr(c, "co_varnames")]
    assert any("_lw" in c.co_varnames for c in inner)
    key = game.deck.sort_key.__getitem__
    hand = game.zone["hand"].index
    seen = set()
    for s in _positions(game, matches=4, cap=600):
        if s.current_step() is not turns:
            continue
        seat = s.ts[ACTOR]
        allowed = turns.phases[s.ts[PH]][3]
        for a in (lead, beat):
            if a.index not in allowed:
                continue
            want = [(a.index, (c,)) for c in sorted(s.z[hand][seat], key=key) if a.check_fn(s, seat, (c,))]
            assert a.moves_fn(s, seat, a.index) == want
            assert a.legal_fn(s, seat) == [m[1] for m in want]
            seen.add(a.name)
    assert seen == {"lead", "beat"}


@pytest.mark.parametrize("name", ["red-dog", "red-dog-casino", "svoyi-koziri"])
def test_number_ranges_are_bounded_at_load_as_with_the_builtins(name):
    """A number parameter's range known at load (``static_range``, which decides whether it is chosen whole
    or digit by digit) is the same read from ``_min2``/``_max2`` as from ``min``/``max``."""
    from cardspec.engine.choices import static_range
    from cardspec.engine.steps.turns.number import Number
    game = cardspec.load(name)
    seen = 0
    for st in game.steps:
        for a in getattr(st, "actions", ()):
            for P in a.params:
                if isinstance(P, Number):
                    plain = [x.replace("_min2(", "min(").replace("_max2(", "max(") for x in P.srcs]
                    cap = len(game.deck.cards)
                    assert static_range(*P.srcs, cap) == static_range(*plain, cap), P.srcs
                    seen += 1
    assert seen


def test_a_for_each_over_the_seats_changes_counters_without_a_range_check():
    """``for_each`` over the seats: its name is a seat, so its counter reads and changes are plain indexing;
    over another list (a 5 is no seat) the checks stay, and a run gives the same counters as the builtins."""
    from cardspec.engine.effects import effects_source
    game = cardspec.load("red-dog")
    body = [{"for_each": {"as": "p", "where": "chips[p] > 0",
                          "do": [{"transfer": {"from": "chips[p]", "to": "pot", "value": 3}},
                                 {"add": {"counter": "chips", "seat": "p", "value": 1}}]}}]
    seats = effects_source(game, game.comp, body, ("test",), ())
    assert not any("_seat(" in ln or "len(s.c" in ln for ln in seats), seats
    other = [{"for_each": dict(body[0]["for_each"], **{"in": "[0, 5]"})}]
    assert any("_seat(" in ln for ln in effects_source(game, game.comp, other, ("test",), ()))
    fn = game.comp.function("", (), statements=seats)
    chips, pot = game.counter["chips"].index, game.var["pot"].index
    for s in _positions(game, matches=2, cap=100):
        t = s.clone()
        want = [x - min(3, x) + 1 if x > 0 else x for x in t.c[chips]]
        moved = sum(min(3, x) for x in t.c[chips] if x > 0)
        before = t.v[pot]
        fn(t)
        assert t.c[chips] == want and t.v[pot] == before + moved


def test_a_bet_range_is_listed_first_and_its_texts_kept_when_few():
    """Red Dog's raise (a number range not bounded at load, listed by zips in C) is listed under
    ``State.apply`` instead of searched (``LISTED_IN_C``); ``legal_actions()`` then gives the listing a
    state that did not keep it makes."""
    from cardspec.engine.steps.turns.core import LISTED_IN_C
    game = cardspec.load("red-dog")
    turns = next(st for st in game.steps if isinstance(st, Turns))
    assert turns.by_name["raise"].zipped
    phase = next(i for i, ph in enumerate(turns.phases) if ph[0] == "one" and turns.by_name["raise"].index in ph[3])
    assert turns._lists_first(phase) == LISTED_IN_C
    kept = 0
    for s in _positions(game, matches=4, cap=300):
        if s.terminal or s.current_step() is not turns:
            continue
        kept += s._cache is not None and s._cache[0] is not None
        fresh = s.clone()
        fresh._cache = None
        assert s.legal_actions() == fresh.legal_actions()
    assert kept > 20
