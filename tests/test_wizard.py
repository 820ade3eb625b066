"""Wizard (rulesets/wizard.yaml) against its digest, docs/rules/wizard.md: the special cards of a deck
(``deck: specials:``, docs/cards.md; issue 38 item 4) in a real game.

The oracle here is written from the digest alone (plain Python over card codes, nothing of the engine):
which cards a seat may play, who wins a trick, what a round scores. It is checked at every decision of
whole matches with random play, 3 to 6 players.
"""
from __future__ import annotations

import random

import pytest

import cardspec

RANKS = "23456789TJQKA"


# ---------- the oracle (wizard.md, Play and Scoring) ----------

def suit_to_follow(trick: list):
    """wizard.md, Play: the first suit card fixes the suit, unless a Wizard came before it (then none);
    Jesters set nothing."""
    for c in trick:
        if c == "WZ":
            return None
        if c != "NR":
            return c[-1]
    return None


def legal_plays(hand: list, trick: list) -> set:
    """wizard.md, Play, Following: follow the suit if able; a Wizard or a Jester may always be played."""
    suit = suit_to_follow(trick)
    if suit is None or not any(c[-1] == suit and c not in ("WZ", "NR") for c in hand):
        return set(hand)
    return {c for c in hand if c in ("WZ", "NR") or c[-1] == suit}


def trick_winner(cards: list, trump) -> int:
    """wizard.md, Play, Winning the trick: the index (in play order) of the winning card."""
    if "WZ" in cards:
        return cards.index("WZ")
    if all(c == "NR" for c in cards):
        return 0
    if trump is not None and any(c[-1] == trump and c != "NR" for c in cards):
        pool = [i for i, c in enumerate(cards) if c != "NR" and c[-1] == trump]
    else:
        led = suit_to_follow(cards)
        pool = [i for i, c in enumerate(cards) if c != "NR" and c[-1] == led]
    return max(pool, key=lambda i: RANKS.index(cards[i][0]))


def round_score(bid: int, taken: int) -> int:
    """wizard.md, Scoring: 20 + 10 a trick for an exact bid, else −10 for every trick off."""
    return 20 + 10 * taken if bid == taken else -10 * abs(bid - taken)


def turned_trump(turnup: list):
    """wizard.md, Rounds and the deal: the turned card's suit; no trump for a Jester or no card (a Wizard:
    the dealer names it, read from the trump event)."""
    if not turnup or turnup[0] == "NR":
        return None
    return turnup[0][-1] if turnup[0] != "WZ" else "dealer"


# ---------- the engine against the oracle ----------

@pytest.fixture(scope="module")
def wizard():
    return cardspec.load("wizard", players=4)


def _play_match(game, players, seed, counts):
    s = game.new_state(seed=seed)
    rng = random.Random(seed)
    st = {"trump": None, "bids": {}, "taken": {}, "seen": 0}

    def read_events():
        events = s.log_all()
        for e in events[st["seen"]:]:
            if e["type"] == "deal_start":
                st["bids"], st["taken"] = {}, {p: 0 for p in range(players)}
                counts["deals"] += 1
            elif e["type"] == "trump":
                st["trump"] = e["suit"]
            elif e["type"] == "bid":
                st["bids"][e["seat"]] = e["bid"]
            elif e["type"] == "trick":
                cards = [c for _, c in e["cards"]]
                w = e["cards"][trick_winner(cards, st["trump"])][0]
                assert e["winner"] == w, (seed, e["cards"], st["trump"])
                st["taken"][w] += 1
                counts["tricks"] += 1
            elif e["type"] == "deal_score":
                for p in range(players):
                    assert e["points"][str(p)] == round_score(st["bids"][p], st["taken"][p]), (seed, st, e)
                counts["scored"] += 1
        st["seen"] = len(events)

    read_events()
    deal = 0
    while not s.terminal:
        seat = s.to_act
        v = s.view(seat)
        if v["deal"] != deal and v["step"] == "bid" and not st["bids"]:   # a round's first bid: the turned card
            deal = v["deal"]
            turn = v["zones"]["turnup"]
            turn = turn if isinstance(turn, list) else turn.get("face_up", [])
            expected = turned_trump(turn)
            if expected == "dealer":
                counts["wizard_turned"] += 1
                assert v["trump"] in ("S", "H", "D", "C")
            else:
                assert v["trump"] == expected, (seed, deal, turn, v["trump"])
        legal = s.legal_actions()
        if v["step"] == "play":
            hand = v["zones"]["hand"][str(seat)]
            trick = [c for _, c in v["trick"]]
            assert set(legal) == legal_plays(hand, trick), (seed, v["deal"], hand, trick)
            counts["plays"] += 1
        s.apply(rng.choice(legal))
        read_events()


def test_legal_plays_trick_winners_and_round_scores_agree_with_the_digest_over_random_matches(wizard):
    """wizard.md, Play (following; a Wizard or a Jester at any time; a Jester led sets no suit; a Wizard
    first frees the trick) and Winning the trick, and Scoring: every legal set, every trick winner and
    every round score of whole random matches (3–6 players, over 500 rounds), against the oracle above."""
    counts = {"deals": 0, "plays": 0, "tricks": 0, "scored": 0, "wizard_turned": 0}
    games = {4: wizard}
    seed = 0
    while counts["deals"] < 520:
        players = 3 + seed % 4
        game = games.get(players) or games.setdefault(players, cardspec.load("wizard", players=players))
        _play_match(game, players, seed, counts)
        seed += 1
    assert counts["scored"] == counts["deals"]
    assert counts["plays"] > 15000 and counts["tricks"] > 4000 and counts["wizard_turned"] > 10, counts


# ---------- the digest's worked examples ----------

def _dealt(hands: dict, turnup: str, bids=(0, 0, 0, 0)):
    """A 4-player round of ``len(hands[0])`` cards, dealer seat 0, these hands and this turned card, every
    bid made (seat 1 bids first)."""
    game = cardspec.load("wizard", players=4, options={"hand_size": len(hands[0]), "rounds": 1})
    d = game.deck
    deal = {(game.zone["hand"].index, p): [d.face(c) for c in cs] for p, cs in hands.items()}
    deal[(game.zone["turnup"].index, None)] = [d.face(turnup)]
    s = game.new_state(seed=0, dealer=0, deal=deal)
    for seat in (1, 2, 3, 0):
        assert s.to_act == seat
        s.apply(f"bid {bids[seat]}")
    return s


def _trick(s):
    return next(e for e in reversed(s.log_all()) if e["type"] == "trick")


def test_worked_example_1_the_only_trump_wins_over_a_jester_and_the_led_suit():
    """wizard.md, Worked examples 1: trump hearts; 7♣ led, a Jester, K♣, 2♥: the 2♥ (seat 0) wins."""
    s = _dealt({0: ["2H", "3S", "4S"], 1: ["7C", "5D", "6D"], 2: ["NR", "7D", "8D"], 3: ["KC", "9D", "TD"]}, "AH")
    assert s.view(1)["trump"] == "H"
    for card in ("7C", "NR", "KC", "2H"):
        s.apply(card)
    assert _trick(s)["winner"] == 0


def test_worked_example_2_a_led_jester_lets_the_next_suit_card_fix_the_suit():
    """wizard.md, Worked examples 2: a Jester led, then 9♠: spades must be followed (or a Wizard/Jester)."""
    s = _dealt({0: ["2H", "3S", "4H"], 1: ["NR", "5D", "6D"], 2: ["9S", "7D", "8D"],
                3: ["KS", "WZ", "NR"]}, "AC")
    s.apply("NR")
    assert sorted(s.legal_actions()) == sorted(["9S", "7D", "8D"])   # a led Jester sets no suit
    s.apply("9S")
    assert sorted(s.legal_actions()) == sorted(["KS", "WZ", "NR"])
    s.apply("KS")
    assert sorted(s.legal_actions()) == ["3S"]                         # seat 0 follows spades


def test_worked_example_3_a_wizard_after_a_led_jester_frees_the_trick_and_the_first_wizard_wins():
    """wizard.md, Worked examples 3: Jester led, then a Wizard: the others may play anything; the first
    Wizard wins even against a second one."""
    s = _dealt({0: ["2H", "3S", "4H"], 1: ["NR", "5D", "6D"], 2: ["WZ", "7D", "8D"], 3: ["WZ", "9D", "TD"]}, "AC")
    s.apply("NR")
    s.apply("WZ")
    assert sorted(s.legal_actions()) == sorted(["WZ", "9D", "TD"])
    s.apply("WZ")
    assert sorted(s.legal_actions()) == sorted(["2H", "3S", "4H"])
    s.apply("3S")
    assert _trick(s)["winner"] == 2


def test_worked_example_4_an_all_jester_trick_goes_to_the_first_jester():
    """wizard.md, Worked examples 4: four Jesters: the leader, who played the first, wins."""
    s = _dealt({0: ["NR"], 1: ["NR"], 2: ["NR"], 3: ["NR"]}, "AC")
    for _ in range(4):
        s.apply("NR")
    assert _trick(s)["winner"] == 1


def test_worked_example_5_exact_bids_score_20_plus_10_a_trick_misses_lose_10_a_trick():
    """wizard.md, Worked examples 5: bids 1, 0, 2, 0 (seats 0–3); taken 1, 1, 1, 0: 30, −10, −10, 20."""
    s = _dealt({0: ["AH", "5S", "6S"], 1: ["AD", "2C", "3C"], 2: ["KC", "4H", "5H"], 3: ["2S", "3S", "4S"]},
               "4D", bids=(1, 0, 2, 0))
    plays = [("AD", "4H", "2S", "5S", 1),     # trump diamonds: seat 1's A♦
             ("2C", "KC", "3S", "6S", 2),     # clubs: seat 2's K♣
             ("5H", "4S", "AH", "3C", 0)]     # hearts led by seat 2: seat 0's A♥
    for *cards, winner in plays:
        for card in cards:
            s.apply(card)
        assert _trick(s)["winner"] == winner
    score = next(e for e in s.log_all() if e["type"] == "deal_score")
    assert score["points"] == {"0": 30, "1": -10, "2": -10, "3": 20}


def test_whole_matches_with_random_policy_and_ismcts_bots_end_with_digest_scores():
    """docs/bots.md: the ruleset's `basic` policy, ISMCTS and random bots play whole (shortened) matches to
    the end; every round's score is one the digest allows (20 + 10k for a made bid, −10k for a miss)."""
    from cardspec.players import make_bot
    game = cardspec.load("wizard", players=3, options={"rounds": 3})
    for seed in range(2):
        bots = [make_bot("policy:basic", seed, game), make_bot("ismcts:30", seed, game), make_bot("random", seed, game)]
        s = game.new_state(seed=seed)
        while not s.terminal:
            seat = s.to_act
            s.apply(bots[seat].act(s.view(seat, log=True), s.legal_actions()))
        rounds = [e for e in s.log_all() if e["type"] == "deal_score"]
        assert len(rounds) == 3
        assert bots[1].fallbacks == 0   # every view determinized (the hidden Wizards and Jesters dealt too)
        for e in rounds:
            for pts in e["points"].values():
                assert (pts >= 20 and pts % 10 == 0) or (pts < 0 and pts % 10 == 0), e
