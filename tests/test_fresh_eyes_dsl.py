"""Regressions a new ruleset author found in the expression compiler and the fast playout (third session).

Each test is one reported fault, kept as its author wrote the variant (docs/dsl.md, docs/rulesets.md).
"""
from __future__ import annotations

import random

import cardspec


def _load(tmp_path, text, players=4, name="v.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return cardspec.load(str(path), players)


def test_inlined_definition_substitutes_each_argument_once(tmp_path):
    """docs/dsl.md `define:`: `minus_one(b): diff(b, 1)` with `diff(a, b): a - b` is b - 1 (an argument
    spelling another parameter's name was substituted twice: every seat scored 0 instead of seat + 9)."""
    g = _load(tmp_path, """
extends: black-lady
name: coll2
options:
  deals: {default: 1}
define:
  diff(a, b): a - b
  minus_one(b): diff(b, 1)
  twice_minus(a, b): a - 2 * b
  swapped(a, b): twice_minus(b, a)
deal:
  - id: bonuses
    score: {counter: points, value: "minus_one(seat + 10) + 0 * swapped(seat, 1)", add_to: score}
""")
    s = g.new_state(seed=1)
    s.random_playout(random.Random(1))
    assert s.scores() == {"0": 9, "1": 10, "2": 11, "3": 12}
    from cardspec.lang import compile_expr
    f = g.comp.function(compile_expr("swapped(1, 0)", g.env, {}).src)
    assert f(s) == 0 - 2 * 1


def test_quiet_playout_keeps_to_act_current_for_definitions(tmp_path):
    """docs/dsl.md `to_act`: an after_play effect reading to_act through a definition sees the seat that
    just played, in the quiet playout (simulate, searches) as in the logged one."""
    g = _load(tmp_path, """
extends: black-lady
name: toact
counters:
  tally: {per: match}
define:
  ta: max(to_act + 0 * c.rank for c in deck)
deal:
  - id: play
    tricks:
      after_play:
        - add: {counter: tally, value: ta, seat: seat}
""")
    tally = g.counter["tally"].index
    for seed in range(4):
        a = g.new_state(seed=seed)
        b = g.new_state(seed=seed, record=False)
        a.random_playout(random.Random(seed))
        b.random_playout(random.Random(seed))
        assert a.c[tally] == b.c[tally] and a.scores() == b.scores()


def test_listing_actions_does_not_change_a_later_playout(tmp_path):
    """State.legal_actions() is a query: two equal states, one asked for its actions, play the same
    random playout from the same numbers (it sorted the hand in place, which a playout draws by)."""
    g = _load(tmp_path, """
extends: black-lady
name: fnone
deal:
  - id: play
    tricks: {follow: none}
""", players=5)
    for seed in range(8):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(8):
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
        a, b = s.clone(), s.clone()
        a.legal_actions()
        a.random_playout(random.Random(99))
        b.random_playout(random.Random(99))
        assert a.scores() == b.scores()


def test_negative_index_is_out_of_range():
    """docs/dsl.md, indexing: from 0; out of range gives -1 — a negative index too (it wrapped around)."""
    g = cardspec.load("black-lady", 4)
    from cardspec.lang import compile_expr
    s = g.new_state(seed=1)
    for text, want in (("[1, 2, 3][0 - 1]", -1), ("[1, 2, 3][2]", 3), ("[1, 2, 3][3]", -1)):
        assert g.comp.function(compile_expr(text, g.env, {}).src)(s) == want, text


def test_no_card_has_no_suit_rank_or_points():
    """docs/dsl.md, cards: `top` of an empty zone is no card (-1); its suit is no_suit, rank and points 0
    (it read as the deck's last card: `top(widow).suit == clubs` was true with an empty widow)."""
    g = cardspec.load("black-lady", 4)
    from cardspec.lang import compile_expr
    s = g.new_state(seed=1)
    assert not s.z[g.zone["widow"].index]
    for text, want in (("top(widow).suit == no_suit", True), ("top(widow).rank", 0),
                       ("top(widow).points", 0), ("top(widow).suit == clubs", False)):
        assert g.comp.function(compile_expr(text, g.env, {}).src)(s) == want, text


def test_a_joker_is_not_a_trump_in_a_game_without_trumps(tmp_path):
    """docs/rulesets.md, tricks `wins`: with no trump suit only the led suit wins; a joker (no suit) is
    a discard, not a trump (the default `wins` matched no_suit == no_suit)."""
    g = _load(tmp_path, """
extends: black-lady
name: jk
deck: {jokers: 1}
""")
    joker = g.deck.joker_face
    for seed in range(40):
        s = g.new_state(seed=seed)
        s.random_playout(random.Random(seed))
        for ev in s.log_all():
            if ev["type"] == "trick":
                cards = dict((seat, code) for seat, code in ev["cards"])
                assert cards[ev["winner"]] != g.deck.code[joker] or ev["cards"][0][1] == g.deck.code[joker]
