"""Rank order as written (issue 32, item 3a): a `deck: ranks:` list in an order of the author's own is never
silently ignored.

`ranks: [2 … K, A, J]` (the jack meant highest) or `[A, 2 … K]` (the ace meant low) validated "ok" while
tricks went by `card.rank`, the standard order. The default trick order still reads `card.rank` — a ruleset
valid today keeps playing as it did (docs/rulesets.md, "Stability") — and validate now warns at the list,
naming the choice: `key: card.strength` to rank as listed, or `ace: low`.
"""
from __future__ import annotations

import pytest

import cardspec
from cardspec.authoring.validate import validate_ruleset


def _variant(tmp_path, deck, tricks=""):
    f = tmp_path / "variant.yaml"
    f.write_text(f"extends: knave\nname: v\ndeck: {deck}\n" + tricks)
    problems, status = validate_ruleset(str(f), play=False)
    return [p for p in problems if p.code == "deck/rank-order"], status, f


def test_jack_listed_highest_warns_with_key_card_strength(tmp_path):
    ws, status, _ = _variant(tmp_path, "{ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, Q, K, A, J], suits: [S, H, D, C]}")
    assert status == 0 and len(ws) == 1
    assert ws[0].line == 3 and "10 Q K A J" in ws[0].message and "key: card.strength" in ws[0].hint


def test_ace_listed_first_warns_with_ace_low(tmp_path):
    ws, _, _ = _variant(tmp_path, "{ranks: [A, 2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K], suits: [S, H, D, C]}")
    assert len(ws) == 1 and "ace: low" in ws[0].hint


@pytest.mark.parametrize("deck", [
    "{ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A], suits: [S, H, D, C]}",   # the standard order
    "{ranks: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2], suits: [S, H, D, C]}",   # highest first: agrees
    "{ranks: [A, 2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K], suits: [S, H, D, C], ace: low}",   # said so
])
def test_orders_that_agree_with_the_default_say_nothing(tmp_path, deck):
    assert _variant(tmp_path, deck)[0] == []


def test_a_key_of_its_own_says_nothing_and_the_listed_order_then_wins(tmp_path):
    deck = "{ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, Q, K, A, J], suits: [S, H, D, C]}"
    tricks = ("deal:\n  - id: play\n    tricks:\n      first_leader: left_of(dealer)\n      follow: suit\n"
              "      to: won\n      key: card.strength + (if card.suit == trump then 1000 else 0)\n")
    ws, status, f = _variant(tmp_path, deck, tricks)
    assert ws == [] and status == 0
    g = cardspec.load(str(f))
    d = g.deck
    assert d.strength[d.face("JS")] > d.strength[d.face("AS")]   # the jack is highest as listed
