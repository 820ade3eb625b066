"""The general mechanisms the jack games brought (issue 19), each on small variants of built-in rulesets:

* the tricks step's ``take:`` / ``next_leader:`` (docs/rulesets.md, "Who takes the trick, who leads next"):
  a seat expression or ``{wins, key}``; the ``trick`` event and ``after_trick`` name the taker;
* the ``trump:`` effect (docs/rulesets.md, "Effects");
* ``match: winner:`` / ``loser:`` expressions (docs/rulesets.md, "How a match ends").
"""
from __future__ import annotations

import random
import textwrap

import pytest

import cardspec
from cardspec.errors import RulesetError

from _jacks import arrange, deal_with_totals, play, random_deal, tricks


def variant(tmp_path, text, players=3, name="v.yaml"):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return cardspec.load(str(p), players=players)


KNAVE_LEADER_TAKES = """\
    extends: knave
    name: knave-leader-takes
    counters:
      taken_by: {per: deal}
    deal:
      - id: play
        tricks:
          take: leader
          next_leader: left_of(winner)
          after_trick:
            - add: {counter: taken_by, seat: taker}
"""


def test_take_and_next_leader_as_seat_expressions(tmp_path):
    """docs/rulesets.md, "Who takes the trick, who leads next": seat expressions of winner and leader; the
    cards go to the taker's zone, the next lead to next_leader; after_trick reads taker."""
    g = variant(tmp_path, KNAVE_LEADER_TAKES)
    s = arrange(g, {1: ["5D"], 2: ["JD"], 0: ["QD"]}, 17, other={"turnup": ["4S"]})
    play(s, "5D", "JD", "QD")
    t = tricks(s)[-1]
    assert (t["winner"], t["taker"], t["next_leader"]) == (0, 1, 1)
    assert sorted(s.view(None)["zones"]["won"]["1"]) == ["5D", "JD", "QD"]
    assert s.view(None)["zones"]["won"]["0"] == []
    assert s.to_act == 1 and s.view(None)["counters"]["taken_by"] == [0, 1, 0]
    # the quiet random playout (no events) follows the same rules: cards conserved, 17 tricks counted
    q = g.new_state(seed=3, record=False)
    q.random_playout()
    assert q.terminal


def test_take_by_another_order_and_cards_conserved(tmp_path):
    """docs/rulesets.md: ``take: {wins, key}``: the player of the best card by that order (here the lowest
    card of the led suit); whole random deals keep 17 tricks' cards in the won piles, by the taker."""
    g = variant(tmp_path, """\
        extends: knave
        name: knave-lowest-takes
        deal:
          - id: play
            tricks:
              take: {wins: card.suit == led_suit, key: 100 - card.rank}
    """)
    s = g.new_state(seed=4)
    random_deal(s, random.Random(4))
    won = {i: 0 for i in range(3)}
    for t in tricks(s):
        led = t["cards"][0][1][1]
        low = min((c for c in t["cards"] if c[1][1] == led), key=lambda sc: "23456789TJQKA".index(sc[1][0]))
        assert t["taker"] == low[0]
        assert t["next_leader"] == t["winner"]
        won[t["taker"]] += 3
    assert sum(won.values()) == 51


def test_default_events_name_the_winner_as_taker_and_leader():
    """docs/events.md: without take:/next_leader:, taker and next_leader are the winner."""
    s = cardspec.load("knave", players=3).new_state(seed=2)
    random_deal(s, random.Random(2))
    assert all(t["taker"] == t["winner"] == t["next_leader"] for t in tricks(s))


@pytest.mark.parametrize("spec, message", [
    ("{wins: true}", "tricks.take"),          # the schema: key is required
    ("{key: card.rank, best: 1}", "tricks.take"),  # the schema: no other keys
    ("winer", "unknown name 'winer'"),
])
def test_a_broken_take_is_reported_at_its_position(tmp_path, spec, message):
    """docs/rulesets.md: take: is a seat expression or {wins, key}; anything else is a ruleset error with
    file:line:col."""
    with pytest.raises(RulesetError) as e:
        variant(tmp_path, f"""\
            extends: knave
            name: broken
            deal:
              - id: play
                tricks:
                  take: {spec}
        """)
    text = str(e.value)
    assert message in text and "v.yaml:6:" in text


def test_trump_effect_sets_trumps_from_the_first_card_led(tmp_path):
    """docs/rulesets.md, "Effects" (``trump:``): a game without a trump step whose first lead names trumps
    (shared/rules/auction-pitch.md, "Trumps"): the led card's suit is trumps for that trick already."""
    g = variant(tmp_path, """\
        extends: knave
        name: knave-lead-names-trumps
        deal:
          - id: trump
            if: false
          - id: play
            tricks:
              after_play:
                - if: trick_number == 1 and seat == leader
                  trump: card.suit
    """)
    s = arrange(g, {1: ["2C", "KH"], 2: ["AC", "AH"], 0: ["3C", "5C"]}, 17, other={"turnup": ["4S"]},
                void={0: "H"})
    assert s.view(None)["trump"] is None
    play(s, "2C", "AC", "3C")
    assert s.view(None)["trump"] == "C"
    assert [e for e in s.log_all() if e["type"] == "trump"][-1]["suit"] == "C"
    assert tricks(s)[-1]["winner"] == 2
    # clubs are trumps from now on: a club played by a seat void in hearts beats the led ace of hearts
    play(s, "AH", "5C", "KH")
    assert tricks(s)[-1]["winner"] == 0


def test_trump_effect_needs_a_suit(tmp_path):
    """docs/rulesets.md, "Effects": the trump effect takes a suit expression (an int is refused at load)."""
    with pytest.raises(RulesetError) as e:
        variant(tmp_path, """\
            extends: knave
            name: broken-trump
            deal:
              - id: play
                tricks:
                  after_play:
                    - trump: card.rank
        """)
    assert "v.yaml:7:" in str(e.value)


def test_match_winner_expression_heads_the_ranking(tmp_path):
    """docs/rulesets.md, "How a match ends": ``winner:`` (a seat) wins and ranks first whatever the totals;
    none falls back to the best total."""
    g = variant(tmp_path, """\
        extends: knave
        name: knave-dealer-wins
        match:
          winner: if deal_number == 1 then dealer else none
    """)
    s, _ = deal_with_totals(g, [5, 25, 9], seed=7, dealer=2)
    assert s.terminal and s.result["winner"] == [2] and s.result["ranking"] == [2, 1, 0]


def test_match_loser_expression(tmp_path):
    """docs/rulesets.md, "How a match ends": ``loser:`` as an expression names every seat it lists."""
    g = variant(tmp_path, """\
        extends: knave
        name: knave-losers
        match:
          loser: filter(s in seats where score[s] < 10)
    """)
    s, _ = deal_with_totals(g, [25, 9, 3], seed=7)
    assert s.terminal and s.result["loser"] == [1, 2] and s.result["winner"] == [0]


def test_match_winner_must_be_seats(tmp_path):
    """docs/rulesets.md: ``winner:`` gives a seat or a list of seats; a bool is a ruleset error."""
    with pytest.raises(RulesetError) as e:
        variant(tmp_path, """\
            extends: knave
            name: broken-winner
            match:
              winner: deal_number == 1
        """)
    assert "v.yaml:4:" in str(e.value)
