"""Gin Rummy (rulesets/gin-rummy.yaml) against its digest, docs/rules/gin-rummy.md, and an independent oracle
(tests/_gin_oracle.py): least deadwood, lay-offs, the first turn, knocking, void hands, hand scores and the
game's tally. The engine's part is general: ``deadwood`` and ``melds_of`` (lang/arrangement.py, docs/dsl.md
"Arranging a hand into melds").
"""
from __future__ import annotations

import random

import pytest

import cardspec
from cardspec.lang.arrangement import deadwood, deadwood_after_lay_offs, melds_of
from cardspec.players import make_bot
from cardspec.players.base import take_turn

import _gin_oracle as oracle

GAME = cardspec.load("gin-rummy")


def ids(text):
    return [GAME.deck.code.index(c) for c in text.split()]


def dw(text):
    return deadwood(ids(text), GAME.ns["STRENGTH"], GAME.ns["SUIT"], GAME.ns["POINTS"])


def melds(text):
    return melds_of(ids(text), GAME.ns["STRENGTH"], GAME.ns["SUIT"], GAME.ns["POINTS"])


def after_lay_offs(text, knocker_text):
    return deadwood_after_lay_offs(ids(text), melds(knocker_text), GAME.ns["STRENGTH"], GAME.ns["SUIT"],
                                   GAME.ns["RANK"], GAME.ns["POINTS"])


# ---- gin-rummy.md, "Worked examples" ------------------------------------------------------------------------

def test_least_deadwood_the_arrangement_matters():
    """gin-rummy.md, Worked examples: sets 3s and Qs leave 12; the run 3-5♥ and the Qs leave 9 — least 9."""
    assert dw("3C 3D 3H 4H 5H QS QH QD AS 2C") == 9


def test_a_seven_in_a_set_or_a_run():
    """gin-rummy.md, Worked examples: 7♣ 7♠ 7♦ and 7♥ 8♥ 9♥ leave nothing; the four sevens would leave 17."""
    assert dw("7C 7S 7D 7H 8H 9H") == 0
    assert sorted(len(m) for m in melds("7C 7S 7D 7H 8H 9H")) == [3, 3]


def test_the_ace_is_low_only():
    """gin-rummy.md, Cards and Worked examples: A♣ 2♣ 3♣ is a run; Q♦ K♦ A♦ is not (10 + 10 + 1)."""
    assert dw("AC 2C 3C") == 0
    assert dw("QD KD AD") == 21


def test_knock_with_lay_offs_example():
    """gin-rummy.md, Worked examples, "Knock with lay-offs": K = 5, the defender lays off 3♠ 7♠ 9♠ 10♥ and
    counts 24; the knocker scores 19."""
    knocker = "4S 5S 6S 9C 9D 9H JH QH KH 5D"
    assert dw(knocker) == 5
    d = after_lay_offs("3S 7S 9S TH 2C 2D 2H KC 8D 6C", knocker)
    assert d == 24
    assert oracle.hand_score(5, d) == ("knocker", 19, "knock")


def test_undercut_example():
    """gin-rummy.md, Worked examples, "Undercut": K = 9, the defender lays off 5♥ and 8♥ and counts 5: he
    scores 9 - 5 + 25 = 29 (25 had he counted 9)."""
    knocker = "2H 3H 4H 8S 8C 8D TC JC QC 9D"
    assert dw(knocker) == 9
    d = after_lay_offs("AS AD AC 4S 5S 6S 5H 8H 2C 3D", knocker)
    assert d == 5
    assert oracle.hand_score(9, d) == ("defender", 29, "undercut")
    assert oracle.hand_score(9, 9) == ("defender", 25, "undercut")


def test_gin_example_allows_no_lay_off():
    """gin-rummy.md, Worked examples, "Gin": 4♣ would fit A♣-3♣ but a gin takes no lay-off: D = 42, the
    knocker scores 25 + 42 = 67 (the ruleset counts the defender without lay-offs on a gin)."""
    assert dw("AC 2C 3C 6D 6H 6S 9H TH JH QH") == 0
    assert dw("KS KD KC 4D 5D QS 7C TD 2H 4C") == 42
    assert oracle.hand_score(0, 42) == ("knocker", 67, "gin")


def test_match_tally_examples():
    """gin-rummy.md, Worked examples, "Match tally" and "Shutout" (the oracle's tally, which the matches
    below hold the engine's counters to)."""
    assert oracle.tallies([100, 41], [3, 2]) == [275, 91]
    assert oracle.tallies([115, 0], [2, 0]) == [365, 0]
    assert oracle.tallies([115, 0], [2, 0], shutout="double_hands") == [380, 0]


def test_engine_and_oracle_agree_on_random_hands():
    """The least deadwood (with and without lay-offs) of 400 random 10-card hands: the engine's search and the
    oracle's brute force agree."""
    rng = random.Random(7)
    codes = list(GAME.deck.code)
    for _ in range(400):
        cards = rng.sample(codes, 20)
        a, b = " ".join(cards[:10]), " ".join(cards[10:])
        assert dw(a) == oracle.least_deadwood(cards[:10]), a
        table = [[GAME.deck.code[c] for c in m] for m in melds(b)]
        assert after_lay_offs(a, b) == oracle.least_with_lay_offs(cards[:10], table), (a, b)


# ---- whole games against the oracle -------------------------------------------------------------------------

def _expected_legal(view, hand, pile_card, stock_first, redraw=False):
    """The legal actions of the seat to act, from the digest's "Play" (None: the decision is not judged)."""
    if len(hand) == 10:
        return None
    out = set()
    for c in set(hand):
        if not redraw and c == pile_card:
            continue
        out.add(f"discard {c}")
        rest = list(hand)
        rest.remove(c)
        if oracle.least_deadwood(rest) <= 10:
            out.add(f"knock {c}")
    return out


def _play(seed, mix=0.7, max_decisions=3000):
    """A whole game: each decision from the ruleset's policy with probability ``mix``, else at random. Checks
    every decision's legal set against the oracle (the draw and the discard phases), every hand's counts and
    score, void hands, the dealer, and the final tally. Returns (hands scored, voids)."""
    s = GAME.new_state(seed=seed)
    rng = random.Random(seed)
    policy = make_bot("policy:basic", seed, GAME, None)
    scores, won = [0, 0], [0, 0]
    pile_card, passes, stock_first = None, 0, False
    seen = len(s.log_all())   # (the first deal's opening events)
    hands = voids = 0
    dealer = 0
    shown, knock, last_void, last_winner = {}, None, False, None
    for _ in range(max_decisions):
        if s.terminal:
            break
        seat = s.to_act
        view = s.view(seat)
        hand = view["zones"]["hand"][str(seat)]
        legal = s.legal_actions()
        phase_draw = "draw" in legal
        if phase_draw:
            expect = {"draw"} | ({"take"} if view["zones"]["discard"]["count"] > 0 and not stock_first else set())
            assert set(legal) == expect, (seed, legal, expect)
        elif "pass" in legal:
            assert set(legal) == {"take", "pass"}, legal
        else:
            expect = _expected_legal(view, hand, pile_card, stock_first)
            if expect is not None:
                assert set(legal) == expect, (seed, sorted(legal), sorted(expect), hand, pile_card)
        top = view["zones"]["discard"].get("top")
        action = policy.act(view, legal) if rng.random() < mix else rng.choice(legal)
        s.apply(action)
        if action == "take":
            pile_card = top
        elif action == "draw":
            pile_card, stock_first = None, False
        elif action == "pass":
            passes += 1
            stock_first = passes == 2
        events = s.log_all()[seen:]
        seen += len(events)
        for e in events:
            if e["type"] == "deal_start":
                if e["deal"] > 1:
                    dealer_expected = dealer if last_void else (1 - last_winner)
                    assert e["dealer"] == dealer_expected, (seed, e, dealer)
                dealer = e["dealer"]
                pile_card, passes, stock_first = None, 0, False
                shown, knock, last_void = {}, None, False
            elif e["type"] == "reveal":
                shown[e["seat"]] = e["cards"]
            elif e["type"] in ("knock", "gin"):
                knock = e
            elif e["type"] == "void_hand":
                voids += 1
                last_void = True
            elif e["type"] == "hand_score":
                k_seat = knock["seat"]
                table = knock["melds"]
                flat = [c for m in table for c in m]
                assert all(oracle.is_meld(m) for m in table) and len(set(flat)) == len(flat)
                k_cards = flat + shown[k_seat]
                k = oracle.least_deadwood(k_cards)
                assert sum(oracle.value(c) for c in shown[k_seat]) == k, (seed, knock, shown)   # least shown
                assert (k == 0) == (knock["type"] == "gin") and k <= 10
                d_cards = shown[1 - k_seat]
                d = oracle.least_deadwood(d_cards) if k == 0 else oracle.least_with_lay_offs(d_cards, table)
                who, points, how = oracle.hand_score(k, d)
                winner = k_seat if who == "knocker" else 1 - k_seat
                assert (e["seat"], e["points"], e["how"]) == (winner, points, how), (seed, e, k, d)
                scores[winner] += points
                won[winner] += 1
                hands += 1
                last_winner = winner
            elif e["type"] == "deal_end" and not last_void:
                assert knock is not None
    assert s.terminal, f"seed {seed}: not over after {max_decisions} decisions"
    counters = s.view(None)["counters"]
    assert counters["score"] == scores and counters["hands_won"] == won
    assert max(scores) >= 100 and min(scores) < 100
    assert counters["tally"] == oracle.tallies(scores, won)
    assert s.view(None).get("winner", scores.index(max(scores))) == scores.index(max(scores))
    return hands, voids


def test_whole_games_against_the_oracle():
    """gin-rummy.md, Play, Scoring and Match end, over whole games of mixed policy and random play: every
    legal set of the draw and discard phases, every hand's knocker count (the least deadwood, laid out),
    the defender's count (lay-offs unless gin), the hand score, the dealer of each hand (the loser; the
    same after a void hand) and the final tallies."""
    hands = voids = 0
    for seed in range(8):
        h, v = _play(seed)
        hands += h
        voids += v
    assert hands >= 40 and voids >= 1, (hands, voids)


@pytest.mark.slow
def test_five_hundred_hands_against_the_oracle():
    """The same over at least 500 scored hands (docs/rules/gin-rummy.md; run with -m slow)."""
    hands = voids = seed = 0
    while hands < 500:
        h, v = _play(1000 + seed)
        hands, voids, seed = hands + h, voids + v, seed + 1
    assert voids > 0


def test_first_turn_upcard_may_not_be_discarded():
    """gin-rummy.md, Play, "First turn" and the worked example: the non-dealer passes, the dealer takes the
    upcard and may not discard it; the non-dealer then may take the dealer's discard."""
    s = GAME.new_state(seed=11)
    up = s.view(None)["zones"]["discard"]["top"]
    assert s.to_act == 1 and set(s.legal_actions()) == {"take", "pass"}
    s.apply("pass")
    assert s.to_act == 0
    s.apply("take")
    legal = s.legal_actions()
    assert f"discard {up}" not in legal and f"knock {up}" not in legal
    assert any(a.startswith("discard ") for a in legal)
    refused = s.illegal_reason(f"discard {up}")
    assert refused and "taken from the discard pile" in refused
    s.apply(next(a for a in legal if a.startswith("discard ")))
    assert s.to_act == 1 and set(s.legal_actions()) == {"draw", "take"}


def test_both_pass_the_non_dealer_draws_from_the_stock():
    """gin-rummy.md, Play: if both pass the upcard, the non-dealer begins and must draw from the stock."""
    s = GAME.new_state(seed=12)
    s.apply("pass")
    s.apply("pass")
    assert s.to_act == 1 and s.legal_actions() == ["draw"]
    assert "stock" in s.illegal_reason("take")


def test_redraw_discard_option():
    """gin-rummy.md, Options: redraw_discard allowed lets the card just taken be discarded."""
    g = cardspec.load("gin-rummy", options={"redraw_discard": True})
    s = g.new_state(seed=11)
    up = s.view(None)["zones"]["discard"]["top"]
    s.apply("pass")
    s.apply("take")
    assert f"discard {up}" in s.legal_actions()


def test_knock_is_face_down_to_the_other_seat():
    """gin-rummy.md, Play: the knocker discards face down: the other seat's log counts the card, the
    knocker's names it (engine/information.py)."""
    for seed in range(40):
        s = GAME.new_state(seed=seed)
        bots = [make_bot("policy:basic", seed, GAME, None) for _ in range(2)]
        for _ in range(200):
            legal = s.legal_actions()
            knocks = [a for a in legal if a.startswith("knock ")]
            if knocks:
                seat = s.to_act
                s.apply(knocks[0])
                mine = [e for e in s.log(seat) if e["type"] == "action"][-1]
                theirs = [e for e in s.log(1 - seat) if e["type"] == "action"][-1]
                assert mine["action"] == knocks[0]
                assert theirs["action"] == "knock 1 card face down"
                return
            s.apply(bots[s.to_act].act(s.view(s.to_act), legal))
    pytest.fail("no knock in 40 games")


@pytest.mark.parametrize("spec", ["random", "policy:basic", "ismcts:30"])
def test_bots_finish_a_game(spec):
    """Whole games with random, policy and ISMCTS bots end with a winner at the target."""
    s = GAME.new_state(seed=3)
    bots = [make_bot(spec, 3, GAME, "basic"), make_bot("policy:basic", 4, GAME, None)]
    for _ in range(20000):
        if s.terminal:
            break
        take_turn(s, bots[s.to_act])
    assert s.terminal and max(s.view(None)["counters"]["score"]) >= 100


def test_knock_rummy_variant_from_the_docs(tmp_path):
    """docs/dsl.md, "Arranging a hand into melds": the Knock Rummy variant printed there validates and plays;
    a knock at any count is legal, and each hand's counts are the oracle's least deadwood without lay-offs."""
    from pathlib import Path
    from cardspec.validate import validate_ruleset
    text = (Path(__file__).parent.parent / "docs" / "dsl.md").read_text()
    block = text.split("**Knock Rummy**", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    f = tmp_path / "knock-rummy.yaml"
    f.write_text(block)
    problems, status = validate_ruleset(str(f), {}, play=True)
    assert status == 0 and not problems, [p.format() for p in problems]
    g = cardspec.load(str(f))
    s = g.new_state(seed=4)
    rng = random.Random(4)
    knocked_high = scored = 0
    while not s.terminal and scored < 30:
        legal = s.legal_actions()
        hand = s.view(s.to_act)["zones"]["hand"][str(s.to_act)]
        knocks = [a for a in legal if a.startswith("knock ")]
        if knocks and len(hand) == 11:
            assert len(knocks) == len({c for c in hand if f"knock {c}" in legal})
            if rng.random() < 0.3:
                rest = list(hand)
                rest.remove(knocks[0].split()[1])
                knocked_high += oracle.least_deadwood(rest) > 10
                n = len(s.log_all())
                s.apply(knocks[0])
                shown = {e["seat"]: e for e in s.log_all()[n:] if e["type"] == "hand_score"}
                scored += len(shown)
                continue
        s.apply(rng.choice(legal))
    assert scored >= 3 and knocked_high >= 1, (scored, knocked_high)
