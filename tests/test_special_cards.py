"""Special cards with their own identity (issue 38 item 4; docs/cards.md): ``deck: specials:`` adds named
cards outside the ranks × suits grid, each with a short code, a name the tables show, and its own rank,
suit, strength, points and colour that expressions read.

Two games from different families: Wizard (built-in, rulesets/wizard.yaml: four Wizards and four Jesters,
tests/test_wizard.py checks it against its digest) and a Tichu-like deck (the Dragon, the Phoenix, the
Dog and the Mah Jong; Tichu's published rules: the Dragon is the highest single and worth 25, the Phoenix
−25, the Mah Jong counts as a 1).
"""
from __future__ import annotations

import textwrap

import pytest

import cardspec
from cardspec.cards import CardError, Deck, Special
from cardspec.errors import RulesetError

TICHU_LIKE = textwrap.dedent("""\
    name: tichu-like
    players: {min: 4, max: 4}
    deck:
      ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A]
      suits: [S, H, D, C]
      points: {5: 5, T: 10, K: 10}
      specials:
        - {code: DRG, name: Dragon, strength: 15, points: 25}
        - {code: PHX, name: Phoenix, points: -25}
        - {code: DOG, name: Dog}
        - {code: MJ, name: Mah Jong, rank: 1}
    zones:
      hand: {owner: seat, visibility: owner}
      won: {owner: seat, visibility: all}
    counters:
      score: {per: match}
    vars:
      dragon_points: {type: int, default: 0}
    match: {deals: 1}
    deal:
      - shuffle: {}
      - deal: {to: hand, each: 14}
      - do:
          - set: {dragon_points: "sum(c.points for c in deck where c == DRG or c == PHX)"}
      - tricks:
          follow: suit
          exempt: card.suit == no_suit
          wins: card == DRG or card.suit == led_suit
          key: if card == DRG then 100 else card.strength
          to: won
      - score: {value: "sum(c.points for c in won[seat])", add_to: score}
    """)


@pytest.fixture(scope="module")
def tichu(tmp_path_factory):
    f = tmp_path_factory.mktemp("specials") / "tichu-like.yaml"
    f.write_text(TICHU_LIKE)
    return cardspec.load(str(f)), f


def test_special_cards_are_in_the_deck_once_each_with_their_declared_properties(tichu):
    """docs/cards.md: each special card is a face of its own (56 cards = 52 + 4), with the rank, suit,
    strength, points and colour the ruleset gives (defaults: rank 0, no suit, strength 0, colour none)."""
    game, _ = tichu
    d = game.deck
    assert len(d.cards) == 56 and len(set(d.cards)) == 56
    drg, phx, dog, mj = (d.face(c) for c in ("DRG", "PHX", "DOG", "MJ"))
    assert (d.strength[drg], d.points_of[drg], d.suit[drg], d.rank[drg]) == (15, 25, -1, 0)
    assert d.points_of[phx] == -25 and d.rank[mj] == 1 and d.strength[dog] == 0
    assert d.color[dog] == 2   # none
    assert d.special_names == {"DRG": "Dragon", "PHX": "Phoenix", "DOG": "Dog", "MJ": "Mah Jong"}


def test_expressions_name_a_special_card_by_its_code_and_read_its_points(tichu):
    """A special card's code is a card literal of the ruleset's expressions: the var sums the Dragon's and
    the Phoenix's points from the deck (25 − 25 = 0)."""
    game, _ = tichu
    s = game.new_state(seed=1)
    assert s.view(0)["vars"]["dragon_points"] == 0


def test_the_dragon_wins_any_trick_it_is_in_and_tables_show_names(tichu):
    """The Dragon (strength 15, `wins: card == DRG …`) wins whatever is led; views carry the names of the
    special cards (``card_names``) for the tables; the trick event names it by code."""
    game, _ = tichu
    for seed in range(40):
        s = game.new_state(seed=seed)
        holder = next(p for p in range(4) if "DRG" in s.view(p)["zones"]["hand"][str(p)])
        while s.to_act != holder or "DRG" not in s.legal_actions():
            s.apply(s.legal_actions()[0])
            if s.terminal:
                break
        if s.terminal:
            continue
        assert s.view(holder)["card_names"]["DRG"] == "Dragon"
        s.apply("drg")   # codes are read in any case, like QS/qs
        while not any(e["type"] == "trick" for e in s.log_all()[-6:]):
            s.apply(s.legal_actions()[0])
        trick = next(e for e in reversed(s.log_all()) if e["type"] == "trick")
        assert trick["winner"] == holder and [holder, "DRG"] in trick["cards"]
        return
    pytest.fail("no seed let the Dragon be played")


def test_explain_and_the_terminal_table_name_the_special_cards(tichu):
    """`cardspec explain` lists them with their codes; the TUI draws a special card by its name."""
    from cardspec.authoring.explain import explain
    from cardspec.play.tui import card_text
    game, path = tichu
    text = explain(str(path))
    assert "1 Dragon (DRG)" in text and "1 Mah Jong (MJ)" in text
    assert card_text("DRG", names=game.deck.special_names).plain == "Dragon"
    assert card_text("DRG", ascii_only=True, names=game.deck.special_names).plain == "DRG"


def test_copies_copy_the_special_cards_and_count_gives_identical_ones():
    """Wizard's four Wizards (count: 4) are one face four times; `copies: 2` doubles every card."""
    d = Deck(ranks=["A"], suits=["S"], copies=2, specials=[Special("WZ", "Wizard", count=4)])
    assert sorted(d.codes(d.cards)) == ["AS", "AS"] + ["WZ"] * 8
    assert d.has_repeats


@pytest.mark.parametrize("code, why", [
    ("QS", "reads as a card code"), ("JK", "reads as a card code"), ("10H", "two to four capital"),
    ("W", "two to four capital"), ("wz", "two to four capital"), ("WIZARD", "two to four capital"),
    ("1W", "two to four capital"),
])
def test_a_special_code_that_could_be_misread_is_refused(code, why):
    """docs/cards.md: a code is 2–4 capitals or digits starting with a letter, and never a rank-then-suit
    code (an action `play QS` must mean one card)."""
    with pytest.raises(CardError, match=why):
        Special(code, "x")


def test_a_special_code_used_as_another_name_is_an_error_at_its_line(tmp_path):
    """Names are declared once: a var named like a special card is an error naming both places."""
    f = tmp_path / "r.yaml"
    f.write_text(TICHU_LIKE.replace("dragon_points: {type", "DOG: {type"))
    with pytest.raises(RulesetError) as e:
        cardspec.load(str(f))
    assert "has the name of the special card 'DOG'" in str(e.value)
    assert f"{f.parent.name}/r.yaml:" in str(e.value)   # (shown relative to the working folder when near it)


def test_a_bad_special_card_is_reported_at_file_line_col(tmp_path):
    """A special card whose code reads as a card, or whose suit is not in the deck, is refused with its
    position and an example; the schema refuses a lower-case code."""
    f = tmp_path / "r.yaml"
    f.write_text(TICHU_LIKE.replace("{code: DOG, name: Dog}", "{code: KS, name: Dog}"))
    with pytest.raises(RulesetError) as e:
        cardspec.load(str(f))
    assert "reads as a card code" in str(e.value) and f"{f.parent.name}/r.yaml:10:" in str(e.value)
    f.write_text(TICHU_LIKE.replace("{code: DOG, name: Dog}", "{code: DOG, name: Dog, suit: stars}"))
    with pytest.raises(RulesetError, match="suit 'stars' is not a suit of this deck"):
        cardspec.load(str(f))
    f.write_text(TICHU_LIKE.replace("{code: DOG, name: Dog}", "{code: dog, name: Dog}"))
    with pytest.raises(RulesetError, match="code"):
        cardspec.load(str(f))


def test_special_cards_count_against_the_deck_cap(tmp_path):
    """docs/rulesets.md, Caps: at most 1,040 cards, special cards included."""
    f = tmp_path / "r.yaml"
    f.write_text(TICHU_LIKE.replace("{code: DOG, name: Dog}", "{code: DOG, name: Dog, count: 64}")
                 .replace("  points:", "  copies: 16\n  points:", 1))
    with pytest.raises(RulesetError, match="at most 1,040"):
        cardspec.load(str(f))


def test_validate_compiles_every_policy_so_a_broken_bot_rule_is_reported(tmp_path):
    """Found while writing Wizard's policy: an action template `{sort(c in hand where … by …)}` that does
    not parse validated "ok" and failed only in `cardspec simulate --policy` (policies compiled when a bot
    first plays). validate now compiles every `bots:` policy and reports it at file:line:col."""
    from cardspec.authoring.validate import validate_ruleset
    f = tmp_path / "r.yaml"
    f.write_text(TICHU_LIKE + textwrap.dedent("""\
        bots:
          basic:
            rules:
              - {action: "{top(sort(c in hand[seat] where c.suit == led_suit by c.rank)).code}"}
        """))
    problems, code = validate_ruleset(str(f), play=False)
    assert code == 1
    line = next(i for i, x in enumerate(f.read_text().splitlines(), 1) if "- {action:" in x)
    assert any("unexpected 'by'" in p.message and p.file.endswith("r.yaml") and p.line == line
               for p in problems), problems
