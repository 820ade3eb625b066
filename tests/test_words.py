"""Expressions in English words (``cardspec.lang.words.in_words``), and where people read them (issue 35,
item 6: "Eleusis dealer: 24 buttons with internal names (rule higher_unless_same_suit) and no words; nothing
hints that write EXPR exists; at the end the rule is revealed as code").
"""
from __future__ import annotations

import pytest

import cardspec
from cardspec.lang.types import DslError
from cardspec.lang.words import in_words
from cardspec.play.terminal import format_events, secret_rule_lines

#: eleusis-prophets.yaml's library rules, as the dealer reads them (a card may follow the last card when …)
LIBRARY_WORDS = {
    "colours_alternate": "the card has a different colour from the last card",
    "suit_or_rank": "the card has the same suit as the last card or the card has the same rank as the last card",
    "climb": "the card's rank is higher than the last card's rank or the last card is an ace",
    "descend": "the card's rank is lower than the last card's rank or the last card is a 2",
    "higher_unless_same_suit": "if the card has the same suit as the last card, the card's rank is lower than the "
                               "last card's rank; otherwise the card's rank is higher than the last card's rank",
    "parity_alternates": "the card's rank and the last card's rank are one even and one odd",
    "even": "the card's rank is even",
    "red_only": "the card is red",
    "close_rank": "the distance between the card's rank and the last card's rank is at most 2",
    "same_suit_or_court": "the card has the same suit as the last card or the card is a jack or higher",
    "court_alternates": "exactly one of these holds: the card's rank is higher than 10; the last card's rank is "
                        "higher than 10",
    "colour_by_position": "if the number of cards in the line is even, the card is red; otherwise the card is black",
    "primes": "the card's rank is 2, 3, 5, 7, 11 or 13",
    "anything": "always",
}


def _library():
    game = cardspec.load("eleusis-prophets", players=4)
    s = game.new_state(seed=2)
    return s, s.view(s.to_act)["secret_rule"]["library"]


def test_every_library_rule_of_the_induction_game_reads_in_words():
    """eleusis-prophets.md "The secret rule": the dealer's view lists each library rule with its words."""
    _, lib = _library()
    assert len(lib) == 24
    by_name = {r["name"]: r for r in lib}
    for name, words in LIBRARY_WORDS.items():
        assert by_name[name]["words"] == words, name
        assert in_words(by_name[name]["rule"]) == words
    assert all(r["words"] and "`" not in r["words"] and "_" not in r["words"] for r in lib)


def test_conditions_of_another_game_read_in_words():
    """The describer is the language's, not one game's: conditions as a trick game writes them."""
    assert in_words("count(stock) > 0 and not hearts_broken") == \
        "the number of cards in stock is greater than 0 and not hearts broken"
    assert in_words("led_suit == hearts or card == QS") == "led suit is hearts or the card is the queen of spades"
    assert in_words("not (card.suit == last.suit)") == "the card has a different suit from the last card"
    assert in_words("a and (b or c)") == "a and (b or c)"
    assert in_words("x not in [1, 2]") == "x is not 1 or 2"


def test_a_part_without_a_phrase_keeps_its_text_and_a_broken_rule_is_an_error():
    said = in_words("count(c for c in line where c.suit == hearts) >= 2")
    assert said.startswith("`count") and said.endswith("is at least 2"), said
    with pytest.raises(DslError):
        in_words("card.rank >")


def test_the_terminal_offers_the_rules_in_words_and_how_to_write_one():
    s, _ = _library()
    lines = secret_rule_lines(s.view(s.to_act))
    assert any(line.strip() == f"rule colours_alternate: {LIBRARY_WORDS['colours_alternate']} (hint: Red and black "
               "take turns.)" for line in lines), lines
    assert "write card.rank > last.rank" in lines[-1]


def test_the_rule_is_revealed_in_words_and_as_written():
    """eleusis-prophets.md: at the round's end the dealer reveals the rule — in words and as written."""
    game = cardspec.load("eleusis-prophets", players=4)
    s = game.new_state(seed=2)
    s.apply(s.parse_action("rule climb"))
    while not s.terminal and not any(e["type"] == "rule_revealed" for e in s.log_all()):
        s.apply(s.random_action() if hasattr(s, "random_action") else s.legal_actions()[0])
    ev = next(e for e in s.log_all() if e["type"] == "rule_revealed")
    assert ev["words"] == LIBRARY_WORDS["climb"] and ev["rule"] == "card.rank > last.rank or last.rank == A"
    line = next(x for x in format_events(game, s.log(0), 0) if "secret rule was" in x)
    assert line.strip() == f"the secret rule was: {LIBRARY_WORDS['climb']} (as written: {ev['rule']})"


def test_explain_lists_the_library_in_words():
    from cardspec.authoring.explain import explain
    text = explain("eleusis-prophets", players=4)
    assert "colours_alternate: the card has a different colour from the last card" in " ".join(text.split())
