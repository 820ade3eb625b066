"""The expression language (docs/dsl.md): a table of expressions with their values and types,
evaluated on a real game state (Black Lady, 4 players, seed 1, at the pass), and load-time errors.

Source of the semantics: issue 2 ("The expression language") and docs/dsl.md.
"""
from __future__ import annotations

import pytest

import cardspec
from cardspec.lang import DslError, compile_expr

GAME = cardspec.load("black-lady", players=4)
STATE = GAME.new_state(seed=1)
HAND0 = STATE.z[GAME.zone["hand"].index][0]
CODE = GAME.deck.code


def ev(text, params=(), args=()):
    """(value, type) of ``text`` in GAME, evaluated on STATE with context ``params`` bound to ``args``."""
    from cardspec.lang import Binding
    pmap = {name: Binding(f"p_{name}", t) for name, t in params}
    code = compile_expr(text, GAME.env, pmap)
    f = GAME.comp.function(code.src, params)
    return f(STATE, *args), code.type


TABLE = [
    # arithmetic: / is whole-number division (rounds down), % the remainder; dividing by 0 gives 0
    ("1 + 2 * 3", 7, "int"),
    ("(1 + 2) * 3", 9, "int"),
    ("7 / 2", 3, "int"),
    ("-7 / 2", -4, "int"),
    ("7 % 3", 1, "int"),
    ("-1 % 4", 3, "int"),
    ("5 / 0", 0, "int"),
    ("5 % 0", 0, "int"),
    ("-(3 - 5)", 2, "int"),
    ("abs(2 - 9)", 7, "int"),
    # comparisons and logic
    ("3 < 4", True, "bool"),
    ("3 >= 4", False, "bool"),
    ("2 == 2 and 3 != 3", False, "bool"),
    ("false or not false", True, "bool"),
    ("not 1 == 2", True, "bool"),
    ("if 1 > 2 then 10 else 20", 20, "int"),
    ("if true then hearts else spades", 1, "suit"),
    # card, suit and rank literals
    ("QS.rank", 12, "int"),
    ("10H.rank", 10, "int"),
    ("TH == 10H", True, "bool"),
    ("QS.suit == spades", True, "bool"),
    ("QS.points", 13, "int"),
    ("AH.points", 1, "int"),
    ("2C.points", 0, "int"),
    ("KD.color == red", True, "bool"),
    ("clubs.color == black", True, "bool"),
    ("A", 14, "int"),
    ("K > Q and Q > J", True, "bool"),
    ("QS.code", "QS", "str"),
    ("QS in [QS, KH]", True, "bool"),
    ("2C not in [QS, KH]", True, "bool"),
    # collections
    ("count(deck)", 52, "int"),
    ("sum(c.points for c in deck)", 26, "int"),
    ("count(c in deck where c.suit == hearts)", 13, "int"),
    ("max(c.rank for c in deck)", 14, "int"),
    ("min(c.rank for c in deck)", 2, "int"),
    ("max(3, 9, 4)", 9, "int"),
    ("min(3, 9, 4)", 3, "int"),
    ("sum([1, 2, 3])", 6, "int"),
    ("max([] )", 0, "int"),
    ("any(c in deck where c == QS)", True, "bool"),
    ("all(c in deck where c.points > 0)", False, "bool"),
    ("count(filter(c in deck where c.rank == A))", 4, "int"),
    ("sort([3, 1, 2])[0]", 1, "int"),
    ("sort(x in [3, 1, 2] by 0 - x)[0]", 3, "int"),
    ("[5, 6, 7][1]", 6, "int"),
    ("[5, 6, 7][9]", -1, "int"),
    ("count(distinct([2, 2, 3]))", 2, "int"),
    # without: a multiset difference (issue 20 item 9: what a meld leaves in a two-deck hand)
    ("count(without([2, 3, 2, 4], [2, 4]))", 2, "int"),
    ("without([2, 3, 2, 4], [2, 4])[1]", 2, "int"),
    ("count(without(hand[0], hand[0]))", 0, "int"),
    ("top([4, 5, 6])", 6, "int"),
    ("count(hand[0])", 13, "int"),
    ("count(widow)", 0, "int"),
    ("holder(hand, QS) >= 0", True, "bool"),
    ("count(s in seats where count(hand[s]) == 13)", 4, "int"),
    # seats (4 players, dealer 0): seat i+1 is at seat i's left
    ("left_of(0)", 1, "int"),
    ("right_of(0)", 3, "int"),
    ("partner_of(1)", 3, "int"),
    ("seat_at(6)", 2, "int"),
    ("players", 4, "int"),
    ("dealer", 0, "int"),
    ("deal_number", 1, "int"),
    ("count(seats)", 4, "int"),
    # options (declared defaults), counters, definitions with parameters
    ("pass_count", 3, "int"),
    ("pass_to == \"right\"", True, "bool"),
    ("moon", False, "bool"),
    ("score[2]", 0, "int"),
    ("penalty_total", 26, "int"),
    ("pass_target(0)", 3, "int"),
    ("taken(1)", 0, "int"),
    ("led_suit == no_suit", True, "bool"),
]


@pytest.mark.parametrize("text,value,type_", TABLE, ids=[t[0] for t in TABLE])
def test_expression_value_and_type(text, value, type_):
    got, t = ev(text)
    assert t == type_
    if isinstance(got, range):
        got = list(got)
    assert got == value


def test_values_that_depend_on_the_deal():
    """Computed directly from the state, not hard-coded."""
    assert ev("count(c in hand[0] where c.suit == hearts)")[0] == sum(1 for c in HAND0 if CODE[c].endswith("H"))
    assert ev("holder(hand, QS)")[0] == next(i for i, h in enumerate(STATE.z[GAME.zone["hand"].index])
                                             if GAME.deck.face("QS") in h)
    srt = ev("sort(hand[0])")[0]
    assert [CODE[c] for c in srt] == [CODE[c] for c in GAME.deck.sorted(HAND0)]
    assert ev("max(c.rank for c in hand[0] where c.suit == spades)")[0] == max(
        (GAME.deck.rank[c] for c in HAND0 if CODE[c].endswith("S")), default=0)


def test_context_parameters():
    card = GAME.deck.face("QS")
    assert ev("card.points + seat", (("card", "card"), ("seat", "int")), (card, 2)) == (15, "int")


ERRORS = [
    ("card.rnak", "a card has no 'rnak'", "did you mean 'rank'?"),
    ("trmup", "unknown name 'trmup'", "did you mean 'trump'?"),
    ("card.suit = hearts", "unexpected character '='", "=="),
    ("count(hand[0]", "missing ')'", ""),
    ("card == hearts", "cannot compare card with suit", "card.suit"),
    ("card == 1X", "'1X' is not a card", ""),
    ("1 + true", "expected int, found bool", ""),
    ("if 1 then 2 else 3", "expected bool, found int", ""),
    ("if true then 1 else QS", "'then' gives int but 'else' gives card", ""),
    ("cuont(deck)", "unknown function 'cuont'", "did you mean 'count'?"),
    ("left_of(1, 2)", "takes 1 argument(s), given 2", ""),
    ("taken(1, 2)", "'taken' takes 1 argument(s), given 2", ""),
    ("taken", "'taken' takes 1 argument(s)", ""),
    ("count", "'count' is a function", ""),
    ("card in 3", "'in' needs a list or zone", ""),
    ("sum(c for c in deck)", "sum adds up numbers, found card", ""),
    ("[1, QS]", "a list holds one type", ""),
    ("without([1, 2], [QS])", "without needs a list of the same items", ""),
    ("without(3, [1])", "without needs a zone or list", ""),
    ("3 && 4", "unexpected character '&'", "write 'and'"),
    ("", "the expression is empty", ""),
    ("9Z", "'9Z' is not a card", ""),
    ("1 +" * 2000 + "1", "longer than", ""),
    ("not " * 100 + "true", "levels of operations", ""),
    ("(" * 50 + "1" + ")" * 50, "nested more than", ""),
]


@pytest.mark.parametrize("text,message,hint", ERRORS, ids=[e[0][:30] for e in ERRORS])
def test_load_time_errors(text, message, hint):
    with pytest.raises(DslError) as info:
        ev(text, (("card", "card"),), (0,))
    assert message in info.value.message
    assert hint in info.value.hint
    assert info.value.line >= 1 and info.value.col >= 1


def test_error_column_points_at_the_name():
    with pytest.raises(DslError) as info:
        ev("count(hand[0]) + trmup")
    assert (info.value.line, info.value.col) == (1, 18)


def _src(game, text, params=()):
    from cardspec.lang import Binding
    pmap = {name: Binding(f"p_{name}", t) for name, t in params}
    return compile_expr(text, game.env, pmap).src


def test_a_game_without_a_trump_step_folds_trump_away():
    """docs/dsl.md, `trump`: only a `trump` step sets it, so without one it is no_suit all match: the
    default trick `wins` (`card.suit == led_suit or (trump != no_suit and card.suit == trump)`) and `key`
    lose their trump parts at load; a game with a trump step still reads the slot."""
    card = (("card", "card"),)
    assert _src(GAME, "trump != no_suit") == "False"
    assert _src(GAME, "card.suit == led_suit or (trump != no_suit and card.suit == trump)", card) \
        == "(SUIT[p_card] == s.v[5])"
    assert _src(GAME, "card.rank + (if trump != no_suit and card.suit == trump then 1000 else 0)", card) \
        == "RANK[p_card]"
    assert ev("trump == no_suit") == (True, "bool")
    assert ev("card.suit == trump", card, (GAME.deck.face("QS"),)) == (False, "bool")
    oh = cardspec.load("oh-hell", players=4)
    assert "s.v[" in _src(oh, "card.suit == trump", card)


def test_a_joker_and_no_card_have_no_suit():
    """docs/dsl.md, cards: a joker's suit is no_suit, and so is "no card" (-1, e.g. `top` of an empty
    pile): `card.suit == no_suit` is a real test, true for those and false for every suited card."""
    card = (("card", "card"),)
    f = GAME.comp.function(_src(GAME, "card.suit == no_suit", card), card)
    assert f(None, -1) is True and f(None, GAME.deck.face("QS")) is False
    burraco = cardspec.load("burraco", players=4)
    f = burraco.comp.function(_src(burraco, "card.suit == no_suit", card), card)
    assert f(None, burraco.deck.joker_face) is True
    assert f(None, burraco.deck.face("QS")) is False


INLINE_VARIANT = """
extends: black-lady
name: inline-check
define:
  "higher_in_hand(x: card)": count(c in hand[0] where c.rank > x.rank)
  twice(n): n + n
  nth_pass(k): "[1, -1, 2, 0][(deal_number - 1 + k) % 4]"
"""


def test_definitions_inline_without_capturing_names(tmp_path):
    """docs/dsl.md, `define:`: a definition is a pure expression; a small one is inlined where it is used
    (no call), one with its own comprehension stays a call, so an argument's names are never captured by
    the body's. Values are the same either way (computed here from the hand directly)."""
    path = tmp_path / "v.yaml"
    path.write_text(INLINE_VARIANT)
    game = cardspec.load(str(path), 4)
    s = game.new_state(seed=3)
    hand = s.z[game.zone["hand"].index][0]
    rank = game.deck.rank
    card = (("card", "card"),)
    src = _src(game, "count(c in hand[0] where higher_in_hand(c) > 2)")
    assert "_d_higher_in_hand" in src                         # has a comprehension: called
    f = game.comp.function(src)
    assert f(s) == sum(1 for c in hand if sum(1 for d in hand if rank[d] > rank[c]) > 2)
    src = _src(game, "twice(card.rank)", card)
    assert "_d_twice" not in src                              # small and binder-free: inlined
    assert game.comp.function(src, card)(s, hand[0]) == 2 * rank[hand[0]]
    # x % 4 is 0..3, so indexing a 4-item constant list needs no range check (plain indexing).
    src = _src(game, "nth_pass(1)")
    assert "_at(" not in src
    assert game.comp.function(src)(s) == [1, -1, 2, 0][(1 - 1 + 1) % 4]
    assert "_at(" in _src(game, "[1, -1, 2, 0][deal_number]")   # unknown range: checked


@pytest.mark.parametrize("text", [
    "card.suit == hearts or card == QS",
    "card.points > 0",
    "card.rank * 2 + (if card.suit == spades then 100 else 0)",
    "card.suit != hearts and card.rank >= 10",
    "card.color == red",
])
def test_card_only_conditions_become_tables(text):
    """DESIGN.md "Speed" (precomputed tables): an expression of one card and constants is computed for every
    face once, at load, and read from a table during play; the table answers what the expression answers
    for every face and for -1 ("no card")."""
    card = (("card", "card"),)
    src = _src(GAME, text, card)
    assert src.startswith("_T") and src.endswith("[p_card]")
    f = GAME.comp.function(src, card)
    deck = GAME.deck
    for face in list(range(len(deck.suit))) + [-1]:
        # the same expression without tables: evaluated on the face's attributes directly
        ns = GAME.ns
        suit, rank, pts, code = ns["SUIT"][face], ns["RANK"][face], ns["POINTS"][face], deck.code[face]
        want = {
            "card.suit == hearts or card == QS": suit == deck.suit_index("H") or (face != -1 and code == "QS"),
            "card.points > 0": pts > 0,
            "card.rank * 2 + (if card.suit == spades then 100 else 0)":
                rank * 2 + (100 if suit == deck.suit_index("S") else 0),
            "card.suit != hearts and card.rank >= 10": suit != deck.suit_index("H") and rank >= 10,
            "card.color == red": ns["COLOR"][face] == ns["COLOR"][deck.face("AH")],
        }[text]
        assert f(STATE, face) == want, (text, face)


def test_a_table_true_for_one_card_filters_by_counting_it():
    """A restriction naming one card (`card == 2C`, or a condition only one face meets) keeps that card's
    copies, counted in C: no per-card test (hearts: the 2 of clubs leads)."""
    from cardspec.lang.types import Binding
    from cardspec.lang.syntax import parse
    from cardspec.lang.checker import _Compiler
    params = {"card": Binding("p_card", "card")}
    for text in ("card == 2C", "card.suit == clubs and card.rank == 2"):
        lines = _Compiler(GAME.env, params).filter_lines(parse(text), "p_card", "c1")
        two = GAME.deck.face("2C")
        assert lines == [f"c1 = [{two}] * c1.count({two})"], (text, lines)


def test_all_any_count_over_a_card_condition_run_on_its_table():
    """docs/dsl.md, `all`/`any`/`count`: with a condition of the card alone (a table), they read the
    table over the list in C; the answers are the plain ones, computed here from the hand."""
    hearts = GAME.deck.suit_index("H")
    suits = [GAME.ns["SUIT"][c] for c in HAND0]
    for text, want in (("count(c in hand[0] where c.suit == hearts)", suits.count(hearts)),
                       ("all(c in hand[0] where c.suit == hearts)", all(x == hearts for x in suits)),
                       ("any(c in hand[0] where c.suit == hearts)", any(x == hearts for x in suits)),
                       ("all(c in hand[0] where c.suit != hearts or c.rank > 1)", True)):
        src = _src(GAME, text)
        assert "map(_T" in src, (text, src)
        assert GAME.comp.function(src)(STATE) == want, text
