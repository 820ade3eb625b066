"""Contract Bridge (rulesets/bridge.yaml), the rules and worked examples of docs/rules/bridge.md.

Each test names its section of the digest. Deals are built with the ``deal=`` override of
``Game.new_state``; random deals are checked against an independent reading of the digest
(tests/_bridge_oracle.py, no cardspec code): every legal call and card, the declarer, the contract,
every trick's winner, every board's score, over more than 500 deals (``-m slow``; a shorter run in the
quick suite).
"""
from __future__ import annotations

import functools
import random

import pytest

import cardspec
from cardspec import IllegalAction
from cardspec.players import make_bot, take_turn

import _bridge_oracle as oracle

DECK = [r + s for s in "SHDC" for r in "23456789TJQKA"]


@functools.lru_cache(maxsize=None)
def game(items=()):
    return cardspec.load("bridge", 4, dict(items))


def G(**opts):
    return game(tuple(sorted(opts.items())))


def dealt(hands, g=None, dealer=0, seed=0):
    """A deal with ``hands`` {seat: "c c c …"} (13 cards each; seats not given get the rest)."""
    g = g or G()
    used = {c for h in hands.values() for c in h.split()}
    rest = [c for c in DECK if c not in used]
    over = {}
    for seat in range(4):
        cards = hands[seat].split() if seat in hands else [rest.pop() for _ in range(13)]
        assert len(cards) == 13
        over[(g.zone["hand"].index, seat)] = [g.deck.face(c) for c in cards]
    return g.new_state(seed=seed, dealer=dealer, deal=over)


def play(s, *actions):
    for a in actions:
        s.apply(a)
    return s


def events(s, kind):
    return [e for e in s.log_all() if e["type"] == kind]


# ---- Bidding -------------------------------------------------------------------------------------------
def test_worked_example_auction_declarer_and_redoubled_contract():
    """Bidding, worked example: N 1♥, E 1♠, S 2♣, W 2♠, N 3♣, E 3♠, S pass, W pass, N 5♣, E double,
    S redouble, W pass, N pass, E pass: the contract is 5♣ redoubled for North–South; South named clubs
    first, so South declares (North made the final bid) and West makes the opening lead."""
    s = dealt({})
    assert s.to_act == 0                                   # Law 17: the dealer calls first
    play(s, "bid 1 H", "bid 1 S", "bid 2 C", "bid 2 S", "bid 3 C", "bid 3 S", "pass", "pass", "bid 5 C",
         "double", "redouble", "pass", "pass", "pass")
    end = events(s, "auction_end")[-1]
    assert end["declarer"] == 2 and end["bid"] == "5 C"
    v = s.view(None)
    assert v["vars"]["doubled"] is True and v["vars"]["redoubled"] is True
    assert v["trump"] == "C" and s.to_act == 3 and v["leader"] == 3


def test_worked_example_who_may_double_and_redouble():
    """Bidding, worked example: after E's 3♠, S could double it, W could not (his partner's bid); after
    E's double, W could not redouble (his partner's double) and S could; had S and W passed, N could
    still have redoubled (only passes between)."""
    s = play(dealt({}), "bid 1 H", "bid 1 S", "bid 2 C", "bid 2 S", "bid 3 C", "bid 3 S")
    assert s.to_act == 2 and "double" in s.legal_actions()
    w = s.clone()
    w.apply("pass")
    assert w.to_act == 3 and "double" not in w.legal_actions()
    with pytest.raises(IllegalAction) as e:
        w.apply("double")
    assert "only an opponent's bid may be doubled" in str(e.value)
    play(s, "pass", "pass", "bid 5 C", "double")
    assert s.to_act == 2 and "redouble" in s.legal_actions()
    t = play(s.clone(), "pass")
    assert t.to_act == 3 and "redouble" not in t.legal_actions() and "double" not in t.legal_actions()
    play(t, "pass")
    assert t.to_act == 0 and "redouble" in t.legal_actions()
    t.apply("redouble")
    assert "redouble" not in t.legal_actions() and "double" not in t.legal_actions()


def test_a_bid_must_be_higher_and_cancels_a_double():
    """Bidding: each bid higher than the last (a higher level, or the same level in a higher strain, C D H S
    NT); a later bid cancels any double or redouble."""
    s = play(dealt({}), "bid 1 NT")
    legal = s.legal_actions()
    assert "bid 1 S" not in legal and "bid 2 C" in legal and "bid 7 NT" in legal
    with pytest.raises(IllegalAction):
        s.apply("bid 1 S")
    play(s, "double")
    assert s.view(None)["vars"]["doubled"] is True
    play(s, "bid 2 C")
    assert s.view(None)["vars"]["doubled"] is False
    assert s.legal_actions()[:2] == ["pass", "bid 2 D"] or "bid 2 D" in s.legal_actions()


def test_three_passes_after_a_bid_end_the_auction_and_four_passes_pass_the_board_out():
    """Bidding: three passes in a row after a bid end the auction; P P P P: passed out, both sides score 0
    and the next board is dealt by the next dealer (Law 22B: no redeal of the same board)."""
    s = play(dealt({}), "pass", "bid 1 C", "pass", "pass")
    assert not events(s, "auction_end")
    s.apply("pass")
    assert events(s, "auction_end")[-1]["declarer"] == 1
    s = play(dealt({}), "pass", "pass", "pass", "pass")
    assert events(s, "all_pass")[-1]["then"] == "throw_in"
    v = s.view(None)
    assert v["deal"] == 2 and v["dealer"] == 1 and s.game_scores() == {0: 0, 1: 0}
    assert not events(s, "deal_score")


def test_no_trumps_reads_in_every_form():
    """Cards: the strains are C D H S NT; a bid of no trumps is written `bid 3 NT`, `3NT` or `3 notrump`."""
    for text in ("bid 3 NT", "3NT", "3 nt", "bid 3 notrump"):
        s = dealt({})
        s.apply(text)
        assert events(s, "bid")[-1]["bid"] == "3 NT"


# ---- Play ----------------------------------------------------------------------------------------------
N = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
E = "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"
S = "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D"
W = "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"


def test_dummy_is_exposed_after_the_opening_lead_and_declarer_plays_it():
    """Play: the defender on declarer's left leads; then the dummy's hand lies face up, seen by all four
    until the end; the declarer chooses and plays the dummy's cards, the dummy makes no decision."""
    s = play(dealt({0: N, 1: E, 2: S, 3: W}), "bid 1 D", "pass", "pass", "pass")   # North declares 1♦
    assert events(s, "auction_end")[-1]["declarer"] == 0
    assert s.to_act == 1                                     # East, on declarer's left, leads
    for seat in (1, 3):                                      # before the lead the dummy (South) is hidden
        assert s.view(seat)["zones"]["hand"]["2"] == {"count": 13}
    s.apply("AH")
    for seat in (None, 0, 1, 3):
        assert len(s.view(seat)["zones"]["hand"]["2"]) == 13
    assert s.to_act == 0                                     # the dummy's turn: North decides
    v = s.view(0)
    assert v["to_act"] == 0 and set(v["legal_actions"]) == set(S.split())
    assert s.view(2).get("legal_actions") is None            # the dummy's player is not asked
    with pytest.raises(IllegalAction):
        s.apply("2D", seat=2)
    s.apply("2D", seat=0)
    assert events(s, "play")[-1] == {"type": "play", "seat": 2, "card": "2D"}
    assert s.to_act == 3                                     # West follows
    assert s.view(0)["zones"]["hand"]["1"] == {"count": 12}  # the defenders' hands stay hidden


def test_when_dummy_wins_the_declarer_leads_from_dummy():
    """Play: the trick's winner leads the next; when the dummy wins, the declarer leads from the dummy."""
    s = play(dealt({0: N, 1: E, 2: S, 3: W}), "bid 1 D", "pass", "pass", "pass", "2H")
    play(s, "AD", "2C", "2S")                                # dummy's ace of trumps wins
    assert events(s, "trick")[-1]["winner"] == 2
    assert s.to_act == 0 and s.view(None)["leader"] == 2
    assert set(s.legal_actions()) == set(S.split()) - {"AD"}


def test_follow_suit_no_duty_to_trump():
    """Play: follow the led suit if able; if unable, any card (a trump or a discard), no duty to trump."""
    hands = {0: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2H",
             1: "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2S",
             2: "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
             3: "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"}
    s = play(dealt(hands), "bid 1 D", "pass", "pass", "pass")    # North declares diamonds
    s.apply("2S")                                            # East leads a spade
    assert set(s.legal_actions()) == set(hands[2].split())   # dummy void in spades: any card
    s.apply("2D")
    assert set(s.legal_actions()) == set(hands[3].split())   # West void: any club
    s.apply("2C")
    assert set(s.legal_actions()) == set(hands[0].split()) - {"2H"}   # North must follow spades


# ---- Scoring ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("level,strain,mult,vul,tricks,want", [
    (4, "S", 1, False, 11, 450),       # 120 + 300 game + 30 overtrick
    (3, "N", 2, True, 7, -500),        # two down doubled vulnerable
    (6, "N", 1, True, 12, 1440),       # 190 + 500 + 750
    (1, "H", 2, False, 9, 360),        # 60 + 50 + 50 insult + 2 x 100
    (2, "S", 2, False, 8, 470),        # 120 a game: 120 + 300 + 50
    (7, "C", 4, True, 13, 2660),       # 560 + 500 + 1500 + 100
    (1, "N", 4, True, 8, 1160),        # 160 + 500 + 100 + 400
    (3, "D", 1, False, 9, 110),
    (3, "N", 1, False, 10, 430),
    (5, "C", 4, False, 11, 800),       # the auction's worked example, made
    (5, "C", 4, False, 10, -200),      # one down redoubled
])
def test_worked_example_duplicate_scores(level, strain, mult, vul, tricks, want):
    """Scoring, worked examples (duplicate): the oracle gives the digest's numbers, and so does the
    ruleset, for a deal played to exactly that many tricks (the board chosen for the vulnerability)."""
    assert oracle.duplicate_score(level, strain, mult, vul, tricks) == want
    g = G(boards=2)
    board = 2 if vul else 1            # board 2: North-South vulnerable; board 1: nobody
    declarer = 0
    got = _score_of(g, board, level, strain, mult, declarer, tricks)
    assert got == want


def _score_of(g, board, level, strain, mult, declarer, tricks):
    """The ruleset's own `deal_points` for board ``board`` after a real auction to that contract by
    ``declarer`` (doubled by the next seat, redoubled by the declarer's partner), its side having taken
    ``tricks`` tricks: positive for the declarer's side, negative when the defenders score it."""
    s = g.new_state(seed=0)
    while s.view(None)["deal"] < board:
        s.apply("pass")
    while s.to_act != declarer:
        s.apply("pass")
    s.apply(oracle.call_text(("bid", level, strain)))
    if mult >= 2:
        s.apply("double")
    if mult == 4:
        s.apply("redouble")
    play(s, "pass", "pass", "pass")
    assert events(s, "auction_end")[-1]["declarer"] == declarer and s.view(None)["step"] == "play"
    s.c[g.counter["tricks"].index][declarer % 2] = tricks            # kept once per side (by: team)
    points = g.ns["_d_deal_points"]
    mine, theirs = points(s, declarer), points(s, (declarer + 1) % 4)
    assert not (mine and theirs)
    return mine or -theirs


def _auction_choice(rng, legal):
    """A random call, mostly passes, some doubles: contracts of every level, made and defeated."""
    r = rng.random()
    if r < 0.55:
        return "pass"
    if r < 0.65 and "double" in legal:
        return "double"
    if r < 0.7 and "redouble" in legal:
        return "redouble"
    bids = [a for a in legal if a.startswith("bid")]
    return bids[min(len(bids) - 1, int(rng.random() ** 3 * 8))] if bids else "pass"


def _play_board_checked(s, rng, g):
    """Play the current deal of ``s`` to its end with random legal actions (the auction biased to pass),
    checking every legal set against the oracle; returns the facts the scoring needs."""
    deal = s.view(None)["deal"]
    calls, tricks, dummy, declarer, hands0 = [], [], None, None, None
    while not s.terminal and s.view(None)["deal"] == deal:
        v = s.view(None)
        if v["step"] == "auction":
            seat = s.to_act
            assert sorted(s.legal_actions()) == sorted(oracle.legal_calls(calls, seat))
            a = _auction_choice(rng, s.legal_actions())
            calls.append((seat, oracle.parse_call(a)))
            s.apply(a)
            if oracle.auction_over(calls):
                c = oracle.contract(calls)
                if c is not None:
                    declarer = c[2]
                    dummy = (declarer + 2) % 4
                    assert events(s, "auction_end")[-1]["declarer"] == declarer
                    hands0 = [s.view(p)["zones"]["hand"][str(p)] for p in range(4)]
            continue
        # play: whose turn, who decides, what is legal
        trick = v["trick"]
        pos = v["leader"] if not trick else (trick[-1][0] + 1) % 4
        assert s.to_act == (declarer if pos == dummy else pos)
        hand = s.view(s.to_act)["zones"]["hand"][str(pos)]
        led = trick[0][1][1] if trick else None
        assert set(s.legal_actions()) == oracle.legal_cards(hand, led)
        if trick or tricks:   # after the opening lead every seat sees the dummy
            assert all(isinstance(s.view(p)["zones"]["hand"][str(dummy)], list) for p in range(4))
        s.apply(rng.choice(s.legal_actions()))
    return calls, hands0


def _check_deals(g, seeds, want_deals, rubber=False, with_honours=False):
    deals = legal_played = 0
    outcomes = set()
    for seed in seeds:
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        book = oracle.Rubber(with_honours) if rubber else None
        totals = [0, 0]
        while not s.terminal:
            board = s.view(None)["deal"]
            calls, hands0 = _play_board_checked(s, rng, g)
            c = oracle.contract(calls)
            scores = [e for e in s.log_all() if e["type"] == "deal_score" and e.get("deal", board) == board]
            if c is None:
                assert not [e for e in s.log_all() if e["type"] == "trick" and e.get("deal") == board]
                continue
            level, strain, declarer, mult = c
            trump = None if strain == "N" else strain
            tr = [e for e in s.log_all() if e["type"] == "trick"][-13:]
            for t in tr:
                assert t["winner"] == oracle.trick_winner([(p, x) for p, x in t["cards"]], trump)
            took = sum(1 for t in tr if t["winner"] % 2 == declarer % 2)
            if book is None:
                pts = oracle.duplicate_score(level, strain, mult, oracle.vulnerable(board, declarer % 2), took)
                got = events(s, "deal_score")[-1]["points"]
                want = {str(p): (pts if (p % 2 == declarer % 2) == (pts > 0) else 0) * (1 if pts > 0 else -1)
                        for p in range(4)}
                assert got == want, (board, c, took, got, want)
                totals[declarer % 2 if pts > 0 else 1 - declarer % 2] += abs(pts)
            else:
                book.deal(level, strain, declarer, mult, took, hands0)
                assert [s.c[g.counter["score"].index][0], s.c[g.counter["score"].index][1]] == book.total
                assert [s.c[g.counter["games"].index][0], s.c[g.counter["games"].index][1]] == book.games
            outcomes.add((mult, took >= level + 6, level >= 6))
            legal_played += 1
            deals += 1
        if book is None:
            assert s.game_scores() == {0: totals[0], 1: totals[1]}
        else:
            assert book.over and s.game_scores() == {0: book.total[0], 1: book.total[1]}
        if deals >= want_deals:
            break
    return deals, outcomes


def test_oracle_random_deals_quick():
    """Bidding, Play, Scoring (duplicate) against tests/_bridge_oracle.py: 60 played deals (the quick
    suite; ``-m slow`` runs 500)."""
    deals, outcomes = _check_deals(G(boards=16), range(40), 60)
    assert deals >= 60
    assert {(1, True, False), (1, False, False), (2, False, False)} <= outcomes


@pytest.mark.slow
def test_oracle_over_500_random_deals():
    """Bidding, Play, Scoring against tests/_bridge_oracle.py over ≥ 500 played deals (duplicate, every
    vulnerability of the 16-board cycle): every legal call and card, the declarer, every trick's winner,
    every board's score and the match totals; doubled and redoubled contracts made and defeated."""
    deals, outcomes = _check_deals(G(boards=16), range(400), 500)
    assert deals >= 500
    assert {(1, True, False), (1, False, False), (2, True, False), (2, False, False), (4, False, False)} \
        <= outcomes


def test_rubber_scoring_against_the_oracle():
    """Scoring (rubber): trick scores below the line make a game at 100; a side with a game is vulnerable;
    two games win the rubber (700, or 500 when the other side has a game); everything else above the
    line; with `honours`, honours in one hand score to the side holding them; the match is one rubber."""
    for honours in (False, True):
        deals, _ = _check_deals(G(scoring="rubber", honours=honours), range(3), 3, rubber=True,
                                with_honours=honours)
        assert deals >= 3


# ---- Whole matches, bots, front ends -----------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["random", "policy:basic", "ismcts:20"])
def test_whole_matches_with_bots(spec):
    """Match end (duplicate, 4 boards): whole matches with random, the basic policy and ISMCTS bots
    against random ones; every action legal (the bots answer for the dummy too)."""
    g = G()
    for seed in range(1 if spec.startswith("ismcts") else 3):
        bots = [make_bot(spec if p % 2 == 0 else "random", seed * 10 + p, g, None) for p in range(4)]
        s = g.new_state(seed=seed)
        n = 0
        while not s.terminal:
            take_turn(s, bots[s.to_act])
            n += 1
            assert n < 2000
        assert s.view(None)["deal"] == 4 and events(s, "game_over")


def test_explain_reads_like_bridge():
    """`cardspec explain bridge` names the auction's calls, the dummy and who plays it."""
    from cardspec.authoring.explain import explain
    text = " ".join(explain("bridge").split())
    for words in ("call double when", "call redouble when", "NT: no trumps", "is chosen by", "seen by everyone while",
                  "first player of the high bidder's team to name"):
        assert words.lower() in text.lower(), words


def test_the_log_names_each_seats_last_bid_and_the_dummys_hand_on_a_wrong_card():
    """Fresh eyes (a bridge player reading `cardspec play bridge`): the deal's bid/took line showed each seat's
    last call — the 7 NT declarer as "bid pass", his partner as "bid redouble"; now a seat's last bid, a
    pass only for a seat that never bid. A declarer naming his own card at the dummy's turn is told whose
    hand is being played, not "not in your hand"."""
    from cardspec.play.terminal import format_events
    s = play(dealt({}), "bid 1 C", "bid 7 NT", "double", "redouble", "pass", "pass", "pass")
    rng = random.Random(1)
    while not s.terminal and s.view(None)["deal"] == 1:
        s.apply(rng.choice(s.legal_actions()))
    line = next(x for x in format_events(G(), s.log_all()) if x.strip().startswith("bid/took"))
    assert "seat 1: bid 7 NT" in line and "seat 0: bid 1 C" in line and "seat 3: bid pass" in line, line
    assert "redouble" not in line and "double" not in line
    s = play(dealt({0: N, 1: E, 2: S, 3: W}), "bid 1 D", "pass", "pass", "pass", "AH")
    assert s.to_act == 0
    with pytest.raises(IllegalAction) as e:
        s.apply("AS")                                    # North's own card at the dummy's (South's) turn
    assert "not in the hand of seat 2, whose turn it is" in str(e.value)
