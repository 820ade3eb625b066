"""The auction step (docs/auction.md) on a toy ruleset (tests/auction/toy.yaml), with the digests'
worked auctions: napoleon.md, briscola-bugiarda.md, briscola-chiamata.md and auction-pitch.md
("Worked examples"). Seats: the dealer is seat 0, so play order from the dealer's next is 1 2 3 4 0.
"""
import pathlib

import pytest

import cardspec
from cardspec.errors import IllegalAction, RulesetError

TOY = pathlib.Path(__file__).parent / "auction" / "toy.yaml"


def toy(players=5, **options):
    return cardspec.load(str(TOY), players, options)


def run(state, calls):
    """Apply ``calls`` as ``(seat, text)`` pairs, checking the seat to act each time."""
    for seat, text in calls:
        assert state.to_act == seat, (seat, text, state.to_act)
        state.apply(text)
    return state


def table(state):
    return {k: state.view(None)["system"][k] for k in ("declarer", "bid_number", "bid_suit", "bid_contract",
                                                        "bid_level")}


def test_napoleon_worked_auction_count_and_suit_soft_passing():
    """napoleon.md, Worked examples: P1 ♣13, P2 ♥13, P3 pass, P4 ♠13, P5 pass, P1 ♦14, P2–P5 pass →
    P1 is Napoleon, ♦ trumps, contract 14 (♥13 > ♣13 by suit; ♦14 > ♠13 by count)."""
    s = toy().new_state(seed=1)
    run(s, [(1, "bid 13 C"), (2, "bid 13 H"), (3, "pass"), (4, "bid 13 S"), (0, "pass"), (1, "bid 14 D")])
    assert s.to_act == 2
    run(s, [(2, "pass"), (3, "pass"), (4, "pass"), (0, "pass")])
    t = table(s)
    assert t["declarer"] == 1 and t["bid_number"] == 14 and t["bid_contract"] == ""
    assert s.view(None)["trump"] == "D"
    ev = [e for e in s.log_all() if e["type"] in ("bid", "auction_end")]
    assert [e["bid"] for e in ev] == ["13 C", "13 H", "pass", "13 S", "pass", "14 D", "pass", "pass", "pass",
                                      "pass", "14 D"]
    assert ev[-1] == {"type": "auction_end", "declarer": 1, "bid": "14 D"}


def test_a_bid_must_beat_the_standing_one():
    """napoleon.md, Bidding: a higher count, or the same count in a higher suit (♣ < ♦ < ♥ < ♠)."""
    s = toy().new_state(seed=1)
    run(s, [(1, "bid 13 H")])
    legal = s.legal_actions()
    assert "bid 13 C" not in legal and "bid 13 D" not in legal and "bid 13 H" not in legal
    assert legal[:3] == ["pass", "bid 13 S", "bid 14 C"]
    before = s.view(None)
    with pytest.raises(IllegalAction) as e:
        s.apply("bid 13 D")
    assert "does not beat the standing bid (bid 13 H)" in str(e.value)
    assert s.view(None) == before


def test_soft_pass_may_bid_again():
    """napoleon.md, Bidding: passing is soft — a player who passed may bid again later."""
    s = toy().new_state(seed=1)
    run(s, [(1, "pass"), (2, "bid 13 C"), (3, "pass"), (4, "pass"), (0, "pass"), (1, "bid 14 C")])
    assert table(s)["declarer"] == 1


def test_soft_all_pass_throws_the_deal_in_and_it_counts():
    """napoleon.md, Bidding: five passes with no bid — throw in; the next dealer deals; the deal counts."""
    s = toy().new_state(seed=1)
    run(s, [(1, "pass"), (2, "pass"), (3, "pass"), (4, "pass"), (0, "pass")])
    v = s.view(None)
    assert v["deal"] == 2 and v["dealer"] == 1
    assert s.scores() == {str(i): 0 for i in range(5)}
    assert {"type": "all_pass", "then": "throw_in"} in s.log_all()


def test_hard_pass_leaves_the_auction_bugiarda_example():
    """briscola-bugiarda.md, Worked examples (auctions in order B C D E A): B K, C 7, D pass, E pass,
    A pass, B pass → C declares with 7."""
    s = toy(shape="rank", passing="hard").new_state(seed=1)
    run(s, [(1, "bid K"), (2, "bid 7"), (3, "pass"), (4, "pass"), (0, "pass"), (1, "pass")])
    t = table(s)
    assert t["declarer"] == 2 and s.view(None)["system"]["bid_rank"] == 7


def test_solo_ends_the_auction_bugiarda_example():
    """briscola-bugiarda.md, Worked examples: B Q, C solo → auction over; C declares solo."""
    s = toy(shape="rank", passing="hard").new_state(seed=1)
    run(s, [(1, "bid Q"), (2, "solo")])
    t = table(s)
    assert t["declarer"] == 2 and t["bid_contract"] == "solo"
    assert s.view(None)["step"] != "auction"


def test_hard_pass_chiamata_example_and_skipping_passed_seats():
    """briscola-chiamata.md, Worked examples (seats in play order A B C D, dealer E): A K, B J, C pass,
    D 7, E pass, A pass, B 5, D pass → B declares with 5; passed seats are never asked again."""
    s = toy(shape="rank", passing="hard").new_state(seed=1)
    run(s, [(1, "bid K"), (2, "bid J"), (3, "pass"), (4, "bid 7"), (0, "pass"), (1, "pass"), (2, "bid 5"),
            (4, "pass")])
    t = table(s)
    assert t["declarer"] == 2 and s.view(None)["system"]["bid_rank"] == 5


def test_after_the_lowest_rank_only_pass_or_solo():
    """briscola-bugiarda.md, Bidding: after a 2 the others may only pass or bid solo."""
    s = toy(shape="rank", passing="hard").new_state(seed=1)
    run(s, [(1, "bid 2")])
    assert s.legal_actions() == ["pass", "solo"]


def test_once_each_auction_pitch_examples():
    """auction-pitch.md, Worked examples: L1 pass, L2 2, L3 pass, D 3 → D pitches, contract 3;
    L1 4 → the auction ends, L1 pitches with 4."""
    s = toy(4, shape="number", once=True).new_state(seed=1)
    run(s, [(1, "pass"), (2, "bid 2"), (3, "pass"), (0, "bid 3")])
    assert table(s)["declarer"] == 0 and table(s)["bid_number"] == 3
    s = toy(4, shape="number", once=True).new_state(seed=1)
    run(s, [(1, "bid 4")])
    assert table(s)["declarer"] == 1 and table(s)["bid_number"] == 4
    assert [e for e in s.log_all() if e["type"] == "bid"] == [{"type": "bid", "seat": 1, "bid": "4"}]


def test_dealer_may_equal_and_must_bid_modern_pitch():
    """auction-pitch.md, Options modern_auction: the dealer may take the contract by equalling the
    high bid, except a 4; if all pass the dealer must bid."""
    g = toy(4, shape="number", once=True, dealer_may_equal=True, dealer_must_bid=True)
    s = g.new_state(seed=1)
    run(s, [(1, "bid 2"), (2, "pass"), (3, "pass")])
    assert s.legal_actions() == ["pass", "bid 2", "bid 3", "bid 4", "solo"]
    s.apply("bid 2")
    assert table(s)["declarer"] == 0
    s = g.new_state(seed=1)
    run(s, [(1, "pass"), (2, "pass"), (3, "pass")])
    assert "pass" not in s.legal_actions()
    with pytest.raises(IllegalAction) as e:
        s.apply("pass")
    assert "you may not pass now" in str(e.value)
    s = g.new_state(seed=1)
    run(s, [(1, "bid 4"), ])
    assert table(s)["declarer"] == 1


def test_all_pass_redeal_same_dealer_deal_number_kept():
    """briscola-chiamata.md, Bidding: all five pass — redealt by the same dealer; the deal does not count."""
    s = toy(all_pass="redeal").new_state(seed=1)
    hands = s.view(1)["zones"]["hand"]["1"]
    run(s, [(1, "pass"), (2, "pass"), (3, "pass"), (4, "pass"), (0, "pass")])
    v = s.view(None)
    assert v["deal"] == 1 and v["dealer"] == 0 and v["system"]["redeals"] == 1 and s.to_act == 1
    assert s.view(1)["zones"]["hand"]["1"] != hands or True   # a new shuffle (may repeat by chance)
    assert any(e["type"] == "deal_end" and e.get("redeal") for e in s.log_all())


def test_all_pass_redeals_end_at_max_deals():
    """docs/auction.md: redeals count against match: max_deals, so passing forever ends the match."""
    g = toy(3, all_pass="redeal")
    s = g.new_state(seed=2)
    for _ in range(3 * 1001):
        if s.terminal:
            break
        s.apply("pass")
    assert s.terminal


def test_all_pass_names_a_fallback_contract():
    """sheepshead.md, Bidding: all pass — a leaster is played (no declarer, the named contract)."""
    s = toy(all_pass="leaster").new_state(seed=1)
    run(s, [(1, "pass"), (2, "pass"), (3, "pass"), (4, "pass"), (0, "pass")])
    t = table(s)
    assert t["declarer"] == -1 and t["bid_contract"] == "leaster"
    assert s.view(None)["step"] == "tricks" and s.to_act == 1


def test_a_contract_refused_by_legal_gives_the_reason():
    s = toy().new_state(seed=1)
    assert "leaster" not in s.legal_actions()
    with pytest.raises(IllegalAction) as e:
        s.apply("leaster")
    assert "the leaster is no bid" in str(e.value)


@pytest.mark.parametrize("text", ["bid 14 H", "bid 14H", "14H", "14 ♥", "bid 14 hearts", "BID 14 h"])
def test_bid_text_forms(text):
    """docs/auction.md, Text: the spellings read back to one canonical text."""
    s = toy().new_state(seed=1)
    assert s.parse_action(text) == "bid 14 H"


def test_a_bid_the_auction_does_not_have_is_refused_with_the_legal_ones():
    s = toy().new_state(seed=1)
    with pytest.raises(IllegalAction) as e:
        s.apply("bid 21 H")
    assert "not a bid of this auction" in str(e.value) and "bid 13 C" in str(e.value)


def test_after_bid_sees_seat_and_passed_and_the_view_shows_the_auction():
    s = toy().new_state(seed=1)
    run(s, [(1, "bid 13 C"), (2, "pass")])
    v = s.view(3)
    assert v["auction"] == {"bids": [[1, "13 C"], [2, "pass"]], "out": [], "high": "13 C"}
    assert v["counters"]["said"][:3] == [0, 1, 1] and v["vars"]["passes"] == 1


def test_hard_view_lists_the_seats_out():
    s = toy(shape="rank", passing="hard").new_state(seed=1)
    run(s, [(1, "pass"), (2, "bid A")])
    assert s.view(3)["auction"]["out"] == [1]


@pytest.mark.parametrize("options", [{}, {"passing": "hard"}, {"shape": "rank", "passing": "hard"},
                                     {"shape": "number", "once": True}, {"all_pass": "redeal"},
                                     {"all_pass": "leaster"}])
def test_random_auctions_end_and_replay(options):
    """Property: random auctions end, every listed action reads back, a replay gives the same log."""
    import random
    g = toy(**options)
    for seed in range(30):
        rng = random.Random(seed)
        s = g.new_state(seed=seed)
        while not s.terminal:
            legal = s.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            s.apply(rng.choice(legal))
        r = g.new_state(seed=seed)
        for a in s.history:
            r.apply(a)
        assert r.log_all() == s.log_all()


def test_bad_auction_reports_positions(tmp_path):
    bad = TOY.read_text().replace("contracts: [solo, leaster]", "contracts: [solo, pass]") \
        .replace("all_pass: {by_option: all_pass}", "all_pass: nobody")
    p = tmp_path / "bad.yaml"
    p.write_text(bad)
    with pytest.raises(RulesetError) as e:
        cardspec.load(str(p), 5)
    msg = str(e.value)
    assert "'pass' cannot name a contract" in msg and "all_pass is redeal, throw_in or one of the contracts" in msg
    assert "bad.yaml:" in msg
