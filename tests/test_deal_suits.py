"""A card's suit that depends on the deal (issue 34, item 1): `deck: suit_of:` reading the trump or a var.

Euchre's left bower (the jack of the trump's colour) is a trump once trumps are made, for following,
leading and winning (docs/rules/euchre.md, "Trumps"); Skat's jacks join the declared suit in a suit game
(docs/rules/skat.md). Before, `suit_of:` could read only options (a table made at load), so a Euchre
ruleset needed a hand-written follow rule in three places. Now the State keeps the table of the current
values (made again whenever the trump or a var it reads changes), and every expression, the follow rule,
the led suit, the trick's winner, the integer action space and the bots read it.

The oracle here is independent of the engine: it computes each card's effective suit and each trick's
winner from the rules' words and checks every legal set and winner over random deals.
"""
from __future__ import annotations

import random
import textwrap

import pytest

import cardspec
from cardspec.errors import RulesetError

EUCHRE_LIKE = textwrap.dedent("""\
    name: bowers
    players: {min: 4, max: 4}
    deck:
      ranks: [9, T, J, Q, K, A]
      suits: [S, H, D, C]
      # euchre.md, Trumps: the jack of the other suit of the trump's colour is the left bower, a trump.
      suit_of: "if card.rank == J and trump != no_suit and card.color == trump.color then trump else card.suit"
    zones:
      hand: {owner: seat, visibility: owner}
      won: {owner: seat, visibility: all}
      kitty: {visibility: all}
    counters:
      score: {per: match}
    deal:
      - shuffle
      - deal: {to: hand, each: 5}
      - deal: {to: kitty, count: 1, face_up: 1}
      - trump: top(kitty).suit
      - tricks:
          follow: suit
          to: won
          # euchre.md, Play: right bower, left bower, then A K Q 10 9 of trumps; then the led suit.
          key: >
            if card.suit == trump then
              (if card.rank == J then (if card.printed_suit == trump then 2000 else 1999) else 1000 + card.rank)
            else card.rank
      - score: {value: "count(won[seat]) / 4", add_to: score}
    """)

COLOUR = {"S": "black", "C": "black", "H": "red", "D": "red"}
ORDER = "9TJQKA"


def _eff(card: str, trump):
    rank, suit = card[0], card[1]
    if rank == "J" and trump is not None and COLOUR[suit] == COLOUR[trump]:
        return trump
    return suit


def _key(card: str, trump, led):
    if _eff(card, trump) == trump:
        if card[0] == "J":
            return 2000 if card[1] == trump else 1999
        return 1000 + ORDER.index(card[0])
    return ORDER.index(card[0]) if _eff(card, trump) == led else -1


@pytest.fixture(scope="module")
def bowers(tmp_path_factory):
    f = tmp_path_factory.mktemp("deal-suits") / "bowers.yaml"
    f.write_text(EUCHRE_LIKE)
    return cardspec.load(str(f))


def test_left_bower_follows_and_wins_as_a_trump_over_random_deals(bowers):
    """euchre.md: the left bower belongs to the trump suit for following and winning. Every legal set
    and every trick winner of 300 random deals, against the oracle above."""
    checked = tricks = 0
    for seed in range(300):
        s = bowers.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.terminal:
            v = s.view(s.to_act)
            trump = v["trump"]
            hand = v["zones"]["hand"][str(s.to_act)]
            if v["trick"]:
                led = _eff(v["trick"][0][1], trump)
                expected = [c for c in hand if _eff(c, trump) == led] or hand
            else:
                expected = hand
            assert sorted(s.legal_actions()) == sorted(expected), (seed, trump, v["trick"], hand)
            checked += 1
            before = s.event_count
            s.apply(rng.choice(s.legal_actions()))
            for e in s.log_all()[before:]:
                if e["type"] == "trick":
                    led = _eff(e["cards"][0][1], trump)
                    winner = max(e["cards"], key=lambda sc: _key(sc[1], trump, led))[0]
                    assert e["winner"] == winner, (seed, trump, e["cards"])
                    tricks += 1
    assert checked > 5000 and tricks > 1400


def test_a_led_left_bower_calls_for_trumps_and_the_printed_suit_need_not_follow(bowers):
    """euchre.md, worked example: the left bower led calls for trumps; a player holding the bower's
    printed suit but no trump may play anything."""
    for seed in range(400):
        s = bowers.new_state(seed=seed)
        trump = s.view(0)["trump"]
        left = "J" + next(x for x in "SHDC" if x != trump and COLOUR[x] == COLOUR[trump])
        leader = s.to_act
        if left not in s.view(leader)["zones"]["hand"][str(leader)]:
            continue
        s.apply(left)
        nxt = s.to_act
        hand = s.view(nxt)["zones"]["hand"][str(nxt)]
        if any(_eff(c, trump) == trump for c in hand) or not any(c[1] == left[1] for c in hand):
            continue
        assert sorted(s.legal_actions()) == sorted(hand)   # void in trumps: anything, the printed suit too
        return
    pytest.fail("no seed led the left bower to a seat void in trumps holding its printed suit")


def test_the_id_api_and_playouts_read_the_same_suits(bowers):
    for seed in range(40):
        a, b = bowers.new_state(seed=seed), bowers.new_state(seed=seed)
        rng = random.Random(seed)
        while not a.terminal:
            texts = a.legal_actions()
            assert sorted(bowers.actions.decode(i) for i in b.legal_action_ids()) == sorted(texts)
            t = rng.choice(texts)
            a.apply(t)
            b.apply_id(bowers.actions.ids([t])[0])
        assert a.scores() == b.scores()
        quiet = bowers.new_state(seed=seed, record=False).random_playout(random.Random(seed))
        assert quiet.terminal


SKAT_LIKE = textwrap.dedent("""\
    name: jacks-join
    players: {min: 3, max: 3}
    options:
      game: {type: str, values: [suit, "null"], default: suit, help: a suit game (jacks are trumps) or null}
    deck:
      ranks: [7, 8, 9, T, J, Q, K, A]
      suits: [C, S, H, D]
      # skat.md: in a suit game the four jacks are the top trumps; in null they are in their own suits.
      suit_of: "if card.rank == J and not null_game then trump else card.suit"
    zones:
      hand: {owner: seat, visibility: owner}
      won: {owner: seat, visibility: all}
    vars:
      null_game: {type: bool, default: false}
    counters:
      score: {per: match}
    deal:
      - shuffle
      - deal: {to: hand, each: 10}
      - do:
          - set: {null_game: 'game == "null"'}
          - if: not null_game
            trump: clubs
      - tricks: {follow: suit, to: won}
      - score: {value: "count(won[seat])", add_to: score}
    """)


@pytest.mark.parametrize("game", ["suit", "null"])
def test_jacks_join_the_trump_by_a_var_set_in_the_deal(tmp_path, game):
    """skat.md: the jacks are trumps in a suit game, in their own suits in null — a var set during the
    deal (here by an option) decides, and the suits follow it from the effect that sets it on."""
    f = tmp_path / "jacks.yaml"
    f.write_text(SKAT_LIKE)
    g = cardspec.load(str(f), options={"game": game})
    for seed in range(60):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.terminal:
            v = s.view(s.to_act)
            hand = v["zones"]["hand"][str(s.to_act)]

            def eff(c):
                return "C" if c[0] == "J" and game == "suit" else c[1]
            if v["trick"]:
                led = eff(v["trick"][0][1])
                assert sorted(s.legal_actions()) == sorted([c for c in hand if eff(c) == led] or hand)
            s.apply(rng.choice(s.legal_actions()))


def test_suit_of_may_not_read_a_zone(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(EUCHRE_LIKE.replace('suit_of: "if card.rank == J and trump != no_suit',
                                     'suit_of: "if card.rank == J and count(kitty) > 0'))
    with pytest.raises(RulesetError, match="suit_of may read the card, options, the trump and the ruleset's vars"):
        cardspec.load(str(f))


def test_suits_fixed_for_the_match_stay_a_table_made_at_load():
    """Sheepshead's suit_of reads only the card: one table, no state's table (the speed of the
    built-ins does not change)."""
    g = cardspec.load("sheepshead")
    assert g.eff_of is None and not g.env.dynamic_suit
    assert g.new_state(seed=1).eff is None
