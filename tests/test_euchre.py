"""Euchre (rulesets/euchre.yaml), the rules and worked examples of docs/rules/euchre.md.

Each test names its section of the digest. Deals are built with the ``deal=`` override of
``Game.new_state`` (hands, the turn-up, the kitty); random deals are checked against an independent
reading of the digest (tests/_euchre_oracle.py, no cardspec code): legal cards, trick winners, deal
scores, over more than 500 deals.
"""
from __future__ import annotations

import functools
import random

import pytest

import cardspec
from cardspec import IllegalAction
from cardspec.players import make_bot, take_turn

import _euchre_oracle as oracle

DECK = [r + s for s in "SHDC" for r in "9TJQKA"]


@functools.lru_cache(maxsize=None)
def game(items=()):
    return cardspec.load("euchre", 4, dict(items))


def G(**opts):
    return game(tuple(sorted(opts.items())))


def dealt(hands, upcard, g=None, dealer=0, seed=0):
    """A deal with ``hands`` {seat: "c c c c c"} (others from the rest), the turn-up ``upcard``."""
    g = g or G()
    used = set(upcard.split()) | {c for h in hands.values() for c in h.split()}
    rest = [c for c in DECK if c not in used]
    z = g.zone
    over = {}
    for seat in range(4):
        cards = hands[seat].split() if seat in hands else [rest.pop() for _ in range(5)]
        over[(z["hand"].index, seat)] = [g.deck.face(c) for c in cards]
    over[(z["upcard"].index, None)] = [g.deck.face(upcard)]
    over[(z["kitty"].index, None)] = [g.deck.face(c) for c in rest]
    return g.new_state(seed=seed, dealer=dealer, deal=over)


def play(s, *actions):
    for a in actions:
        s.apply(a)
    return s


def events(s, kind):
    return [e for e in s.log_all() if e["type"] == kind]


def hand(s, seat):
    return s.view(seat)["zones"]["hand"][str(seat)]


# Worked examples' tricks: trumps hearts unless stated. Seat 1 orders up a heart turn-up (seat 0, the
# dealer, takes it and discards it again), so seat 1 leads trick 1; each seat holds its card of the
# trick and four others of no use.
def trick(cards, upcard="QH", extra=None):
    """Play one trick of ``cards`` (seat 1 leads, then 2, 3, 0) after seat 1 orders up ``upcard``;
    returns the state (before the last card when ``extra`` asks for the legal cards of a seat)."""
    order = [1, 2, 3, 0]
    trump = upcard[1]
    led = oracle.effective_suit(cards[0], trump)
    taken = set(cards) | {upcard}
    for h in (extra or {}).values():
        taken |= set(h)
    pool = [c for c in DECK if c not in taken]
    hands = {}
    # a seat whose card does not follow gets no filler of the led suit (it must be void); the others any
    void_first = sorted(zip(order, cards), key=lambda sc: oracle.effective_suit(sc[1], trump) == led or sc[0] == 1)
    for seat, c in void_first:
        own = (extra or {}).get(seat, [c])
        free = seat == 1 or (oracle.effective_suit(c, trump) == led and seat not in (extra or {}))
        filler = [x for x in pool if free or oracle.effective_suit(x, trump) != led][:5 - len(own)]
        pool = [x for x in pool if x not in filler]
        hands[seat] = " ".join(own + filler)
    s = dealt(hands, upcard)
    play(s, "order_up", "with partner", f"discard {upcard}")
    return s


@pytest.mark.parametrize("cards,upcard,winner", [
    (["AS", "KS", "JD", "9S"], "QH", 3),      # the left bower is a trump
    (["AH", "JD", "9H", "JH"], "QH", 0),      # right bower > left bower > A of trumps
    (["JD", "9H", "AD", "KC"], "QH", 1),      # a left bower lead is a trump lead
    (["AD", "9D", "JD", "KD"], "QH", 3),      # J♦ to a diamond lead trumps it
    (["KS", "AS", "JS", "TS"], "9C", 3),      # trumps ♣: J♠ is a club
    (["JH", "AH", "KH", "JD"], "9S", 2),      # trumps ♠: the red jacks are plain cards
])
def test_worked_example_tricks(cards, upcard, winner):
    """Worked examples (trumps ♥ unless stated, so the left bower is J♦; order of play): ♠A ♠K J♦ ♠9 → J♦;
    ♥A J♦ ♥9 J♥ → J♥; J♦ ♥9 ♦A ♣K → J♦; ♦A ♦9 J♦ ♦K → J♦; trumps ♣: ♠K ♠A J♠ ♠10 → J♠; trumps ♠:
    J♥ ♥A ♥K J♦ → ♥A. Cards: trump order right bower, left bower, A K Q 10 9."""
    s = trick(cards, upcard)
    play(s, *cards)
    t = events(s, "trick")[0]
    assert [c for _, c in t["cards"]] == cards
    assert t["winner"] == winner
    assert oracle.trick_winner([(p, c) for p, c in t["cards"]], upcard[1]) == winner


def test_worked_example_left_bower_lead_must_be_followed_with_a_trump():
    """Worked examples: J♦ led is a trump lead: a player holding ♥9 ♦A ♣K must play ♥9; a player holding
    ♦A ♦K ♣9 and no heart may play any of them (♦A does not follow). Play: follow suit, the left bower
    counting as a trump."""
    s = trick(["JD", "9H", "AS", "KS"], extra={2: ["9H", "AD", "KC"]})
    play(s, "JD")
    assert s.legal_actions() == ["9H"]
    s = trick(["JD", "AD", "AS", "KS"], extra={2: ["AD", "KD", "9C"]})
    play(s, "JD")
    assert sorted(s.legal_actions()) == sorted(c for c in hand(s, 2))
    s = trick(["JD", "9H", "AS", "KS"], extra={2: ["9H", "AD", "KC"]})
    play(s, "JD")
    with pytest.raises(IllegalAction):
        s.apply("AD")                                          # ♦A does not follow a left bower lead


def test_worked_example_left_bower_is_not_a_diamond():
    """Worked examples: ♦A led (trumps ♥): a player holding J♦ ♣9 and no other diamond is void in
    diamonds and may play ♣9 or J♦; a player holding ♦9 must play it. Trumps ♣: a player holding J♠ and
    ♠9 must play ♠9 to a spade lead (J♠ is a club)."""
    s = trick(["AD", "JD", "9D", "KS"], extra={2: ["JD", "9C"], 3: ["9D", "TS"]})
    play(s, "AD")
    assert set(s.legal_actions()) == set(hand(s, 2))          # void in diamonds: anything
    play(s, "9C")
    assert s.legal_actions() == ["9D"]
    s = trick(["KS", "JS", "QS", "TS"], upcard="9C", extra={2: ["JS", "9S"]})
    play(s, "KS")
    assert s.legal_actions() == ["9S"]


def test_round_one_order_up_dealer_takes_up_and_discards():
    """Worked example: round 1, dealer seat 0, turn-up J♥: seat 1 passes, seat 2 orders up → hearts are
    trumps, seat 2 is the maker; seat 0 takes J♥ (now the right bower) and discards one card face down;
    seat 1 leads. Deal: 5 cards each, 4 in the kitty, its top card turned up."""
    s = dealt({0: "9S TS QS KD AC"}, "JH")
    assert [len(hand(s, p)) for p in range(4)] == [5, 5, 5, 5]
    assert s.view(None)["zones"]["upcard"] == ["JH"] and s.view(None)["zones"]["kitty"]["count"] == 3
    assert s.to_act == 1
    play(s, "pass", "order_up")
    assert s.view(None)["trump"] == "H" and s.view(None)["system"]["declarer"] == 2
    play(s, "with partner")
    assert s.to_act == 0 and "JH" in hand(s, 0) and len(hand(s, 0)) == 6
    assert "discard JH" in s.legal_actions()                  # settled here: the turn-up itself allowed
    play(s, "discard 9S")
    assert len(hand(s, 0)) == 5 and "9S" not in hand(s, 0)
    assert s.view(1)["zones"]["discard"] == {"count": 1}       # face down
    assert s.to_act == 1                                        # seat 1 leads


def test_round_two_turned_down_suit_may_not_be_named_and_all_pass_throws_in():
    """Worked example: round 2, turn-up ♣10 turned down: seat 1 passes, seat 2 may name ♠, ♥ or ♦ but not
    ♣. All four pass → thrown in; seat 1 deals next (Bidding; Players and seating: the deal passes left,
    a thrown-in deal included)."""
    s = dealt({}, "TC")
    play(s, "pass", "pass", "pass", "pass")
    assert s.view(None)["zones"]["upcard"] == []                # turned down
    play(s, "pass")
    assert set(s.legal_actions()) == {"pass", "bid S", "bid H", "bid D"}
    with pytest.raises(IllegalAction):
        s.apply("bid C")
    play(s, "pass", "pass", "pass")
    assert events(s, "all_pass")[-1]["then"] == "throw_in"
    assert not events(s, "deal_score")
    assert s.view(None)["deal"] == 2 and s.view(None)["dealer"] == 1


def test_stick_the_dealer():
    """Options, pass_out: stick_the_dealer: once seats 1–3 have passed in round 2, seat 0 (the dealer)
    must name ♠, ♥ or ♦."""
    s = dealt({}, "TC", g=G(pass_out="stick_the_dealer"))
    play(s, *["pass"] * 7)
    assert s.to_act == 0 and set(s.legal_actions()) == {"bid S", "bid H", "bid D"}
    play(s, "bid D")
    assert s.view(None)["trump"] == "D" and s.view(None)["system"]["declarer"] == 0


@pytest.mark.parametrize("opts,leader", [({}, 2), ({"lone_lead": "lone_left"}, 0)])
def test_going_alone_partner_sits_out_and_who_leads(opts, leader):
    """Worked example: seat 3 names spades alone (dealer seat 0): seat 1 sits out, seat 2 leads to trick 1
    (lone_lead lone_left: seat 0 leads). Partners: each trick then has 3 cards."""
    s = dealt({}, "TC", g=G(**opts))
    play(s, "pass", "pass", "pass", "pass", "pass", "pass", "bid S", "alone")
    assert events(s, "sits_out")[-1]["seat"] == 1
    assert s.view(None)["trump"] == "S" and s.to_act == leader
    rng = random.Random(1)
    while s.view(None)["deal"] == 1:
        s.apply(rng.choice(s.legal_actions()))
    ts = [t for t in events(s, "trick")]
    assert len(ts) == 5 and all(len(t["cards"]) == 3 and 1 not in [p for p, _ in t["cards"]] for t in ts)


def test_lone_partner_dealer_keeps_no_turn_up():
    """Partners: if the partner who sits out is the dealer (his partner ordered up alone in round 1),
    the turn-up is not exchanged and stays in the kitty."""
    s = dealt({}, "9H")
    play(s, "pass", "order_up", "alone")
    assert events(s, "sits_out")[-1]["seat"] == 0
    assert s.view(None)["step"] == "play" and s.to_act == 1
    assert len(s.z[s.game.zone["hand"].index][0]) == 5 and s.view(None)["zones"]["upcard"] == ["9H"]


# ---- Scoring: random deals against the oracle ----------------------------------------------------------------
def _deals(g, seed, bots=None):
    """Play a match at random (or with ``bots``); yield each played deal's facts from the log."""
    s = g.new_state(seed=seed)
    rng = random.Random(seed)
    checks = []
    while not s.terminal:
        v = s.view(None)
        if v["step"] == "play" and s.to_act is not None:
            seat = s.to_act
            h = hand(s, seat)
            led = v["trick"][0][1] if v["trick"] else None
            checks.append((sorted(s.legal_actions()), sorted(oracle.legal(h, led, v["trump"]))))
        s.apply(rng.choice(s.legal_actions()) if bots is None else bots[s.to_act].act(
            s.view(s.to_act), s.view(s.to_act)["legal_actions"]))
    return s, checks


def _split(log):
    deal = None
    for ev in log:
        if ev["type"] == "deal_start":
            if deal is not None:
                yield deal
            deal = {"dealer": ev["dealer"], "tricks": [], "alone": False, "maker": None, "score": None, "trump": None}
        elif ev["type"] == "auction_end":
            deal["maker"] = ev["declarer"]
        elif ev["type"] == "trump":
            deal["trump"] = ev["suit"]
        elif ev["type"] == "action" and ev["action"] == "alone":
            deal["alone"] = True
        elif ev["type"] == "trick":
            deal["tricks"].append(ev)
        elif ev["type"] == "deal_score":
            deal["score"] = ev["points"]
    if deal is not None:
        yield deal


def test_oracle_over_500_random_deals():
    """Play, Scoring (docs/rules/euchre.md) against tests/_euchre_oracle.py over ≥ 500 random deals: every
    legal set, every trick's winner, every deal's score (exactly one side scores 1, 2 or 4, or the
    defenders 2), and the first side to 10 wins (Match end)."""
    g = G()
    deals = legal_sets = 0
    outcomes = set()
    for seed in range(200):
        s, checks = _deals(g, seed)
        for got, want in checks:
            assert got == want
        legal_sets += len(checks)
        for d in _split(s.log_all()):
            if not d["tricks"]:
                assert d["score"] is None            # thrown in: no score
                continue
            for t in d["tricks"]:
                assert t["winner"] == oracle.trick_winner([(p, c) for p, c in t["cards"]], d["trump"])
            made = sum(1 for t in d["tricks"] if t["winner"] % 2 == d["maker"] % 2)
            pts, makers = oracle.deal_points(made, d["alone"])
            scorer = d["maker"] % 2 if makers else 1 - d["maker"] % 2
            assert d["score"] == {str(p): (pts if p % 2 == scorer else 0) for p in range(4)}
            outcomes.add((made, d["alone"]))
            deals += 1
        totals = s.game_scores()
        assert max(totals.values()) >= 10 and min(totals.values()) < 10
        assert events(s, "game_over")[-1]["winner"] == [max(totals, key=totals.get)]
        if deals >= 520:
            break
    assert deals >= 500 and legal_sets > 5000
    assert {(5, True), (5, False), (3, False), (0, True)} <= outcomes


def test_score_examples_and_match_end():
    """Worked examples: makers take 3 → +1; 4 → +1; 5 → +2; lone 5 → +4; lone 4 → +1; makers 2 → defenders
    +2; lone 1 → defenders +2. Score 9–6, the side with 9 makes trumps and takes 3 → 10–6, it wins; 8–9,
    the side with 8 is euchred → 8–11, the other side wins (Match end)."""
    want = {(3, False): 1, (4, False): 1, (5, False): 2, (5, True): 4, (4, True): 1, (2, False): 2, (1, True): 2}
    seen = {}
    g = G()
    for seed in range(300):
        s, _ = _deals(g, seed)
        for d in _split(s.log_all()):
            if d["tricks"]:
                made = sum(1 for t in d["tricks"] if t["winner"] % 2 == d["maker"] % 2)
                key = (made, d["alone"])
                if key in want:
                    seen[key] = sum(d["score"].values()) // 2
        if len(seen) == len(want):
            break
    assert seen == want
    ends = set()
    score = g.counter["score"].index
    for seed in range(400):
        s = g.new_state(seed=seed)
        s.c[score] = [9, 6, 0, 0] if seed % 2 else [8, 9, 0, 0]
        rng = random.Random(seed)
        while s.view(None)["deal"] == 1 and not s.terminal:
            s.apply(rng.choice(s.legal_actions()))
        d = list(_split(s.log_all()))[0]
        if not d["tricks"]:
            continue
        pts = s.game_scores()
        if seed % 2 and d["maker"] % 2 == 0 and d["score"]["0"] == 1:
            assert pts == {0: 10, 1: 6} and s.terminal and events(s, "game_over")[-1]["winner"] == [0]
            ends.add("made")
        if not seed % 2 and d["maker"] % 2 == 0 and d["score"]["1"] == 2:
            assert pts == {0: 8, 1: 11} and s.terminal and events(s, "game_over")[-1]["winner"] == [1]
            ends.add("euchred")
        if len(ends) == 2:
            break
    assert ends == {"made", "euchred"}


@pytest.mark.parametrize("spec", ["random", "policy:basic", "ismcts:30"])
def test_whole_matches_with_bots(spec):
    """Whole matches (Match end: first side to 10) with random, the ruleset's basic policy and ISMCTS bots
    against random ones: every action legal, the match ends with one side at 10 or more."""
    g = G()
    for seed in range(2 if spec.startswith("ismcts") else 4):
        bots = [make_bot(spec if p % 2 == 0 else "random", seed * 10 + p, g, None) for p in range(4)]
        s = g.new_state(seed=seed)
        n = 0
        while not s.terminal:
            take_turn(s, bots[s.to_act])
            n += 1
            assert n < 5000
        assert max(s.game_scores().values()) >= 10
