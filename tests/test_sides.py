"""Sides formed during a deal and vars with visibility (docs/sides.md), on a toy called-partner game
(tests/sides/toy.yaml). The rules behind them: napoleon.md "Partners" (the adjutant may reveal
himself only by playing the card; Napoleon holding the called card or finding it in the widow
plays alone, nothing announced), briscola-chiamata.md and briscola-bugiarda.md "Partners".
"""
import json
import pathlib
import random

import pytest

import cardspec
from cardspec.engine.determinize import Determinizer

TOY = pathlib.Path(__file__).parent / "sides" / "toy.yaml"
DECLARER = 1   # the first seat to speak bids, everyone else passes


def game(players=5):
    return cardspec.load(str(TOY), players)


def _deal(g, hands, widow):
    z = {zn.name: zn.index for zn in g.zones}
    out = {(z["hand"], s): [g.deck.face(c) for c in cards] for s, cards in hands.items()}
    out[(z["widow"], None)] = [g.deck.face(c) for c in widow]
    return out


def _hands(g, seed=3):
    """A full deal as codes: {seat: [codes]}, widow."""
    s = g.new_state(seed=seed)
    v = s.view(None)
    full = {seat: s.view(seat)["zones"]["hand"][str(seat)] for seat in range(g.n)}
    widow = [g.deck.code[c] for c in s.z[g.zone["widow"].index]]
    assert v["step"] == "auction"
    return full, widow


def _to_play(g, hands, widow, call):
    """A state after seat 1 bids, the others pass and seat 1 calls ``call``."""
    s = g.new_state(seed=1, deal=_deal(g, hands, widow))
    s.apply("bid 1")
    while s.view(None)["step"] == "auction":
        s.apply("pass")
    assert s.to_act == DECLARER
    s.apply(f"call {call}")
    return s


def _swap(hands, a, b, card, other):
    h = {k: list(v) for k, v in hands.items()}
    h[a][h[a].index(card)] = other
    h[b][h[b].index(other)] = card
    return h


def test_partner_is_the_holder_of_the_called_card_and_secret_until_played():
    """napoleon.md, Partners: the holder of the called card is the adjutant, who may reveal this
    only by playing the card; everyone learns it then."""
    g = game()
    hands, widow = _hands(g)
    card = hands[3][0]
    s = _to_play(g, hands, widow, card)
    for seat in range(5):
        side = s.view(seat)["sides"]
        assert side["declarer"] == DECLARER and side["called"] == card and side["known"] is False
        assert side["partner"] == (3 if seat == 3 else None)
    assert s.view(None)["sides"]["partner"] is None
    assert not any(e["type"] == "partner" for e in s.log_all())
    # Play until the called card is played: then every view shows the partner and the log says so.
    rng = random.Random(0)
    while card in s.view(3)["zones"]["hand"]["3"]:
        legal = s.legal_actions()
        s.apply(card if s.to_act == 3 and card in legal else rng.choice([a for a in legal if a != card] or legal))
    ev = [e for e in s.log_all() if e["type"] == "partner"]
    assert ev == [{"type": "partner", "seat": 3, "card": card, "declarer": DECLARER}]
    for seat in [None, 0, 1, 2, 3, 4]:
        assert s.view(seat)["sides"]["partner"] == 3 and s.view(seat)["sides"]["known"] is True


def test_declarer_holding_the_called_card_plays_alone_unannounced():
    """napoleon.md, Partners: the called card in Napoleon's hand — he plays alone (1 against 4);
    nothing is announced: only the declarer's view knows."""
    g = game()
    hands, widow = _hands(g)
    s = _to_play(g, hands, widow, hands[DECLARER][0])
    assert s.view(DECLARER)["sides"]["partner"] == -1
    for seat in (0, 2, 3, 4):
        assert s.view(seat)["sides"]["partner"] is None


def test_called_card_in_the_widow_nobody_knows_and_the_declarer_is_alone():
    """napoleon.md, Partners: the called card in the widow — Napoleon plays alone; the others can
    only infer it (here nobody sees the widow, the declarer neither)."""
    g = game()
    hands, widow = _hands(g)
    s = _to_play(g, hands, widow, widow[0])
    for seat in range(5):
        assert s.view(seat)["sides"]["partner"] is None
    s.random_playout()
    assert s.terminal and s.view(0)["sides"]["partner"] == -1
    pts = [e for e in s.log_all() if e["type"] == "deal_score"][0]["points"]
    assert sum(pts.values()) == 0 and abs(pts[str(DECLARER)]) == 4 and {abs(pts[k]) for k in "0234"} == {1}


def test_information_who_holds_the_called_card_changes_no_other_view_or_log():
    """Issue 18, the information test: before the called card is played, no seat's view or log
    (other than the partner's own hand) reveals who the partner is. Two deals that differ only in
    which of seats 3 and 4 holds the called card give every other seat the same view and log."""
    g = game()
    hands, widow = _hands(g)
    card, other = hands[3][0], hands[4][0]
    a = _to_play(g, hands, widow, card)
    b = _to_play(g, _swap(hands, 3, 4, card, other), widow, card)
    assert a.view(3)["sides"]["partner"] == 3 and b.view(4)["sides"]["partner"] == 4
    rng = random.Random(5)
    for _ in range(12):   # the first tricks, the same actions in both, neither plays the called card
        for seat in (None, 0, 1, 2):
            va, vb = a.view(seat, log=True), b.view(seat, log=True)
            assert json.dumps(va, sort_keys=True) == json.dumps(vb, sort_keys=True), seat
        legal = [x for x in a.legal_actions() if x in b.legal_actions() and x not in (card, other)]
        if not legal:
            break
        act = rng.choice(legal)
        a.apply(act)
        b.apply(act)


def test_bots_given_only_views_cannot_learn_the_partner():
    """Issue 18, the information test: a determinization (what ISMCTS plays on) from a seat's view
    deals the called card to every seat that could hold it, so the guessed partner varies."""
    g = game()
    hands, widow = _hands(g)
    s = _to_play(g, hands, widow, hands[3][0])
    s.apply(s.legal_actions()[0])   # the declarer leads: a position inside the tricks step
    det = Determinizer(g, s.view(0, log=True))
    rng = random.Random(1)
    partners = {g.sides.partner(det.sample(rng)) for _ in range(200)}
    assert {2, 3, 4} <= partners


def test_var_visibility_seen_by_none_public_when_and_guess():
    """docs/rulesets.md, vars: seen_by shows a var to one seat; visibility: none to no seat until
    public_when holds (or the match is over); a determinization fills a hidden var by its guess."""
    g = game()
    hands, widow = _hands(g)
    s = _to_play(g, hands, widow, hands[3][0])
    for seat in (None, 0, 2, 3, 4):
        assert "note" not in s.view(seat)["vars"] and "hidden_seat" not in s.view(seat)["vars"]
    assert s.view(DECLARER)["vars"]["note"] in hands[DECLARER]
    assert "hidden_seat" not in s.view(DECLARER)["vars"]
    assert not any("hidden_seat" in json.dumps(e) for e in s.log(0))
    s.apply(s.legal_actions()[0])
    det = Determinizer(g, s.view(0, log=True))
    ace, hand = g.deck.face("AS"), g.zone["hand"].index
    for i in range(20):
        t = det.sample(random.Random(i))
        holder = next((p for p in range(5) if ace in t.z[hand][p]), -1)
        assert t.v[g.var["hidden_seat"].index] == holder   # vars: guess: holder(hand, AS), on the guess
    while s.view(None)["system"]["trick_number"] < 3:
        s.apply(s.legal_actions()[0])
    assert "hidden_seat" in s.view(0)["vars"]
    s.random_playout()
    assert "note" in s.view(0)["vars"]


@pytest.mark.parametrize("players", [4, 5, 6])
def test_random_deals_cards_conserved_zero_sum_and_end(players):
    g = game(players)
    for seed in range(20):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.terminal:
            s.apply(rng.choice(s.legal_actions()))
            total = sum(len(h) for zn in g.zones for h in (s.z[zn.index] if zn.per_seat else [s.z[zn.index]]))
            assert total + len(s.plays) == 52
        assert sum(s.game_scores().values()) == 0


def test_a_sides_declarer_that_is_no_seat_is_the_rulesets_fault(tmp_path):
    """Fuzz mutant 2:632 (briscola-chiamata with `sides: declarer: count(deck)`): a declarer expression
    giving 40 with 5 players was an internal IndexError in the side-kept counters; it is a ruleset error
    at validate that names the expression's value."""
    from cardspec.validate import validate_ruleset
    src = pathlib.Path(cardspec.__file__).resolve().parents[2] / "rulesets" / "briscola-chiamata.yaml"
    text = src.read_text().replace("sides: {declarer: declarer,", "sides: {declarer: count(deck),", 1)
    assert "count(deck)" in text
    p = tmp_path / "briscola-chiamata.yaml"
    p.write_text(text)
    problems, status = validate_ruleset(str(p))
    text = "\n".join(str(x) for x in problems)
    assert status == 1 and "sides: declarer gives 40, which is no seat" in text and "bug in cardspec" not in text
