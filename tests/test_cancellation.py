"""Cancellation Black Lady: every rule and example of ../shared/rules/cancellation-black-lady.md.

Each test names the digest section it comes from. Trick examples are played
as the first trick of a constructed deal (dealer 0, so seat 1 leads; passing
switched off with ``pass_count=0, second_pass_count=0`` so the dealt hands are
the played hands). When an example has fewer cards than players, the other
seats play *fillers*: two or three discards of one rank that occurs nowhere
else in the trick. By rules 2 and 5 fillers cancel each other and by rule 3
they never touch a led-suit card, so they cannot change the winner.
The same examples live as scenario files in tests/scenarios/ (replayed in
tests/test_cases.py).
"""
from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

import cardspec
from cardspec import IllegalAction

DIGEST = "../shared/rules/cancellation-black-lady.md"
RULESET = "cancellation-black-lady"
NO_PASS = {"pass_count": 0, "second_pass_count": 0}
RANKS = "23456789TJQKA"
SUITS = "SHDC"
FULL_DECK = [r + s for s in SUITS for r in RANKS] * 2


def widow_size(players, widow_8p=0):
    return widow_8p if players == 8 else 104 % players


def example_trick(cards):
    """The example's cards plus fillers so that the trick has 6 cards or more (never exactly one filler)."""
    cards = list(cards)
    short = 6 - len(cards)
    if short <= 0:
        return cards, len(cards)
    nfill = 2 if short == 1 else short
    used = {c[0] for c in cards}
    led = cards[0][1]
    rank = next(r for r in "765482" if r not in used)
    suits = [s for s in SUITS if s != led]
    fill = [rank + suits[0]] * 2 if nfill == 2 else [rank + s for s in suits[:nfill]]
    return cards + fill, len(cards) + nfill


def trick_deal(trick, players, options=None, seed=0):
    """Hands (seat -> codes) and widow for a first trick ``trick`` led by seat 1 (dealer 0).

    Seats playing a card of the led suit get the leftover led-suit cards; the others are
    void in it (their card is a discard).
    """
    options = options or {}
    n = players
    w = widow_size(n, int(options.get("widow_8p", 0)))
    each = (104 - w) // n
    led = trick[0][1]
    rest = Counter(FULL_DECK)
    rest.subtract(trick)
    assert all(v >= 0 for v in rest.values()), "example uses a card more than twice"
    seats = [(1 + i) % n for i in range(n)]
    hands = {s: [c] for s, c in zip(seats, trick)}
    followers = [s for s, c in zip(seats, trick) if c[1] == led]
    pool = list(rest.elements())
    random.Random(seed).shuffle(pool)
    led_rest = [c for c in pool if c[1] == led]
    other = [c for c in pool if c[1] != led]
    widow = []
    for c in led_rest:
        target = next((s for s in followers if len(hands[s]) < each), None)
        if target is None:
            widow.append(c)
        else:
            hands[target].append(c)
    assert len(widow) <= w, "not enough room for the led suit"
    for s in seats:
        while len(hands[s]) < each:
            hands[s].append(other.pop())
    while len(widow) < w:
        widow.append(other.pop())
    assert not other
    return hands, widow


@functools.lru_cache(maxsize=None)
def _game(players, option_items):
    return cardspec.load(RULESET, players=players, options=dict(option_items))


def new_state(hands, widow, players, options=None, seed=0):
    g = _game(players, tuple(sorted({**NO_PASS, **(options or {})}.items())))
    deck = g.deck
    over = {(g.zone["hand"].index, s): [deck.face(c) for c in cs] for s, cs in hands.items()}
    over[(g.zone["widow"].index, None)] = [deck.face(c) for c in widow]
    return g.new_state(seed=seed, dealer=0, deal=over)


def play_first_trick(cards, options=None, players=None):
    trick, n = example_trick(cards)
    n = players or n
    hands, widow = trick_deal(trick, n, options)
    s = new_state(hands, widow, n, options)
    assert s.to_act == 1
    for i, c in enumerate(trick):
        s.apply(c, seat=(1 + i) % n)
    ev = [e for e in s.log_all() if e["type"] == "trick"][0]
    assert [c for _, c in ev["cards"]] == trick
    return s, ev, n


def seat_of(index, n):
    """Seat that played the trick's card number ``index`` (0 = the lead by seat 1)."""
    return (1 + index) % n


# ---- the seed's worked example and the derived examples (Cancellation, rules 1-5) -------------
EXAMPLES = [
    # (id, cards in play order (lead first), index of the winning card, cancelled codes (as a multiset))
    ("seed-7p-AH-led-2D-wins", ["AH", "JH", "QS", "QD", "2D", "JH", "AH"], 4, ["AH", "JH", "QS", "QD", "JH", "AH"]),
    ("5C-led-KH-discard-does-not-cancel-KC", ["5C", "5C", "KC", "KH"], 2, ["5C", "5C"]),
    ("5C-led-all-cancelled-leader-wins", ["5C", "5C", "9H", "9S"], 0, ["5C", "5C", "9H", "9S"]),
    ("5C-led-queens-cancel-3H-wins", ["5C", "5C", "3H", "QD", "QS"], 2, ["5C", "5C", "QD", "QS"]),
    ("QS-led-AS-wins", ["QS", "QS", "AS"], 2, ["QS", "QS"]),
    ("QS-led-AS-AS-leader-wins", ["QS", "QS", "AS", "AS"], 0, ["QS", "QS", "AS", "AS"]),
    ("QS-led-AS-AS-uncancelled-discard-wins", ["QS", "QS", "AS", "AS", "5H"], 4, ["QS", "QS", "AS", "AS"]),
    ("JC-led-jacks-cancel-TC-wins", ["JC", "TC", "9C", "8C", "4C", "JC"], 1, ["JC", "JC"]),
    ("JC-JC-TC-TC-9C-9C-leader-wins", ["JC", "JC", "TC", "TC", "9C", "9C"], 0,
     ["JC", "JC", "TC", "TC", "9C", "9C"]),
    ("6D-led-jacks-cancel-8D-wins", ["6D", "JD", "8D", "JD", "3D"], 2, ["JD", "JD"]),
    ("8D-led-eights-and-jacks-cancel-4D-wins", ["8D", "JD", "8D", "JD", "4D"], 4, ["8D", "JD", "8D", "JD"]),
    ("4C-led-TH-does-not-cancel-TC", ["4C", "TC", "TH", "KC", "KC"], 1, ["KC", "KC"]),
    ("3S-led-nines-cancel-as-discards-AH-wins", ["3S", "3S", "AH", "9D", "9C", "2H"], 2, ["3S", "3S", "9D", "9C"]),
    # Rule 5: three or more discards of one rank all cancel.
    ("rule5-three-queens-discarded-all-cancel", ["5C", "5C", "QS", "QD", "QH"], 0, ["5C", "5C", "QS", "QD", "QH"]),
    # Rule 3: a led-suit card and a discard of the same rank never cancel.
    ("rule3-led-suit-and-discard-same-rank", ["2C", "9C", "9H"], 1, []),
    # Rule 4: discards win by rank only, suits do not matter.
    ("rule4-discard-by-rank-not-suit", ["7S", "7S", "4C", "3H", "5D"], 4, ["7S", "7S"]),
]


@pytest.mark.parametrize("cards,win,cancelled", [e[1:] for e in EXAMPLES], ids=[e[0] for e in EXAMPLES])
def test_digest_cancellation_example(cards, win, cancelled):
    """../shared/rules/cancellation-black-lady.md, "Cancellation" rules 1-5 and their examples."""
    s, ev, n = play_first_trick(cards)
    assert ev["leader"] == 1
    assert ev["winner"] == seat_of(win, n)
    fill = ev["cancelled"][:]
    got = Counter(fill)
    got.subtract(cancelled)
    # Whatever is left over in the cancelled list can only be the fillers (never an example card).
    extra = list(got.elements())
    assert all(c not in cards for c in extra), ev["cancelled"]
    assert len(extra) == len(ev["cards"]) - len(cards)
    # The winner takes the trick into its won pile and leads the next trick.
    assert s.to_act == seat_of(win, n)
    won = s.view(seat_of(win, n))["zones"]["won"][str(seat_of(win, n))]
    assert Counter(won) == Counter(c for _, c in ev["cards"])


def test_seed_example_is_seat_5_winning_a_trick_led_by_seat_1():
    """cancellation-black-lady.md, "The seed's worked example": 7 players, the 2D played fifth (seat 5) wins."""
    s, ev, n = play_first_trick(["AH", "JH", "QS", "QD", "2D", "JH", "AH"])
    assert n == 7 and ev["leader"] == 1 and ev["winner"] == 5
    assert [c for _, c in ev["cards"]][4] == "2D"


# ---- variants (options) -----------------------------------------------------------------------
def test_option_discards_win_false_only_the_led_suit_can_win():
    """cancellation-black-lady.md, "Variants": discards never win; the leader wins when no led card survives."""
    _, ev, n = play_first_trick(["5C", "5C", "3H", "QD", "QS"], {"discards_win": False})
    assert ev["winner"] == 1
    _, ev, n = play_first_trick(["5C", "5C", "3H", "QD", "QS"])
    assert ev["winner"] == seat_of(2, n)
    _, ev, n = play_first_trick(["5C", "5C", "KC", "KH"], {"discards_win": False})
    assert ev["winner"] == seat_of(2, n)


def _play_until(s, pred, choose=None, rng=None):
    rng = rng or random.Random(0)
    while not s.terminal and not pred(s):
        legal = s.legal_actions()
        s.apply(choose(s, legal) if choose else rng.choice(legal))


def test_option_all_cancelled_carry_to_next_trick_winner():
    """cancellation-black-lady.md, "Variants", all_cancelled=carry: the trick is set aside, the same leader
    leads again, and the winner of the next trick takes both tricks' cards."""
    s, ev, n = play_first_trick(["5C", "5C", "9H", "9S"], {"all_cancelled": "carry"})
    assert ev.get("carried") is True and ev["winner"] is None
    assert s.to_act == 1, "the same leader leads again"
    won = s.view(None)["zones"]["won"]
    assert all(z["count"] == 0 for z in won.values()), "nobody took the carried trick yet"
    _play_until(s, lambda st: len([e for e in st.log_all() if e["type"] == "trick"]) == 2)
    ev2 = [e for e in s.log_all() if e["type"] == "trick"][1]
    assert ev2["leader"] == 1
    first = [c for _, c in ev["cards"]]
    second = [c for _, c in ev2["cards"]]
    assert not ev2.get("carried"), "this seed's second trick has a winner"
    w = ev2["winner"]
    assert Counter(s.view(w)["zones"]["won"][str(w)]) == Counter(first + second)


def test_option_all_cancelled_carry_default_is_leader():
    """cancellation-black-lady.md, rule 4 (seed): every card cancelled → the leader takes the trick at once."""
    s, ev, n = play_first_trick(["5C", "5C", "9H", "9S"])
    assert ev["winner"] == 1 and not ev.get("carried")
    assert len(s.view(1)["zones"]["won"]["1"]) == n


def _deal_with_reserved_last_trick(seed, options):
    """A 6-player deal where each seat keeps one reserved card for the last trick: 5C 5C 9H 9H 7D 7D
    (all cancel whoever leads: rule 1 for the led pair, rule 2 for the discarded pairs)."""
    reserved = {0: "5C", 1: "5C", 2: "9H", 3: "9H", 4: "7D", 5: "7D"}
    rest = Counter(FULL_DECK)
    rest.subtract(reserved.values())
    pool = list(rest.elements())
    random.Random(seed).shuffle(pool)
    # Each seat also holds 12 more cards of its reserved card's suit, so it is rarely forced to play it.
    hands = {}
    for s, c in reserved.items():
        same = [x for x in pool if x[1] == c[1]][:12]
        for x in same:
            pool.remove(x)
        hands[s] = [c] + same
    for s in hands:
        hands[s] += [pool.pop() for _ in range(4)]
    widow = [pool.pop() for _ in range(2)]
    assert not pool
    return reserved, hands, widow


def test_option_carry_last_trick_goes_to_its_leader():
    """cancellation-black-lady.md, "Variants": with carry, a last trick whose cards all cancel goes to its
    leader (with anything carried)."""
    for seed in range(200):
        reserved, hands, widow = _deal_with_reserved_last_trick(seed, {})
        s = new_state(hands, widow, 6, {"all_cancelled": "carry"}, seed=seed)

        def choose(st, legal):
            mine = reserved[st.to_act]
            others = [a for a in legal if a != mine]
            return others[0] if others else legal[0]
        _play_until(s, lambda st: any(e["type"] == "deal_score" for e in st.log_all()), choose)
        tricks = [e for e in s.log_all() if e["type"] == "trick"]
        last = tricks[-1]
        if sorted(c for _, c in last["cards"]) != sorted(reserved.values()):
            continue
        assert not last.get("carried")
        assert last["winner"] == last["leader"]
        assert len(tricks) == 17
        return
    pytest.fail("no seed kept the reserved cards to the last trick")


def test_option_widow_to_first_trick():
    """cancellation-black-lady.md, "Variants": widow to the winner of the first trick."""
    s, ev, n = play_first_trick(["JC", "TC", "9C", "8C", "4C", "JC"], {"widow_to": "first_trick"})
    w = ev["winner"]
    taken = [e for e in s.log_all() if e["type"] == "widow_taken"]
    assert [(e["seat"], e["cards"]) for e in taken] == [(w, widow_size(6))]
    assert s.view(None)["vars"]["widow_taker"] == w
    # face down with its taker until play is over (issue 32: the running points every seat sees must not
    # count it), then in his won pile for the deal's score
    assert len(s.view(w)["zones"]["won"][str(w)]) == 6
    _play_until(s, lambda st: any(e["type"] == "deal_score" for e in st.log_all()))
    assert sum(1 for e in s.log_all() if e["type"] == "widow_taken") == 1
    score = [e for e in s.log_all() if e["type"] == "deal_score"][-1]
    assert sum(score["points"].values()) == 52                          # no widow card left out


@pytest.mark.parametrize("players,each,widow,face_up", [
    (6, 17, 2, 1), (7, 14, 6, 3), (8, 13, 0, 0), (9, 11, 5, 3), (10, 10, 4, 2), (11, 9, 5, 3)])
def test_widow_table(players, each, widow, face_up):
    """cancellation-black-lady.md, "Deal and widow" table: cards each, widow, face-up = ceil(widow / 2)."""
    s = cardspec.load(RULESET, players=players).new_state(seed=players)
    v = s.view(0)
    assert all(len(h) == each for h in [v["zones"]["hand"]["0"]])
    assert all(z["count"] == each for k, z in v["zones"]["hand"].items() if k != "0")
    wz = v["zones"]["widow"]
    assert wz["count"] == widow
    assert len(wz.get("face_up", [])) == face_up
    dealt = [e for e in s.log_all() if e["type"] == "deal" and e["zone"] == "widow"]
    assert dealt[0]["count"] == widow and len(dealt[0].get("face_up", [])) == face_up
    assert each * players + widow == 104


@pytest.mark.parametrize("how", ["option", "variant-file"])
def test_widow_table_8_players_option(how):
    """cancellation-black-lady.md, table row "8 (option)": 12 each, an 8-card widow, 4 face up — a one-line
    option (``widow_8p=8``) or the variant file that extends the base."""
    if how == "option":
        g = cardspec.load(RULESET, players=8, options={"widow_8p": 8})
    else:
        g = cardspec.load("cancellation-black-lady-8-widow", players=8)
    v = g.new_state(seed=3).view(2)
    assert len(v["zones"]["hand"]["2"]) == 12
    assert v["zones"]["widow"]["count"] == 8 and len(v["zones"]["widow"]["face_up"]) == 4
    # The face-up cards are part of the widow, the rest stays hidden from every seat.
    assert "cards" not in v["zones"]["widow"]


@pytest.mark.parametrize("players,face_up", [(6, 1), (7, 3), (9, 2), (10, 2), (11, 2)])
def test_option_face_up_rounding_down(players, face_up):
    """cancellation-black-lady.md, "Variants": face-up count rounded down."""
    v = cardspec.load(RULESET, players=players, options={"face_up_rounding": "down"}).new_state(seed=1).view(0)
    assert len(v["zones"]["widow"].get("face_up", [])) == face_up


def test_widow_face_up_cards_are_the_widows_and_stay_visible_to_all():
    """cancellation-black-lady.md, "Deal and widow": half the widow lies face up (seen by every seat)."""
    s = cardspec.load(RULESET, players=9).new_state(seed=5)
    ups = [tuple(s.view(seat)["zones"]["widow"]["face_up"]) for seat in [None] + list(range(9))]
    assert len(set(ups)) == 1 and len(ups[0]) == 3
    widow = [s.game.deck.code[c] for c in s.z[s.game.zone["widow"].index]]
    assert Counter(ups[0]) <= Counter(widow)


@pytest.mark.parametrize("players", [5, 12])
def test_players_out_of_range(players):
    """cancellation-black-lady.md, "Players": 6 to 11 players (impossible with 5 or fewer)."""
    with pytest.raises(cardspec.RulesetError, match="6 to 11"):
        cardspec.load(RULESET, players=players)


def test_two_decks_104_cards_52_points():
    """cancellation-black-lady.md, "Players, cards, points": two decks, 104 cards, hearts 1, QS 13: 52 a deal."""
    g = cardspec.load(RULESET, players=7)
    assert len(g.deck.cards) == 104
    assert Counter(g.deck.code[c] for c in g.deck.cards) == Counter(FULL_DECK)
    assert sum(g.deck.points_of[c] for c in g.deck.cards) == 52


# ---- passing ------------------------------------------------------------------------------------
def test_pass_two_then_one_to_the_right_simultaneous():
    """cancellation-black-lady.md, "Passing": 2 cards face down to the right-hand neighbour (seat i → i−1),
    all at the same time; then 1 more after seeing what arrived. DESIGN.md: asked from the dealer's
    left; no view shows a choice before all have chosen."""
    n = 7
    g = cardspec.load(RULESET, players=n)
    s = g.new_state(seed=11, dealer=0)
    before = {i: Counter(s.view(i)["zones"]["hand"][str(i)]) for i in range(n)}
    order, chosen = [], {}
    for _ in range(n):
        seat = s.to_act
        order.append(seat)
        legal = s.legal_actions()
        assert all(a.startswith("pass ") and len(a.split()) == 3 for a in legal)
        act = legal[seat * 7 % len(legal)]
        chosen[seat] = act.split()[1:]
        s.apply(act, seat=seat)
        if len(chosen) < n:
            # Nothing has arrived: every hand is its dealt hand minus its own choice.
            for i in range(n):
                mine = Counter(s.view(i)["zones"]["hand"][str(i)])
                want = before[i] - Counter(chosen.get(i, []))
                assert mine == want
                # A seat sees its own choice in flight, and no other seat's.
                assert s.view(i).get("passing") == (sorted(chosen[i]) if i in chosen else None) or \
                    Counter(s.view(i).get("passing") or []) == Counter(chosen.get(i, []))
            # The public log shows counts, not cards.
            pub = [e for e in s.log(None) if e["type"] == "pass_chosen"]
            assert all("cards" not in e for e in pub)
            other = (seat + 2) % n
            assert all("cards" not in e for e in s.log(other) if e["type"] == "pass_chosen" and e["seat"] == seat)
    assert order == [1, 2, 3, 4, 5, 6, 0], "asked from the dealer's left clockwise"
    after = {i: Counter(s.view(i)["zones"]["hand"][str(i)]) for i in range(n)}
    for i in range(n):
        # Seat i gave its 2 to seat i-1 and received the 2 of seat i+1 (whose right-hand neighbour it is).
        assert after[i] == before[i] - Counter(chosen[i]) + Counter(chosen[(i + 1) % n])
    # Second round: one card, and what arrived may be passed on.
    legal = s.legal_actions()
    assert all(len(a.split()) == 2 for a in legal)
    arrived = chosen[(s.to_act + 1) % n]
    assert {"pass " + c for c in arrived} <= set(legal)
    second = {}
    for _ in range(n):
        seat = s.to_act
        act = "pass " + chosen[(seat + 1) % n][0]
        second[seat] = act.split()[1]
        s.apply(act, seat=seat)
    for i in range(n):
        assert Counter(s.view(i)["zones"]["hand"][str(i)]) == \
            after[i] - Counter([second[i]]) + Counter([second[(i + 1) % n]])
    # Play starts: the dealer's left leads.
    assert s.to_act == 1 and all(len(a.split()) == 1 for a in s.legal_actions())


def test_pass_in_flight_hidden_from_the_receiver():
    """DESIGN.md "Scenarios": simultaneous decisions; no view shows a choice before all have chosen
    (the receiver of seat 1's cards, seat 0, does not see them until everyone has passed)."""
    s = cardspec.load(RULESET, players=6).new_state(seed=2, dealer=0)
    act = s.legal_actions()[0]
    cards = act.split()[1:]
    hand0 = s.view(0)["zones"]["hand"]["0"]
    s.apply(act, seat=1)
    v0 = s.view(0)
    assert v0["zones"]["hand"]["0"] == hand0
    assert "passing" not in v0
    assert s.view(1)["passing"] == cards
    assert all(e.get("cards") is None for e in s.log(0) if e["type"] in ("pass_chosen", "pass"))


def test_pass_counts_are_options():
    """cancellation-black-lady.md, "Variants": pass count and direction; no pass at all."""
    s = cardspec.load(RULESET, players=6, options={"pass_count": 3, "second_pass_count": 0}).new_state(seed=1)
    assert all(len(a.split()) == 4 for a in s.legal_actions())
    s = cardspec.load(RULESET, players=6, options=NO_PASS).new_state(seed=1)
    assert s.to_act == 1 and all(len(a.split()) == 1 for a in s.legal_actions())
    s = cardspec.load(RULESET, players=6, options={"pass_count": 0}).new_state(seed=1)
    assert all(len(a.split()) == 2 for a in s.legal_actions())


def test_pass_illegal_count_and_foreign_card_rejected():
    """cancellation-black-lady.md, "Passing": exactly 2 of one's own cards; the state is left unchanged."""
    s = cardspec.load(RULESET, players=6).new_state(seed=4)
    mine = s.view(1)["zones"]["hand"]["1"]
    other = next(c for c in FULL_DECK if c not in mine)
    log = s.log_all()
    for bad in ("pass " + mine[0], "pass " + " ".join(mine[:3]), f"pass {mine[0]} {other}", "pass ZZ"):
        with pytest.raises(IllegalAction) as e:
            s.apply(bad)
        assert e.value.legal and "pass " in e.value.legal[0]
    assert s.log_all() == log and s.view(1)["zones"]["hand"]["1"] == mine


# ---- play ---------------------------------------------------------------------------------------
def test_follow_suit_if_able_otherwise_any_card():
    """cancellation-black-lady.md, "Play" (as black-lady.md): follow suit if able; if void, any card."""
    trick = ["5C", "9C", "9H"] + ["7D", "7S", "7H"]
    hands, widow = trick_deal(trick, 6)
    s = new_state(hands, widow, 6)
    lead_legal = set(s.legal_actions())
    assert lead_legal == set(hands[1]), "any card may be led (hearts and QS included)"
    s.apply("5C")
    assert set(s.legal_actions()) == {c for c in hands[2] if c[1] == "C"}
    with pytest.raises(IllegalAction, match="follow suit"):
        s.apply(next(c for c in hands[2] if c[1] != "C"))
    s.apply("9C")
    assert set(s.legal_actions()) == set(hands[3]), "void in clubs: any card"


def test_no_lead_restriction_on_hearts_or_qs():
    """cancellation-black-lady.md, "Play": no restriction on leading hearts or the QS, no first-trick rule."""
    _, ev, n = play_first_trick(["QS", "QS", "AS"])
    assert ev["cards"][0] == [1, "QS"]
    _, ev, n = play_first_trick(["AH", "JH", "QS", "QD", "2D", "JH", "AH"])
    assert ev["cards"][0] == [1, "AH"]


def _random_match(players, seed, options=None):
    g = cardspec.load(RULESET, players=players, options=options or {})
    s = g.new_state(seed=seed)
    rng = random.Random(seed)
    while not s.terminal:
        s.apply(rng.choice(s.legal_actions()))
    return s


def test_widow_goes_to_the_last_tricks_winner_with_its_points():
    """cancellation-black-lady.md, "Play": the winner of the last trick takes the whole widow (face-down part
    included) and its points count for that player."""
    hands, widow = trick_deal(["2C", "3C", "4C", "5C", "6C", "7C"], 6)
    # Put the QS and a heart in the widow.
    for seat, h in hands.items():
        for i, c in enumerate(h):
            if c in ("QS", "AH") and c not in widow:
                h[i], widow[len([x for x in widow if x in ("QS", "AH")])] = widow[len(
                    [x for x in widow if x in ("QS", "AH")])], c
    assert sorted(widow) == ["AH", "QS"]
    s = new_state(hands, widow, 6)
    rng = random.Random(3)
    _play_until(s, lambda st: any(e["type"] == "deal_score" for e in st.log_all()), rng=rng)
    log = s.log_all()
    tricks = [e for e in log if e["type"] == "trick"]
    pts = {"QS": 13}
    taken = Counter()
    for t in tricks:
        taken[t["winner"]] += sum(pts.get(c, 1 if c[1] == "H" else 0) for _, c in t["cards"])
    last = tricks[-1]["winner"]
    taken[last] += 14
    score = [e for e in log if e["type"] == "deal_score"][0]
    assert {int(k): v for k, v in score["points"].items() if v} == {k: v for k, v in taken.items() if v}
    assert sum(score["points"].values()) == 52


def test_match_length_rotation_and_loser():
    """cancellation-black-lady.md, "Match": as many deals as players, the deal passes to the dealer's left,
    the dealer's left leads, lowest total best, the highest total is the loser."""
    for players in (6, 8, 11):
        s = _random_match(players, players)
        log = s.log_all()
        starts = [e for e in log if e["type"] == "deal_start"]
        assert [e["dealer"] for e in starts] == list(range(players))
        firsts = []
        for i, e in enumerate(log):
            if e["type"] == "deal_start":
                firsts.append(next(x for x in log[i:] if x["type"] == "trick")["leader"])
        assert firsts == [(d + 1) % players for d in range(players)]
        over = log[-1]
        assert over["type"] == "game_over"
        totals = {int(k): v for k, v in over["scores"].items()}
        assert over["ranking"] == sorted(totals, key=lambda k: (totals[k], k))
        assert over["loser"] == [k for k, v in totals.items() if v == max(totals.values())]
        scores = [e for e in log if e["type"] == "deal_score"]
        assert len(scores) == players and all(sum(e["points"].values()) == 52 for e in scores)
        assert sum(totals.values()) == 52 * players


def test_first_dealer_is_seat_0_by_default_and_can_be_chosen():
    """cancellation-black-lady.md, "Match": first dealer arbitrary (seat 0 by default)."""
    g = cardspec.load(RULESET, players=6)
    assert g.new_state(seed=1).view(None)["dealer"] == 0
    s = g.new_state(seed=1, dealer=3)
    assert s.view(None)["dealer"] == 3 and s.to_act == 4


def test_scenario_deal_shows_the_given_widows_face_up_cards():
    """cancellation-black-lady.md, "Deal and widow" (half the widow face up) with a scenario's ``deal:`` widow:
    the deal event and every view show the face-up cards of the widow actually dealt."""
    trick, n = example_trick(["AH", "JH", "QS", "QD", "2D", "JH", "AH"])
    hands, widow = trick_deal(trick, n)
    s = new_state(hands, widow, n)
    ev = [e for e in s.log_all() if e["type"] == "deal" and e["zone"] == "widow"][0]
    assert ev["face_up"] == widow[:3]
    assert s.view(0)["zones"]["widow"]["face_up"] == widow[:3]


def test_carry_with_widow_to_first_trick_gives_the_widow_to_the_first_winner():
    """cancellation-black-lady.md, "Variants": widow to the winner of the first trick, combined with
    all_cancelled=carry: when the first trick is carried, its winner is the next trick's winner, who takes
    the widow with it (no widow card may be left out of the deal's 52 points)."""
    opts = {"all_cancelled": "carry", "widow_to": "first_trick"}
    s, ev, n = play_first_trick(["5C", "5C", "9H", "9S"], opts)
    assert ev.get("carried") and s.view(None)["zones"]["widow"]["count"] == widow_size(n)
    _play_until(s, lambda st: len([e for e in st.log_all() if e["type"] == "trick"]) == 2)
    ev2 = [e for e in s.log_all() if e["type"] == "trick"][1]
    assert not ev2.get("carried")
    w = ev2["winner"]
    assert s.view(None)["vars"]["widow_taker"] == w
    assert [e["seat"] for e in s.log_all() if e["type"] == "widow_taken"] == [w]
    assert len(s.view(w)["zones"]["won"][str(w)]) == 2 * n      # the widow joins it when play is over
    _play_until(s, lambda st: any(e["type"] == "deal_score" for e in st.log_all()))
    score = [e for e in s.log_all() if e["type"] == "deal_score"][-1]
    assert sum(score["points"].values()) == 52


def test_pass_identical_twins_but_not_one_card_twice():
    """cancellation-black-lady.md, "Players, cards, points" (two identical cards) and "Passing": a seat holding
    both copies of a card may pass both; a card held once cannot be passed twice."""
    g = _game(6, ())
    for seed in range(100):
        s = g.new_state(seed=seed)
        c = Counter(s.view(1)["zones"]["hand"]["1"])
        twins = [k for k, v in c.items() if v == 2]
        single = [k for k, v in c.items() if v == 1]
        if twins and single:
            break
    else:
        pytest.fail("no seed dealt seat 1 a pair of twins")
    with pytest.raises(IllegalAction):
        s.apply(f"pass {single[0]} {single[0]}")
    s.apply(f"pass {twins[0]} {twins[0]}")
    assert Counter(s.view(1)["zones"]["hand"]["1"])[twins[0]] == 0


@pytest.mark.parametrize("pass_to, offset", [("right", -1), ("left", 1)])
def test_both_passes_follow_the_inherited_pass_to_option(pass_to, offset):
    """Issue 20 item 4: cancellation-black-lady inherits black-lady's ``pass_to`` (black-lady.md, "Passing":
    count and direction are options); it hard-coded passing to the right, so ``--option pass_to=left`` was
    accepted and ignored. Both rounds go where pass_to says; the default stays the digest's right-hand
    neighbour (cancellation-black-lady.md, "Passing": seat i → seat i−1)."""
    n = 6
    options = {} if pass_to == "right" else {"pass_to": pass_to}
    s = cardspec.load(RULESET, players=n, options=options).new_state(seed=3, dealer=0)
    for size in (2, 1):
        before = {i: Counter(s.view(i)["zones"]["hand"][str(i)]) for i in range(n)}
        chosen = {}
        for _ in range(n):
            seat = s.to_act
            act = s.legal_actions()[0]
            assert len(act.split()) == size + 1
            chosen[seat] = act.split()[1:]
            s.apply(act, seat=seat)
        for i in range(n):   # seat i gave to i + offset and received from i - offset
            assert Counter(s.view(i)["zones"]["hand"][str(i)]) == \
                before[i] - Counter(chosen[i]) + Counter(chosen[(i - offset) % n])
