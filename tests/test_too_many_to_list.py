"""Decisions with too many legal actions to list (docs/actions.md and docs/protocol.md, "Too many to list").

Reproduction (the previous session's note, "Noticed"): in Eleusis a seat's hand grows with every wrong
declaration; a play of one to four ordered cards from ~33 cards takes more than the server's 5 s call
budget to list, and past ~39 cards (over 2,000,000 actions, MAX_LISTED) ``legal_actions()`` stopped the
game with a ruleset error — although the position is legal, its small choices are a few dozen and an
action's text is checked without any listing. Now: ``TooManyActions`` (the state usable), the first
actions found through the small choices (``legal_walk``), and a server table that stays open with a
view, pages, random bots and actions that work.

The cap is lowered in most tests (as tests/test_bounds.py does) so a 20-card hand is over it: the same
code path as a 40-card hand, in a fraction of the time.
"""
from __future__ import annotations

import random

import pytest

import cardspec
from cardspec.engine.steps import turns
from cardspec.engine.walk import legal_walk, random_legal_action
from cardspec.errors import IllegalAction, RulesetError, TooManyActions
from cardspec.serve.protocol import Limits, Registry, Session, check_message

SMALL_CAP = 50_000   # a 20-card hand: 164,068 actions


def _long_hand(hand_size=20, seed=1):
    game = cardspec.load("eleusis-prophets", players=4, options={"hand_size": hand_size})
    s = game.new_state(seed=seed)
    s.apply("rule colours_alternate")
    return s


@pytest.fixture
def small_cap(monkeypatch):
    for room in (turns.cards, turns.actions, turns.search, turns.lazy):   # the modules of the turns step that read the cap
        monkeypatch.setattr(room, "MAX_LISTED", SMALL_CAP)


def test_too_many_to_list_is_an_error_that_leaves_the_state_usable(small_cap):
    s = _long_hand()
    before = (list(s.history), s.event_count, s.to_act)
    with pytest.raises(TooManyActions) as info:
        s.legal_actions()
    err = info.value
    assert isinstance(err, RulesetError) and err.code == "ruleset/runtime"
    assert "would list more than" in str(err) and "small choices" in str(err)
    assert (list(s.history), s.event_count, s.to_act) == before
    top = s.legal_choices()
    assert 0 < len(top) <= 40 and all(c.startswith("play ") for c in top)
    with pytest.raises(IllegalAction) as bad:   # an illegal text names the ways to begin, not 164 k actions
        s.apply("play QQ")
    assert bad.value.legal == top and "too many to list" in bad.value.reason
    with pytest.raises(TooManyActions):          # the same again: nothing was cached half-made
        s.legal_actions()
    ids = s.legal_action_ids()
    assert len(ids) == len(top)
    first, _ = legal_walk(s, limit=1)
    s.apply(first[0])                             # an action's text is checked and applied without a listing
    assert s.history[-1] == first[0] and len(s.history) == len(before[0]) + 1


def test_the_walk_gives_legal_actions_one_for_each_way_to_begin_first(small_cap):
    s = _long_hand()
    top = s.legal_choices()
    actions, complete = legal_walk(s, limit=200)
    assert not complete and len(actions) == 200 == len(set(actions))
    assert [" ".join(a.split()[:2]) for a in actions[:len(top)]] == top   # every first card, in order
    for a in actions:
        assert s.parse_action(a) == a             # each one legal (parsed and checked, no listing)
    again, _ = legal_walk(s, limit=200)
    assert again == actions                       # a stable order: pages agree
    page2, _ = legal_walk(s, limit=260)
    assert page2[:200] == actions
    prefix = top[3] + " "
    some, _ = legal_walk(s, prefix=prefix.lower(), limit=50)
    assert len(some) == 50 and all(a.startswith(prefix) for a in some)


def test_a_random_action_is_made_of_random_small_choices(small_cap):
    s = _long_hand()
    made = {random_legal_action(s, random.Random(i)) for i in range(20)}
    assert len(made) > 10
    for a in made:
        assert s.parse_action(a) == a
    assert random_legal_action(s, random.Random(5)) == random_legal_action(s, random.Random(5))


@pytest.mark.parametrize("ruleset,players,options,moves", [
    ("black-lady", 4, {"pass_count": 3}, 0),      # a pass of 3 cards (unordered: each set once)
    ("burraco", 4, {}, 1),                        # a turn after the draw: melds, lay-offs, the discard
    ("eleusis-prophets", 4, {"hand_size": 5}, 1),  # ordered plays and the declaration
    ("hearts", 4, {}, 0),                         # a one-card pass: one chunk per action
])
def test_a_walk_to_the_end_finds_exactly_the_listing(ruleset, players, options, moves):
    """Where the actions can be listed, the walk finds each of them once and nothing else."""
    game = cardspec.load(ruleset, players=players, options=options)
    s = game.new_state(seed=3)
    rng = random.Random(3)
    for _ in range(moves):
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    legal = s.legal_actions()
    found, complete = legal_walk(s, limit=10 ** 6)
    assert complete and len(found) == len(set(found)) and sorted(found) == sorted(legal)
    if len(legal) > 3:
        cut, complete = legal_walk(s, limit=3)
        assert not complete and len(cut) == 3
    word = legal[-1].split()[0]
    found, complete = legal_walk(s, prefix=word.upper(), limit=10 ** 6)
    assert complete and sorted(found) == sorted(a for a in legal if a.lower().startswith(word.lower()))


def test_a_server_table_with_too_many_to_list_stays_open(small_cap):
    """The protocol in one process: the view lists the first actions found through the small choices
    (legal_more, no legal_count), get_legal pages and narrows them (count null), an illegal action's error
    names the ways to begin, a listed action is accepted, and a random bot moves there too."""
    reg = Registry(Limits(max_legal_listed=50))
    c = Session(reg)
    t = c.handle({"type": "create", "ruleset": "eleusis-prophets", "players": 4, "seed": 1,
                  "options": {"hand_size": 20}})[0]
    tid, toks = t["table"], t["tokens"]
    c.handle({"type": "act", "table": tid, "token": toks[str(t["to_act"])], "action": "rule colours_alternate"})
    table = reg.get(tid)
    seat = table.state.to_act
    v = c.handle({"type": "get_view", "table": tid, "token": toks[str(seat)]})[0]
    check_message(v, "server")
    view = v["view"]
    assert view["legal_more"] is True and "legal_count" not in view and len(view["legal_actions"]) == 50
    head, _ = legal_walk(table.state, limit=50)
    assert view["legal_actions"] == head
    page = c.handle({"type": "get_legal", "table": tid, "token": toks[str(seat)], "offset": 50, "limit": 30})[0]
    check_message(page, "server")
    assert page["count"] is None and page["actions"] == legal_walk(table.state, limit=80)[0][50:]
    prefix = " ".join(head[7].split()[:4])   # a play that begins with three given cards
    page = c.handle({"type": "get_legal", "table": tid, "token": toks[str(seat)], "prefix": prefix.lower(),
                     "limit": 500})[0]
    check_message(page, "server")
    assert page["actions"] and all(a.startswith(prefix) for a in page["actions"])
    assert page["count"] == len(page["actions"])   # at most 19 cards then the declaration: all found
    r = c.handle({"type": "act", "table": tid, "token": toks[str(seat)], "action": "play QQ"})[0]
    check_message(r, "server")
    assert r["code"] == "action/illegal" and "legal_count" not in r and r["legal"]
    ok = c.handle({"type": "act", "table": tid, "token": toks[str(seat)], "action": head[-1]})[0]
    assert ok["type"] == "accepted", ok
    assert tid in reg.tables
    from cardspec.players import RandomBot
    move = table.bot_choice(table.state.to_act, RandomBot(seed=4))
    assert table.state.parse_action(move) == move


def test_a_view_and_a_bot_at_the_table_go_on(small_cap):
    """``State.view`` of the seat to act lists the first actions found through the small choices
    (``legal_more``), so the terminal table's bots and players go on instead of stopping."""
    from cardspec.engine.state import VIEW_LEGAL_LIMIT
    from cardspec.players import make_bot
    s = _long_hand()
    v = s.view(s.to_act)
    assert v["legal_more"] is True and len(v["legal_actions"]) == VIEW_LEGAL_LIMIT
    assert v["legal_actions"] == legal_walk(s, limit=VIEW_LEGAL_LIMIT)[0]
    move = make_bot("random", seed=2).act(v, v["legal_actions"])
    s.apply(move)
    assert s.history[-1] == move


def test_a_hostile_prefix_walks_nothing(small_cap):
    """A client's get_legal prefix reaches the walk only as text compared with chunks: a long, odd or
    mismatching one prunes at the first choice (no action found, the walk complete, nothing changed)."""
    s = _long_hand()
    top = s.legal_choices()
    for prefix in ("x" * 60_000, "play \u0000\u202e", "PLAY " + "ZZ " * 2000, "__import__('os')"):
        found, complete = legal_walk(s, prefix=prefix, limit=500)
        assert found == [] and complete
    assert s.legal_choices() == top and s.partial == ()
