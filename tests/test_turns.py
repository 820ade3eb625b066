"""The generic turn step (interpreter/cardspec/engine/steps/turns/, docs/turns.md) on a toy ruleset.

tests/turns/toy.yaml declares one action of every parameter kind (one card
with a per-card ``where``, a range of cards, a number in a range with a step, a
choice of one or two suits) and every phase kind (one, any, optional, do),
plus the effects the turn step added (transfer with a cap, refill, next_seat,
end, for_each). Red Dog (tests/test_red_dog.py) is the first real game on it.
"""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import cardspec
from cardspec import IllegalAction, RulesetError

TOY = str(Path(__file__).parent / "turns" / "toy.yaml")


def game(players=2):
    return cardspec.load(TOY, players)


def test_text_forms_round_trip_and_legal_check_agrees_with_the_list():
    """Every listed action reads back to itself, and is_legal agrees with the list (random walks)."""
    g = game(3)
    for seed in range(6):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not s.terminal and steps < 400:
            legal = s.legal_actions()
            assert legal, "a decision with no legal action"
            for a in legal:
                assert s.parse_action(a) == a
            step = s.current_step()
            moves = step.legal(s)
            assert all(step.is_legal(s, m) for m in moves)
            s.apply(rng.choice(legal))
            steps += 1
        assert s.terminal


def test_phases_in_order_optional_one_any_with_done_and_skip():
    g = game(2)
    s = g.new_state(seed=3)
    legal = s.legal_actions()
    assert "skip" in legal and "choose spades" in legal and "choose clubs" in legal
    s.apply("choose hearts")                       # optional phase: one action, then the next phase
    assert s.view(0)["vars"]["chosen"] == 1          # hearts is suit index 1
    legal = s.legal_actions()
    assert "grab" in legal and "bet 10" in legal and "bet 20" in legal and "bet 25" not in legal
    s.apply("bet 20")
    assert s.view(0)["vars"]["pot"] == 20 and s.view(0)["counters"]["chips"][0] == 80
    assert "done" in s.legal_actions()              # an `any` phase
    s.apply("draw")
    s.apply("draw")
    assert "done" in s.legal_actions() and s.to_act == 0
    s.apply("done")
    assert "pick up" in s.legal_actions()


def test_number_outside_its_range_or_off_its_step_is_refused_and_state_unchanged():
    g = game(2)
    s = g.new_state(seed=3)
    s.apply("skip")
    before = (s.view(0), list(s.history))
    for bad in ("bet 5", "bet 12", "bet 25", "bet -10", "bet x", "bet", "bet 10 10", "fly"):
        with pytest.raises(IllegalAction) as e:
            s.apply(bad)
        assert "bet 10" in e.value.legal
    assert (s.view(0), list(s.history)) == before


def test_card_params_where_prunes_and_cards_combinations_are_checked_directly():
    g = game(2)
    s = g.new_state(seed=5, dealer=1, deck_order=["TS", "JS", "QS", "KS", "6H", "7C", "8D", "9D", "AH", "AD"])
    hand = s.view(0)["zones"]["hand"]["0"]
    assert sorted(hand) == sorted(["TS", "QS", "6H", "8D", "AH"])
    s.apply("skip")
    s.apply("grab")
    legal = s.legal_actions()
    melds = [a for a in legal if a.startswith("meld")]
    assert melds == []                               # no three spades/hearts of rank >= 10
    s.apply("done")
    beats = sorted(a for a in s.legal_actions() if a.startswith("beat"))
    assert beats == ["beat 8D", "beat AH", "beat QS", "beat TS"]   # 6H pruned by where: rank > 7
    with pytest.raises(IllegalAction):
        s.apply("beat 6H")
    with pytest.raises(IllegalAction):
        s.apply("beat KS")                           # not in the hand
    s.apply("beat QS")
    assert s.view(1)["zones"]["table"] == ["QS"]


def test_meld_of_a_range_of_cards():
    g = game(2)
    s = g.new_state(seed=5, dealer=1, deck_order=["TS", "JS", "QS", "KS", "AS", "7C", "8D", "9D", "AH", "AD"])
    s.apply("skip")
    s.apply("grab")
    melds = sorted(a for a in s.legal_actions() if a.startswith("meld"))
    assert "meld AS QS TS" in melds and "meld AS QS TS" == s.parse_action("meld TS QS AS")
    assert len(melds) == 1                           # seat 0 holds TS QS AS 8D AH (every other card)
    s.apply("meld QS AS TS")
    assert sorted(s.view(0)["zones"]["hand"]["0"]) == ["8D", "AH"]
    assert sorted(s.view(0)["zones"]["discard"]) == ["AS", "QS", "TS"]


def test_transfer_is_capped_by_what_the_source_holds():
    g = game(2)
    s = g.new_state(seed=1)
    s.apply("skip")
    s.apply("bet 15")
    s.apply("done")
    s.apply("pick up")                               # ends the turn
    assert s.to_act == 1
    s.apply("skip")
    s.apply("grab")                                  # value 1000, the pot holds 15
    v = s.view(1)
    assert v["vars"]["pot"] == 0 and v["vars"]["moved"] == 15 and v["counters"]["chips"] == [85, 115]


def test_next_seat_override_and_end_match():
    g = game(3)
    s = g.new_state(seed=2)

    def to_last_phase():
        s.apply("skip"); s.apply("grab"); s.apply("draw"); s.apply("draw"); s.apply("done")
        s.apply(next(a for a in s.legal_actions() if a.startswith("beat")))   # seed 2: one is there

    to_last_phase()
    assert "again" in s.legal_actions() and "skip" in s.legal_actions()
    s.apply("again")
    assert s.to_act == 0                             # next_seat: the same seat plays again
    to_last_phase()
    s.apply("skip")
    assert s.to_act == 1                             # the default next: left_of(seat)
    to_last_phase()
    s.apply("stop")                                  # end: match
    assert s.terminal and s.log_all()[-1]["type"] == "game_over"


def test_refill_shuffles_the_discards_into_the_stock_and_no_card_is_lost():
    """move {count: 3, refill: discard} with one card left: the discards are shuffled in under it."""
    g = game(2)
    s = g.new_state(seed=4)
    s.apply("skip")
    s.apply("grab")
    stock, discard = s.z[g.zone["stock"].index], s.z[g.zone["discard"].index]
    top = stock[-1]
    discard.extend(stock[:-1])                       # all but one card go to the discard pile
    del stock[:-1]
    deck = Counter(g.deck.cards)
    s.apply("draw")
    hand = s.z[g.zone["hand"].index][0]
    assert len(hand) == 8 and top in hand            # the old top card came first
    assert discard == [] and any(e["type"] == "reshuffle" for e in s.log_all())
    allcards = Counter()
    for z, zone in zip(s.z, g.zones):
        for part in (z if zone.per_seat else [z]):
            allcards.update(part)
    assert allcards == deck


def test_turn_cap_ends_the_match_with_an_event():
    g = game(2)
    s = g.new_state(seed=9)
    rng = random.Random(9)
    while not s.terminal:
        legal = s.legal_actions()
        s.apply("pick up" if "pick up" in legal else ("skip" if "skip" in legal else
                ("done" if "done" in legal else rng.choice(legal))))
    types = [e["type"] for e in s.log_all()]
    assert "turn_cap" in types and types[-1] == "game_over"
    assert sum(1 for t in types if t == "turn") == 40


def test_unknown_action_in_a_phase_is_a_ruleset_error(tmp_path):
    text = Path(TOY).read_text().replace("- one: [bet, grab]", "- one: [bett, grab]")
    p = tmp_path / "bad.yaml"
    p.write_text(text)
    with pytest.raises(RulesetError) as e:
        cardspec.load(str(p), 2)
    assert "unknown action 'bett'" in str(e.value) and "did you mean 'bet'" in str(e.value)
