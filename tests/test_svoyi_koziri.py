"""Svoyi Koziri: every rule and worked example of ../shared/rules/svoyi-koziri.md as a test.

The two deal examples are scenario files with the deck order fixed (tests/svoyi_koziri/*.yaml); the
play examples are positions fixed with a scenario's ``deal:`` (the hands named, every other card left
in the stock, out of play) after the three choice actions.
"""
from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

import cardspec
from cardspec import IllegalAction
from cardspec.authoring.scenario import replay

HERE = Path(__file__).parent / "svoyi_koziri"
RANKS = {24: "9TJQKA", 32: "789TJQKA", 52: "23456789TJQKA"}


def position(tmp_path, h0, h1, cards=24, actions=(), options=None, name="pos.yaml"):
    """Seat 0 (non-dealer, leads first) owns spades (trump) and clubs; seat 1 (dealer) diamonds (trump)
    and hearts — the roles of the digest's 24-card example, with the spade/club owner leading."""
    deck = [r + s for s in "SHDC" for r in RANKS[cards]]
    rest = [c for c in deck if c not in set(h0) | set(h1)]
    data = {"ruleset": "svoyi-koziri", "players": 2, "dealer": 1, "seed": 1,
            "options": {"cards": cards, **(options or {})},
            "deal": {"hands": {0: list(h0), 1: list(h1)}, "stock": rest},
            "actions": ["1: own hearts diamonds", "1: trump diamonds", "0: trump spades", *actions]}
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    rep = replay(str(path))
    assert rep.ok, rep.failures
    return rep.state


def hand(s, seat):
    return sorted(s.game.deck.code[c] for c in s.z[s.game.zone["hand"].index][seat])


# ---- the mirrored deal ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["seed-deal.yaml", "deal-24-cards.yaml"])
def test_deal_examples_replay_with_both_hands_exact(name):
    """svoyi-koziri.md "The seed's example" and the 24-card example: both hands exactly as the digest says."""
    rep = replay(str(HERE / name))
    assert rep.error is None and rep.ok, rep.failures


@pytest.mark.parametrize("name", ["seed-deal.yaml", "deal-24-cards.yaml"])
def test_deal_examples_fail_with_a_wrong_card(tmp_path, name):
    """The deal scenarios can fail: swap one expected card of each hand and the replay reports it."""
    data = yaml.safe_load((HERE / name).read_text(encoding="utf-8"))
    h0, h1 = data["expect"]["hands"][0], data["expect"]["hands"][1]
    h0[0], h1[0] = h1[0], h0[0]
    bad = tmp_path / name
    bad.write_text(yaml.safe_dump(data), encoding="utf-8")
    rep = replay(str(bad))
    assert not rep.ok and any("hand of seat" in f for f in rep.failures)


@pytest.mark.parametrize("cards", [24, 32, 52])
def test_mirrored_deal_gives_equal_hands_for_every_deck_size_and_choice(cards):
    """svoyi-koziri.md "The mirrored deal": half the deck each, and the non-dealer's hand is the dealer's with
    trump <-> trump and other <-> other suit swapped (equal value), for random shuffles and choices."""
    g = cardspec.load("svoyi-koziri", 2, {"cards": cards})
    suits = ["spades", "hearts", "diamonds", "clubs"]
    for seed in range(8):
        rng = random.Random(seed)
        s = g.new_state(seed=seed, dealer=seed % 2)
        dealer = s.view()["dealer"]
        own = sorted(rng.sample(range(4), 2))
        s.apply(f"own {suits[own[0]]} {suits[own[1]]}")
        dt = rng.choice(own)
        s.apply(f"trump {suits[dt]}")
        free = [i for i in range(4) if i not in own]
        nt = rng.choice(free)
        s.apply(f"trump {suits[nt]}")
        do, no = [i for i in own if i != dt][0], [i for i in free if i != nt][0]
        letters = "SHDC"
        swap = {letters[dt]: letters[nt], letters[nt]: letters[dt], letters[do]: letters[no], letters[no]: letters[do]}
        d, n = hand(s, dealer), hand(s, 1 - dealer)
        assert len(d) == len(n) == 2 * cards // 4
        assert sorted(c[:-1] + swap[c[-1]] for c in d) == n
        assert s.to_act == 1 - dealer                      # the non-dealer leads


def test_choice_actions_in_order_dealer_two_suits_then_trumps():
    """svoyi-koziri.md "Own suits and trumps": the dealer picks two suits (6 pairs) and a trump among them; the
    non-dealer then names a trump from the other two."""
    g = cardspec.load("svoyi-koziri", 2)
    s = g.new_state(seed=1)
    assert s.to_act == 0 and len([a for a in s.legal_actions() if a.startswith("own")]) == 6
    s.apply("own clubs hearts")                            # any order of the two is accepted
    assert sorted(s.legal_actions()) == ["trump clubs", "trump hearts"]
    s.apply("trump clubs")
    assert s.to_act == 1 and sorted(s.legal_actions()) == ["trump diamonds", "trump spades"]
    with pytest.raises(IllegalAction):
        s.apply("trump hearts")
    s.apply("trump diamonds")
    assert s.to_act == 1 and len(s.legal_actions()) == 16  # non-dealer leads any of 16 cards


# ---- beating -----------------------------------------------------------------------------------------
def test_beat_a_led_suit_with_a_higher_card_or_any_own_trump(tmp_path):
    """Lead 10C with diamonds the responder's trump: QC beats, 9D beats (any trump, even holding clubs);
    9C, AH, AS do not (svoyi-koziri.md, "References and worked examples")."""
    s = position(tmp_path, ["TC", "TD", "KS", "QS"], ["QC", "9D", "9C", "AH", "AS", "JD"], actions=["0: lead TC"])
    assert s.to_act == 1
    assert sorted(s.legal_actions()) == ["beat 9D", "beat JD", "beat QC", "pick up"]
    for card in ("9C", "AH", "AS"):
        before = (s.view(None), list(s.history))
        with pytest.raises(IllegalAction) as e:
            s.apply(f"beat {card}")
        assert "beat QC" in e.value.legal
        assert (s.view(None), list(s.history)) == before


def test_lead_of_the_responders_own_trump_only_higher_trumps_beat(tmp_path):
    """Lead 10D, the responder's own trump: only JD QD KD AD beat (9D and QC do not)."""
    s = position(tmp_path, ["TC", "TD", "KS", "QS"], ["QC", "9D", "JD", "QD", "KD", "AD", "AS"],
                 actions=["0: lead TD"])
    assert sorted(s.legal_actions()) == ["beat AD", "beat JD", "beat KD", "beat QD", "pick up"]


def test_beating_puts_the_card_on_the_table_and_the_beater_leads_next(tmp_path):
    s = position(tmp_path, ["TC", "KS", "QS"], ["QC", "9D", "AH"], actions=["0: lead TC", "1: beat QC"])
    assert s.view(None)["zones"]["table"] == ["TC", "QC"]
    assert s.to_act == 1 and all(a.startswith("lead") for a in s.legal_actions())


def test_pick_up_example(tmp_path):
    """Lead 10C, beaten with 9D, then JH led and declined: the decliner picks up 10C 9D JH and the opponent
    (who led JH) leads again (svoyi-koziri.md, "References and worked examples")."""
    s = position(tmp_path, ["TC", "KS", "QS"], ["9D", "JH", "AS", "AC"],
                 actions=["0: lead TC", "1: beat 9D", "1: lead JH", "0: pick up"])
    assert hand(s, 0) == sorted(["KS", "QS", "TC", "9D", "JH"])
    assert s.view(None)["zones"]["table"] == []
    assert s.to_act == 1 and all(a.startswith("lead") for a in s.legal_actions())
    assert [e for e in s.log_all() if e["type"] == "pick_up"] == [{"type": "pick_up", "seat": 0, "count": 3}]


def test_pick_up_some_option_takes_top_cards(tmp_path):
    """Option pick_up=some (the pagat.com variant): pick up one or more top cards; the leader leads again."""
    s = position(tmp_path, ["TC", "KS", "QS"], ["9D", "JH", "AS", "AC"], options={"pick_up": "some"},
                 actions=["0: lead TC", "1: beat 9D", "1: lead JH"])
    assert sorted(a for a in s.legal_actions() if a.startswith("pick")) == [
        "pick up", "pick up top 1", "pick up top 2"]
    s.apply("pick up top 2")
    assert hand(s, 0) == sorted(["KS", "QS", "9D", "JH"]) and s.view(None)["zones"]["table"] == ["TC"]
    assert s.to_act == 1


# ---- the end ---------------------------------------------------------------------------------------------
def test_leading_the_last_card_wins_at_once(tmp_path):
    """svoyi-koziri.md "End": a player who leads their last card wins at once (no answer is asked)."""
    s = position(tmp_path, ["TC"], ["QC", "9D", "AH"], actions=["0: lead TC"])
    assert s.terminal and s.scores() == {"0": 1, "1": 0}
    assert {"type": "out_of_cards", "seat": 0, "by": "leading"} in s.log_all()
    assert s.result["winner"] == [0]


def test_beating_with_the_last_card_wins_at_once(tmp_path):
    s = position(tmp_path, ["TC", "KS"], ["QC"], actions=["0: lead TC", "1: beat QC"])
    assert s.terminal and s.scores() == {"0": 0, "1": 1}
    assert {"type": "out_of_cards", "seat": 1, "by": "beating"} in s.log_all()


CYCLE = ["0: lead 9C", "1: beat KD", "1: lead 9H", "0: pick up", "1: lead 9D", "0: beat KD", "0: lead 9H", "1: pick up"]


def test_threefold_repetition_is_a_draw(tmp_path):
    """svoyi-koziri.md "End": the same position (hands, table, player to act) a third time is a draw.

    The cycle: 0 leads 9C, 1 beats with KD and leads 9H, 0 picks up; 1 leads 9D, 0 beats with KD and leads
    9H, 1 picks up: both hands are back and seat 0 leads again."""
    h0, h1 = ["9C", "AS", "AC"], ["KD", "9H", "9D", "AH"]
    s = position(tmp_path, h0, h1, actions=CYCLE)
    assert hand(s, 0) == sorted(h0) and hand(s, 1) == sorted(h1) and s.to_act == 0
    assert not s.terminal                                   # twice: play on
    s = position(tmp_path, h0, h1, actions=CYCLE * 2)
    assert s.terminal and s.scores() == {"0": 0, "1": 0} and s.result["winner"] == [0, 1]
    assert {"type": "repetition", "times": 3} in s.log_all()
    s = position(tmp_path, h0, h1, actions=CYCLE * 2, options={"repetition": 0})
    assert not s.terminal                                   # option off: no draw


def test_turn_cap_is_a_draw(tmp_path):
    """Option max_turns: the match is a draw when the cap is reached (svoyi-koziri.md "End")."""
    s = position(tmp_path, ["9C", "AS", "AC"], ["KD", "9H", "9D", "AH"], actions=CYCLE[:4],
                 options={"max_turns": 2, "repetition": 0})
    assert s.terminal and s.scores() == {"0": 0, "1": 0}
    assert any(e["type"] == "turn_cap" for e in s.log_all())


@pytest.mark.parametrize("cards", [24, 32])
def test_random_self_play_always_ends_within_the_cap(cards):
    """Random legal play ends in a win (one hand empty) or a draw (repetition or the cap), never past the cap."""
    cap = 300
    g = cardspec.load("svoyi-koziri", 2, {"cards": cards, "max_turns": cap})
    ends = Counter()
    for seed in range(25):
        s = g.new_state(seed=seed, record=(seed < 3))
        rng = random.Random(seed)
        s.random_playout(rng)
        assert s.terminal
        assert s.ts[4] <= cap
        sc = s.game_scores()
        if sc[0] + sc[1] == 1:
            winner = 0 if sc[0] else 1
            assert not s.z[g.zone["hand"].index][winner]       # the winner's hand is empty
            ends["win"] += 1
        else:
            assert sc == {0: 0, 1: 0}
            ends["draw"] += 1
    assert ends["win"] > 0


def test_cli_play_seed_2_reaches_a_result_with_a_readable_log():
    """Done-when of issue 5: `cardspec play svoyi-koziri --seed 2` plays to a result."""
    out = subprocess.run([sys.executable, "-m", "cardspec.cli", "play", "svoyi-koziri", "--seed", "2"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Traceback" not in out.stderr
    assert "own " in text and "trump " in text and "lead " in text
    assert "Game over" in text and ("wins" in text or "draw" in text)
