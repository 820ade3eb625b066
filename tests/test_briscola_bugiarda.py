"""Briscola Bugiarda (rulesets/briscola-bugiarda.yaml) against ../shared/rules/briscola-bugiarda.md:
every worked example, the rules of each section, random matches, the secret partner."""
import copy
import random

import pytest

import cardspec
from cardspec.engine.determinize import Determinizer

from _team_games import card_count, play_random, same_for, to_play, trick_winner

# Auctions in order B C D E A: with the dealer A = seat 0 and play counterclockwise (to the right),
# B C D E are seats 4 3 2 1.
A, B, C, D, E = 0, 4, 3, 2, 1


@pytest.fixture(scope="module")
def game():
    return cardspec.load("briscola-bugiarda", 5)


def _declare(game, seed=1, bids=("bid K", "pass", "pass", "pass", "pass"), trump="hearts"):
    s = game.new_state(seed=seed)
    for b in bids:
        s.apply(b)
    if trump is not None:
        s.apply(f"name {trump}")
    return s


@pytest.fixture(scope="module")
def base(game):
    return to_play(_declare(game))


def test_cards_ranks_points():
    """briscola-bugiarda.md, Cards: 40 cards, A 3 K Q J 7 6 5 4 2, points A 11, 3 10, K 4, Q 3, J 2: 120."""
    g = cardspec.load("briscola-bugiarda", 5)
    assert len(g.deck.cards) == 40 and sum(g.deck.points_of[f] for f in g.deck.cards) == 120
    s = g.new_state(seed=1)
    assert all(s.view(None)["zones"]["hand"][str(p)]["count"] == 8 for p in range(5))


def test_play_goes_counterclockwise_from_the_dealer(game):
    """briscola-bugiarda.md, Players and Bidding: counterclockwise; bidding starts after the dealer."""
    s = game.new_state(seed=1)
    order = []
    for _ in range(5):
        order.append(s.to_act)
        s.apply("pass")
    assert order == [B, C, D, E, A]
    assert s.view(None)["dealer"] == B    # thrown in: the deal passes on in the same direction
    s = cardspec.load("briscola-bugiarda", 5, {"direction": "clockwise"}).new_state(seed=1)
    assert s.to_act == 1


@pytest.mark.parametrize("plays,winner,points", [
    (["KC", "2C", "AS", "3C", "JC"], 3, 27),   # ♣3 wins 4 + 0 + 11 + 10 + 2 = 27; ♠A legal (no duty to follow)
    (["7D", "4H", "AD", "2H", "3D"], 1, 21),   # ♥4 (highest trump)
])
def test_trick_worked_examples(game, base, plays, winner, points):
    """briscola-bugiarda.md, Worked examples (trumps ♥; order of play)."""
    order = [0, 4, 3, 2, 1]
    assert trick_winner(game, base, plays, leader=0, trick_number=2, trump="H") == order[winner]
    assert sum(game.deck.points_of[game.deck.face(c)] for c in plays) == points


def test_no_duty_to_follow_and_must_follow_option(game, base):
    """briscola-bugiarda.md, Play: any card at any time; option must_follow (Chiamata's rule)."""
    s = to_play(_declare(game, seed=3))
    s.apply(s.legal_actions()[0])
    seat = s.to_act
    assert sorted(s.legal_actions()) == sorted(s.view(seat)["zones"]["hand"][str(seat)])
    g = cardspec.load("briscola-bugiarda", 5, {"must_follow": True})
    s = to_play(_declare(g, seed=3))
    led = s.legal_actions()[0]
    s.apply(led)
    seat = s.to_act
    hand = s.view(seat)["zones"]["hand"][str(seat)]
    if any(c[-1] == led[-1] for c in hand):
        assert all(c[-1] == led[-1] for c in s.legal_actions())


def test_auction_worked_examples(game):
    """briscola-bugiarda.md, Worked examples: B Q, C solo → over, C alone, no trumps;
    B K, C 7, D pass, E pass, A pass, B pass → C declares with 7, names ♠; 7♠'s holder is the partner."""
    s = game.new_state(seed=1)
    s.apply("bid Q")
    s.apply("solo")
    v = s.view(None)
    assert v["system"]["declarer"] == C and v["system"]["bid_contract"] == "solo"
    assert v["step"] == "play" and v["trump"] is None and s.to_act == C   # no naming; the declarer leads
    assert s.view(None)["sides"]["partner"] == -1 or s.view(None)["sides"]["called"] is None
    s = game.new_state(seed=1)
    for b in ["bid K", "bid 7", "pass", "pass", "pass", "pass"]:
        s.apply(b)
    assert s.view(None)["system"]["declarer"] == C and s.to_act == C
    s.apply("name spades")
    v = s.view(None)
    assert v["trump"] == "S" and v["sides"]["called"] == "7S"
    holder = next(p for p in range(5) if "7S" in s.view(p)["zones"]["hand"][str(p)])
    assert s.view(holder)["sides"]["partner"] == (holder if holder != C else -1)


def test_after_a_two_only_pass_or_solo(game):
    """briscola-bugiarda.md, Bidding: after a 2 the others may only pass or bid solo."""
    s = game.new_state(seed=1)
    s.apply("bid 2")
    assert s.legal_actions() == ["pass", "solo"]


def test_all_pass_next_dealer_no_chips(game):
    """briscola-bugiarda.md, Bidding: all five pass — the next dealer deals; the deal counts, no chips."""
    s = game.new_state(seed=1)
    for _ in range(5):
        s.apply("pass")
    assert s.view(None)["deal"] == 2 and s.scores() == {str(p): 15 for p in range(5)}


def _scored(game, base, p, alone=False):
    """Chips won in a deal whose last trick leaves the declarer's side with ``p`` card points."""
    v = copy.deepcopy(base.view(None))
    decl = v["system"]["declarer"]
    part = (decl + 2) % 5
    v["system"].update(trick_number=8, tricks_total=8, leader=decl, to_act=decl,
                       called_by=decl if alone else part)
    deck = game.deck
    cards = [deck.code[f] for f in deck.cards]
    last = ["2S", "4S", "5S", "6S", "7S"]     # no points
    rest = [c for c in cards if c not in last]
    side = [decl] if alone else [decl, part]
    others = [q for q in range(5) if q not in side]
    won = {q: [] for q in range(5)}
    import itertools
    counts = next(c for c in itertools.product(range(5), repeat=5)
                  if sum(k * v for k, v in zip(c, (11, 10, 4, 3, 2))) == p)
    take = dict(zip((11, 10, 4, 3, 2), counts))
    for c in rest:
        pts = deck.points_of[deck.face(c)]
        if take.get(pts, 0) > 0:
            take[pts] -= 1
            won[side[0]].append(c)
        else:
            won[others[0]].append(c)
    for q in range(5):
        v["zones"]["won"][str(q)] = {"count": len(won[q])}
        v["zones"]["hand"][str(q)] = {"count": 1}
    v["trick"] = []
    hidden = {("won", q): won[q] for q in range(5)}
    hidden.update({("hand", q): [last[q]] for q in range(5)})
    s = game.state_from_view(v, hidden)
    before = s.game_scores()
    for _ in range(5):
        s.apply(s.legal_actions()[-1])
    return {q: s.game_scores()[q] - before[q] for q in range(5)}, decl, part


@pytest.mark.parametrize("p,u", [(74, 2), (61, 1), (45, -2), (60, -1), (10, -6), (11, -5), (120, 12), (0, -12),
                                 (118, 6), (111, 6), (101, 5), (51, -1), (50, -2)])
def test_scoring_bands(game, base, p, u):
    """briscola-bugiarda.md, Scoring and Worked examples: p = 74 → u = 2: declarer +4, partner +2,
    opponents −2 each; p = 61 → 1; p = 45 → −2; 60 → −1 (60 loses); 10 → −6; 11 → −5; 120 → 12."""
    got, decl, part = _scored(game, base, p)
    assert got[decl] == 2 * u and got[part] == u
    assert all(got[q] == -u for q in range(5) if q not in (decl, part))


def test_scoring_alone(game, base):
    """briscola-bugiarda.md, Worked examples: alone with p = 120 → u = 12: declarer +48, each other −12."""
    got, decl, _ = _scored(game, base, 120, alone=True)
    assert got[decl] == 48 and all(got[q] == -12 for q in range(5) if q != decl)


def test_random_matches_conserve_cards_chips_and_end(game):
    """briscola-bugiarda.md, Scoring (chips move between players) and Match end (5 deals)."""
    for seed in range(6):
        s = play_random(game, seed, check=lambda st: card_count(st) == 40 or pytest.fail("cards"))
        assert sum(s.game_scores().values()) == 75 and s.view(None)["deal"] == 5


def test_information_partner_secret(game):
    """Issue 18, the information test (briscola-bugiarda.md, Partners: the holder of the trump of
    the bid rank is the secret partner, known when the card is played)."""
    s = _declare(game, seed=4, trump=None)
    decl = s.view(None)["system"]["declarer"]
    s.apply("name hearts")
    called = s.view(None)["sides"]["called"]
    holder = next(p for p in range(5) if called in s.view(p)["zones"]["hand"][str(p)])
    for p in range(5):
        assert s.view(p)["sides"]["partner"] == ({holder: holder if holder != decl else -1}.get(p))
    det = Determinizer(game, to_play(s).view((holder + 1) % 5 if (holder + 1) % 5 != decl else (holder + 2) % 5,
                                             log=True))
    partners = {game.sides.partner(det.sample(random.Random(i))) for i in range(60)}
    assert len(partners - {-1}) >= 2


@pytest.mark.parametrize("bot", ["random", "policy:basic", "ismcts:20"])
def test_bots_play_a_deal(bot):
    from cardspec.players import make_bot, take_turn
    g = cardspec.load("briscola-bugiarda", 5, {"deals": 1})
    s = g.new_state(seed=2)
    bots = [make_bot(bot, seed=i, game=g) for i in range(5)]
    while not s.terminal:
        take_turn(s, bots[s.to_act])
    assert sum(s.game_scores().values()) == 75
