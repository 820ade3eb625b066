"""Cribbage (rulesets/cribbage.yaml): the worked examples of docs/rules/cribbage.md, each from its section.

A deal is set up by the deck's order (``deck_order``: the first deal's cards, top first; the deal step
deals one card at a time from the dealer's left, so the non-dealer (seat 1, the first dealer being seat
0) gets cards 1, 3, 5, …, the dealer 2, 4, 6, …, and the 13th card is the starter). Each player lays away
the two cards named; the play then follows the actions given.
"""
from __future__ import annotations

import pytest

import cardspec
from cardspec.errors import IllegalAction

GAME = cardspec.load("cribbage")
SCORE = GAME.counter["score"].index
P, D = 1, 0          # the non-dealer (pone) and the dealer of the first deal


def _order(p6, d6, starter):
    out = []
    for a, b in zip(p6.split(), d6.split()):
        out += [a, b]
    return out + [starter]


def deal(p6, d6, starter, p_away, d_away, scores=None, game=GAME):
    """A state after the laying away (and his heels): P holds p6 less p_away, D d6 less d_away."""
    s = game.new_state(seed=1, deck_order=_order(p6, d6, starter))
    if scores is not None:
        s.c[SCORE][P], s.c[SCORE][D] = scores[P], scores[D]
    s.apply("pass " + p_away, seat=P)
    s.apply("pass " + d_away, seat=D)
    return s


def shows(s):
    return [(e["seat"], e["what"], e["points"]) for e in s.log_all() if e["type"] == "show"]


def play_out(s, plays):
    for seat, card in plays:
        s.apply("play " + card, seat=seat)
    return s


def play_greedy_lowest(s):
    """Play the rest of the deal with any legal card (the show does not depend on the play's order)."""
    deal_no = s.v[2]
    while not s.terminal and s.v[2] == deal_no:
        s.apply(sorted(s.legal_actions())[0])
    return s


# ---- the show (cribbage.md, "Worked examples", counting the show) --------------------------------------
def _show_of(p4_plus_away, starter, p_away, d6="2C 3C 4C 6C 7C 8C", d_away="2C 3C", what="hand", seat=P):
    s = deal(p4_plus_away, d6, starter, p_away, d_away)
    play_greedy_lowest(s)
    return [pts for st, w, pts in shows(s) if st == seat and w == what][0]


def test_the_29_hand():
    """cribbage.md, Worked examples: 5C 5D 5H JS, starter 5S: fifteens 16, pairs 12, his nobs 1 = 29."""
    assert _show_of("5C 5D 5H JS 9D TD", "5S", "9D TD", d6="2C 3C 4C 6C 7C 8C") == 29


def test_double_run():
    """4S 4H 5C 6D, starter 9S: fifteens 6, a pair 2, runs 4-5-6 twice 6 = 14."""
    assert _show_of("4S 4H 5C 6D KD QD", "9S", "KD QD") == 14


def test_triple_run():
    """7C 7D 7H 8S, starter 9C: fifteens 6, pair royal 6, runs 7-8-9 three times 9 = 21."""
    assert _show_of("7C 7D 7H 8S KD QD", "9C", "KD QD", d6="2S 3S 4S 6S AD 2D", d_away="2S 3S") == 21


def test_nobs_and_a_run():
    """JH 4S 5C 6D, starter QH: fifteens 6, run 3, his nobs 1 = 10."""
    assert _show_of("JH 4S 5C 6D KD 9D", "QH", "KD 9D") == 10


def test_no_nobs_for_the_starter_jack_but_his_heels():
    """Same hand, starter JC: fifteens 6, a pair of jacks 2, run 3, no nobs = 11; the dealer pegged 2 for
    his heels before the play (cribbage.md, Deal: 'His heels')."""
    s = deal("JH 4S 5C 6D KD 9D", "2C 3C 4C 6C 7C 8C", "JC", "KD 9D", "2C 3C")
    assert s.c[SCORE] == [2, 0]
    assert any(e["type"] == "his_heels" and e["seat"] == D for e in s.log_all())
    play_greedy_lowest(s)
    assert [pts for st, w, pts in shows(s) if st == P] == [11]


@pytest.mark.parametrize("starter,as_hand,as_crib", [("KC", 4, 0), ("KH", 5, 5)])
def test_flush_in_hand_and_crib(starter, as_hand, as_crib):
    """2H 4H 8H QH score only the flush: as a hand 4 (5 with a heart starter); as the crib 0 with KC (no
    four-card flush in the crib), 5 with KH (cribbage.md, Scoring: flush)."""
    assert _show_of("2H 4H 8H QH AS 3S", starter, "AS 3S", d6="AC 3C 6S 7S 9S TS", d_away="AC 3C") == as_hand
    # the crib: P lays away 2H 4H, D lays away 8H QH
    got = _show_of("2H 4H 6S 7S 9S TS", starter, "2H 4H", d6="8H QH AC 3C 6C 7C", d_away="8H QH",
                   what="crib", seat=D)
    assert got == as_crib


def test_nineteen():
    """2C 4D 10H QS, starter KD: 0 ('nineteen')."""
    assert _show_of("2C 4D TH QS 6S 7S", "KD", "6S 7S", d6="AC 3C AS 3S 5H 9H", d_away="5H 9H") == 0


# ---- the play (cribbage.md, "Play (the pegging)" and the play of one deal) --------------------------------
def _example_deal(scores=(112, 97)):
    # P holds 5S 5D 8C 7H, D holds 5H KC 6C 9D; starter 6H; P 97, D 112
    return deal("5S 5D 8C 7H AC 2C", "5H KC 6C 9D AD 2D", "6H", "AC 2C", "AD 2D",
                scores={P: scores[1], D: scores[0]})


def test_the_play_of_one_deal():
    """cribbage.md, Worked examples: count 1 — pair D 2, pair royal and fifteen P 8, P says go, D's 31 for
    2 and no go point; count 2 led by P — a run out of order P 3, last card P 1. P 109, D 116."""
    s = _example_deal()
    play_out(s, [(P, "5S"), (D, "5H")])
    assert s.c[SCORE][D] == 114
    play_out(s, [(P, "5D")])
    assert s.c[SCORE][P] == 105
    play_out(s, [(D, "KC")])
    # P holds 8C (33) and 7H (32): neither fits; P says go and D must play on
    assert s.to_act == D and s.legal_actions() == ["play 6C"]
    play_out(s, [(D, "6C")])
    assert s.c[SCORE] == [116, 105]              # 31 for 2, nothing more for the go
    assert s.to_act == P and s.v[GAME.var["running"].index] == 0   # count 2, led by P
    play_out(s, [(P, "7H"), (D, "9D")])
    assert s.c[SCORE] == [116, 105]
    s.apply("play 8C", seat=P)
    # 7, 9, 8: a run of 3 (P 108), and the last card of the play (P 109) — then P shows 12 and wins at once
    pegs = [e for e in s.log_all() if e["type"] in ("peg", "go")][-2:]
    assert pegs == [{"type": "peg", "seat": P, "card": "8C", "total": 24, "points": 3},
                    {"type": "go", "seat": P, "points": 1}]


def test_winning_in_the_show_stops_the_count():
    """cribbage.md, Game end: P shows 12 (fifteen 2, pair 2, double run 8) → 121 and wins at once; D's
    hand (8, which would take D to 124) is never counted, nor the crib."""
    s = _example_deal()
    play_out(s, [(P, "5S"), (D, "5H"), (P, "5D"), (D, "KC"), (D, "6C"), (P, "7H"), (D, "9D"), (P, "8C")])
    assert s.terminal
    assert shows(s) == [(P, "hand", 12)]
    assert s.c[SCORE] == [116, 121]
    assert s.result["winner"] == [P] and s.result["reason"] == "a player reached the target"


def test_winning_in_the_middle_of_the_play():
    """cribbage.md, Game end: D at 119 plays the card that makes the count 15 → 121: the game ends there."""
    s = _example_deal(scores=(119, 97))
    play_out(s, [(P, "5S"), (D, "5H")])      # a pair: D 121
    assert s.terminal and s.c[SCORE] == [121, 97]
    assert s.result["winner"] == [D]
    assert not any(e["type"] == "show" for e in s.log_all())


def test_winning_on_his_heels():
    """cribbage.md, Game end: D at 119, the starter turned is a jack → D 121, before the play."""
    s = deal("JH 4S 5C 6D KD 9D", "2C 3C 4C 6C 7C 8C", "JD", "KD 9D", "2C 3C", scores={P: 50, D: 119})
    assert s.terminal and s.c[SCORE] == [121, 50]
    assert not any(e["type"] == "action" and e["action"].startswith("play") for e in s.log_all())


def test_a_go_worth_one_and_who_leads_next():
    """cribbage.md: P KS (10), D QD (20), P 7C (27); D (8H 5D …) says go; P must play on: 3S (30), then 2H
    does not fit and D still cannot play: P pegs 1 for the go; D leads the next count from 0."""
    s = deal("KS 7C 3S 2H AC AS", "QD 8H 5D 9C AD AH", "4D", "AC AS", "AD AH")
    play_out(s, [(P, "KS"), (D, "QD"), (P, "7C")])
    assert s.to_act == P and sorted(s.legal_actions()) == ["play 2H", "play 3S"]   # must play on
    before = s.c[SCORE][P]
    play_out(s, [(P, "3S")])
    assert s.c[SCORE][P] == before + 1          # the go: 30, not 31
    assert s.to_act == D and s.v[GAME.var["running"].index] == 0
    # the played cards stay in front of their players
    played = s.z[GAME.zone["played"].index]
    assert sorted(GAME.deck.code[c] for c in played[P]) == ["3S", "7C", "KS"]


def test_nothing_joins_across_a_reset():
    """P 9 (9), D 10 (19), P 2 (21), D 10 (31): D 2; the new count: P's 10 does not pair D's last 10."""
    s = deal("9C 2C TS KC AS 3S", "TH TD 4H 4D AD 3D", "7S", "AS 3S", "AD 3D")
    play_out(s, [(P, "9C"), (D, "TH"), (P, "2C"), (D, "TD")])
    assert s.c[SCORE] == [2, 0]
    play_out(s, [(P, "TS")])
    assert s.c[SCORE] == [2, 0]
    assert s.to_act == D


def test_a_card_past_31_is_refused_with_the_legal_ones():
    s = _example_deal()
    play_out(s, [(P, "5S"), (D, "5H"), (P, "5D"), (D, "KC")])
    with pytest.raises(IllegalAction) as info:
        s.apply("play 9D", seat=D)
    assert "6C" in str(info.value)
    with pytest.raises(IllegalAction):
        s.apply("play 8C", seat=P)   # not P's turn: P has said go


def test_pairs_royal_and_double_pair_royal_on_the_count():
    """cribbage.md, Play: k of a rank at the end of the count: 2 → 2, 3 → 6, 4 → 12."""
    s = deal("3S 3D 9C 9H KC KD", "3H 3C 9S 9D QC QD", "AH", "KC KD", "QC QD")
    play_out(s, [(P, "3S"), (D, "3H"), (P, "3D")])
    assert s.c[SCORE] == [2, 6]
    play_out(s, [(D, "3C")])
    assert s.c[SCORE] == [14, 6]   # 12 for the fourth three (count 12)


def test_explain_reads_like_cribbage():
    from cardspec.authoring.explain import explain
    text = explain("cribbage")
    for words in ("crib", "starter", "31", "121"):
        assert words in text


# ---- whole matches -----------------------------------------------------------------------------------
@pytest.mark.parametrize("bots", [("random", "random"), ("policy:basic", "random"), ("ismcts:20", "policy:basic")])
def test_whole_matches_with_bots(bots):
    """Matches to 61 (the option, to keep the test short) with each kind of bot: they end with one
    winner at 61 or more, every card in one place at every decision."""
    from cardspec.players import make_bot, take_turn
    g = cardspec.load("cribbage", options={"target": 61})
    for seed in range(2):
        s = g.new_state(seed=seed)
        players = [make_bot(b, seed=seed * 2 + i, game=g) for i, b in enumerate(bots)]
        while not s.terminal:
            held = sum(len(z) if not zn.per_seat else sum(map(len, z)) for z, zn in zip(s.z, g.zones))
            assert held + len(s.plays) + sum(len(f) for f in (s.flight or []) if f) == 52
            take_turn(s, players[s.to_act])
        sc = s.result["scores"]
        assert max(sc.values()) >= 61 and s.result["winner"] == [int(max(sc, key=sc.get))]


def test_the_policy_plays_its_rules():
    """The basic policy makes 15 when a card does it (its first play rule)."""
    from cardspec.players import make_bot, take_turn
    s = deal("TS 9C 2C 3C AC KC", "5H KD 8D 7D AD 2D", "4S", "AC KC", "AD 2D")
    s.apply("play TS", seat=P)
    bot = make_bot("policy:basic", seed=0, game=GAME)
    take_turn(s, bot)
    assert [e for e in s.log_all() if e["type"] == "action"][-1]["action"] == "play 5H"


def test_cut_for_the_first_deal():
    """cribbage.md, Options `cut_for_dealer`: both cut; the lower card deals first; equal ranks cut again.
    The deal then alternates (Players and seating)."""
    g = cardspec.load("cribbage", options={"cut_for_dealer": True})
    recut = False
    order = "A23456789TJQK"
    for seed in range(60):
        s = g.new_state(seed=seed)
        cuts = [e for e in s.log_all() if e["type"] == "cut_for_deal"]
        for e in cuts[:-1]:
            assert e["seat0"][0] == e["seat1"][0]           # only a tie is cut again
        recut = recut or len(cuts) > 1
        last = cuts[-1]
        assert last["seat0"][0] != last["seat1"][0]
        lower = 0 if order.index(last["seat0"][0]) < order.index(last["seat1"][0]) else 1
        assert s.v[0] == lower                                  # the dealer of the first deal
        assert [e["seat"] for e in s.log_all() if e["type"] == "dealer"] == [lower]
        assert sum(map(len, s.z[g.zone["hand"].index])) == 12 and not any(s.z[g.zone["cuts"].index])
    assert recut, "no tie in 60 seeds: the recut is not exercised"


# ---- option muggins (cribbage.md, Options) ----------------------------------------------------------------
MUG = cardspec.load("cribbage", options={"muggins": True})


def test_muggins_an_overlooked_count_goes_to_the_opponent():
    """cribbage.md, Worked examples: 'Muggins (option on): P's hand is worth 14 and P claims 12 → P pegs 12,
    D pegs 2'. The double-run hand 4S 4H 5C 6D with 9S is worth 14."""
    s = deal("4S 4H 5C 6D KD QD", "2C 3C 4C 6C 7C 8C", "9S", "KD QD", "2C 3C", game=MUG)
    deal_no = s.v[2]
    while not sorted(s.legal_actions())[0].startswith("claim"):
        s.apply(sorted(s.legal_actions())[0])
    assert s.to_act == P and s.v[2] == deal_no
    before = dict(enumerate(s.c[SCORE]))
    s.apply("claim 12", seat=P)
    assert s.c[SCORE][P] - before[P] == 12 and s.c[SCORE][D] - before[D] == 2
    assert [e for e in s.log_all() if e["type"] == "muggins"] == [{"type": "muggins", "seat": D, "points": 2}]


def test_muggins_a_claim_above_the_count_is_cut_to_it():
    s = deal("4S 4H 5C 6D KD QD", "2C 3C 4C 6C 7C 8C", "9S", "KD QD", "2C 3C", game=MUG)
    while not sorted(s.legal_actions())[0].startswith("claim"):
        s.apply(sorted(s.legal_actions())[0])
    before = dict(enumerate(s.c[SCORE]))
    s.apply("claim 20", seat=P)
    assert s.c[SCORE][P] - before[P] == 14 and s.c[SCORE][D] == before[D]
    # then the dealer claims his hand, then the crib, in that order; each deal counts its own claims
    assert s.to_act == D
    s.apply("claim 0", seat=D)
    assert s.to_act == D and s.legal_actions()[0] == "claim 0"
    s.apply("claim 0", seat=D)
    assert not sorted(s.legal_actions())[0].startswith("claim")   # the next deal's laying away


def test_muggins_the_claimer_is_not_told_the_count():
    """With muggins the owner counts: neither the show event nor the view gives the count before the claim."""
    s = deal("4S 4H 5C 6D KD QD", "2C 3C 4C 6C 7C 8C", "9S", "KD QD", "2C 3C", game=MUG)
    while not sorted(s.legal_actions())[0].startswith("claim"):
        s.apply(sorted(s.legal_actions())[0])
    show = [e for e in s.log(P) if e["type"] == "show_to_claim"][-1]
    assert "points" not in show
    assert "shown" not in s.view(P)["vars"] or s.view(P)["vars"]["shown"] is None


def test_muggins_matches_with_bots_end():
    from cardspec.players import make_bot, take_turn
    g = cardspec.load("cribbage", options={"muggins": True, "target": 61})
    s = g.new_state(seed=4)
    bots = [make_bot("policy:basic", seed=1, game=g), make_bot("ismcts:10", seed=2, game=g)]
    while not s.terminal:
        take_turn(s, bots[s.to_act])
    assert max(s.result["scores"].values()) >= 61
    # the policy claims the true count: it is never caught by muggins
    assert not any(e["type"] == "muggins" and e["seat"] == 1 for e in s.log_all())


# ---- option lurch (cribbage.md, Options; Worked examples, "Lurch") ------------------------------------------
@pytest.mark.parametrize("lurch,loser,games", [
    ("lurch", 60, 2), ("lurch", 61, 1), ("skunk", 90, 2), ("skunk", 91, 1), ("skunk", 60, 4), ("off", 10, 1)])
def test_what_the_win_is_worth(lurch, loser, games):
    """'the winner reaches 121 with the loser on 60 → lurch (2 games); on 61 → a single game. Under skunk:
    loser on 90 → 2 games, on 91 → 1, on 60 → 4.' The winner reaches 121 on his heels (D at 119)."""
    g = cardspec.load("cribbage", options={"lurch": lurch})
    s = deal("JH 4S 5C 6D KD 9D", "2C 3C 4C 6C 7C 8C", "JD", "KD 9D", "2C 3C", scores={P: loser, D: 119}, game=g)
    assert s.terminal and s.result["winner"] == [D]
    assert s.result["stake"] == games


def test_lurch_in_a_game_of_61():
    """'a loser who has not reached ... 31 in a game of 61' loses a double game; skunk is for 121 only."""
    for lurch, loser, games in (("lurch", 30, 2), ("lurch", 31, 1), ("skunk", 10, 1)):
        g = cardspec.load("cribbage", options={"lurch": lurch, "target": 61})
        s = deal("JH 4S 5C 6D KD 9D", "2C 3C 4C 6C 7C 8C", "JD", "KD 9D", "2C 3C", scores={P: loser, D: 59}, game=g)
        assert s.terminal and s.result["stake"] == games
