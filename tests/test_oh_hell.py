"""Oh Hell (rulesets/oh-hell.yaml) and the general bid and trump steps.

Every rule and worked example here comes from ../shared/rules/vanishing-whist.md
("Bidding", "Play", "Oh Hell", "Worked examples"); the source is named in each
test's docstring.
"""
from __future__ import annotations

import random
import textwrap

import pytest
from hypothesis import given, settings, strategies as st

import cardspec
from cardspec.errors import IllegalAction, RulesetError

_GAMES = {}


def game(players=4, **options):
    key = (players, tuple(sorted(options.items())))
    if key not in _GAMES:
        _GAMES[key] = cardspec.load("oh-hell", players=players, options=options)
    return _GAMES[key]


def one_deal(players, cards, dealer=0, order=None, seed=1):
    """A single deal of ``cards`` cards (options hand_size, deals=1) at its first bid."""
    return game(players, hand_size=cards, deals=1).new_state(seed=seed, dealer=dealer, deck_order=order)


def bid_all(state, bids):
    for b in bids:
        state.apply(f"bid {b}")


def events(state, kind):
    return [e for e in state.log_all() if e["type"] == kind]


# ---- bidding order and the hook ---------------------------------------------------

@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_bidding_starts_at_dealers_left_and_the_dealer_bids_last(dealer):
    """vanishing-whist.md, "Bidding": players bid in turn from the dealer's left, clockwise, the dealer last."""
    s = one_deal(4, 5, dealer=dealer)
    seats = []
    for _ in range(4):
        seats.append(s.to_act)
        s.apply("bid 0")
    assert seats == [(dealer + 1 + i) % 4 for i in range(4)]
    assert [e["seat"] for e in events(s, "bid")] == seats
    # The player at the dealer's left leads the first trick.
    assert s.to_act == (dealer + 1) % 4 and s.current_step().kind == "tricks"


@pytest.mark.parametrize("cards, bids, forbidden", [
    (5, [2, 0, 1], 2),        # 5 cards, bids 2, 0, 1 → the dealer may not bid 2
    (5, [3, 1, 2], None),     # bids 3, 1, 2 → any bid
    (10, [4, 2, 3], 1),       # 10 cards, bids 4, 2, 3 → not 1
    (7, [4, 0, 2], 1),        # 7 cards, bids 4, 0, 2 → not 1 (a published example got this wrong)
    (6, [1, 1, 2], 2),        # seed: 6 cards, bids so far total 4 → 0, 1, 3 or more, not 2
])
def test_hook_worked_examples(cards, bids, forbidden):
    """vanishing-whist.md, "Worked examples" (Hook) and "Bidding": the dealer may not bid the number that
    makes the bids' total equal the hand size."""
    s = one_deal(4, cards)
    for b in bids:
        assert s.legal_actions() == [f"bid {x}" for x in range(cards + 1)]   # only the dealer is hooked
        s.apply(f"bid {b}")
    assert s.to_act == 0  # the dealer
    expected = [f"bid {x}" for x in range(cards + 1) if x != forbidden]
    assert s.legal_actions() == expected


def test_hooked_bid_is_refused_with_the_legal_ones_and_state_unchanged():
    """vanishing-whist.md, "Bidding" (hook): an illegal bid raises IllegalAction naming the legal bids."""
    s = one_deal(4, 5)
    bid_all(s, [2, 0, 1])
    before = (s.view(None), list(s.history))
    with pytest.raises(IllegalAction) as e:
        s.apply("bid 2")
    assert "hook" in str(e.value)
    assert "bid 3" in e.value.legal and "bid 2" not in e.value.legal
    with pytest.raises(IllegalAction) as e:
        s.apply("bid 6")
    assert "0 to 5" in str(e.value)
    with pytest.raises(IllegalAction):
        s.apply("bid three")
    with pytest.raises(IllegalAction):
        s.apply("AS")
    assert (s.view(None), list(s.history)) == before
    assert s.parse_action("3") == "bid 3"
    s.apply("bid 3")


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12), st.lists(st.integers(0, 12), min_size=3, max_size=3))
def test_hook_property(cards, bids):
    """vanishing-whist.md, "Bidding": any bid 0..hand size, except that the dealer may not make the total
    equal the hand size (when that bid is in range)."""
    bids = [min(b, cards) for b in bids]
    s = one_deal(4, cards)
    bid_all(s, bids)
    hooked = cards - sum(bids)
    assert s.legal_actions() == [f"bid {x}" for x in range(cards + 1) if x != hooked]


def test_hook_option_off():
    """vanishing-whist.md, "Bidding": the hook is a rule of the game; option hook=false lifts it."""
    s = game(4, hand_size=5, deals=1, hook=False).new_state(seed=1)
    bid_all(s, [2, 0, 1])
    assert s.legal_actions() == [f"bid {x}" for x in range(6)]


# ---- trumps and play ----------------------------------------------------------------

def test_turned_up_card_sets_trump():
    """vanishing-whist.md, "Oh Hell": the trump is the suit of the top card of the undealt stock, turned up."""
    for seed in range(5):
        s = game(5).new_state(seed=seed)
        up = s.view(2)["zones"]["turnup"]
        assert len(up) == 1
        assert s.view(2)["trump"] == up[0][-1]
        assert events(s, "trump")[0]["suit"] == up[0][-1]


def test_no_trump_when_no_card_is_left():
    """vanishing-whist.md, "Oh Hell": no trump when no card is left to turn up (4 players, 13 cards)."""
    s = one_deal(4, 13)
    assert s.view(None)["zones"]["turnup"] == []
    assert s.view(None)["trump"] is None
    bid_all(s, [0, 0, 0, 0])
    rng = random.Random(3)
    while not s.terminal:
        s.apply(rng.choice(s.legal_actions()))
    for t in events(s, "trick"):
        led = t["cards"][0][1][-1]
        best = max((c for _, c in t["cards"] if c[-1] == led), key=lambda c: "23456789TJQKA".index(c[0]))
        assert dict((c, seat) for seat, c in t["cards"])[best] == t["winner"]


def test_trump_precedence_example():
    """vanishing-whist.md, "Worked examples": trump ♠, ♥A led, ♠2 and ♥K follow → ♠2 wins."""
    # 3 players, 1 card each; seat 1 (dealer's left) leads. Deck from the top: seat 1, 2, 0, turn-up.
    s = one_deal(3, 1, order=["AH", "2S", "KH", "3S"])
    assert s.view(None)["trump"] == "S"
    bid_all(s, [1, 0, 1])
    s.apply("AH")
    s.apply("2S")
    s.apply("KH")
    (trick,) = events(s, "trick")
    assert trick["cards"] == [[1, "AH"], [2, "2S"], [0, "KH"]]
    assert trick["winner"] == 2


def test_follow_suit_else_any_card():
    """vanishing-whist.md, "Play": follow suit if able; if void, any card, trumps included."""
    # seat 1 leads; seat 2 holds a heart and a spade, seat 0 holds no heart.
    s = one_deal(3, 2, order=["AH", "2H", "KC", "QD", "3S", "4S", "5D"])
    bid_all(s, [0, 0, 0])
    s.apply("AH")
    assert s.legal_actions() == ["2H"]
    s.apply("2H")
    assert sorted(s.legal_actions()) == ["4S", "KC"]


def test_winner_leads_next_trick():
    """vanishing-whist.md, "Play": the winner leads next."""
    s = game(4).new_state(seed=7)
    rng = random.Random(7)
    while s.view(None)["deal"] == 1:
        s.apply(rng.choice(s.legal_actions()))
    deal1 = events(s, "trick")
    assert len(deal1) == 12 and deal1[0]["leader"] == 1
    for a, b in zip(deal1, deal1[1:]):
        assert b["leader"] == a["winner"] == b["cards"][0][0]


# ---- scoring -----------------------------------------------------------------------

def _two_card_deal(bids, game_name="oh-hell"):
    """3 players, 2 cards: seat 1 holds AS KS (trumps), the others low hearts and clubs; trump ♠."""
    order = ["AS", "2H", "3C", "KS", "4H", "5C", "QS"]
    if game_name == "oh-hell":
        s = one_deal(3, 2, order=order)
    else:
        s = cardspec.load(game_name, players=3, options={"hand_size": 2, "deals": 1}).new_state(
            seed=1, deck_order=order[:6])
    assert s.view(None)["trump"] == "S"
    bid_all(s, bids)
    while not s.terminal:
        s.apply(s.legal_actions()[0])
    taken = [0, 0, 0]
    for t in events(s, "trick"):
        taken[t["winner"]] += 1
    assert taken == [0, 2, 0]
    return {int(k): v for k, v in s.scores().items()}


def test_scoring_examples_openspiel_defaults():
    """vanishing-whist.md, "Oh Hell" and "Worked examples" (Scoring): 1 per trick + 10 for an exact bid;
    bid 2 took 2 → 12, bid 1 took 0 → 0, bid 0 took 0 → 10 (OpenSpiel's oh_hell), bid 0 took 2 → 2."""
    # Bids in order seat 1, 2, 0 (the dealer). The dealer may not bid 0 here (2 + 0 + 0 == 2).
    assert _two_card_deal([2, 0, 1]) == {1: 12, 2: 10, 0: 0}
    assert _two_card_deal([0, 0, 1]) == {1: 2, 2: 10, 0: 0}


def test_match_schedule_and_totals():
    """Oh Hell's match (this ruleset's choice, vanishing-whist.md "Oh Hell": same bidding and play):
    hands go from the largest, (52 − 1) // players, down to 1 and back up; totals add up every deal."""
    g = game(5)
    s = g.new_state(seed=11)
    rng = random.Random(11)
    while not s.terminal:
        s.apply(rng.choice(s.legal_actions()))
    sizes = [e["each"] for e in events(s, "deal") if e["zone"] == "hand"]
    most = 51 // 5
    assert sizes == list(range(most, 0, -1)) + list(range(2, most + 1))
    totals = [0] * 5
    for e in events(s, "deal_score"):
        for k, v in e["points"].items():
            totals[int(k)] += v
    assert s.scores() == {str(i): totals[i] for i in range(5)}
    dealers = [e["dealer"] for e in events(s, "deal_start")]
    assert dealers == [i % 5 for i in range(len(sizes))]   # the deal passes clockwise


def test_views_hide_other_hands_and_show_bids():
    """DESIGN.md, "Views": a seat sees its own hand, not the others'; bids made so far are public."""
    s = one_deal(4, 5)
    s.apply("bid 2")
    v = s.view(2)
    assert isinstance(v["zones"]["hand"]["2"], list)
    assert v["zones"]["hand"]["1"] == {"count": 5}
    assert v["bids_made"] == {"1": 2}
    assert v["legal_actions"][0] == "bid 0"
    assert s.log(3)[-1] == {"type": "bid", "seat": 1, "bid": 2}


# ---- the general steps: clear errors for bad rulesets --------------------------------

def _load_text(tmp_path, text, players=4):
    p = tmp_path / "variant.yaml"
    p.write_text(textwrap.dedent(text))
    return cardspec.load(str(p), players=players)


def test_bid_step_errors_name_the_problem(tmp_path):
    """Bad input gets a clear error (STYLE/house rules): a bid step without a counter, an unknown counter."""
    (tmp_path / "oh-hell.yaml").write_text((cardspec.rules.rulesets_dir() / "oh-hell.yaml").read_text())
    with pytest.raises(RulesetError) as e:
        _load_text(tmp_path, """
            extends: oh-hell.yaml
            name: broken
            deal:
              - id: bid
                bid: {counter: bidz}
            """)
    assert "unknown counter 'bidz'" in str(e.value) and "did you mean 'bids'" in str(e.value)
    with pytest.raises(RulesetError) as e:
        _load_text(tmp_path, """
            extends: oh-hell.yaml
            name: broken
            deal:
              - id: trump
                trump: top(turnup)
            """)
    assert "suit" in str(e.value)


def test_bid_order_expression(tmp_path):
    """The bid step's ``order:`` (a list of seats) overrides the default dealer's-left-first order."""
    (tmp_path / "oh-hell.yaml").write_text((cardspec.rules.rulesets_dir() / "oh-hell.yaml").read_text())
    g = _load_text(tmp_path, """
        extends: oh-hell.yaml
        name: dealer-first
        deal:
          - id: bid
            bid:
              order: sort(s in seats by (s - dealer) % players)
        """)
    s = g.new_state(seed=1, dealer=2)
    seats = []
    for _ in range(4):
        seats.append(s.to_act)
        s.apply(s.legal_actions()[-1])
    assert seats == [2, 3, 0, 1]


def test_hand_size_option_is_capped_by_the_deck():
    """Bad input gets no traceback: option hand_size above 52 // players deals every card (13 each at 4)."""
    s = game(4, hand_size=20, deals=1).new_state(seed=1)
    assert all(len(h) == 13 for h in (s.view(p)["zones"]["hand"][str(p)] for p in range(4)))


def test_trump_follows_a_scenario_deal_override():
    """DESIGN.md "Scenarios" + vanishing-whist.md "Oh Hell": a scenario that fixes the turned-up card
    (``deal:``) gets that card's suit as trump (trump ♥ here, so ♥A beats ♠2)."""
    g = game(3, hand_size=1, deals=1)
    hand, turnup = g.zone["hand"].index, g.zone["turnup"].index
    f = g.deck.face
    s = g.new_state(seed=1, deal={(hand, 0): [f("KH")], (hand, 1): [f("AH")], (hand, 2): [f("2S")],
                                  (turnup, None): [f("3H")]})
    assert s.view(None)["trump"] == "H"
    bid_all(s, [1, 0, 1])
    for c in ("AH", "2S", "KH"):
        s.apply(c)
    assert events(s, "trick")[0]["winner"] == 1
