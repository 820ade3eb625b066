"""The fixed integer action space and small choices (issue 21, items 1 and 2; docs/actions.md).

Every built-in ruleset gets an ``ActionCodec``; random small choices never reach a dead end, ids
round-trip through encode/decode, ``mask`` agrees with ``legal_action_ids`` and the space's size does
not change during a match. Compound actions made one small choice at a time are the same actions as
typed whole (history and log show the compound text).
"""
from __future__ import annotations

import random

import pytest

import cardspec
from cardspec import IllegalAction
from cardspec.rl.actions import DONE_WORD, ActionCodec, codec
from cardspec.rules import builtin_names

#: most small choices listed at once, over every built-in (issue 21: "at most a few hundred")
FEW_HUNDRED = 300


def _random_small_choices(game, seed, max_choices=600):
    """Play random small choices; check the codec's contract at every one. Returns the state."""
    c = game.actions
    rng = random.Random(seed)
    s = game.new_state(seed=seed)
    for _ in range(max_choices):
        if s.terminal:
            break
        ids = s.legal_action_ids()
        assert ids, f"dead end: seat {s.to_act} has no small choice after '{s.choosing}'"
        assert ids == sorted(set(ids)) and len(ids) <= FEW_HUNDRED
        m = c.mask(s)
        assert len(m) == c.n and sum(m) == len(ids) and all(m[i] for i in ids)
        for i in ids:
            assert c.encode(c.decode(i)) == i
        assert [c.decode(i) for i in ids] == sorted(s.legal_choices(), key=c.encode)
        seat = s.to_act
        s.apply_id(ids[int(rng.random() * len(ids))])
        if not s.terminal and s.partial:
            assert s.to_act == seat, "a partial choice keeps the same seat to act"
            assert s.view(seat)["choosing"] == s.choosing
            assert "choosing" not in s.view(None)
            if s.n > 1:
                assert "choosing" not in s.view((seat + 1) % s.n)
    return s


@pytest.mark.parametrize("name", builtin_names())
def test_every_builtin_small_choices_never_dead_end(name):
    """Issue 21 items 1-2: random small choices over every built-in; the space is fixed per game."""
    game = cardspec.load(name)
    n = game.actions.n
    assert isinstance(game.actions, ActionCodec) and codec(game) is game.actions and n > 0
    assert len(set(game.actions.names())) == n
    for seed in (1, 2):
        _random_small_choices(game, seed, 400)
    assert game.actions.n == n


def test_space_is_the_same_for_every_state_and_load():
    """Issue 21 item 2: the space depends on the game (ruleset, players, options), not on the state."""
    a = cardspec.load("hearts").actions
    b = cardspec.load("hearts").actions
    assert a.names() == b.names() and a.n == 104


def test_hearts_ids_are_cards_and_passes():
    """Hearts: ``pass C`` per card (one card a choice, as OpenSpiel's Hearts) and one id per card played."""
    c = cardspec.load("hearts").actions
    assert "pass 2C" in c.names() and "QS" in c.names()
    assert c.decode(c.encode("pass 2C")) == "pass 2C"
    with pytest.raises(ValueError):
        c.encode("pass 2C 3C")
    with pytest.raises(ValueError):
        c.decode(c.n)


def test_compound_pass_one_card_at_a_time_equals_the_whole_pass():
    """Issue 21 item 1: a 3-card pass (black-lady) made card by card is the action ``pass A B C``."""
    g = cardspec.load("black-lady")
    s1, s2 = g.new_state(seed=5), g.new_state(seed=5)
    seat = s1.to_act
    hand = s1.view(seat)["zones"]["hand"][str(seat)]
    picks = [hand[3], hand[0], hand[7]]
    s1.apply_id(g.actions.encode("pass " + picks[0]))
    assert s1.to_act == seat and s1.choosing == "pass " + picks[0]
    assert s1.view(seat)["zones"]["hand"][str(seat)] == hand   # nothing moves until the pass is complete
    s1.apply_id(g.actions.encode(picks[1]))
    with pytest.raises(IllegalAction) as e:
        s1.apply_id(g.actions.encode(picks[1]))                  # already chosen: not offered again
    assert picks[2] in e.value.legal and s1.choosing == f"pass {picks[0]} {picks[1]}"
    s1.apply_id(g.actions.encode(picks[2]))
    s2.apply("pass " + " ".join(picks))
    assert s1.history == s2.history and s1.history[-1].startswith("pass ")
    assert s1.position_key() == s2.position_key() and s1.partial == ()


def test_text_api_keeps_whole_actions():
    """``apply`` takes whole compound actions only (a part of one is illegal, as before); ``choose``
    takes one small choice; a whole action replaces the small choices made so far."""
    g = cardspec.load("black-lady")
    s = g.new_state(seed=2)
    seat = s.to_act
    hand = s.view(seat)["zones"]["hand"][str(seat)]
    with pytest.raises(IllegalAction):
        s.apply("pass " + hand[0])
    s.choose("pass " + hand[0])
    assert s.choosing == "pass " + hand[0]
    s.apply(" ".join(["pass"] + hand[1:4]))     # a whole pass replaces the partial one
    assert s.history[-1] == "pass " + " ".join(hand[1:4]) and s.partial == ()


def test_eleusis_play_is_cards_then_declaration():
    """Eleusis (issue 21): an ordered play of 1-4 cards and its declaration, one small choice each."""
    g = cardspec.load("eleusis-prophets")
    s = g.new_state(seed=3)
    while s.current_step().name != "turns":
        s.apply_id(s.legal_action_ids()[0])
    seat = s.to_act
    first = s.legal_choices()
    assert all(t.startswith("play ") or t == "prophet" for t in first)
    hand = s.view(seat)["zones"]["hand"][str(seat)]
    s.choose("play " + hand[2])
    nxt = s.legal_choices()
    assert "success" in nxt and "failure" in nxt and hand[0] in nxt and hand[2] not in nxt
    s.choose(hand[0])
    s.choose("failure")
    assert s.history[-1] == f"play {hand[2]} {hand[0]} failure"


def test_illegal_id_names_the_legal_choices_and_leaves_state_unchanged():
    g = cardspec.load("black-lady")
    s = g.new_state(seed=1)
    key = s.position_key()
    with pytest.raises(IllegalAction) as e:
        s.apply_id(g.actions.encode("QS") if "QS" in g.actions.names() else 0)
    assert e.value.legal and s.position_key() == key
    with pytest.raises(IllegalAction):
        s.apply_id(-1)
    assert s.position_key() == key


def test_done_ends_a_list_that_could_go_on():
    """Burraco: a meld of 3+ cards ends with ``done`` when it could take more cards."""
    g = cardspec.load("burraco")
    assert DONE_WORD in g.actions.names()
    for seed in range(30):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if s.terminal:
                break
            ch = s.legal_choices()
            if s.partial and DONE_WORD in ch:
                before = len(s.history)
                s.choose(DONE_WORD)
                assert len(s.history) == before + 1 or s.partial   # completed an action (or a list)
                return
            s.choose(ch[int(rng.random() * len(ch))])
    pytest.fail("no meld offered done in 30 random deals")


@pytest.mark.parametrize("name,players", [("hearts", 4), ("black-lady", 3), ("oh-hell", 5), ("sheepshead", 5),
                                          ("burraco", 4), ("cancellation-black-lady", 6)])
def test_ids_and_texts_mix_and_the_returned_list_is_the_callers(name, players):
    """docs/actions.md: ``legal_action_ids()`` is a new sorted list each call (the caller may change it);
    the id and text APIs may be mixed in any order at any decision, with the same game as ids alone. (A
    text action right after ``legal_action_ids()`` raised AttributeError before.)"""
    g = cardspec.load(name, players)
    for seed in (3, 4):
        ref = g.new_state(seed=seed)
        mixed = g.new_state(seed=seed)
        rng = random.Random(seed)
        for k in range(300):
            if ref.terminal:
                break
            ids = ref.legal_action_ids()
            i = ids[int(rng.random() * len(ids))]
            ref.apply_id(i)
            got = mixed.legal_action_ids()
            assert got == ids
            got.clear()   # the caller's list: changing it changes nothing in the state
            got.append(-5)
            assert mixed.legal_action_ids() == ids
            way = k % 4
            if way == 0:
                mixed.apply_id(i)
            elif way == 1 or mixed.current_step().compound:   # a text small choice after listing ids
                mixed.choose(g.actions.decode(i))
            elif way == 2:
                mixed.legal_actions()
                mixed.apply_id(i)
            else:
                mixed.apply(g.actions.decode(i))
            with pytest.raises(IllegalAction):   # the list handed out is no longer what apply_id checks
                mixed.apply_id(-5)
            assert mixed.history == ref.history and mixed.choosing == ref.choosing
        assert mixed.position_key() == ref.position_key()


def test_generated_id_methods_answer_as_states_own():
    """A game's states with generated ``legal_action_ids``/``apply_id`` (``fused_state_class``) answer
    every id — legal, illegal, out of range, of another type — exactly as ``State``'s own methods."""
    from cardspec.engine.state import State
    game = cardspec.load("hearts", 4, options={"deals": 1})
    game.actions
    assert type(game.new_state(seed=1)) is not State
    rng = random.Random(5)
    for seed in range(3):
        fused, plain = game.new_state(seed=seed), State(game, seed=seed)
        while not fused.terminal:
            ids = fused.legal_action_ids()
            assert ids == plain.legal_action_ids() and ids is not fused.legal_action_ids()
            for odd in (max(ids) + 1, -1, game.actions.n, True, 1.0, [ids[0]], str(ids[0]), None):
                outcome = []
                for s in (fused, plain):
                    c = s.clone()
                    c.legal_action_ids()   # (the generated method's hot cache: its own checks answer)
                    try:
                        c.apply_id(odd)
                        outcome.append(("ok", c.history[-1:], c.legal_action_ids()))
                    except Exception as e:  # noqa: BLE001 - the same exception, the same words
                        outcome.append((type(e).__name__, str(e)))
                assert outcome[0] == outcome[1], odd
            i = ids[int(rng.random() * len(ids))]
            fused.apply_id(i)
            plain.apply_id(i)
            assert fused.history == plain.history and fused.scores() == plain.scores()
        assert plain.terminal


@pytest.mark.parametrize("name", ["hearts", "napoleon", "sheepshead", "auction-pitch", "briscola-bugiarda"])
# (napoleon: a trick step with choose:, a joker led names a suit; goninkan's tricks step has a window, whose
# states keep State's own methods: tests/test_windows.py)
def test_generated_text_methods_answer_as_states_own(name):
    """A game's states with generated ``legal_actions``/``apply`` (``text_state_class``: the trick step's
    listing and play inside the API method) answer every action — listed, another spelling, illegal, not a
    card, given with the wrong or the right seat, after the ids API — exactly as ``State``'s own methods:
    the same lists, the same exceptions and words, the state unchanged after a refusal, the same games."""
    from cardspec.engine.state import State
    game = cardspec.load(name)
    assert type(game.new_state(seed=1)) is not State
    rng = random.Random(7)
    for seed in range(2):
        fused, plain = game.new_state(seed=seed), State(game, seed=seed)
        while not fused.terminal:
            legal = fused.legal_actions()
            assert legal == plain.legal_actions() and legal is not fused.legal_actions()
            seat = fused.to_act
            for odd in (legal[0].lower(), "XX", "2C", "bid 99", "", legal[-1] + " " + legal[0], 3):
                outcome = []
                for s in (fused, plain):
                    c = s.clone()
                    c.legal_actions()
                    try:
                        c.apply(odd)
                        outcome.append(("ok", c.history, c.to_act))
                    except Exception as e:  # noqa: BLE001 - the same exception, the same words
                        outcome.append((type(e).__name__, str(e), c.history == s.history))
                assert outcome[0] == outcome[1], odd
            a = legal[int(rng.random() * len(legal))]
            how = rng.random()
            for s in (fused, plain):
                if how < 0.2:
                    s.apply(a, seat=seat)                       # the right seat given
                elif how < 0.3:
                    s.legal_action_ids()                        # the ids API's cache, then a text
                    s.apply(a)
                else:
                    s.apply(a)
            assert fused.history == plain.history and fused.scores() == plain.scores()
        assert plain.terminal and fused.log_all() == plain.log_all()
