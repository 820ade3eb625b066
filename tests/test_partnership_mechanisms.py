"""General mechanisms of issue 34 (items 1, 3, 4, 5), each on two games: docs/rulesets.md "A zone shown
during the deal", docs/tricks.md "One seat playing another's cards" and "A suit no card is printed with",
docs/auction.md "Calls that are not bids" and "An auction by pairs". The built-ins Contract Bridge
(rulesets/bridge.yaml, tests/test_bridge.py) and Skat (rulesets/skat.yaml, tests/test_skat.py), and the
snippets of other games: Double Dummy whist (tests/partnerships/double-dummy.yaml; Cavendish's laws: each
of two players plays his own hand and an exposed dummy's), the auction of La Coinche
(tests/partnerships/coinche-auction.yaml; pagat.com/jass/coinche.html), Skat at a table of four
(tests/partnerships/skat-four-auction.yaml) and Schafkopf's Wenz (tests/extra_suits/wenz.yaml).
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import cardspec
from cardspec import IllegalAction, RulesetError

HERE = Path(__file__).resolve().parent / "partnerships"
DOCS = Path(__file__).resolve().parent.parent / "docs"


def load(name, **opts):
    return cardspec.load(str(HERE / f"{name}.yaml"), 4, opts or None)


def events(s, kind):
    return [e for e in s.log_all() if e["type"] == kind]


def write(tmp_path, text, name="r.yaml"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


# ---- zones: public_when ----------------------------------------------------------------------------------
def test_double_dummy_dummies_are_face_up_and_the_players_hands_are_not():
    """Double Dummy: each dummy (seats 2, 3) lies exposed for both players and spectators from the deal on;
    the players' own hands (seats 0, 1) stay hidden from the other player."""
    g = load("double-dummy")
    s = g.new_state(seed=4)
    for seat in (None, 0, 1):
        v = s.view(seat)["zones"]["hand"]
        assert len(v["2"]) == 13 and len(v["3"]) == 13
    assert s.view(0)["zones"]["hand"]["1"] == {"count": 13}
    assert s.view(1)["zones"]["hand"]["0"] == {"count": 13}


def test_public_when_is_read_at_every_view_and_can_end(tmp_path):
    """A zone's public_when is read whenever a view is made: a shared zone (p is -1) shown while a var holds,
    hidden again when it stops holding."""
    path = write(tmp_path, """
name: shown-widow
players: {min: 2, max: 2}
deck: {suits: [S, H], ranks: [A, K, Q, J]}
zones:
  hand: {owner: seat}
  widow: {visibility: none, public_when: open and p == -1}
vars:
  open: {type: bool, default: false, per: deal}
match: {deals: 1}
deal:
  - shuffle
  - deal: {to: hand, each: 3}
  - deal: {to: widow, rest: true}
  - turns:
      until: turn_number >= 2
      actions:
        show: {effects: [{set: {open: true}}]}
        hide: {effects: [{set: {open: false}}]}
      turn:
        - one: [show, hide]
""")
    g = cardspec.load(path)
    s = g.new_state(seed=1)
    assert s.view(1)["zones"]["widow"] == {"count": 2}
    s.apply("show")
    assert len(s.view(1)["zones"]["widow"]) == 2 and len(s.view(None)["zones"]["widow"]) == 2
    s.apply("hide")
    assert s.terminal or s.view(1)["zones"]["widow"] == {"count": 2}


def test_public_when_on_a_zone_everyone_sees_is_refused(tmp_path):
    """public_when on a zone already seen by every seat changes nothing: a load error at its position."""
    path = write(tmp_path, """
name: pointless
players: {min: 2, max: 2}
deck: {suits: [S, H], ranks: [A, K, Q, J]}
zones:
  hand: {owner: seat}
  table: {visibility: all, public_when: "true"}
deal:
  - shuffle
  - deal: {to: hand, each: 4}
""")
    with pytest.raises(RulesetError) as e:
        cardspec.load(path)
    assert "public_when changes nothing" in str(e.value) and ":7:" in str(e.value)


# ---- tricks: played_by -------------------------------------------------------------------------------------
def test_double_dummy_each_player_plays_his_dummys_cards():
    """Double Dummy: at a dummy's turn its player decides (seat 0 for seat 2, seat 1 for seat 3); the card
    comes from the dummy's hand and is played in the dummy's name; the dummy's seat is never asked."""
    g = load("double-dummy")
    for seed in range(5):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        asked = set()
        while not s.terminal:
            v = s.view(None)
            pos = v["leader"] if not v["trick"] else (v["trick"][-1][0] + 1) % 4
            assert s.to_act == pos % 2
            asked.add(s.to_act)
            mine = s.view(s.to_act)
            hand = mine["zones"]["hand"][str(pos)]
            assert set(mine["legal_actions"]) <= set(hand)
            card = rng.choice(mine["legal_actions"])
            s.apply(card, seat=s.to_act)
            assert events(s, "play")[-1]["seat"] == pos and events(s, "play")[-1]["card"] == card
        assert asked == {0, 1} and len(events(s, "trick")) == 13


def test_played_by_refuses_the_dummys_seat_and_names_the_legal_cards():
    """An action by the dummy's seat is refused (not its turn) and the state is unchanged; an illegal card by
    the declarer names why (follow suit)."""
    s = load("double-dummy").new_state(seed=2)
    while s.view(None)["leader"] != 1 or s.view(None)["trick"]:
        break
    # play until it is a dummy's turn
    rng = random.Random(0)
    while True:
        v = s.view(None)
        pos = v["leader"] if not v["trick"] else (v["trick"][-1][0] + 1) % 4
        if pos >= 2 and v["trick"]:
            break
        s.apply(rng.choice(s.legal_actions()))
    before = s.view(None)
    with pytest.raises(IllegalAction):
        s.apply(s.legal_actions()[0], seat=pos)
    assert s.view(None) == before
    hand = s.view(s.to_act)["zones"]["hand"][str(pos)]
    bad = [c for c in hand if c not in s.legal_actions()]
    if bad:
        with pytest.raises(IllegalAction) as e:
            s.apply(bad[0], seat=s.to_act)
        assert "follow suit" in str(e.value)


def test_played_by_with_a_choice_is_refused(tmp_path):
    """played_by with choose: cannot be combined (the chooser of a pending choice is the card's player)."""
    path = write(tmp_path, """
name: clash
players: {min: 4, max: 4}
deck: {suits: [S, H], ranks: [A, K, Q, J]}
zones:
  hand: {owner: seat}
  won: {owner: seat}
deal:
  - shuffle
  - deal: {to: hand, each: 2}
  - tricks:
      played_by: p % 2
      choose: {when: card.rank == A, word: name}
""")
    with pytest.raises(RulesetError) as e:
        cardspec.load(path)
    assert "played_by cannot be used with choose" in str(e.value)


def test_played_by_random_playouts_and_ids():
    """The integer ids and the random playouts (simulations, ISMCTS) follow the seat that decides."""
    g = load("double-dummy")
    s = g.new_state(seed=9, record=False)
    while not s.terminal:
        ids = s.legal_action_ids()
        s.apply_id(ids[len(ids) // 2])
    s = g.new_state(seed=9, record=False)
    s.random_playout(random.Random(1))
    assert s.terminal and sum(s.game_scores().values()) >= 1


# ---- auction: calls, NT, declarer ---------------------------------------------------------------------------
def test_coinche_and_surcoinche():
    """La Coinche: an opponent of the last bidder may coinche; the bidder's side may then surcoinche, which
    ends the bidding at once; a new bid cancels the coinche (pagat.com/jass/coinche.html)."""
    g = load("coinche-auction")
    s = g.new_state(seed=3)
    first = s.to_act
    s.apply("bid 80 H")
    assert "coinche" in s.legal_actions() and "surcoinche" not in s.legal_actions()   # an opponent
    s.apply("coinche")
    assert s.view(None)["vars"]["coinche"] == 2
    assert s.to_act == (first + 2) % 4                       # the bidder's partner
    assert "coinche" not in s.legal_actions() and "surcoinche" in s.legal_actions()
    t = s.clone()
    t.apply("bid 90 NT")                                     # a new bid cancels the coinche
    assert t.view(None)["vars"]["coinche"] == 1 and t.view(None)["auction"]["high"] == "90 NT"
    u = s.clone()
    u.apply("pass")                                          # passes between: the bidder may still surcoinche
    u.apply("pass")
    assert u.to_act == first and "surcoinche" in u.legal_actions()
    s.apply("surcoinche")                                    # ends the auction at once
    assert events(s, "auction_end")[-1]["declarer"] == first
    assert s.view(None)["vars"]["coinche"] == 4 and s.view(None)["step"] != "auction"


def test_a_call_refused_says_why_and_the_auction_view_lists_it():
    """A call not allowed now is refused with its reason and the legal actions; the view's auction lists
    the calls made."""
    g = load("coinche-auction")
    s = g.new_state(seed=3)
    s.apply("bid 80 C")
    s.apply("pass")
    with pytest.raises(IllegalAction) as e:                  # the bidder's partner: nothing to surcoinche
        s.apply("surcoinche")
    assert "only a coinche of your side's bid may be surcoinched" in str(e.value) and "legal: pass" in str(e.value)
    with pytest.raises(IllegalAction) as e:
        s.apply("coinche")
    assert "only an opponent's bid may be coinched" in str(e.value)
    s.apply("pass")
    s.apply("coinche")
    assert s.view(None)["auction"]["bids"][-1][1] == "coinche"


def test_determinized_auction_with_calls_matches_the_real_one():
    """ISMCTS rebuilds an auction with calls from a seat's view: the same legal calls as the real state."""
    g = load("coinche-auction")
    s = g.new_state(seed=5)
    for a in ("bid 80 S", "coinche", "pass"):
        s.apply(a)
    seat = s.to_act
    from cardspec.engine.determinize import Determinizer
    d = Determinizer(g, s.view(seat, log=True))
    t = d.sample(random.Random(0))
    assert t.to_act == seat and t.legal_actions() == s.legal_actions()


def test_nt_and_first_to_name_suit_need_their_words(tmp_path):
    """NT is a strain of the auction's suit list (bid 1 NT); `declarer: first_to_name_suit` needs match:
    teams, refused at load otherwise."""
    path = write(tmp_path, """
name: noteams
players: {min: 4, max: 4}
deck: {suits: [S, H, D, C], ranks: [A, K, Q, J]}
zones:
  hand: {owner: seat}
deal:
  - shuffle
  - deal: {to: hand, each: 4}
  - auction:
      bids: {number: {min: 1, max: 2}, suit: [C, D, H, S, NT]}
      declarer: first_to_name_suit
""")
    with pytest.raises(RulesetError) as e:
        cardspec.load(path)
    assert "first_to_name_suit needs match: teams" in str(e.value)


# ---- auction: say_hold ----------------------------------------------------------------------------------------
def test_skat_at_four_the_dealer_sits_out_of_the_bidding_by_pairs():
    """Skat at a table of four: the dealer sits out; forehand (dealer + 1) holds, middlehand (dealer + 2)
    says first, then rearhand (dealer + 3); the survivor declares."""
    g = cardspec.load(str(HERE / "skat-four-auction.yaml"))
    for dealer in range(4):
        s = g.new_state(seed=dealer, dealer=dealer)
        f, m, r = (dealer + 1) % 4, (dealer + 2) % 4, (dealer + 3) % 4
        assert s.to_act == m and "hold" not in s.legal_actions()
        s.apply("bid 18")
        assert s.to_act == f and sorted(s.legal_actions()) == ["hold", "pass"]
        s.apply("hold")
        assert s.to_act == m
        s.apply("pass")
        assert s.to_act == r
        s.apply("bid 20")
        assert s.to_act == f
        s.apply("pass")
        assert events(s, "auction_end")[-1] == {"type": "auction_end", "declarer": r, "bid": "20"}
        assert dealer not in {e["seat"] for e in events(s, "bid")}


def test_say_hold_restored_from_a_view_and_refused_beside_round_keys(tmp_path):
    """A determinization replays the pairs from a seat's view (the same speaker and legal calls); keys of
    round-the-table bidding are refused beside say_hold."""
    g = cardspec.load(str(HERE / "skat-four-auction.yaml"))
    s = g.new_state(seed=2)
    for a in ("bid 18", "hold", "bid 20"):
        s.apply(a)
    from cardspec.engine.determinize import Determinizer
    t = Determinizer(g, s.view(s.to_act, log=True)).sample(random.Random(1))
    assert t.to_act == s.to_act and t.legal_actions() == s.legal_actions()
    path = write(tmp_path, (HERE / "skat-four-auction.yaml").read_text().replace(
        "      say_hold: true", "      say_hold: true\n      once: true"))
    with pytest.raises(RulesetError) as e:
        cardspec.load(path)
    assert "drop once" in str(e.value)


# ---- deck: extra_suits ---------------------------------------------------------------------------------------
def test_wenz_the_unters_are_a_suit_of_their_own():
    """Schafkopf's Wenz: the four Unters alone are trumps (clubs over spades over hearts over bells); an
    Unter led must be followed with an Unter; a printed suit led is not followed by its Unter."""
    g = cardspec.load(str(HERE.parent / "extra_suits" / "wenz.yaml"))
    assert g.deck.suit_label(g.deck.suit_index("unters")) == "unters"
    checked = 0
    for seed in range(30):
        s = g.new_state(seed=seed)
        assert s.view(None)["trump"] == "unters"
        while not s.terminal:
            v = s.view(None)
            seat = s.to_act
            hand = s.view(seat)["zones"]["hand"][str(seat)]
            if v["trick"]:
                led = v["trick"][0][1]
                if led[0] == "J":
                    want = {c for c in hand if c[0] == "J"} or set(hand)
                else:
                    want = {c for c in hand if c[1] == led[1] and c[0] != "J"} or set(hand)
                assert set(s.legal_actions()) == want
                checked += 1
            s.apply(random.Random(seed * 100 + len(v["trick"])).choice(s.legal_actions()))
        for t in events(s, "trick"):
            unters = [(p, c) for p, c in t["cards"] if c[0] == "J"]
            if unters:
                best = max(unters, key=lambda pc: 4 - "CSHD".index(pc[1][1]))
                assert t["winner"] == best[0]
    assert checked > 500


def test_an_extra_suit_must_be_a_new_word(tmp_path):
    path = write(tmp_path, (HERE.parent / "extra_suits" / "wenz.yaml").read_text().replace(
        "extra_suits: [unters]", "extra_suits: [hearts]"))
    with pytest.raises(RulesetError) as e:
        cardspec.load(path)
    assert "cannot name an extra suit" in str(e.value)


def test_docs_name_both_games_of_each_mechanism():
    """Each mechanism's docs section names its two games and their files."""
    rulesets = (DOCS / "rulesets.md").read_text()
    tricks = (DOCS / "tricks.md").read_text()
    auction = (DOCS / "auction.md").read_text()
    assert "### A zone shown during the deal" in rulesets and "double-dummy.yaml" in rulesets \
        and "rulesets/bridge.yaml" in rulesets
    assert "## One seat playing another's cards" in tricks and "double-dummy.yaml" in tricks \
        and "rulesets/bridge.yaml" in tricks
    assert "## Calls that are not bids" in auction and "coinche-auction.yaml" in auction \
        and "rulesets/bridge.yaml" in auction
    assert "## An auction by pairs" in auction and "skat-four-auction.yaml" in auction \
        and "rulesets/skat.yaml" in auction
    assert "## A suit no card is printed with" in tricks and "wenz.yaml" in tricks and "rulesets/skat.yaml" in tricks
