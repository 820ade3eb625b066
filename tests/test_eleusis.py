"""Eleusis with prophets: every rule of ../shared/rules/eleusis-prophets.md as a test.

Positions are set up by choosing the secret rule (``rule NAME`` / ``write EXPR``) and then fixing
the hands, the line and the stock, so each test shows one rule of the digest with cards a person
can check by hand. Seats: 4 players, seat 0 deals, children 1, 2, 3 play in that order.
"""
import json
import random

import pytest

from cardspec.engine import Game
from cardspec.errors import IllegalAction
from cardspec.players.induction import InductionBot, from_ruleset

SRC = "../shared/rules/eleusis-prophets.md"
_GAMES = {}


def game(n=4):
    if n not in _GAMES:
        _GAMES[n] = Game("eleusis-prophets", n)
    return _GAMES[n]


def start(rule="rule climb", hands=None, line=("5S",), stock=None, n=4, **vars_):
    """A state after the dealer (seat 0) chose ``rule``, with these hands / line / stock (codes)."""
    g = game(n)
    s = g.new_state(seed=7, dealer=0)
    s.apply(rule)
    f = g.deck.face
    hands = hands or {}
    s.z[g.zone["hand"].index] = [[f(c) for c in hands.get(i, [])] for i in range(n)]
    s.z[g.zone["line"].index] = [f(c) for c in line]
    if stock is not None:
        s.z[g.zone["stock"].index] = [f(c) for c in stock]
    for k, v in vars_.items():
        s.v[g.var[k].index] = v
    s._cache = None
    return s


def codes(s, zone, seat=None):
    g = s.game
    z = s.z[g.zone[zone].index]
    if seat is not None:
        z = z[seat]
    return [g.deck.code[c] for c in z]


def counter(s, name):
    return list(s.c[s.game.counter[name].index])


def events(s, kind):
    return [e for e in s.log_all() if e["type"] == kind]


def set_counter(s, name, seat, value):
    s.c[s.game.counter[name].index][seat] = value


STOCK = ["2C", "3C", "4C", "6C", "8C", "TC", "JC", "QC", "KC", "AC"] * 2


# ---- Judging a play -------------------------------------------------------------
def test_cards_judged_one_after_another_into_line_or_under():
    """Digest 'Judging a play': an accepted card extends the line, a rejected one goes under and the
    line's end does not move (climb: 7H > 5S yes, 3C < 7H no, 9D > 7H yes): ○● mixed."""
    s = start(hands={1: ["7H", "3C", "9D", "KS"], 2: ["2S"], 3: ["2S"]}, stock=STOCK)
    s.apply("play 7H 3C 9D success")
    assert codes(s, "line") == ["5S", "7H", "9D"]
    assert codes(s, "under") == ["3C"]
    assert events(s, "verdict")[-1] == {"type": "verdict", "seat": 1, "declared": "success", "verdict": "mixed"}


def test_order_of_the_play_matters():
    """Digest: the child plays 'in a chosen order'; 9D then 7H is mixed where 7H then 9D is ○."""
    s = start(hands={1: ["7H", "9D", "KS"], 2: ["2S"], 3: ["2S"]}, stock=STOCK)
    s.apply("play 7H 9D success")
    assert events(s, "verdict")[-1]["verdict"] == "success" and len(codes(s, "hand", 1)) == 1
    s = start(hands={1: ["7H", "9D", "KS"], 2: ["2S"], 3: ["2S"]}, stock=STOCK)
    s.apply("play 9D 7H success")
    assert events(s, "verdict")[-1]["verdict"] == "mixed"


def test_right_failure_declaration_costs_nothing():
    """Digest: ● failure = each card fails as the next card; the cards stay out of hands (settled)."""
    s = start(hands={1: ["3C", "4D", "KS"], 2: ["2S"], 3: ["2S"]}, stock=STOCK)
    s.apply("play 3C 4D failure")
    assert codes(s, "under") == ["3C", "4D"] and codes(s, "line") == ["5S"]
    assert codes(s, "hand", 1) == ["KS"] and not events(s, "penalty")


def test_wrong_declaration_draws_two_per_card_played():
    """Digest: a wrong declaration costs 2 x (cards played) from the stock."""
    s = start(hands={1: ["7H", "3C", "9D", "KS"], 2: ["2S"], 3: ["2S"]}, stock=STOCK)
    before = len(codes(s, "stock"))
    s.apply("play 7H 3C 9D success")   # mixed: wrong
    assert len(codes(s, "hand", 1)) == 1 + 6
    assert len(codes(s, "stock")) == before - 6
    assert counter(s, "out")[1] == 0


def test_play_takes_one_to_four_cards():
    """Digest: a child plays 1-4 cards; five is not a legal action (state unchanged)."""
    s = start(hands={1: ["7H", "8H", "9H", "TH", "JH"], 2: ["2S"], 3: ["2S"]}, stock=STOCK)
    with pytest.raises(IllegalAction):
        s.apply("play 7H 8H 9H TH JH success")
    assert len(codes(s, "hand", 1)) == 5
    s.apply("play 7H 8H 9H TH success")
    assert codes(s, "line")[-4:] == ["7H", "8H", "9H", "TH"]


def test_declaration_must_be_success_or_failure():
    s = start(hands={1: ["7H"], 2: ["2S"], 3: ["2S"]}, stock=STOCK)
    with pytest.raises(IllegalAction):
        s.apply("play 7H mixed")


# ---- Disqualification ---------------------------------------------------------------
def test_stock_cannot_pay_draws_the_rest_and_disqualifies():
    """Digest: fewer cards in the stock than the penalty: draw what is left, disqualified."""
    s = start(hands={1: ["7H", "3C", "KS"], 2: ["2S", "3S"], 3: ["2S", "3S"]}, stock=["2C", "3C", "4C"])
    s.apply("play 7H 3C success")   # mixed, penalty 4, stock 3
    assert codes(s, "stock") == [] and len(codes(s, "hand", 1)) == 1 + 3
    assert counter(s, "out")[1] == 1
    assert events(s, "disqualified")[-1]["seat"] == 1
    assert s.to_act == 2   # a disqualified child is not offered to become a prophet, and is skipped


def test_wrong_declaration_with_empty_stock_disqualifies():
    s = start(hands={1: ["3C", "KS"], 2: ["2S", "3S"], 3: ["2S", "3S"]}, stock=[])
    s.apply("play 3C success")
    assert counter(s, "out")[1] == 1


def test_after_forty_cards_a_wrong_declaration_disqualifies():
    """Digest: after 40 cards have been played in total, a wrong declaration draws and disqualifies."""
    s = start(hands={1: ["3C", "KS"], 2: ["2S", "3S"], 3: ["2S", "3S"]}, stock=STOCK, cards_played=40)
    s.apply("play 3C success")
    assert counter(s, "out")[1] == 1 and len(codes(s, "hand", 1)) == 3
    s = start(hands={1: ["3C", "KS"], 2: ["2S", "3S"], 3: ["2S", "3S"]}, stock=STOCK, cards_played=39)
    s.apply("play 3C success")
    assert counter(s, "out")[1] == 0


# ---- Prophets ------------------------------------------------------------------------
def test_prophet_declared_at_the_end_of_own_turn_even_after_a_penalty():
    s = start(hands={1: ["3C", "KS"], 2: ["2S", "3S"], 3: ["2S", "3S"]}, stock=STOCK)
    s.apply("play 3C success")   # wrong: penalty
    assert set(s.legal_actions()) == {"prophet", "skip"}
    s.apply("prophet")
    assert counter(s, "prophet") == [0, 1, 0, 0] and s.to_act == 2


def test_prophets_judge_secretly_and_a_right_judgement_counts():
    """Digest: each prophet (not the player) judges ○/●/○● in secret; no view shows it before all chose."""
    s = start(hands={1: ["7H", "KS"], 2: ["2S", "3S"], 3: ["2S", "3S"]}, stock=STOCK)
    set_counter(s, "prophet", 2, 1)
    set_counter(s, "prophet", 3, 1)
    s.apply("play 7H success")
    assert s.to_act == 2 and set(s.legal_actions()) == {"judge success", "judge failure", "judge mixed"}
    s.apply("judge success")
    assert s.to_act == 3
    for seat in (0, 1, 3):
        v = s.view(seat, log=True)
        assert v["counters"]["judged"][2] is None
        assert "judge success" not in json.dumps(v["log"])
    assert s.view(2)["counters"]["judged"][2] == 1
    s.apply("judge failure")
    assert [(e["seat"], e["call"], e["right"]) for e in events(s, "prophet_judgement")] == \
        [(2, "success", True), (3, "failure", False)]
    assert counter(s, "correct")[2] == 1
    assert counter(s, "out")[3] == 1 and counter(s, "fallen")[3] == 1   # seat 3 overthrown
    assert counter(s, "bonus")[1] == 2


def test_dealer_judgement_decides_where_the_cards_go():
    """Digest: the dealer's judgement (the rule's) places the cards, whatever the prophets say."""
    s = start(hands={1: ["7H", "KS"], 2: ["2S", "3S"], 3: ["2S", "3S"]}, stock=STOCK)
    set_counter(s, "prophet", 2, 1)
    s.apply("play 7H success")
    s.apply("judge failure")
    assert codes(s, "line") == ["5S", "7H"]


def test_prophet_wrong_declaration_disqualifies_at_once():
    s = start(hands={1: ["3C", "KS"], 2: ["2S", "3S"], 3: ["2S", "3S"]}, stock=STOCK)
    set_counter(s, "prophet", 1, 1)
    s.apply("play 3C success")
    assert counter(s, "out")[1] == 1 and counter(s, "fallen")[1] == 1
    assert len(codes(s, "hand", 1)) == 1 + 2   # the penalty is drawn too
    assert "prophet" not in s.legal_actions()


# ---- Hints ---------------------------------------------------------------------------
def test_hints_after_the_10th_20th_and_30th_card():
    s = start(hands={1: ["7H", "8H", "KS"], 2: ["2S", "3S"], 3: ["2S", "3S"]}, stock=STOCK, cards_played=8)
    s.apply("play 7H 8H success")
    assert [(e["after"], e["hint"]) for e in events(s, "hint")] == [(10, "Upwards; after the top, start again.")]
    s = start(hands={1: ["7H", "KS"], 2: ["2S", "3S"], 3: ["2S", "3S"]}, stock=STOCK, cards_played=30)
    s.apply("play 7H success")
    assert events(s, "hint") == []   # only when the 10th/20th/30th card is played by this play
    s = start(hands={1: ["7H", "KS"], 2: ["2S", "3S"], 3: ["2S", "3S"]}, stock=STOCK, cards_played=29)
    s.apply("play 7H success")
    assert [e["after"] for e in events(s, "hint")] == [30]


def test_no_hint_when_the_round_ends():
    s = start(hands={1: ["7H"], 2: ["2S", "3S"], 3: ["2S", "3S"]}, stock=STOCK, cards_played=9)
    s.apply("play 7H success")
    assert events(s, "hint") == []


# ---- End of the round and scoring ----------------------------------------------------------
def _round_points(s):
    ev = [e for e in s.log_all() if e["type"] == "deal_score"][-1]
    return {int(k): v for k, v in ev["points"].items()}


def test_score_child_empties_hand():
    """Scoring: -1 per card left, +4 for emptying; dealer +2 when a non-prophet empties."""
    s = start(hands={1: ["7H"], 2: ["2S", "3S"], 3: ["2S", "3S", "4S"]}, stock=STOCK)
    s.apply("play 7H success")
    assert _round_points(s) == {0: 2, 1: 4, 2: -2, 3: -3}
    assert events(s, "hand_empty") == [{"type": "hand_empty", "seat": 1, "prophet": False}]
    assert events(s, "rule_revealed")[-1]["name"] == "climb"   # revealed when the round ends


@pytest.mark.parametrize("prophet", [False, True])
def test_round_ends_when_the_play_that_disqualifies_empties_the_hand(prophet):
    """Digest, End of the round: "A child's hand is empty" — any child's, also one disqualified by the
    play that emptied it (issue 20 item 11: a wrong declaration with an empty stock draws nothing and
    disqualifies; the round went on). The child is disqualified (a prophet falls) and the round ends."""
    s = start(hands={1: ["3C"], 2: ["2S", "3S"], 3: ["2S", "3S", "4S"]}, stock=[])
    if prophet:
        set_counter(s, "prophet", 1, 1)
    s.apply("play 3C success")   # climb from 5S: 3C goes under the line, so the declaration is wrong
    assert [e["seat"] for e in events(s, "disqualified")] == [1]
    assert events(s, "hand_empty") == [{"type": "hand_empty", "seat": 1, "prophet": prophet}]
    assert events(s, "deal_score"), "the round is over"


def test_score_prophet_empties_hand_and_gains_capped_at_five():
    """Scoring: a prophet +1 per correct judgement, at most +5; dealer +4 when a prophet empties."""
    s = start(hands={1: ["7H"], 2: ["2S", "3S"], 3: ["2S", "3S", "4S"]}, stock=STOCK)
    set_counter(s, "prophet", 1, 1)
    set_counter(s, "correct", 1, 7)
    set_counter(s, "prophet", 3, 1)
    set_counter(s, "correct", 3, 2)
    s.apply("play 7H success")
    s.apply("judge success")   # seat 3, right: 3 correct
    assert _round_points(s) == {0: 4, 1: 4 + 5, 2: -2, 3: -3 + 3}


def test_score_overthrown_prophet_and_the_child_who_did_it():
    """Scoring: an overthrown prophet -5 (gains reset); +2 to the child whose play did it; dealer +3."""
    s = start(hands={1: ["7H", "8H"], 2: ["2S", "3S"], 3: ["2S", "3S", "4S"]}, stock=STOCK)
    set_counter(s, "prophet", 3, 1)
    set_counter(s, "correct", 3, 4)
    s.apply("play 7H success")
    s.apply("judge failure")   # wrong: seat 3 overthrown
    s.apply("skip")
    s.apply("play 3S failure")   # seat 2, right
    s.apply("skip")
    s.apply("play 8H success")   # seat 1 empties the hand (seat 3 is out, skipped)
    assert _round_points(s) == {0: 2 + 3, 1: 4 + 2, 2: -1, 3: -3 - 5}


def test_score_every_child_disqualified():
    """Scoring: the round ends when every child is disqualified; the dealer loses 1 per card of the
    child holding the fewest cards."""
    s = start(hands={1: ["3C", "KS"], 2: ["3D", "KS", "QS"], 3: ["3H", "KS", "QS", "JS"]}, stock=[])
    s.apply("play 3C success")
    s.apply("play 3D success")
    s.apply("play 3H success")
    pts = _round_points(s)
    assert pts == {0: -1, 1: -1, 2: -2, 3: -3}
    assert len(events(s, "all_disqualified")) == 1 and not events(s, "hand_empty")


def test_one_round_per_dealer_with_bots():
    """Digest 'Who deals': each player deals once; dealers rotate to the left."""
    g = game(4)
    s = g.new_state(seed=3)
    bots = {i: from_ruleset(g, i) for i in range(4)}
    while not s.terminal:
        v = s.view(s.to_act, log=True, legal=False)
        s.apply_move(s._parse(bots[s.to_act].choose(v)))
    assert [e["dealer"] for e in events(s, "deal_start")] == [0, 1, 2, 3]
    assert len(events(s, "rule_revealed")) == 4
    totals = [sum(e["points"][str(p)] for e in events(s, "deal_score")) for p in range(4)]
    assert totals == [int(x) for x in s.scores().values()]


# ---- The secret rule ---------------------------------------------------------------
def test_secret_rule_never_in_another_seats_view_or_log_before_the_round_ends():
    g = game(4)
    s = g.new_state(seed=11)
    s.apply("rule suit_cycle")
    text = "last.suit == spades and card.suit == hearts"
    rng = random.Random(1)
    for _ in range(25):
        if s.terminal or s.view(0)["deal"] != 1:
            break
        for seat in (None, 1, 2, 3):
            dump = json.dumps(s.view(seat, log=True, legal=False))
            assert "suit_cycle" not in dump and text not in dump and '"rule"' not in dump
        assert '"rule"' in json.dumps(s.view(0, log=True, legal=False)["vars"])
        legal = s.legal_actions()
        s.apply(legal[int(rng.random() * len(legal))])
    s2 = g.new_state(seed=11)
    s2.apply("rule suit_cycle")
    bots = {i: from_ruleset(g, i) for i in range(4)}
    while s2.view(0)["deal"] == 1:
        v = s2.view(s2.to_act, log=True, legal=False)
        s2.apply_move(s2._parse(bots[s2.to_act].choose(v)))
    assert any(e.get("name") == "suit_cycle" for e in s2.log(1) if e["type"] == "rule_revealed")


def test_a_person_types_a_rule_compiled_at_once():
    g = game(4)
    s = g.new_state(seed=5)
    s.apply("write card.suit == last.suit or card.rank == 7 hint: sevens are wild")
    assert s.v[g.var["rule"].index] >= 0
    s = start(rule="write card.suit == last.suit hint: a family", hands={1: ["7S", "7H"], 2: ["2S"], 3: ["2S"]},
              stock=STOCK)
    s.apply("play 7S 7H success")   # 7S follows 5S, 7H does not
    assert events(s, "verdict")[-1]["verdict"] == "mixed"


@pytest.mark.parametrize("text, words", [
    ("write card.rank >", "does not compile"),
    ("write card.rank = last.rank", "=="),
    ("write count(hand[1]) > 0", "only card, last, line"),
    ("write card.rank + 1", "expected bool"),
    ("rule no_such_rule", "no library rule"),
])
def test_a_bad_typed_rule_is_a_clear_error_and_changes_nothing(text, words):
    g = game(4)
    s = g.new_state(seed=5)
    with pytest.raises(IllegalAction) as e:
        s.apply(text)
    assert words in str(e.value)
    assert s.to_act == 0 and s.view(0)["step"] == "secret"


def test_library_has_twenty_rules_with_hints():
    step = next(st for st in game(4).steps if st.kind == "secret_rule")
    assert len(step.library) >= 20
    rules = game(4).ns["_SR_RULES"]
    assert all(rules[rid][2] for _, rid in step.library)


# ---- The induction bot ---------------------------------------------------------------
def test_induction_bot_keeps_only_consistent_rules():
    g = game(4)
    bot = InductionBot(g, g.data["bots"]["default"], seed=1)
    log = [{"type": "deal_start"}, {"type": "starter", "card": "5S"},
           {"type": "judged", "card": "7H", "ok": True}, {"type": "judged", "card": "3C", "ok": False},
           {"type": "judged", "card": "9D", "ok": True}, {"type": "judged", "card": "2D", "ok": False}]
    names = {n for n, _ in bot.candidates(log)}
    assert "climb" in names and "colours_alternate" not in names and "descend" not in names


def test_induction_bot_finds_the_rule_in_most_rounds():
    """12 rounds (3 matches of 4 players); benchmarks/induction_rate.py measures 200+."""
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "induction_rate.py"
    spec = importlib.util.spec_from_file_location("induction_rate", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rate = mod.rate
    found, rounds = rate(matches=3, players=4, seed=100)
    assert rounds == 12 and found / rounds >= 0.5


def test_induction_bot_prophesies_when_the_rules_left_judge_alike():
    """Red only and same colour judge every card alike on an all-red line: the bot may prophesy;
    climb and descend do not."""
    g = game(4)
    bot = InductionBot(g, g.data["bots"]["default"], seed=1)
    lib = dict(bot.library)
    f = g.deck.face
    red_line = [f("5H"), f("9D")]
    assert bot.settled([("red_only", lib["red_only"]), ("same_colour", lib["same_colour"])], red_line)
    assert not bot.settled([("climb", lib["climb"]), ("descend", lib["descend"])], red_line)
    assert bot.settled([("climb", lib["climb"])], red_line)


@pytest.mark.parametrize("bad, words", [
    ("card.colour != last.color", "colour"),
    ("count(hand[0]) > 0", "only card, last, line"),
])
def test_a_bad_library_rule_is_reported_at_its_position(tmp_path, bad, words):
    from pathlib import Path
    from cardspec.errors import RulesetError
    src = (Path(__file__).resolve().parent.parent / "rulesets" / "eleusis-prophets.yaml").read_text()
    assert "rule: card.color != last.color," in src
    p = tmp_path / "bad.yaml"
    p.write_text(src.replace("rule: card.color != last.color,", f"rule: '{bad}',"))
    with pytest.raises(RulesetError) as e:
        Game(str(p), 4)
    text = str(e.value)
    assert "bad.yaml:" in text and words in text
