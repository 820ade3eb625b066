"""The engine's shortcuts for speed (issue 18, docs/performance.md "Five-player team games") give the same
answers as the plain computation they replace.

Each shortcut is checked against the plain form on real positions of the built-in rulesets: the generated
public listing of a trick step (the legal cards in display order), the score step's values with
parameterless definitions evaluated once, the play-order table kept per value of what ``next_player``
reads, and comprehensions over the deck that go through one suit's cards only.
"""
from __future__ import annotations

import random

import pytest

from cardspec import load
from cardspec.engine.compiler import _required_suit
from cardspec.engine.slots import TO_ACT, TRUMP
from cardspec.engine.steps.score import Score, _shared_once
from cardspec.engine.steps.tricks import Tricks
from cardspec.rules import builtin_names, read_ruleset


def _trick_games():
    out = []
    for name in builtin_names():
        lo, hi = read_ruleset(name).players
        for n in sorted({lo, hi}):
            g = load(name, n)
            if any(isinstance(step, Tricks) for step in g.steps):
                out.append((name, n))
    return out


def _positions(game, seeds=4, cap=2000):
    """States met in random matches through the public API (every decision of the first ``cap``)."""
    for seed in range(seeds):
        rng = random.Random(seed)
        s = game.new_state(rng=random.Random(100 + seed))
        for _ in range(cap):
            if s.terminal:
                break
            yield s
            legal = s.legal_actions()
            s.apply(legal[int(rng.random() * len(legal))])


@pytest.mark.parametrize("name,n", _trick_games())
def test_trick_listing_is_the_legal_cards_in_display_order(name, n):
    """A trick step's public listing (generated per step) is its legal cards sorted by the deck's
    display order, each card once — whatever the follow rule, exempt cards, led suit or pending choice;
    ``legal_texts`` gives the same moves with their texts."""
    game = load(name, n)
    key = game.deck.sort_key.__getitem__
    seen = 0
    for s in _positions(game):
        step = s.current_step()
        if not isinstance(step, Tricks):
            continue
        seen += 1
        legal = step._legal(s)
        if step.legal_texts is not None:   # State.legal_actions' one call: the same moves and texts
            texts, moves = step.legal_texts(s)
            assert moves == step.legal_sorted(s) and texts == step.texts(s, moves)
        if step.choose is not None and step.pending(s):
            assert step.legal_sorted(s) == legal
            continue
        assert step.legal_sorted(s) == sorted(set(legal), key=key)
        assert set(step.legal_sorted(s)) <= set(s.z[step.hand][step.position(s)])   # (played_by: another seat's hand)
    assert seen > 0



@pytest.mark.parametrize("name", ["napoleon", "goninkan", "sheepshead", "briscola-bugiarda", "auction-pitch"])
def test_display_sorted_hands_stay_in_display_order(name):
    """A trick step whose hands are not kept in face order keeps them in display order (``display_sorted``):
    sorted when the step is entered, and a play only removes a card, so the listing filters the hand and
    sorts nothing. Checked at every decision of random matches, and after a determinization rewrote
    the hands (it calls ``sort_hands``)."""
    from cardspec.engine.determinize import Determinizer
    game = load(name)
    key = game.deck.sort_key.__getitem__
    steps = [st for st in game.steps if isinstance(st, Tricks)]
    assert steps and all(st.display_sorted and not st.keeps_sorted for st in steps)
    seen = 0
    for s in _positions(game, seeds=2):
        step = s.current_step()
        if not isinstance(step, Tricks):
            continue
        for h in s.z[step.hand]:
            assert h == sorted(h, key=key)
        seen += 1
        if seen % 50 == 0:
            seat = s.v[TO_ACT]
            d = Determinizer(game, s.view(seat, log=True)).sample(random.Random(seen))
            dstep = d.current_step()
            for h in d.z[dstep.hand]:
                assert h == sorted(h, key=key)
            if not dstep.pending(d):   # (a pending choice lists the choice, not cards)
                assert dstep.legal_sorted(d) == sorted(set(dstep._legal(d)), key=key)
    assert seen > 0


def test_a_step_whose_effects_write_hands_is_not_display_sorted(tmp_path):
    """An ``after_trick`` effect that puts cards into a hand breaks the invariant: that step sorts its
    listing each time instead (the listing is still the legal cards in display order)."""
    p = tmp_path / "v.yaml"
    p.write_text("extends: napoleon\nname: hand-writer\ndeal:\n  - id: play\n    tricks:\n      after_trick: !replace\n"
                 "        - if: trick_number == 1\n"
                 "          move: {from: \"won[winner]\", to: \"hand[winner]\", count: 1}\n")
    game = load(str(p))
    step = next(st for st in game.steps if isinstance(st, Tricks))
    assert not step.display_sorted
    key = game.deck.sort_key.__getitem__
    for s in _positions(game, seeds=1, cap=300):
        st = s.current_step()
        if isinstance(st, Tricks) and not st.pending(s):
            assert st.legal_sorted(s) == sorted(set(st._legal(s)), key=key)

def _score_steps():
    """(ruleset, score step id) of the team games' score steps whose value is ``deal_points(seat)``."""
    out = []
    for name in ("goninkan", "napoleon", "sheepshead", "briscola-chiamata", "briscola-bugiarda"):
        for spec in read_ruleset(name).data["deal"]:
            if isinstance(spec, dict) and "score" in spec and str(spec["score"].get("value")) == "deal_points(seat)":
                out.append((name, spec["id"]))
    return out


@pytest.mark.parametrize("name,step_name", _score_steps())
def test_score_values_equal_each_seats_plain_value(name, step_name):
    """The score step evaluates each parameterless definition once for all seats; its values are those of
    ``deal_points(seat)`` called for each seat alone, on positions all through the match."""
    game = load(name)
    step = next(st for st in game.steps if isinstance(st, Score) and st.name == step_name)
    plain = game.ns["_d_deal_points"]
    checked = 0
    for s in _positions(game, seeds=2, cap=600):
        try:
            want = [plain(s, p) for p in range(s.n)]
        except Exception as e:  # noqa: BLE001 - a value that faults mid-deal must fault the same way
            with pytest.raises(type(e)):
                step.values(s)
            continue
        assert step.values(s) == want
        checked += 1
    assert checked > 100


def test_shared_once_memoises_parameterless_calls_only():
    defs = {"_d_points": (("p_p",), "(p_p + _d_bonus(s) + s.v[3])"), "_d_bonus": ((), "(s.v[4] * 2)"),
            "_d_two": (("p_a", "p_b"), "(p_a + p_b)")}
    out = _shared_once("_d_points(s, p_seat) + _d_two(s, p_seat, 1) + _d_bonus(s)", defs)
    assert "_d_points(" not in out                       # the one-parameter definition's body, the seat in it
    assert "(p_seat + " in out
    assert "_d_two(s, p_seat, 1)" in out                 # two parameters: left as a call
    assert out.count("_m.setdefault(0, _d_bonus(s))") == 2   # both uses of the parameterless one memoised
    assert _shared_once("f('_d_bonus(s)')", defs) == "f('_d_bonus(s)')"   # text inside a string untouched


def test_shared_once_values_equal_plain_values():
    """The rewritten expression computes what the plain one does (a parameterless call counted)."""
    calls = []
    ns = {"_d_bonus": lambda s: calls.append(1) or 7, "_d_points": lambda s, p: p * 10 + ns["_d_bonus"](s)}
    defs = {"_d_points": (("p_p",), "(p_p * 10 + _d_bonus(s))"), "_d_bonus": ((), "7")}
    src = _shared_once("_d_points(s, p_seat) - _d_bonus(s)", defs)
    fn = eval(f"lambda s: (lambda _m: [{src} for p_seat in range(5)])({{}})", ns)   # noqa: S307 - test source
    assert fn(None) == [p * 10 for p in range(5)]
    assert len(calls) == 1


@pytest.mark.parametrize("cond,want", [
    ("((SUIT[_l1_c] == s.v[8]) and _T0[_l1_c])", "s.v[8]"),
    ("((RANK[_l1_c] == s.v[13]) and (SUIT[_l1_c] == p_suit))", "p_suit"),
    ("SUIT[_l1_c] == 2", "2"),
    ("((SUIT[_l1_c] == s.v[8]) or _T0[_l1_c])", None),          # not required: an alternative
    ("(not (SUIT[_l1_c] == s.v[8]))", None),
    ("((SUIT[_l1_c] == s.v[8]) if _T0[_l1_c] else True)", None),
    ("(SUIT[_l1_c] == _l1_c)", None),                           # the operand names the card itself
    ("(SUIT[_l1_c] == RANK[_l1_c])", None),
])
def test_required_suit(cond, want):
    assert _required_suit(cond, "_l1_c") == want


@pytest.mark.parametrize("name", ["goninkan", "briscola-bugiarda"])
def test_deck_filter_by_suit_finds_the_same_card(name):
    """``filter(c in deck where c.suit == trump and c.rank == ...)`` goes through the trump suit's cards
    only: for every trump suit (and none) it finds the card the whole deck would give."""
    game = load(name)
    fn = game.ns["_d_trump_ace"] if name == "goninkan" else game.ns["_d_called"]
    s = game.new_state(seed=3)
    deck = game.deck
    for trump in list(range(len(deck.suits))) + [-1]:
        s.v[TRUMP] = trump
        got = fn(s)
        if name == "goninkan":
            want = next((f for f in range(deck.n_faces) if deck.eff_suit[f] == trump and deck.code[f][0] == "A"),
                        -1)
            assert got == want
        else:
            assert got == -1 or deck.eff_suit[got] == trump


def test_order_table_follows_a_seat_change():
    """Goninkan's play order (``right(seat)`` over the chair counter) is kept per chair arrangement: after
    the chairs change, the table is the new order, never the one kept for the old chairs."""
    game = load("goninkan")
    s = game.new_state(seed=1)
    chair = game.counter["chair"].index
    rng = random.Random(5)
    for _ in range(30):
        order = list(range(5))
        rng.shuffle(order)
        s.c[chair] = order
        want = tuple(game.next_expr(s, p) % 5 for p in range(5))
        assert game.order_table(s) == want
        assert sorted(want) == list(range(5))


@pytest.mark.parametrize("name,n", [("goninkan", 5), ("goninkan", 6), ("black-lady", 4), ("sheepshead", 5)])
def test_a_card_sum_over_every_seats_pile_is_one_pass_over_the_chained_piles(name, n):
    """`sum(sum(c.points for c in Z[p]) for p in seats)` (Z a per-seat zone) is one pass over the piles
    chained (`_chain`), and with a condition on the seat (`… for p in seats where p != dealer`) one pass
    over the piles of the seats that meet it: the same totals as summing each seat's pile, at every
    position of random matches; a shared zone or another list of seats keeps the plain form."""
    from cardspec.lang.checker import compile_expr
    g = load(name, n)
    won = g.zone["won"].index
    pts = g.ns["POINTS"]
    dealer = g.env.names["dealer"].src
    flat = compile_expr("sum(sum(c.points for c in won[p]) for p in seats)", g.env, {}).src
    some = compile_expr("sum(sum(c.points for c in won[p]) for p in seats where p != dealer and p != 1)",
                        g.env, {}).src
    assert "_chain(" in flat and "_chain([" in some and "_NO_ZONE" not in some
    f, f_some = g.comp.function(flat), g.comp.function(some)
    assert "_chain(" not in compile_expr("sum(sum(c.points for c in won[p]) for p in [0, 1])", g.env, {}).src
    for s in _positions(g, seeds=2, cap=400):
        assert f(s) == sum(pts[c] for pile in s.z[won] for c in pile)
        d = eval(dealer, {"s": s})   # (the slot the checker reads: s.v[DEALER])
        assert f_some(s) == sum(pts[c] for p, pile in enumerate(s.z[won]) if p != d and p != 1 for c in pile)


@pytest.mark.parametrize("name", ["sheepshead", "napoleon", "briscola-chiamata", "briscola-bugiarda"])
def test_seats_on_the_declarers_side_are_the_side_found_once(name):
    """`x for p in seats where on_declarer_side(p)` goes through the side's seats found once (the
    declarer and the partner, in seat order): the same seats in the same order as asking every seat,
    at every position of random matches (before the called card is played, after, and with no sides)."""
    from cardspec.lang.checker import compile_expr
    g = load(name)
    side = g.ns["_sides_side"]
    srcs = [compile_expr(t, g.env, {}).src for t in
            ("filter(p in seats where on_declarer_side(p))", "sum(p * 10 + 1 for p in seats where on_declarer_side(p))")]
    assert all("_sides_team(s)" in x and "_sides_side" not in x for x in srcs)
    listed, total = (g.comp.function(x) for x in srcs)
    for s in _positions(g, seeds=2, cap=600):
        plain = [p for p in range(s.n) if side(s, p)]
        assert listed(s) == plain and total(s) == sum(p * 10 + 1 for p in plain)


@pytest.mark.parametrize("name", ["napoleon", "goninkan"])
def test_a_definition_called_by_key_is_inlined_with_the_same_tricks(name, monkeypatch):
    """``key: power(card)`` resolves each trick with ``power``'s body inlined per card
    (compiler.inline_calls): the same winners, logs and scores as calling the definition."""
    import cardspec.engine.steps.tricks.resolution as resolution

    def play(game):
        out = []
        for seed in range(3):
            rng = random.Random(seed)
            s = game.new_state(rng=random.Random(50 + seed))
            while not s.terminal:
                legal = s.legal_actions()
                s.apply(legal[int(rng.random() * len(legal))])
            out.append((s.history, s.log_all(), s.scores()))
        return out

    inlined = play(load(name))
    monkeypatch.setattr(resolution, "inline_calls", lambda src, defs, arg: src)
    plain = play(load(name))   # compiled again, calling the definition
    assert plain == inlined


def test_inline_calls_replaces_one_parameter_definitions_only():
    from cardspec.engine.compiler import inline_calls
    defs = {"_d_power": (("p_c",), "(RANK[p_c] + 1)"), "_d_two": (("p_a", "p_b"), "p_a + p_b"),
            "_d_made": ((), "s.v[3] > 0")}
    src = "_d_power(s, p_card) > 0 and _d_two(s, p_card, 1) and _d_made(s) and '_d_power(s, p_card)'"
    assert inline_calls(src, defs, "p_card") == \
        "((RANK[p_card] + 1)) > 0 and _d_two(s, p_card, 1) and _d_made(s) and '_d_power(s, p_card)'"


def test_any_with_a_table_equal_to_a_value_runs_in_c_with_the_same_truth():
    """``any(h in L where h.suit == c.suit)`` is ``SUIT[c] in map(SUIT, L)`` (checker._where_in): the same
    truth value at every position of random sheepshead matches, for every card; a value that could
    fail or that reads the item keeps the plain generator."""
    from cardspec.lang.checker import compile_expr
    g = load("sheepshead")
    fast = compile_expr("filter(c in deck where any(h in hand[0] where h.suit == c.suit))", g.env, {}).src
    assert " in map(" in fast
    plain = "filter(c in deck where any(h in hand[0] where h.suit == c.suit and h.rank > 1))"
    assert " in map(" not in compile_expr(plain, g.env, {}).src
    for text in ("any(h in hand[0] where h.suit == hand[1][0].suit)",    # could fail on an empty hand
                 "any(h in hand[0] where h.suit == h.suit)"):            # reads the item
        assert " in map(" not in compile_expr(text, g.env, {}).src
    f, p = g.comp.function(fast), g.comp.function(compile_expr(plain, g.env, {}).src)
    seen = 0
    for s in _positions(g, seeds=2, cap=300):
        assert f(s) == p(s)
        seen += 1
    assert seen > 0


@pytest.mark.parametrize("text,shortcut", [("card != called", " in c1:"), ("card == called", ".count(")])
def test_a_play_rule_naming_one_card_of_a_slot_filters_as_the_plain_comprehension(text, shortcut):
    """``play: card != called`` passes over the cards only when the list holds the called card, and
    ``card == called`` counts its copies in C (checker.filter_lines): the same lists as the plain
    comprehension, for a called card held, not held, held twice, or none (-1)."""
    from cardspec.lang import CARD
    g = load("sheepshead")
    lines = g.comp.filter_lines(text, ("test",), (("card", CARD),), "card", "c1")
    assert any(shortcut in ln for ln in lines), lines
    src = ["c1 = list(p_cards)"] + lines + ["return c1"]
    f = g.comp.function("", (("cards", "list"),), statements=src)
    slot = g.var["called"].index
    rng = random.Random(5)
    for _ in range(300):
        s = g.new_state(seed=rng.randrange(1000))
        cards = rng.sample(range(32), rng.randrange(0, 9))
        called = rng.choice(cards + [-1, 7] if cards else [-1, 7])
        if cards and rng.random() < 0.2:
            cards.append(called)   # a face held twice (a two-deck game)
        s.v[slot] = called
        plain = [c for c in cards if (c != called if "!=" in text else c == called)]
        assert f(s, cards) == plain


def test_a_definition_whose_values_are_kept_is_called_not_inlined(tmp_path):
    """``key:`` calling a definition of the card alone that costs enough to keep its values by argument
    (game._memoized) stays a call to the kept values instead of being inlined; the tricks are the same."""
    L = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]"
    p = tmp_path / "v.yaml"
    p.write_text("extends: napoleon\nname: memo-key\ndefine:\n"
                 f"  \"weight(c: card)\": sum(sum(x * y for y in {L}) * c.rank for x in {L})"
                 " + (if c.suit == spades then 1 else 0)\n"
                 "deal:\n  - id: play\n    tricks:\n      wins: true\n      key: weight(card)\n")
    game = load(str(p))
    assert hasattr(game.ns["_d_weight"], "__wrapped__")   # kept by argument
    step = next(st for st in game.steps if isinstance(st, Tricks))
    assert "_d_weight" in step._play_card.__code__.co_names   # called, not inlined
    rng = random.Random(3)
    s = game.new_state(seed=3)
    while not s.terminal and not isinstance(s.current_step(), Tricks):
        legal = s.legal_actions()
        s.apply(legal[1] if legal[0] == "pass" and len(legal) > 1 and rng.random() < 0.5 else legal[0])
    for _ in range(game.n):   # a whole trick: the highest weight (rank, then spades) wins
        s.apply(s.legal_actions()[0])
    trick = [e for e in s.log_all() if e["type"] == "trick"][0]
    d = game.deck
    weight = {c: 6084 * d.rank[d.face(c)] + (d.suit[d.face(c)] == d.suits.index("S")) for _, c in trick["cards"]}
    assert trick["winner"] == max(trick["cards"], key=lambda sc: weight[sc[1]])[0]


@pytest.mark.parametrize("text", ["card != JK or trick_number > 1", "card.points > 0", "not (card.points > 0)",
                                  "card.suit == hearts or card == JK"])
def test_a_tabulated_card_condition_narrows_by_filter_with_the_same_cards(text):
    """A play/lead condition that is a table of the card (alone, or the card-dependent part of an `or`
    with a guard) narrows the list by `filter()` with the table's look-up: the same cards in the same
    order as the comprehension, for every list of cards tried (goninkan's first-trick joker rule)."""
    from cardspec.lang import CARD
    g = load("goninkan")
    lines = g.comp.filter_lines(text, ("test",), [("card", CARD)], "card", "c1")
    src = "\n".join(lines)
    if text in ("card != JK or trick_number > 1", "card.points > 0"):
        assert "list(filter(" in src
    f = g.comp.function("", (("cards", CARD),), statements=["c1 = list(p_cards)"] + lines + ["return c1"])
    plain = g.comp.expr(text, ("test",), (("card", CARD),))
    rng = random.Random(3)
    for s in _positions(g, seeds=1, cap=200):
        cards = rng.sample(range(g.deck.n_faces), 12)
        assert f(s, cards) == [c for c in cards if plain(s, c)]


@pytest.mark.parametrize("name,n", [("goninkan", 5), ("goninkan", 6), ("sheepshead", 5), ("hearts", 4)])
def test_a_per_seat_pile_is_indexed_against_the_player_count(name, n):
    """`won[p]` (a per-seat zone) checks its index against the player count, a constant of the game
    (one pile per seat, always), not the list's length read each time: a seat gives its pile, any other
    number the zone of no seat (empty), as before (docs/dsl.md, "Seats out of range")."""
    from cardspec.lang import INT
    g = load(name, n)
    won = g.zone["won"].index
    f = g.comp.expr("count(won[p]) * 100 + sum(c.points for c in won[p])", ("test",), (("p", INT),))
    src = compile_expr_src(g, "count(won[p])", (("p", INT),))
    assert f"0 <= p_p < {n} else _NO_ZONE" in src and "< len(" not in src
    for s in _positions(g, seeds=1, cap=300):
        for p in (-2, -1, 0, n - 1, n, n + 7):
            pile = s.z[won][p] if 0 <= p < n else []
            assert f(s, p) == len(pile) * 100 + sum(g.ns["POINTS"][c] for c in pile)


def compile_expr_src(g, text, params):
    from cardspec.lang import Binding, py_param
    from cardspec.lang.checker import compile_expr
    return compile_expr(text, g.env, {p: Binding(py_param(p), t) for p, t in params}).src


@pytest.mark.parametrize("name,n,counts", [("goninkan", 5, True), ("goninkan", 6, True), ("napoleon", 5, True),
                                           ("sheepshead", 5, False), ("black-lady", 4, False)])
def test_a_table_of_zeros_and_ones_summed_over_a_zone_is_a_count_in_a_set(name, n, counts):
    """`sum(c.points for c in won[p])` with points of 0 and 1 only (goninkan's and napoleon's honours), in a
    deck where no face is held twice, counts the pile's cards in the set of 1s (`len(_SET_POINTS.
    intersection(…))`), over one pile, the piles of every seat and of the seats that meet a condition;
    any other table (sheepshead's 11/10/4/3/2, black lady's 13) keeps the sum. The same values at every
    position of random matches."""
    from cardspec.lang import INT
    g = load(name, n)
    won = g.zone["won"].index
    pts = g.ns["POINTS"]
    texts = {"one": "sum(c.points for c in won[p])",
             "all": "sum(sum(c.points for c in won[q]) for q in seats)",
             "some": "sum(sum(c.points for c in won[q]) for q in seats where q != p)"}
    srcs = {k: compile_expr_src(g, t, (("p", INT),)) for k, t in texts.items()}
    assert all(("intersection(" in x) == counts for x in srcs.values()), srcs
    fs = {k: g.comp.function(x, (("p", INT),)) for k, x in srcs.items()}
    for s in _positions(g, seeds=2, cap=400):
        for p in (0, n - 1, -1):
            piles = s.z[won]
            assert fs["one"](s, p) == (sum(pts[c] for c in piles[p]) if 0 <= p < n else 0)
            assert fs["all"](s, p) == sum(pts[c] for pile in piles for c in pile)
            assert fs["some"](s, p) == sum(pts[c] for q, pile in enumerate(piles) if q != p for c in pile)


def test_a_table_of_zeros_and_ones_is_summed_when_the_deck_holds_a_face_twice():
    """Two decks shuffled together (burraco: copies 2, jokers) may put the same face twice in a pile: a
    count in a set would count it once, so the sum stays."""
    g = load("burraco")
    g.ns["ONES"] = tuple(1 if f % 2 else 0 for f in range(g.deck.n_faces)) + (0,)
    from cardspec.lang.builtins import _counted

    class C:
        env = g.env
    assert _counted(C, "sum(map(ONES.__getitem__, s.z[0]))") == "sum(map(ONES.__getitem__, s.z[0]))"


def test_an_exempt_part_that_does_not_read_the_card_is_tested_once_with_the_same_cards(monkeypatch):
    """wizard.md, Play: ``exempt: card == WZ or card == NR or wizard_first``: the term that does not read the
    card (a Wizard led) is tested once per listing, the whole hand when it holds (``Compiler.or_split``),
    instead of once per card: the same legal cards at every decision of whole matches, and the same
    matches, as the game compiled with the condition tested per card."""
    from cardspec.engine.compiler import Compiler

    def play(game):
        out = []
        for seed in range(4):
            rng = random.Random(seed)
            s = game.new_state(rng=random.Random(70 + seed))
            while not s.terminal:
                legal = s.legal_actions()
                step = s.current_step()
                if isinstance(step, Tricks):
                    assert step.legal_sorted(s) == sorted(set(step._legal(s)), key=game.deck.sort_key.__getitem__)
                out.append(tuple(legal))
                s.apply(legal[int(rng.random() * len(legal))])
            out.append((tuple(s.history), str(s.log_all()), tuple(s.scores())))
        return out

    fast = load("wizard", 4)
    assert any(getattr(st, "exempt_split", None) for st in fast.steps), "nothing split: the test tests nothing"
    split = play(fast)
    monkeypatch.setattr(Compiler, "or_split", lambda self, text, params, var: None)
    plain = load("wizard", 4)
    assert not any(getattr(st, "exempt_split", None) for st in plain.steps)
    assert play(plain) == split


def test_a_left_play_order_is_made_once_per_seat_sitting_out():
    """A game where a seat may sit out (euchre.md, going alone) and play goes left asks for the play order at
    every step entered: kept per seat sitting out (``Game.order_table``), the same table as made afresh."""
    from cardspec.engine.slots import SITS_OUT
    g = load("euchre")
    s = g.new_state(seed=1)
    for out in (-1, 0, 1, 2, 3, -1, 2):
        s.v[SITS_OUT] = out
        plain = [(seat + 1) % g.n for seat in range(g.n)]
        if out >= 0:
            plain = [plain[out] if nxt == out and seat != out else nxt for seat, nxt in enumerate(plain)]
        assert g.order_table(s) == tuple(plain)
        assert g.order_table(s) is g.order_table(s)


def test_team_totals_read_the_fixed_partnerships_as_groups_does():
    """A ``by: team`` counter read by generated code (``_team_totals``) sums the fixed partnerships
    without asking ``groups``: the same totals as ``totals`` by the groups, on random rows."""
    from cardspec.engine import teams
    for name, n in (("euchre", 4), ("bridge", 4)):
        g = load(name, n)
        s = g.new_state(seed=2)
        rng = random.Random(n)
        for _ in range(50):
            row = [rng.randrange(-20, 20) for _ in range(n)]
            plain = list(row)
            for grp in teams.groups(s, "team"):
                for i in grp:
                    plain[i] = sum(row[j] for j in grp)
            assert teams.team_totals(s, row) == plain == teams.totals(s, row, "team")


@pytest.mark.parametrize("name,n", [("black-lady", 3), ("black-lady", 4), ("cancellation-black-lady-8-widow", 8)])
def test_the_texts_of_passes_are_each_moves_codes(name, n):
    """A pass of several cards lists every set of the hand (680 of three from seventeen) with its text: for
    two, three or four cards each text is one f-string of the unpacked move, the same text as ``pass`` and
    the cards' codes joined."""
    import itertools
    from cardspec.engine.steps.passing import Pass
    g = load(name, n)
    code = g.deck.code
    seen = 0
    for s in _positions(g, seeds=2, cap=400):
        step = s.current_step()
        if not isinstance(step, Pass) or step.single:   # (one card at a time: the card's own text)
            continue
        moves = step.legal(s)
        plain = ["pass " + " ".join([code[c] for c in m]) for m in moves]
        assert step.texts(s, moves) == plain
        mixed = moves[:3] + [m[:1] for m in moves[:2]]   # moves of two sizes (one card at a time)
        hand = sorted(s.z[step.zone][s.v[TO_ACT]], key=g.deck.sort_key.__getitem__)
        for other in [mixed] + [list(itertools.combinations(hand, k))[:40] for k in (1, 2, 3, 4, 5)]:
            assert step.texts(s, other) == ["pass " + " ".join([code[c] for c in m]) for m in other]
        seen += 1
    assert seen > 0
