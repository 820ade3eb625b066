"""A ``deal`` into a shared face-up zone logs the cards that became public (docs/events.md, ``deal``).

Burraco (../shared/rules/burraco.md, "Deal": the stock's top card is turned face up to start the
discard pile; "A turn": only the top discard is visible) deals one card to its ``visibility: top``
discard pile: every seat sees it while it is the top, so the ``deal`` event carries it (``top``), and
a determinization (cardspec.engine.determinize) knows it once later discards cover it. A ``visibility:
all`` zone (Oh Hell's turn-up, ../shared/rules/oh-hell.md) logs the dealt cards (``cards``). Deals to
hands and to face-down pots stay counts in every seat's log.
"""
from __future__ import annotations

import random

import cardspec
from cardspec.engine.determinize import Determinizer

BURRACO = cardspec.load("burraco", 4)


def deal_events(events, zone):
    return [e for e in events if e["type"] == "deal" and e["zone"] == zone]


def test_burraco_deal_logs_the_first_discard_to_every_seat_and_no_hidden_card():
    """burraco.md "Deal": the first discard is face up; the hands and pots are not."""
    code = BURRACO.deck.code
    for seed in range(5):
        s = BURRACO.new_state(seed=seed)
        first = code[s.z[BURRACO.zone["discard"].index][-1]]
        for seat in (None, 0, 1, 2, 3):
            log = s.log(seat)
            assert [e.get("top") for e in deal_events(log, "discard")] == [first]
            for zone in ("hand", "pot1", "pot2"):
                for e in deal_events(log, zone):
                    assert set(e) <= {"type", "zone", "each", "count"}, e


def test_visibility_all_deal_logs_the_dealt_cards():
    """oh-hell.md: the card turned up after the deal (trump) is public; it is logged as dealt."""
    game = cardspec.load("oh-hell", 4)
    s = game.new_state(seed=1)
    turnup = [game.deck.code[c] for c in s.z[game.zone["turnup"].index]]
    assert turnup
    for seat in (None, 0, 3):
        assert [e.get("cards") for e in deal_events(s.log(seat), "turnup")] == [turnup]


def test_burraco_first_discard_stays_known_under_later_discards():
    """burraco.md "Deal" and "A turn": after several discards and no take, the dealt card is still at the
    bottom of the pile; every determinization puts the whole pile, that card included, in its real order."""
    pile_zone = BURRACO.zone["discard"].index
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        s = BURRACO.new_state(seed=seed)
        dealt = s.z[pile_zone][0]
        while not s.terminal and len(s.z[pile_zone]) < 4:
            legal = s.legal_actions()
            moves = [a for a in legal if a != "take"] or legal   # keep the pile growing
            s.apply(rng.choice(moves))
        if s.terminal:
            continue
        assert s.z[pile_zone][0] == dealt and not any(e.get("action") == "take" for e in s.log_all())
        seat = s.to_act
        det = Determinizer(BURRACO, s.view(seat, log=True))
        for k in range(5):
            d = det.sample(random.Random(1000 * seed + k))
            assert d.z[pile_zone] == s.z[pile_zone]
            assert d.view(seat) == s.view(seat)
        checked += 1
    assert checked >= 10


def test_play_log_prints_the_public_card_of_a_deal():
    """burraco.md "Deal": a player reading the play log sees the first discard's card, as at the table
    (the log printed only "discard: 1 card")."""
    from cardspec.play.terminal import format_events
    code = BURRACO.deck.code
    for seed in range(3):
        s = BURRACO.new_state(seed=seed)
        first = code[s.z[BURRACO.zone["discard"].index][-1]]
        lines = format_events(BURRACO, s.log(1), seat=1)
        assert f"  discard: 1 card, top: {first}" in lines
        pot = len(s.z[BURRACO.zone["pot1"].index])
        assert f"  pot1: {pot} cards" in lines            # a face-down pot stays a count
