"""Play order given by an expression (match: next_player), seats changing chairs, the dealer per
deal (a draw, rotate: next), a match of rounds with the same dealer, and a deal that stops when
an expression says so (tricks: until) — docs/rulesets.md, "Play order, dealers, rounds"; the rules
behind them: goninkan.md (seat change, rounds of 1–3 deals by the same dealer, the deal stops as
soon as a side has its target), briscola-bugiarda.md and briscola-chiamata.md (counterclockwise).
The toy ruleset is tests/sides/rounds.yaml.
"""
import pathlib
import random

import pytest

import cardspec

TOY = pathlib.Path(__file__).parent / "sides" / "rounds.yaml"


def game(players=4, **options):
    return cardspec.load(str(TOY), players, options)


def plays(state):
    return [(e["seat"], e["card"]) for e in state.log_all() if e["type"] == "play"]


def test_draw_sets_the_first_dealer_and_play_goes_to_the_right():
    """goninkan.md, Cards (the lowest draw deals) and Players (play goes to the right, chair - 1)."""
    g = game()
    s = g.new_state(seed=4)
    draws = {e["seat"]: e["cards"][0] for e in s.log_all() if e["type"] == "reveal"}
    low = min(range(4), key=lambda p: (g.deck.rank[g.deck.face(draws[p])], p))
    assert s.view(None)["dealer"] == low
    assert {"type": "dealer", "seat": low} in s.log_all()
    first = (low - 1) % 4
    assert s.to_act == first
    for _ in range(4):
        s.apply(s.legal_actions()[0])
    assert [p for p, _ in plays(s)] == [first, (first - 1) % 4, (first - 2) % 4, (first - 3) % 4]


def test_deal_start_names_the_dealer_the_draw_chose():
    """briscola-chiamata.md, Players and seating: "First dealer: everyone cuts; the lowest card ... deals"
    (goninkan.md, Cards: "the lowest card deals"). The first deal's `deal_start` event names that dealer,
    not the seat that dealt by default (issue 32 item 5): the draw runs before any decision of the deal,
    so the event is not yet shown to anyone; the `dealer` event follows the draw as before."""
    g = game()
    named = set()
    for seed in range(8):
        s = g.new_state(seed=seed)
        dealer = s.view(None)["dealer"]
        log = s.log_all()
        assert log[0] == {"type": "deal_start", "deal": 1, "dealer": dealer}
        assert {"type": "dealer", "seat": dealer} in log
        assert all(s.log(p)[0] == log[0] for p in (None, 0, 1))
        named.add(dealer)
    assert named - {0}                       # the draw chose another seat than 0 in some seed


def test_a_dealer_chosen_after_a_decision_is_told_by_the_dealer_event(tmp_path):
    """A `set: {dealer: …}` after a decision of the deal (here a turns step before the draw): the
    `deal_start` event was shown with the dealer it named, so it stays; the `dealer` event that follows
    the draw names the new one (docs/events.md)."""
    text = TOY.read_text().replace("deal:\n  - if: deal_number == 1\n    do: [{add", """actions:
  ready: {help: Ready., effects: []}
deal:
  - if: deal_number == 1
    turns: {first: 0, until: turn_number >= 1, turn: [{one: [ready]}]}
  - if: deal_number == 1
    do: [{add""", 1)
    assert "ready" in text
    p = tmp_path / "rounds-ready.yaml"
    p.write_text(text)
    g = cardspec.load(str(p), 4)
    for seed in range(8):
        s = g.new_state(seed=seed)
        assert s.log_all() == [{"type": "deal_start", "deal": 1, "dealer": 0}, {"type": "turn", "seat": 0, "number": 1}]
        s.apply("ready")
        dealer = s.view(None)["dealer"]
        assert s.log_all()[0] == {"type": "deal_start", "deal": 1, "dealer": 0}
        assert {"type": "dealer", "seat": dealer} in s.log_all()


def test_dealing_follows_play_order():
    """briscola-chiamata.md, Deal: cards are dealt one at a time starting at the dealer's right."""
    g = game(order="right")
    deck = [f"{r}{s}" for s in "SHDC" for r in "23456789TJQKA"]
    s = g.new_state(seed=1, deck_order=deck, dealer=0)
    # deal 1 draws first (one card each from the dealer's right: 3 2 1 0), then the real shuffle
    # is the seed's; check the draw, dealt in play order from next_player(dealer) = seat 3.
    draws = {e["seat"]: e["cards"][0] for e in s.log_all() if e["type"] == "reveal"}
    assert [draws[p] for p in (3, 2, 1, 0)] == deck[:4]


def test_swapped_chairs_change_the_play_order():
    """goninkan.md, Partners: players keep their new seats; "right" follows the current seating."""
    g = game(swap=True)
    s = g.new_state(seed=4)
    chair = s.view(None)["counters"]["chair"]
    assert sorted(chair) == [0, 1, 2, 3] and chair[0] == 1 and chair[1] == 0
    order = []
    for _ in range(4):
        order.append(s.to_act)
        s.apply(s.legal_actions()[0])
    for a, b in zip(order, order[1:]):
        assert chair[b] == (chair[a] - 1) % 4


def test_until_stops_the_deal_early_cards_stay_in_hands():
    """goninkan.md, Scoring: the deal ends as soon as its result is decided (tricks: until)."""
    g = game(stop_after=2)
    s = g.new_state(seed=2)
    while s.view(None)["deal"] == 1:
        s.apply(s.legal_actions()[0])
    tricks = [e for e in s.log_all() if e["type"] == "trick"]
    assert len(tricks) == 2
    assert sum(s.view(None)["counters"]["score"]) == 2


def test_rounds_keep_the_dealer_and_count():
    """goninkan.md, Scoring/Round: the same dealer deals again within a round; the next round passes
    the deal to the right; the match is a number of rounds."""
    g = game()
    s = g.new_state(seed=9)
    seen = []
    while not s.terminal:
        v = s.view(None)
        key = (v["deal"], v["dealer"], v["system"]["round_number"], v["system"]["deal_in_round"])
        if not seen or seen[-1] != key:
            seen.append(key)
        s.apply(s.legal_actions()[0])
    # round 1: one deal (round_end: deal_number == 1); rounds 2 and 3: two deals each, same dealer
    assert [(d, r, k) for d, _, r, k in seen] == [(1, 1, 1), (2, 2, 1), (3, 2, 2), (4, 3, 1), (5, 3, 2)]
    dealers = [dl for _, dl, _, _ in seen]
    assert dealers[1] == dealers[2] and dealers[3] == dealers[4]
    assert dealers[1] == (dealers[0] - 1) % 4 and dealers[3] == (dealers[1] - 1) % 4
    assert s.result["reason"] == "all 3 rounds are played"


@pytest.mark.parametrize("players", [3, 6])
def test_random_matches_end(players):
    g = game(players, swap=True)
    for seed in range(10):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.terminal:
            s.apply(rng.choice(s.legal_actions()))
