"""Vanishing Whist (rulesets/vanishing-whist.yaml, extends oh-hell).

Every rule and worked example comes from ../shared/rules/vanishing-whist.md;
each test's docstring names the section.
"""
from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

import cardspec
from cardspec.cli import main
from cardspec.errors import RulesetError

RANKS = "23456789TJQKA"
_GAMES = {}


def game(players, **options):
    key = (players, tuple(sorted(options.items())))
    if key not in _GAMES:
        _GAMES[key] = cardspec.load("vanishing-whist", players=players, options=options)
    return _GAMES[key]


def events(state, kind):
    return [e for e in state.log_all() if e["type"] == kind]


def play_out(state, rng, until=None):
    while not state.terminal and not (until and until(state)):
        state.apply(rng.choice(state.legal_actions()))
    return state


def trick_winner(cards, trump):
    """The rule, written independently: the highest trump, else the highest card of the led suit."""
    led = cards[0][1][-1]
    pool = [sc for sc in cards if sc[1][-1] == trump] or [sc for sc in cards if sc[1][-1] == led]
    return max(pool, key=lambda sc: RANKS.index(sc[1][0]))[0]


# ---- the schedule -------------------------------------------------------------------

@pytest.mark.parametrize("players, deals, most", [
    (2, 53, 26), (3, 35, 17), (4, 27, 13), (5, 21, 10), (6, 17, 8), (7, 15, 7), (8, 13, 6), (9, 11, 5),
    (10, 11, 5),
])
def test_schedule_table(players, deals, most):
    """vanishing-whist.md, "Deal schedule" and "Worked examples" (Schedule): max = 52 // players; hands of
    max, max−1, …, 1, the zero deal, 1, 2, …, max (2 · max + 1 deals); the deal passes clockwise."""
    s = play_out(game(players).new_state(seed=players), random.Random(players))
    starts = events(s, "deal_start")
    assert len(starts) == deals
    assert [e["dealer"] for e in starts] == [i % players for i in range(deals)]
    sizes = []
    for e in events(s, "deal"):
        if e.get("zone") == "hand":
            sizes.append(e["each"])
        elif e.get("zone") == "forehead":
            assert e["each"] == 1
            sizes.append("Z")
    assert sizes == list(range(most, 0, -1)) + ["Z"] + list(range(1, most + 1))
    # Every deal is played to the end: as many tricks as cards in a hand (one in the zero deal).
    assert len(events(s, "trick")) == 2 * sum(range(1, most + 1)) + 1
    assert s.terminal and len(events(s, "game_over")) == 1


def test_shortened_schedule_option():
    """vanishing-whist.md, "Deal schedule": groups may shorten the schedule (option max_cards)."""
    s = play_out(game(5, max_cards=3).new_state(seed=1), random.Random(1))
    sizes = [e["each"] if e["zone"] == "hand" else "Z" for e in events(s, "deal")]
    assert sizes == [3, 2, 1, "Z", 1, 2, 3]


def test_no_card_turned_up():
    """vanishing-whist.md, "Deal schedule": the undealt cards stay face down (no turned-up trump card)."""
    s = game(3).new_state(seed=2)
    v = s.view(0)
    assert v["zones"]["turnup"] == []
    assert v["zones"]["stock"] == {"count": 52 - 3 * 17}


# ---- trumps ----------------------------------------------------------------------

def test_trump_rotation_by_deal():
    """vanishing-whist.md, "Trumps": deal k (0-based) uses entry k mod 5 of ♠, ♣, ♦, ♥, no trump."""
    s = play_out(game(5).new_state(seed=4), random.Random(4))
    cycle = ["S", "C", "D", "H", None]
    trumps = events(s, "trump")
    assert [t["suit"] for t in trumps] == [cycle[k % 5] for k in range(21)]
    assert [t["deal"] for t in trumps] == list(range(1, 22))
    # Every trick was won by the rule's winner under that deal's trump (the zero deal included).
    trump_of = {t["deal"]: t["suit"] for t in trumps}
    deal = 0
    for e in s.log_all():
        if e["type"] == "deal_start":
            deal = e["deal"]
        elif e["type"] == "trick":
            assert e["winner"] == trick_winner(e["cards"], trump_of[deal])


def test_trump_list_is_an_option():
    """vanishing-whist.md, "Trumps": the list is an option."""
    s = play_out(game(4, trumps="H,none", max_cards=2).new_state(seed=1), random.Random(1))
    assert [t["suit"] for t in events(s, "trump")] == ["H", None, "H", None, "H"]
    with pytest.raises(RulesetError) as e:
        game(4, trumps="S,X")
    assert "'X' is not a suit" in str(e.value)


def test_trump_precedence_example():
    """vanishing-whist.md, "Worked examples": trump ♠, ♥A led, ♠2 and ♥K follow → ♠2 wins."""
    g = cardspec.load("vanishing-whist", players=3, options={"hand_size": 1, "deals": 1})
    s = g.new_state(seed=1, deck_order=["AH", "2S", "KH"])     # seat 1 (dealer's left), 2, 0
    assert s.view(None)["trump"] == "S"                        # deal 1: spades
    for b in (1, 1, 1):
        s.apply(f"bid {b}")
    for c in ("AH", "2S", "KH"):
        s.apply(c)
    (t,) = events(s, "trick")
    assert t["cards"] == [[1, "AH"], [2, "2S"], [0, "KH"]] and t["winner"] == 2


# ---- bidding -----------------------------------------------------------------------

def test_hook_holds_in_every_deal():
    """vanishing-whist.md, "Bidding": 0 to the hand size, dealer last, the hook on the dealer — in every
    deal of a match, the zero deal included (there the hand size is 1)."""
    s = game(4).new_state(seed=9)
    rng = random.Random(9)
    checked = 0
    while not s.terminal:
        legal = s.legal_actions()
        if legal[0].startswith("bid"):
            v = s.view(s.to_act)
            deal = v["deal"]
            size = abs(deal - 13 - 1) or 1
            made = v.get("bids_made", {})
            if s.to_act == v["dealer"]:
                assert len(made) == 3
                hooked = size - sum(made.values())
                assert legal == [f"bid {b}" for b in range(size + 1) if b != hooked]
                checked += 0 <= hooked <= size
            else:
                assert legal == [f"bid {b}" for b in range(size + 1)]
            s.apply(rng.choice([a for a in legal if int(a.split()[1]) <= 1] or legal))
        else:
            s.apply(rng.choice(legal))
    assert checked > 10


# ---- the zero deal ---------------------------------------------------------------------

def _at_zero_deal(players=5, seed=3):
    """A state at the first bid of the zero deal (max_cards=1: deals 1, Z, 1)."""
    s = game(players, max_cards=1).new_state(seed=seed)
    rng = random.Random(seed)
    play_out(s, rng, until=lambda st: st.view(None)["deal"] == 2)
    assert s.current_step().kind == "bid"
    return s


def test_zero_deal_view_shows_every_forehead_but_ones_own():
    """vanishing-whist.md, "The zero deal": one card each, held on the forehead: a view shows a seat every
    other forehead card and not its own."""
    s = _at_zero_deal()
    owner_cards = {}
    for seat in range(5):
        v = s.view(seat)
        fh = v["zones"]["forehead"]
        assert fh[str(seat)] == {"count": 1}
        for other in range(5):
            if other != seat:
                assert isinstance(fh[str(other)], list) and len(fh[str(other)]) == 1
                owner_cards.setdefault(other, set()).add(fh[str(other)][0])
        assert all(h in ([], {"count": 0}) for h in v["zones"]["hand"].values())
    # Everyone sees the same card on a given forehead; all five differ.
    assert all(len(c) == 1 for c in owner_cards.values())
    assert len({next(iter(c)) for c in owner_cards.values()}) == 5
    # A spectator sees none of them.
    assert all(x == {"count": 1} for x in s.view(None)["zones"]["forehead"].values())


def test_zero_deal_bids_are_made_without_seeing_ones_own_card():
    """vanishing-whist.md, "The zero deal": bidding as usual, hook included, without seeing one's own card:
    nothing a seat is shown while bidding (view, log) names its forehead card."""
    s = _at_zero_deal()
    dealer = s.view(None)["dealer"]
    for _ in range(5):
        seat = s.to_act
        own = s.view((seat + 1) % 5)["zones"]["forehead"][str(seat)][0]
        log = s.log(seat)
        start = max(i for i, e in enumerate(log) if e["type"] == "deal_start")   # this deal's events
        text = repr(s.view(seat)) + repr(log[start:])
        assert own not in text.split("'")
        legal = s.legal_actions()
        if seat == dealer:
            total = sum(s.view(seat)["bids_made"].values())
            assert legal == [f"bid {b}" for b in range(2) if b != 1 - total]
        else:
            assert legal == ["bid 0", "bid 1"]
        s.apply(legal[-1] if seat % 2 else legal[0])


def test_zero_deal_play_resolves_by_itself():
    """vanishing-whist.md, "The zero deal": everyone turns their card face up at once; the card of the
    player at the dealer's left counts as led; the trick is won as usual. No seat decides anything."""
    s = _at_zero_deal(seed=5)
    dealer = s.view(None)["dealer"]
    cards = {seat: s.view((seat + 1) % 5)["zones"]["forehead"][str(seat)][0] for seat in range(5)}
    trump = s.view(None)["trump"]
    assert trump == "C"                           # deal 2 (k = 1) of ♠ ♣ ♦ ♥ none
    n_before = len(events(s, "trick"))
    for _ in range(5):
        s.apply("bid 0")
    # The last bid played the trick and scored the deal: the next deal is waiting for its first bid.
    assert s.view(None)["deal"] == 3 and s.current_step().kind == "bid"
    trick = events(s, "trick")[n_before]
    order = [(dealer + 1 + i) % 5 for i in range(5)]
    assert trick["leader"] == order[0]
    assert trick["cards"] == [[seat, cards[seat]] for seat in order]
    assert trick["winner"] == trick_winner(trick["cards"], trump)
    score = [e for e in events(s, "deal_score") if e["deal"] == 2][0]["points"]
    for seat in range(5):
        assert score[str(seat)] == (1 if seat == trick["winner"] else 5)   # bid 0 made: +5; else 1 trick
    # History holds only the bids: the play needed no action.
    assert all(h.startswith("bid") for h in s.history[-5:])


# ---- scoring -----------------------------------------------------------------------

def _two_card_deal(bids):
    """3 players, 2 cards, deal 1 (trump ♠): seat 1 holds AS KS and takes both tricks."""
    g = cardspec.load("vanishing-whist", players=3, options={"hand_size": 2, "deals": 1})
    s = g.new_state(seed=1, deck_order=["AS", "2H", "3C", "KS", "4H", "5C"])
    for b in bids:
        s.apply(f"bid {b}")
    while not s.terminal:
        s.apply(s.legal_actions()[0])
    assert [t["winner"] for t in events(s, "trick")] == [1, 1]
    return {int(k): v for k, v in s.scores().items()}


def test_scoring_examples():
    """vanishing-whist.md, "Scoring" and "Worked examples": 1 per trick; exact bid +10 (bid ≥ 1) or +5
    (bid 0): bid 2 took 2 → 12; bid 0 took 0 → 5; bid 1 took 0 → 0; bid 0 took 2 → 2."""
    # Bids by seat 1, 2, then the dealer (seat 0).
    assert _two_card_deal([2, 0, 1]) == {1: 12, 2: 5, 0: 0}
    assert _two_card_deal([0, 0, 1]) == {1: 2, 2: 5, 0: 0}


def test_scoring_rule_over_a_whole_match():
    """vanishing-whist.md, "Scoring": every deal's points follow the rule from that deal's bids and
    tricks; the match totals are their sums; highest total wins."""
    s = play_out(game(6).new_state(seed=21), random.Random(21))
    totals = [0] * 6
    bids, taken = {}, [0] * 6
    for e in s.log_all():
        if e["type"] == "deal_start":
            bids, taken = {}, [0] * 6
        elif e["type"] == "bid":
            bids[e["seat"]] = e["bid"]
        elif e["type"] == "trick":
            taken[e["winner"]] += 1
        elif e["type"] == "deal_score":
            for seat in range(6):
                b, t = bids[seat], taken[seat]
                want = t + (0 if b != t else 5 if b == 0 else 10)
                assert e["points"][str(seat)] == want
                totals[seat] += want
    assert s.scores() == {str(i): totals[i] for i in range(6)}
    over = events(s, "game_over")[0]
    assert over["ranking"][0] in over["winner"]
    assert totals[over["ranking"][0]] == max(totals)


# ---- the command line --------------------------------------------------------------

def test_cli_plays_all_21_deals_for_five_players():
    """Done-when of the issue: `cardspec play vanishing-whist --players 5 --seed 3` plays all 21 deals
    and prints the totals."""
    r = CliRunner().invoke(main, ["play", "vanishing-whist", "--players", "5", "--seed", "3"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert sum(1 for ln in lines if ln.startswith("Deal ")) == 21
    assert sum(1 for ln in lines if " bids " in ln) == 21 * 5
    assert any(ln.startswith("Game over (all 21 deals are played). Totals: 0: ") for ln in lines)
    assert "  dealt 1 cards to each forehead" in lines


def test_won_tricks_are_turned_face_down():
    """vanishing-whist.md, "Play" (seed 003: 勝ったプレイヤーは場のカードを全て裏向きにして、自分の脇に置きます):
    the winner turns the trick face down beside them — another seat's view shows how many cards a seat
    has taken, not which (oh-hell, OpenSpiel's game, leaves them face up)."""
    s = play_out(game(4).new_state(seed=1), random.Random(1), until=lambda st: len(events(st, "trick")) >= 2)
    taker = events(s, "trick")[0]["winner"]
    other = (taker + 1) % 4
    won = s.view(other)["zones"]["won"]
    assert won[str(taker)] == {"count": len(s.view(taker)["zones"]["won"][str(taker)])} != {"count": 0}
    assert isinstance(s.view(taker)["zones"]["won"][str(taker)], list)
    # The base game keeps them face up.
    base = play_out(cardspec.load("oh-hell", players=4).new_state(seed=1), random.Random(1),
                    until=lambda st: len(events(st, "trick")) >= 1)
    w = events(base, "trick")[0]["winner"]
    assert isinstance(base.view((w + 1) % 4)["zones"]["won"][str(w)], list)
