"""Napoleon (rulesets/napoleon.yaml) against ../shared/rules/napoleon.md: every worked example, the
rules of each section, random matches, and the information test for the secret adjutant."""
import copy
import random

import pytest

import cardspec
from cardspec.engine.determinize import Determinizer

from _team_games import card_count, play_random, same_for, to_play, trick_winner


@pytest.fixture(scope="module")
def game():
    return cardspec.load("napoleon", 5)


@pytest.fixture(scope="module")
def base(game):
    """A deal in its tricks step, Napoleon (seat 1) having bid ♥13."""
    s = game.new_state(seed=1)
    s.apply("bid 13 H")
    for _ in range(4):
        s.apply("pass")
    return to_play(s)


# ---- Play, worked examples (trumps ♥ unless stated; order of play) -------------------------------
@pytest.mark.parametrize("plays,winner,number,trump", [
    (["KC", "3C", "2H", "AC", "JD"], 4, 2, "H"),     # ♦J (裏ジャック) beats the trump 2
    (["5S", "AS", "QH", "KS", "2S"], 2, 2, "H"),     # よろめき: ♥Q beats the mighty
    (["5S", "AS", "3H", "KS", "2S"], 1, 2, "H"),     # without ♥Q, ♠A
    (["9D", "4D", "KD", "2D", "AD"], 3, 4, "H"),     # trick 4: same two
    (["9D", "4D", "KD", "2D", "AD"], 4, 1, "H"),     # on trick 1: ♦A
    (["TC", "2C", "QC", "3H", "JC"], 3, 2, "H"),     # not all one suit: ♥3 (a trump)
    (["4S", "JS", "JC", "AS", "KS"], 3, 2, "S"),     # trumps ♠: ♠A
    (["4S", "JS", "JC", "3S", "KS"], 1, 2, "S"),     # without ♠A: ♠J
    (["4S", "5S", "JC", "3S", "KS"], 2, 2, "S"),     # without both: ♣J
])
def test_trick_worked_examples(game, base, plays, winner, number, trump):
    """napoleon.md, Worked examples and Play (the first rule that applies wins)."""
    assert trick_winner(game, base, plays, leader=0, trick_number=number, trump=trump) == winner


def test_same_two_trick1_option(base):
    """napoleon.md, Options: same_two_trick1 — the same two also on trick 1."""
    g = cardspec.load("napoleon", 5, {"same_two_trick1": True})
    assert trick_winner(g, base, ["9D", "4D", "KD", "2D", "AD"], leader=0, trick_number=1, trump="H") == 3


def test_yoromeki_and_same_two_options_off(base):
    """napoleon.md, Options: yoromeki off — ♠A wins over ♥Q; same_two off — the ace wins."""
    g = cardspec.load("napoleon", 5, {"yoromeki": False, "same_two": False})
    assert trick_winner(g, base, ["5S", "AS", "QH", "KS", "2S"], leader=0, trick_number=2, trump="H") == 1
    assert trick_winner(g, base, ["9D", "4D", "KD", "2D", "AD"], leader=0, trick_number=4, trump="H") == 4


# ---- Bidding ------------------------------------------------------------------------------------
def test_auction_worked_example(game):
    """napoleon.md, Worked examples: P1 ♣13, P2 ♥13, P3 pass, P4 ♠13, P5 pass, P1 ♦14, P2–P5 pass →
    P1 is Napoleon, ♦ trumps, contract 14."""
    s = game.new_state(seed=2)
    for a in ["bid 13 C", "bid 13 H", "pass", "bid 13 S", "pass", "bid 14 D", "pass", "pass", "pass", "pass"]:
        s.apply(a)
    v = s.view(None)
    assert v["system"]["declarer"] == 1 and v["system"]["bid_number"] == 14 and v["trump"] == "D"
    assert s.to_act == 1 and s.legal_actions()[0].startswith("call ")


def test_min_bid_option_and_hard_pass(game):
    """napoleon.md, Bidding / Options: min_bid 13 (11, 12 options); hard_pass — passing ends one's bidding."""
    assert game.new_state(seed=1).legal_actions()[1] == "bid 13 C"
    g = cardspec.load("napoleon", 5, {"min_bid": 11, "hard_pass": True})
    s = g.new_state(seed=1)
    assert s.legal_actions()[1] == "bid 11 C"
    s.apply("pass")
    s.apply("bid 11 C")
    for _ in range(3):
        s.apply("pass")
    assert s.view(None)["system"]["declarer"] == 2   # seat 1 passed for good: not asked again


def test_five_passes_throw_in_and_the_deal_counts(game):
    """napoleon.md, Bidding: five passes — throw in; the next dealer deals; it counts, scores nothing."""
    s = game.new_state(seed=3)
    for _ in range(5):
        s.apply("pass")
    v = s.view(None)
    assert v["deal"] == 2 and v["dealer"] == 1 and s.scores() == {str(i): 0 for i in range(5)}


# ---- Deal, partners, widow ----------------------------------------------------------------------
def test_deal_sizes_and_widow():
    """napoleon.md, Deal and Options: 10 each and 2 to the widow (5 players); 12/4 (4); 8/4 (6);
    the joker makes the widow one larger."""
    for n, each, widow, opts in [(5, 10, 2, {}), (4, 12, 4, {}), (6, 8, 4, {}), (5, 10, 3, {"joker": True})]:
        s = cardspec.load("napoleon", n, opts).new_state(seed=1)
        v = s.view(None)
        assert all(v["zones"]["hand"][str(p)]["count"] == each for p in range(n))
        assert v["zones"]["widow"]["count"] == widow


def test_napoleon_calls_before_the_widow_then_discards(game):
    """napoleon.md, Partners: Napoleon names any card before seeing the widow, then takes it and
    discards as many cards face down."""
    s = game.new_state(seed=1)
    s.apply("bid 13 H")
    for _ in range(4):
        s.apply("pass")
    assert len(s.legal_actions()) == 52 and s.view(1)["zones"]["hand"]["1"].__len__() == 10
    s.apply("call AS")
    assert len(s.view(1)["zones"]["hand"]["1"]) == 12
    s.apply(s.legal_actions()[0])
    assert len(s.view(1)["zones"]["hand"]["1"]) == 10 and s.view(1)["zones"]["buried"]["1"].__len__() == 2
    assert s.view(0)["zones"]["buried"]["1"] == {"count": 2}
    assert s.view(None)["step"] == "play" and s.to_act == 1   # Napoleon leads to trick 1


def test_joker_may_not_lead_trick_one():
    """napoleon.md, Options joker: the joker may not lead trick 1."""
    g = cardspec.load("napoleon", 5, {"joker": True})
    for seed in range(40):
        s = g.new_state(seed=seed)
        s.apply("bid 13 H")
        for _ in range(4):
            s.apply("pass")
        s.apply("call AS")
        hand = s.view(1)["zones"]["hand"]["1"]
        keep = [c for c in hand if c != "JK"]
        s.apply("discard " + " ".join(keep[:3]))
        if "JK" in s.view(1)["zones"]["hand"]["1"]:
            assert "JK" not in s.legal_actions()
            return
    pytest.fail("no deal gave Napoleon the joker")


def test_joker_led_wins_and_calls_for_trumps(base):
    """napoleon.md, Options joker: led, it wins unless ♠A is in the trick, and every other player
    must play a trump if able; otherwise it is the lowest card, playable at any time."""
    g = cardspec.load("napoleon", 5, {"joker": True})
    assert trick_winner(g, base, ["JK", "2H", "3H", "KD", "AH"], leader=0, trick_number=2, trump="H") == 0
    assert trick_winner(g, base, ["JK", "2H", "AS", "KD", "AH"], leader=0, trick_number=2, trump="H") == 2
    assert trick_winner(g, base, ["2D", "JK", "3D", "KD", "5D"], leader=0, trick_number=2, trump="H") == 3


def test_option_joker_lead_names_suit(base):
    """napoleon.md Options joker, with joker_lead: names_suit — the common alternative to the led joker
    calling for trumps: "Joker if it is the card being led off (in which case the lead chooses the suit
    to follow it)" (100bestdays.com/29-2, a player's account of the Japanese game). Trumps ♥, the
    joker led to trick 2 naming ♦: the others must follow ♦ (a player with ♦ and ♥ may not trump);
    the joker still wins unless ♠A is in the trick, as in the digest's settled rule."""
    g = cardspec.load("napoleon", 5, {"joker": True, "joker_lead": "names_suit"})
    name = {"JK": "name diamonds"}
    assert trick_winner(g, base, ["JK", "2D", "3D", "KD", "AD"], leader=0, trick_number=2, trump="H",
                        choices=name) == 0
    assert trick_winner(g, base, ["JK", "2D", "AS", "KD", "AD"], leader=0, trick_number=2, trump="H",
                        choices=name) == 2
    # naming trumps is allowed, and then it is the digest's "play a trump if able"
    assert trick_winner(g, base, ["JK", "2H", "3H", "KH", "AH"], leader=0, trick_number=2, trump="H",
                        choices={"JK": "name hearts"}) == 0
    with pytest.raises(cardspec.IllegalAction):   # seat 1 holds ♦5 and plays the trump ♥2
        trick_winner(g, base, ["JK", "2H", "3D", "KD", "AD"], leader=0, trick_number=2, trump="H",
                     choices=name, hands={p: [c] for p, c in enumerate(["6C", "5D", "7C", "8C", "9C"])})
    # the default (trumps): nothing is named, ♥ must be followed
    d = cardspec.load("napoleon", 5, {"joker": True})
    with pytest.raises(cardspec.IllegalAction):
        trick_winner(d, base, ["JK", "2D", "3H", "KH", "AH"], leader=0, trick_number=2, trump="H",
                     hands={p: [c] for p, c in enumerate(["6C", "5H", "7C", "8C", "9C"])})


# ---- Scoring ------------------------------------------------------------------------------------
def _scored(game, base, side, declarer=1, partner=3, alone=False, contract=14):
    """Match totals after a deal's last trick in which Napoleon's side holds ``side`` honours."""
    v = copy.deepcopy(base.view(None))
    v["system"].update(declarer=declarer, bid_number=contract, trick_number=10, tricks_total=10,
                       leader=declarer, to_act=declarer, called_by=-1 if alone else partner)
    v["vars"]["called"] = "QC"
    honours = [f"{r}{s}" for s in "SHDC" for r in "AKQJT"]
    others = [c for c in (f"{r}{s}" for s in "SHDC" for r in "23456789") if c not in ("2D", "3D", "4D", "5D", "6D")]
    won = {p: [] for p in range(5)}
    side_seats = [declarer] if alone else [declarer, partner]
    allies = [p for p in range(5) if p not in side_seats]
    for i, c in enumerate(honours):
        won[side_seats[i % len(side_seats)] if i < side else allies[i % len(allies)]].append(c)
    for i, c in enumerate(others):
        won[i % 5].append(c)
    for p in range(5):
        v["zones"]["won"][str(p)] = won[p]
        v["zones"]["hand"][str(p)] = {"count": 1}
        v["zones"]["buried"][str(p)] = {"count": 0}
    v["trick"] = []
    hidden = {("hand", p): [c] for p, c in enumerate(["2D", "3D", "4D", "5D", "6D"])}
    s = game.state_from_view(v, hidden)
    before = s.game_scores()
    for _ in range(5):
        s.apply(s.legal_actions()[0])
    return {p: s.game_scores()[p] - before[p] for p in range(5)}


def test_scoring_worked_examples(game, base):
    """napoleon.md, Worked examples: contract 14, the side takes 15 honours → Napoleon +2, adjutant
    +1, allies −1 each; takes 13 → −2, −1, +1 each. Napoleon alone (the called ♥A in the widow),
    contract 16 made → +4, the four others −1 each."""
    assert _scored(game, base, 15) == {1: 2, 3: 1, 0: -1, 2: -1, 4: -1}
    assert _scored(game, base, 13) == {1: -2, 3: -1, 0: 1, 2: 1, 4: 1}
    assert _scored(game, base, 16, alone=True, contract=16) == {1: 4, 0: -1, 2: -1, 3: -1, 4: -1}


def test_all20_loses_option(base):
    """napoleon.md, Options all20_loses: taking all 20 honours loses."""
    g = cardspec.load("napoleon", 5, {"all20_loses": True})
    assert _scored(g, base, 20)[1] == -2
    assert _scored(cardspec.load("napoleon", 5), base, 20)[1] == 2


def _honours_deal(to, seed):
    """Deal 1 of a seeded match with discards_to ``to``: seat 1 Napoleon (♥13, calls ♠A), discarding ♦10
    ♣10 (two honours); then random legal cards. Returns the deal's events."""
    g = cardspec.load("napoleon", 5, {"discards_to": to})
    s = g.new_state(seed=1)
    s.apply("bid 13 H")
    for _ in range(4):
        s.apply("pass")
    s.apply("call AS")
    s.apply("discard TD TC")
    rng = random.Random(seed)
    while s.view(None)["system"]["deal_number"] == 1:
        s.apply(rng.choice(s.legal_actions()))
    log = s.log_all()
    return log[:next(i for i, e in enumerate(log) if e["type"] == "deal_end")], s


@pytest.mark.parametrize("to", ["nobody", "allies", "first_trick"])
@pytest.mark.parametrize("seed", range(3))
def test_discarded_honours_count_for_whom_discards_to_says(to, seed):
    """napoleon.md, Partners: "Discarded honours count for nobody (settled here; variants give them to the
    allies or to trick 1's winner)" -- option discards_to: nobody | allies | first_trick. Each side's
    honours are counted when the play ends (the public `honours` event and its log line): the honours
    its seats took, and Napoleon's two discarded honours where the option gives them."""
    events, s = _honours_deal(to, seed)
    side = {1} | {e["seat"] for e in events if e["type"] == "partner"}
    took = {p: 0 for p in range(5)}
    for e in events:
        if e["type"] == "trick":
            took[e["taker"]] += sum(1 for _, c in e["cards"] if c[0] in "AKQJT")
    first = next(e for e in events if e["type"] == "trick" and e["number"] == 1)["winner"]
    to_side = to == "first_trick" and first in side
    to_allies = to == "allies" or (to == "first_trick" and first not in side)
    (ev,) = [e for e in events if e["type"] == "honours"]
    assert ev["side"] == sum(took[p] for p in side) + (2 if to_side else 0)
    assert ev["allies"] == sum(took[p] for p in range(5) if p not in side) + (2 if to_allies else 0)
    assert ev["side"] + ev["allies"] == (20 if to != "nobody" else 18)
    from cardspec.play.terminal import format_events
    assert f"honours: Napoleon's side {ev['side']}, the allies {ev['allies']}" in \
        "\n".join(format_events(s.game, s.log(0)))


# ---- Properties and information -----------------------------------------------------------------
@pytest.mark.parametrize("players,opts", [(5, {}), (4, {}), (6, {}), (5, {"joker": True, "deals": 2}),
                                          (5, {"joker": True, "joker_lead": "names_suit", "deals": 2})])
def test_random_matches_conserve_cards_zero_sum_and_end(players, opts):
    """napoleon.md, Scoring (zero-sum units) and Match end (each player deals twice)."""
    g = cardspec.load("napoleon", players, opts)
    total = 52 + (1 if opts.get("joker") else 0)
    for seed in range(4):
        s = play_random(g, seed, check=lambda st: card_count(st) == total or pytest.fail("cards"))
        assert sum(s.game_scores().values()) == 0
        assert s.view(None)["deal"] == opts.get("deals", 2 * players)


def test_information_the_adjutant_is_secret_until_the_called_card_is_played(game):
    """Issue 18, the information test (napoleon.md, Partners: the adjutant may reveal himself only by
    playing the card): two deals differing only in which of seats 3 and 4 holds the called card
    look the same to every other seat, and determinizations deal the adjutant to several seats."""
    s = game.new_state(seed=5)
    s.apply("bid 13 H")
    for _ in range(4):
        s.apply("pass")
    h3, h4 = s.view(3)["zones"]["hand"]["3"], s.view(4)["zones"]["hand"]["4"]
    called, other = h3[0], h4[0]
    hands = {p: list(s.view(p)["zones"]["hand"][str(p)]) for p in range(5)}
    widow = [game.deck.code[c] for c in s.z[game.zone["widow"].index]]
    swapped = {p: list(h) for p, h in hands.items()}
    swapped[3][swapped[3].index(called)] = other
    swapped[4][swapped[4].index(other)] = called

    def start(h):
        z = {zn.name: zn.index for zn in game.zones}
        deal = {(z["hand"], p): [game.deck.face(c) for c in cards] for p, cards in h.items()}
        deal[(z["widow"], None)] = [game.deck.face(c) for c in widow]
        t = game.new_state(seed=5, deal=deal)
        t.apply("bid 13 H")
        for _ in range(4):
            t.apply("pass")
        t.apply(f"call {called}")
        t.apply("discard " + " ".join(widow))
        return t

    a, b = start(hands), start(swapped)
    assert a.view(3)["sides"]["partner"] == 3 and b.view(4)["sides"]["partner"] == 4
    rng = random.Random(2)
    for _ in range(20):
        assert same_for(a, b, [None, 0, 1, 2])
        legal = [x for x in a.legal_actions() if x in b.legal_actions() and x not in (called, other)]
        if not legal:
            break
        act = rng.choice(legal)
        a.apply(act)
        b.apply(act)
    det = Determinizer(game, a.view(0, log=True))
    partners = {game.sides.partner(det.sample(random.Random(i))) for i in range(100)}
    assert len(partners - {-1}) >= 2


@pytest.mark.parametrize("bot", ["random", "policy:basic", "ismcts:20"])
def test_bots_play_a_deal(bot):
    """Issue 18, Deliver 2: playable by random, policy and ISMCTS bots."""
    from cardspec.players import make_bot, take_turn
    g = cardspec.load("napoleon", 5, {"deals": 1})
    s = g.new_state(seed=1)
    bots = [make_bot(bot, seed=i, game=g) for i in range(5)]
    while not s.terminal:
        take_turn(s, bots[s.to_act])
    assert sum(s.game_scores().values()) == 0


def test_the_discard_is_face_down_to_the_other_seats():
    """napoleon.md, Partners: "Napoleon then takes the widow and discards 2 face down" — the other seats'
    logs say how many cards, never which (issue 32: every seat used to read `discard AD JD …`, and learnt
    whether Napoleon had discarded the called card, i.e. played alone); his own log keeps them."""
    g = cardspec.load("napoleon")
    for seed in range(6):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        while not any(e["type"] == "action" and e["action"].startswith("discard") for e in s.log_all()):
            s.apply(rng.choice(s.legal_actions()))
        ev = [e for e in s.log_all() if e["type"] == "action"][-1]
        cards = ev["action"].split()[1:]
        assert len(cards) == 2
        for seat in [None, *range(g.n)]:
            seen = [e for e in s.log(seat) if e["type"] == "action"][-1]
            if seat == ev["seat"]:
                assert seen["action"] == ev["action"]
            else:
                assert seen["action"] == "discard 2 cards face down" and seen["face_down"] == 2
                assert not any(c in str(s.log(seat)) for c in cards if c not in str(s.view(seat)))
