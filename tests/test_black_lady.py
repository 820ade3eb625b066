"""Black Lady (Japanese club rules), every rule of ../shared/rules/black-lady.md, "Black Lady".

Each test names its source line. Constructed deals use the ``deal=`` override
of ``Game.new_state`` with passing off where the pass is not what is tested.
"""
from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

import cardspec
from cardspec import IllegalAction

RANKS = "23456789TJQKA"
DECK = [r + s for s in "SHDC" for r in RANKS]


@functools.lru_cache(maxsize=None)
def game(players, items=()):
    return cardspec.load("black-lady", players=players, options=dict(items))


def G(players, **opts):
    return game(players, tuple(sorted(opts.items())))


def state(g, hands, widow=None, seed=0, dealer=0):
    d = g.deck
    over = {(g.zone["hand"].index, s): [d.face(c) for c in cs] for s, cs in hands.items()}
    if widow is not None:
        over[(g.zone["widow"].index, None)] = [d.face(c) for c in widow]
    return g.new_state(seed=seed, dealer=dealer, deal=over)


def suits_deal():
    """Seat 0 all clubs, 1 all diamonds, 2 all hearts, 3 all spades (4 players, no widow)."""
    return {0: [r + "C" for r in RANKS], 1: [r + "D" for r in RANKS], 2: [r + "H" for r in RANKS],
            3: [r + "S" for r in RANKS]}


def play_deal(s, choose=None, rng=None):
    rng = rng or random.Random(0)
    deal = s.view(None)["deal"]
    while not s.terminal and s.view(None)["deal"] == deal:
        legal = s.legal_actions()
        s.apply(choose(s, legal) if choose else rng.choice(legal))


def deal_points(s, deal=1):
    ev = [e for e in s.log_all() if e["type"] == "deal_score" and e["deal"] == deal][-1]
    return [ev["points"][str(i)] for i in range(s.n)]


@pytest.mark.parametrize("players,each,widow", [(3, 17, 1), (4, 13, 0), (5, 10, 2), (6, 8, 4)])
def test_deal_table(players, each, widow):
    """black-lady.md: deal everyone the same number; the rest is a face-down widow (3: 17+1, 4: 13, 5: 10+2, 6: 8+4)."""
    s = G(players).new_state(seed=players)
    v = s.view(0)
    assert len(v["zones"]["hand"]["0"]) == each
    assert all(z["count"] == each for k, z in v["zones"]["hand"].items() if k != "0")
    assert v["zones"]["widow"] == {"count": widow}, "face down: no card shown"


@pytest.mark.parametrize("players", [2, 7])
def test_three_to_six_players(players):
    """black-lady.md: 3–6 players."""
    with pytest.raises(cardspec.RulesetError, match="3 to 6"):
        cardspec.load("black-lady", players=players)


def test_points_hearts_one_qs_thirteen():
    """black-lady.md: penalty points, each heart 1, QS 13 (26 a deal); one 52-card deck, ace high."""
    g = G(4)
    pts = {g.deck.code[c]: g.deck.points_of[c] for c in g.deck.cards}
    assert len(g.deck.cards) == 52 and sum(pts.values()) == 26
    assert pts["QS"] == 13 and all(pts[r + "H"] == 1 for r in RANKS)
    assert all(v == 0 for c, v in pts.items() if c != "QS" and c[1] != "H")


def test_pass_three_to_the_right():
    """black-lady.md, "Passing": 3 cards face down to the right-hand neighbour (seat i → i−1), at once."""
    n = 5
    s = G(n).new_state(seed=3)
    before = {i: Counter(s.view(i)["zones"]["hand"][str(i)]) for i in range(n)}
    chosen = {}
    while len(chosen) < n:
        seat = s.to_act
        legal = s.legal_actions()
        assert all(len(a.split()) == 4 for a in legal)
        act = legal[len(legal) // 2]
        chosen[seat] = act.split()[1:]
        s.apply(act, seat=seat)
        if len(chosen) < n:
            assert Counter(s.view((seat - 1) % n)["zones"]["hand"][str((seat - 1) % n)]) == \
                before[(seat - 1) % n] - Counter(chosen.get((seat - 1) % n, [])), "nothing arrives early"
    for i in range(n):
        assert Counter(s.view(i)["zones"]["hand"][str(i)]) == \
            before[i] - Counter(chosen[i]) + Counter(chosen[(i + 1) % n])


@pytest.mark.parametrize("to,offset", [("left", 1), ("across", 2), ("right", -1)])
def test_pass_direction_and_count_are_options(to, offset):
    """black-lady.md, "Passing": count and direction are options."""
    n = 4
    s = G(n, pass_to=to, pass_count=2).new_state(seed=1)
    while s.legal_actions()[0].startswith("pass "):
        assert len(s.legal_actions()[0].split()) == 3
        s.apply(s.legal_actions()[0])
    passes = [e for e in s.log_all() if e["type"] == "pass"]
    assert {(e["seat"], e["to"]) for e in passes} == {(i, (i + offset) % n) for i in range(n)}
    s = G(n, pass_count=0).new_state(seed=1)
    assert not s.legal_actions()[0].startswith("pass")


def test_dealers_left_leads_any_card_no_hearts_broken_no_first_trick_rule():
    """black-lady.md: the dealer's left leads the first trick with any card; no hearts-broken rule, no
    first-trick restriction."""
    g = G(4, pass_count=0)
    hands = {0: [r + "C" for r in RANKS], 1: ["QS", "AH"] + [r + "D" for r in RANKS[:11]],
             2: [r + "H" for r in RANKS[:12]] + ["KD"], 3: [r + "S" for r in RANKS if r != "Q"] + ["AD"]}
    for dealer in (0, 2):
        s = state(g, hands, dealer=dealer)
        assert s.to_act == (dealer + 1) % 4
    s = state(g, hands)
    assert set(s.legal_actions()) == set(hands[1]), "any card, hearts and QS included"
    s.apply("AH", seat=1)
    assert set(s.legal_actions()) == set(hands[2]) - {"KD"}, "follow suit"
    s.apply("2H")
    assert set(s.legal_actions()) == set(hands[3]), "void: any card, on the first trick too"
    s.apply("AD")
    s.apply("2C")
    t = [e for e in s.log_all() if e["type"] == "trick"][0]
    assert t["winner"] == 1, "highest card of the led suit wins"
    assert s.to_act == 1, "the winner leads next"
    s2 = state(g, hands)
    s2.apply("QS")
    assert set(s2.legal_actions()) == set(hands[2]), "void in spades: hearts may be discarded on trick 1"


def test_follow_suit_if_able_illegal_play_names_the_legal_ones():
    """black-lady.md: follow suit if able; an illegal card raises IllegalAction naming the legal ones."""
    g = G(4, pass_count=0)
    s = state(g, suits_deal())
    s.apply("5D", seat=1)
    with pytest.raises(IllegalAction) as e:
        s.apply("AC")   # seat 2 holds only hearts: AC is not in its hand
    assert set(e.value.legal) == {r + "H" for r in RANKS}


def test_highest_of_led_suit_wins_discards_never_win():
    """black-lady.md: highest card of the led suit wins (an ace of another suit does not)."""
    g = G(4, pass_count=0)
    s = state(g, suits_deal())
    for c in ("2D", "AH", "AS", "AC"):
        s.apply(c)
    t = [e for e in s.log_all() if e["type"] == "trick"][0]
    assert t["winner"] == 1 and t["cancelled"] == []


def test_last_trick_points_and_widow_go_to_the_last_trick_winner():
    """black-lady.md: the widow is taken with its points by the winner of the last trick; "Known faults":
    the last trick's points are not missing from the tally."""
    g = G(5, pass_count=0)
    rest = [c for c in DECK if c not in ("QS", "AH")]
    rng = random.Random(5)
    rng.shuffle(rest)
    hands = {i: rest[i * 10:(i + 1) * 10] for i in range(5)}
    s = state(g, hands, widow=["QS", "AH"])
    play_deal(s, rng=rng)
    tricks = [e for e in s.log_all() if e["type"] == "trick"]
    assert len(tricks) == 10
    raw = Counter()
    for t in tricks:
        raw[t["winner"]] += sum(13 if c == "QS" else c[1] == "H" for _, c in t["cards"])
    raw[tricks[-1]["winner"]] += 14
    assert deal_points(s) == [raw[i] for i in range(5)]


def test_qs_on_the_last_trick_is_counted():
    """black-lady.md, "Known faults": the last trick's points missing because the tally is updated at the
    start of the next trick."""
    g = G(4, pass_count=0)
    s = state(g, suits_deal())

    def choose(st, legal):
        if st.to_act == 3:
            return next((a for a in legal if a != "QS"), legal[0])
        return legal[0]
    play_deal(s, choose)
    tricks = [e for e in s.log_all() if e["type"] == "trick"]
    assert [3, "QS"] in tricks[-1]["cards"] and tricks[-1]["winner"] == 1
    assert deal_points(s) == [0, 26, 0, 0]


def _everything_to_seat_1(players, **opts):
    """Seat 1 (the dealer's left) holds only hearts and leads them: it wins every trick and the widow."""
    g = G(players, pass_count=0, **opts)
    each = 52 // players
    hearts = [r + "H" for r in RANKS][::-1][:each]
    rest = [c for c in DECK if c not in hearts]
    random.Random(players).shuffle(rest)
    hands = {1: hearts}
    others = [i for i in range(players) if i != 1]
    for k, i in enumerate(others):
        hands[i] = rest[k * each:(k + 1) * each]
    widow = rest[len(others) * each:]
    # Seat 1 holds the highest hearts, so a lower heart elsewhere can only follow and lose.
    s = state(g, hands, widow=widow)
    play_deal(s, lambda st, legal: legal[-1] if st.to_act == 1 else legal[0])
    return s


def test_moon_option():
    """black-lady.md, "Optional bonuses": shooting the moon (one player takes all 26 → everybody else +26)."""
    s = _everything_to_seat_1(4, moon=True)
    assert deal_points(s) == [26, 0, 26, 26]
    s = _everything_to_seat_1(4)
    assert deal_points(s) == [0, 26, 0, 0], "off by default"


def test_clear_option():
    """black-lady.md, "Optional bonuses": "clear": the 26 points divided among players who took no penalty card
    (integer shares: 26 // 3 each with 4 players; the digest does not say how to round)."""
    s = _everything_to_seat_1(4, clear=True)
    assert deal_points(s) == [26 // 3, 0, 26 // 3, 26 // 3]


def test_moon_with_a_widow_counts_the_widow():
    """black-lady.md: the widow's points count for the last trick's winner, so all 26 with a 5-player widow."""
    s = _everything_to_seat_1(4 + 1, moon=True)
    assert deal_points(s) == [26, 0, 26, 26, 26]


def test_match_each_player_deals_once_rotation_lowest_best_loser():
    """black-lady.md, "Match": each player deals once; lowest total is best (the loser is the highest)."""
    for n in (3, 4, 5, 6):
        s = G(n).new_state(seed=n)
        rng = random.Random(n)
        while not s.terminal:
            s.apply(rng.choice(s.legal_actions()))
        log = s.log_all()
        assert [e["dealer"] for e in log if e["type"] == "deal_start"] == list(range(n))
        over = log[-1]
        totals = {int(k): v for k, v in over["scores"].items()}
        assert sum(totals.values()) == 26 * n
        assert over["ranking"] == sorted(totals, key=lambda k: (totals[k], k))
        assert over["loser"] == [k for k in totals if totals[k] == max(totals.values())]


def test_match_to_a_target_total_option():
    """black-lady.md, "Match": or to a target total (an option): ends after the deal where someone reaches it."""
    s = G(4, target=30).new_state(seed=2)
    rng = random.Random(2)
    while not s.terminal:
        s.apply(rng.choice(s.legal_actions()))
    totals = [e["totals"] for e in s.log_all() if e["type"] == "deal_score" and "totals" in e]
    assert max(totals[-1].values()) >= 30
    assert all(max(t.values()) < 30 for t in totals[:-1])
