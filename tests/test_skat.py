"""Skat (rulesets/skat.yaml), the rules and worked examples of docs/rules/skat.md.

Each test names its section of the digest. Deals are built with the ``deal=`` override of
``Game.new_state``; random deals are checked against an independent reading of the digest
(tests/_skat_oracle.py, no cardspec code): every legal call and card, the declarer and his bid, every
trick's winner and every deal's score, over more than 500 played deals (``-m slow``; a shorter run in
the quick suite).
"""
from __future__ import annotations

import functools
import random

import pytest

import cardspec
from cardspec import IllegalAction
from cardspec.players import make_bot, take_turn

import _skat_oracle as oracle

DECK = [r + s for s in "CSHD" for r in "789TJQKA"]


@functools.lru_cache(maxsize=None)
def game(items=()):
    return cardspec.load("skat", 3, dict(items))


def G(**opts):
    return game(tuple(sorted(opts.items())))


def dealt(hands, skat=None, dealer=0, seed=0):
    """A deal with ``hands`` {seat: "c c …"} (10 each; the rest dealt to the other seats, then the skat)."""
    g = G()
    used = {c for h in hands.values() for c in h.split()} | set((skat or "").split())
    rest = [c for c in DECK if c not in used]
    over = {}
    for seat in range(3):
        cards = hands[seat].split() if seat in hands else [rest.pop() for _ in range(10)]
        assert len(cards) == 10, seat
        over[(g.zone["hand"].index, seat)] = [g.deck.face(c) for c in cards]
    sk = skat.split() if skat else [rest.pop() for _ in range(2)]
    over[(g.zone["skat"].index, None)] = [g.deck.face(c) for c in sk]
    return g.new_state(seed=seed, dealer=dealer, deal=over)


def play(s, *actions):
    for a in actions:
        s.apply(a)
    return s


def events(s, kind):
    return [e for e in s.log_all() if e["type"] == kind]


# ---- Bidding -------------------------------------------------------------------------------------------
def test_the_bids_are_the_values_of_possible_games():
    """Bidding: 9, 10, 11 or 12 times 2-18, 24 times 2-11, and 23, 35, 46, 59, in order from 18."""
    assert oracle.bid_values_ok()
    s = dealt({})
    assert [a for a in s.legal_actions() if a.startswith("bid")] == [f"bid {b}" for b in oracle.BIDS]


@pytest.mark.parametrize("calls,declarer,bid", [
    (["bid 18", "hold", "bid 20", "hold", "pass", "bid 22", "pass"], "R", 22),
    (["pass", "bid 18", "hold", "bid 20", "pass"], "R", 20),
    (["bid 18", "pass", "pass"], "M", 18),
    (["pass", "pass", "bid 18"], "F", 18),
])
def test_worked_example_auctions(calls, declarer, bid):
    """Bidding, worked examples (F forehand, M middlehand, R rearhand; dealer seat 0: F 1, M 2, R 0):
    M 18, F yes, M 20, F yes, M pass; R 22, F pass → R at 22. M pass; R 18, F yes, R 20, F pass → R at 20.
    M 18, F pass; R pass → M at 18. M pass, R pass: F may play at 18."""
    seat = {"F": 1, "M": 2, "R": 0}
    s = dealt({})
    ref = oracle.Auction(0)
    for c in calls:
        assert s.to_act == ref.to_act() and set(s.legal_actions()) == ref.legal()
        s.apply(c)
        ref.apply(c)
    end = events(s, "auction_end")[-1]
    assert end["declarer"] == seat[declarer] and end["bid"] == str(bid)
    assert ref.result == ("declarer", seat[declarer], bid)


def test_all_pass_throws_the_deal_in_and_it_counts():
    """Bidding: all three pass: the deal is thrown in, no score; the next dealer deals and it counts."""
    s = play(dealt({}), "pass", "pass")
    assert set(s.legal_actions()) == {"pass", "bid 18"}      # forehand alone: 18 or pass
    with pytest.raises(IllegalAction) as e:
        s.apply("bid 20")
    assert "lowest bid" in str(e.value)
    s.apply("pass")
    v = s.view(None)
    assert v["deal"] == 2 and v["dealer"] == 1 and not events(s, "deal_score")


def test_hold_is_only_an_answer():
    """Bidding: "hold" answers a bid said to you; the sayer cannot hold, the holder cannot bid."""
    s = dealt({})
    with pytest.raises(IllegalAction):
        s.apply("hold")
    s.apply("bid 18")
    assert set(s.legal_actions()) == {"hold", "pass"}
    with pytest.raises(IllegalAction) as e:
        s.apply("bid 20")
    assert "hold or pass" in str(e.value)
    s.apply("yes")                                           # "yes" is read as hold
    assert events(s, "bid")[-1]["bid"] == "hold"


# ---- Trumps, Play ----------------------------------------------------------------------------------------
def declare(s, game_word, hand=True, announce="nothing more", discard=None):
    """After the auction: take the skat (and discard) or play hand, announce the game, then the extra."""
    if hand:
        s.apply("play hand")
    else:
        s.apply("take skat")
        s.apply("discard " + discard)
    s.apply(f"play {game_word}")
    s.apply(announce)
    return s


def trick_case(cards, game_word):
    """Forehand (seat 1) declares ``game_word`` hand at 18 and leads cards[0]; middlehand (2) and rearhand
    (0) hold cards[1], cards[2] and no other card of the led card's (effective) suit."""
    game_name = {"hearts": "H", "grand": "grand", "null": "null"}[game_word]
    led = oracle.effective_suit(cards[0], game_name)
    def bad(c):   # a filler of the led (effective) suit would change what the others may play
        return oracle.effective_suit(c, game_name) == led
    free = [c for c in DECK if c not in cards]
    good = [c for c in free if not bad(c)]
    rest = [c for c in free if bad(c)]
    hands = {2: [cards[1]], 0: [cards[2]]}
    for seat in (2, 0):
        while len(hands[seat]) < 10:
            hands[seat].append(good.pop())
    f = [cards[0]] + rest + good
    hands[1] = f[:10]
    skat = f[10:12]
    s = dealt({k: " ".join(v) for k, v in hands.items()}, " ".join(skat))
    play(s, "pass", "pass", "bid 18")
    return declare(s, game_word)


@pytest.mark.parametrize("game_word,cards,winner", [
    ("hearts", ["TS", "AS", "7H"], 0),    # ♠10 led, ♠A, ♥7 (no spades) → ♥7
    ("hearts", ["TS", "KS", "QS"], 1),    # ♠10 is above the K
    ("hearts", ["AH", "JD", "TH"], 2),    # a jack is a trump
    ("hearts", ["JC", "8H", "JS"], 1),    # ♣J led is a trump lead
    ("hearts", ["AC", "JC", "TC"], 2),    # ♣A led; ♣J is a trump, not a club
    ("grand", ["AD", "TD", "JD"], 0),     # ♦J is a trump in grand
    ("grand", ["JS", "JH", "JC"], 0),     # the club jack is the highest
    ("grand", ["TH", "KH", "AH"], 0),
    ("null", ["JH", "QH", "TH"], 2),      # null: A K Q J 10 …
    ("null", ["TD", "JD", "9D"], 2),
    ("null", ["7S", "8S", "AH"], 2),      # void: ♥A cannot win
])
def test_worked_example_trick_winners(game_word, cards, winner):
    """Play and Cards, worked examples: forehand leads cards[0], middlehand plays cards[1], rearhand cards[2];
    the winner (1 F, 2 M, 0 R) is as the digest says, and as the oracle says."""
    g_name = {"hearts": "H", "grand": "grand", "null": "null"}[game_word]
    assert oracle.trick_winner(list(zip((1, 2, 0), cards)), g_name) == winner
    s = trick_case(cards, game_word)
    for c in cards:
        assert c in s.legal_actions(), (c, s.legal_actions())
        s.apply(c)
    assert events(s, "trick")[-1]["winner"] == winner


def test_a_jack_lead_is_a_trump_lead_and_a_lone_club_jack_is_void_in_clubs():
    """Play, worked: hearts; ♣J led: a player holding ♥8 ♣A must play ♥8. ♣A led: a player whose only
    club-marked card is ♣J is void in clubs and may play anything."""
    s = trick_case(["JC", "8H", "JS"], "hearts")
    s.apply("JC")
    assert s.legal_actions() == ["8H"]
    s = trick_case(["AC", "JC", "TC"], "hearts")
    s.apply("AC")
    assert len(s.legal_actions()) == 10                      # the whole hand: no club but the ♣J trump


def test_null_is_lost_at_the_declarers_first_trick():
    """Play: null: the deal ends as soon as the declarer wins a trick; Scoring: null hand lost: −2 × 35 = −70."""
    s = trick_case(["AH", "7H", "8H"], "null")
    play(s, "AH", "7H", "8H")
    assert events(s, "deal_score")[-1]["points"] == {"1": -70, "0": 0, "2": 0}
    assert len(events(s, "trick")) == 1 and s.view(None)["deal"] == 2


def test_ouvert_lays_the_declarers_hand_open():
    """Trumps: ouvert: the declarer lays his cards face up before the first lead (here null ouvert)."""
    s = play(dealt({}), "pass", "pass", "bid 18", "play hand", "play null")
    assert s.view(0)["zones"]["hand"]["1"] == {"count": 10}
    s.apply("announce ouvert")
    for seat in (None, 0, 2):
        assert len(s.view(seat)["zones"]["hand"]["1"]) == 10
    assert s.view(0)["zones"]["hand"]["2"] == {"count": 10}


def test_announcements_only_from_the_hand_and_null_at_least_the_bid():
    """Trumps: schneider, schwarz, suit/grand ouvert only in a hand game; a null announcement must be worth
    the bid (bid 24 with the skat taken: plain null 23 may not be announced, null ouvert 46 may)."""
    s = play(dealt({}), "bid 24", "hold", "pass", "pass")    # forehand declares at 24
    play(s, "take skat")
    s.apply("discard " + " ".join(s.view(s.to_act)["zones"]["hand"][str(s.to_act)][:2]))
    t = play(s.clone(), "play hearts")
    for word in ("announce schneider", "announce schwarz", "announce ouvert"):
        with pytest.raises(IllegalAction):
            t.apply(word)
    s.apply("play null")
    with pytest.raises(IllegalAction) as e:
        s.apply("nothing more")
    assert "announce ouvert" in str(e.value)
    s.apply("announce ouvert")
    assert s.view(None)["vars"]["ouvert"] is True


# ---- Scoring ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_,twelve,picked,announced,points,tricks,bid,want", [
    ("D", "JC QD", True, "", 70, 6, 18, 18),                 # with 1, game 2 × 9
    ("H", "JC JS 8H", True, "", 92, 8, 18, 40),              # with 2, game 3, schneider 4 × 10
    ("grand", "JS", False, "", 70, 6, 18, 72),               # without 1, game 2, hand 3 × 24
    ("grand", "JS", False, "", 91, 8, 18, 96),               # … with 91: schneider 4 × 24
    ("C", "JC JS JH JD AC TC", True, "", 70, 6, 18, 84),     # with 6, game 7 × 12
    ("H", "TH", True, "", 70, 6, 18, 60),                    # without 5, game 6 × 10
    ("S", "JD", False, "schneider", 95, 8, 18, 77),          # without 3 … announced 7 × 11
    ("S", "JD", False, "schneider", 85, 7, 18, -154),        # the announcement failed
    ("grand", "JC JS JH JD", False, "ouvert", 120, 10, 18, 264),
    ("H", "JC", True, "", 60, 5, 18, -40),                   # lost with 60
    ("H", "JC", True, "", 28, 2, 18, -60),                   # declarer schneider
    ("H", "JC", True, "", 0, 0, 18, -80),                    # schwarz
    ("H", "JS JH", True, "", 75, 7, 30, -60),                # overbid: the skat held ♠J: without 1, 20 < 30
    ("H", "JS JH", True, "", 92, 8, 30, 30),                 # schneider: 3 × 10 = 30 ≥ 30
    ("D", "JC", True, "", 70, 6, 22, -54),                   # bid 22, value 18 → lost at 27
    ("null", "", True, "", 0, 0, 23, 23),
    ("null", "", True, "", 0, 1, 23, -46),
    ("null", "", False, "", 0, 0, 18, 35),
    ("null", "", False, "", 0, 1, 18, -70),
    ("null", "", True, "ouvert", 0, 0, 18, 46),
    ("null", "", False, "ouvert", 0, 1, 18, -118),
])
def test_worked_example_game_values(game_, twelve, picked, announced, points, tricks, bid, want):
    """Scoring, worked examples: matadors, levels, schneider/schwarz, lost games, overbids and null values
    (the oracle, from the digest's numbers)."""
    assert oracle.score(game_, bid, twelve.split(), picked, announced, points, tricks) == want


def test_card_points_and_the_61_threshold():
    """Scoring, worked: 59 in tricks + ♠10 ♦7 in the skat = 69, won; with ♦8 ♦7 there: 59, lost; 90 vs 30
    is schneider, 89 vs 31 is not."""
    assert oracle.card_points(["TS", "7D"]) + 59 == 69 and oracle.card_points(["8D", "7D"]) + 59 == 59
    assert oracle.score("H", 18, ["JC"], True, "", 69, 6) == 20
    assert oracle.score("H", 18, ["JC"], True, "", 59, 6) == -40
    assert oracle.score("H", 18, ["JC"], True, "", 90, 8) == 30 and oracle.score("H", 18, ["JC"], True, "", 89, 8) == 20


def _call(rng, legal):
    """A random call: bids kept low (most end by 30), holds and passes often."""
    if "hold" in legal:
        return "hold" if rng.random() < 0.5 else "pass"
    bids = [a for a in legal if a.startswith("bid")]
    if bids and rng.random() < 0.45:
        return bids[min(len(bids) - 1, int(rng.random() * 4))]
    return "pass"


def _declare(rng, s, legal):
    if "take skat" in legal:
        return "take skat" if rng.random() < 0.7 else "play hand"
    return rng.choice(legal)


def _check_deals(g, seeds, want):
    deals, games_seen = 0, set()
    for seed in seeds:
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.terminal:
            deal = s.view(None)["deal"]
            dealer = s.view(None)["dealer"]
            ref = oracle.Auction(dealer)
            while ref.result is None:
                assert s.to_act == ref.to_act() and set(s.legal_actions()) == ref.legal()
                c = _call(rng, s.legal_actions())
                s.apply(c)
                ref.apply(c)
            if ref.result == ("thrown",):
                assert events(s, "all_pass") and s.view(None)["deal"] == deal + 1 or s.terminal
                continue
            _, declarer, bid = ref.result
            assert events(s, "auction_end")[-1] == {"type": "auction_end", "declarer": declarer, "bid": str(bid)}
            # the declaration, at random among the legal choices
            picked, announced, game_ = False, "", None
            while s.view(None)["step"] == "declare":
                legal = s.legal_actions()
                a = _declare(rng, s, legal)
                if a == "take skat":
                    picked = True
                if a.startswith("play ") and a != "play hand":
                    word = a.split()[1]
                    game_ = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}.get(word, word)
                    if game_ == "null":
                        assert bid <= (46 if picked else 59)
                if a.startswith("announce"):
                    announced = a.split()[1]
                s.apply(a)
            skat = [s.game.deck.code[f] for f in s.z[g.zone["skat"].index]]
            hand = s.view(declarer)["zones"]["hand"][str(declarer)]
            twelve = hand + skat
            while not s.terminal and s.view(None)["deal"] == deal:
                v = s.view(None)
                seat = s.to_act
                h = s.view(seat)["zones"]["hand"][str(seat)]
                led = v["trick"][0][1] if v["trick"] else None
                assert set(s.legal_actions()) == oracle.legal_cards(h, led, game_)
                s.apply(rng.choice(s.legal_actions()))
            # this deal's tricks: after the last auction_end
            log = s.log_all()
            start = max(i for i, e in enumerate(log) if e["type"] == "auction_end")
            tricks = [e for e in log[start:] if e["type"] == "trick"]
            for t in tricks:
                assert t["winner"] == oracle.trick_winner([(p, c) for p, c in t["cards"]], game_)
            taken = [c for t in tricks if t["winner"] == declarer for _, c in t["cards"]]
            n_tricks = sum(1 for t in tricks if t["winner"] == declarer)
            if game_ == "null":
                assert n_tricks <= 1 and (n_tricks == 0 or tricks[-1]["winner"] == declarer)
            else:
                assert len(tricks) == 10
            pts = oracle.card_points(taken) + oracle.card_points(skat)
            expect = oracle.score(game_, bid, twelve, picked, announced, pts, n_tricks)
            got = [e for e in log[start:] if e["type"] == "deal_score"][-1]["points"]
            res = [e for e in log[start:] if e["type"] == "skat_result"][-1]   # the working, in the log
            assert (res["seat"], res["points"], res["tricks"]) == (declarer, pts, n_tricks)
            assert res["value"] == (abs(expect) if expect > 0 else abs(expect) // 2)
            assert got == {str(p): (expect if p == declarer else 0) for p in range(3)}, (game_, bid, picked,
                                                                                       announced, pts, n_tricks)
            games_seen.add((game_, expect > 0))
            deals += 1
        if deals >= want:
            break
    return deals, games_seen


def test_oracle_random_deals_quick():
    """Bidding, Play, Scoring against tests/_skat_oracle.py: 40 played deals (``-m slow`` runs 500)."""
    deals, seen = _check_deals(G(deals=12), range(30), 40)
    assert deals >= 40


@pytest.mark.slow
def test_oracle_over_500_random_deals():
    """Bidding (say/hold), Play (follow suit with the jacks moved, null stopping at the declarer's first
    trick), Scoring (matadors, levels, overbid, null values) against tests/_skat_oracle.py over ≥ 500
    played deals: every legal call and card, the declarer and bid, every trick's winner, every score."""
    deals, seen = _check_deals(G(deals=36), range(200), 500)
    assert deals >= 500
    assert {("null", False), ("grand", True), ("grand", False)} <= seen
    assert any(g in ("C", "S", "H", "D") and won for g, won in seen)


# ---- Whole matches ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["random", "policy:basic", "ismcts:20"])
def test_whole_matches_with_bots(spec):
    """Match end: whole matches (3 deals here) with random, the basic policy and ISMCTS bots against random
    ones; every action legal."""
    g = G(deals=3)
    for seed in range(1 if spec.startswith("ismcts") else 3):
        bots = [make_bot(spec if p == 0 else "random", seed * 10 + p, g, None) for p in range(3)]
        s = g.new_state(seed=seed)
        n = 0
        while not s.terminal:
            take_turn(s, bots[s.to_act])
            n += 1
            assert n < 1000
        assert events(s, "game_over")


def test_explain_reads_like_skat():
    """`cardspec explain skat` names say and hold, the extra suit of trumps and the open hand."""
    from cardspec.authoring.explain import explain
    text = " ".join(explain("skat").split())
    for words in ("says bids to the holder", "answers hold", "Suits no card is printed with: trumps",
                  "seen by everyone while"):
        assert words in text, words
