"""An illegal turns-step action names the legal values and leaves the state unchanged.

House rule (DESIGN.md, "Actions"; docs/turns.md, "Text forms": "Bad text raises IllegalAction with
the legal actions (for example `raise 12` when bets go by 5) and leaves the state unchanged"):
the reason names the legal range or choices of the parameter that is wrong — each parameter kind
(card, cards, number, choice) — and, when every value is in range, the `legal:` rule that fails.
Toy ruleset: tests/turns/toy.yaml; Red Dog: rulesets/red-dog.yaml (../shared/rules/red-dog.md).
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import cardspec
from cardspec import IllegalAction

TOY = str(Path(__file__).parent / "turns" / "toy.yaml")
ORDER = ["TS", "JS", "QS", "KS", "6H", "7C", "8D", "9D", "AH", "AD"]   # seat 0: TS QS 6H 8D AH


def refused(s, text):
    before = (s.view(s.to_act), list(s.history), s.to_act)
    with pytest.raises(IllegalAction) as e:
        s.apply(text)
    assert (s.view(before[2]), list(s.history), s.to_act) == before
    return e.value.reason


@pytest.mark.parametrize("bad", ["bet 5", "bet 12", "bet 25", "bet -10"])
def test_number_names_its_range_and_step(bad):
    s = cardspec.load(TOY, 2).new_state(seed=3)
    s.apply("skip")
    assert "bet 10" in s.legal_actions() and "bet 20" in s.legal_actions() and "bet 25" not in s.legal_actions()
    r = refused(s, bad)
    assert "from 10 to 20 in steps of 5" in r and "(10, 15, 20)" in r and bad.split()[1] in r


def test_choice_names_the_choices_and_two_values_must_differ():
    s = cardspec.load(TOY, 2).new_state(seed=3)
    r = refused(s, "choose nosuch")
    assert "one of spades, hearts, diamonds, clubs" in r
    s.apply("choose hearts")
    s.apply("grab")
    s.apply("done")
    s.apply(next(a for a in s.legal_actions() if a.startswith(("beat", "pick"))))
    assert any(a.startswith("name") for a in s.legal_actions())
    r = refused(s, "name spades spades")
    assert "2 different values of spades, hearts, diamonds, clubs" in r


def test_card_names_the_legal_cards_not_held_or_failing_where():
    s = cardspec.load(TOY, 2).new_state(seed=5, dealer=1, deck_order=ORDER)
    s.apply("skip"), s.apply("grab"), s.apply("done")
    r = refused(s, "beat 6H")                        # held, but where: card.rank > 7 fails
    assert "6H does not have card.rank > 7" in r and "legal: QS TS AH 8D" in r
    r = refused(s, "beat KS")                        # not held
    assert "KS is not in hand" in r and "legal: QS TS AH 8D" in r


def test_cards_names_the_count_range_missing_cards_and_where():
    s = cardspec.load(TOY, 2).new_state(seed=5, dealer=1, deck_order=ORDER)
    s.apply("skip"), s.apply("grab")
    assert "3 to 4 cards, not 2" in refused(s, "meld TS QS")
    r = refused(s, "meld TS QS KS")
    assert "KS not in hand" in r and "hand: QS TS AH 6H 8D" in r
    assert "8D without card.rank >= 10" in refused(s, "meld TS QS 8D")
    # every value fine, the action's legal: rule fails (spades and a heart)
    assert "needs all(c in cards where c.suit == cards[0].suit)" in refused(s, "meld TS QS AH")


def test_red_dog_raise_beyond_the_limit_names_the_range():
    """../shared/rules/red-dog.md (raise up to the stake): `raise N` above max_bet names min..max."""
    g = cardspec.load("red-dog", 3)
    for seed in range(40):
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.terminal and not any(a.startswith("raise") for a in s.legal_actions()):
            s.apply(rng.choice(s.legal_actions()))
        if s.terminal:
            continue
        raises = sorted(int(a.split()[1]) for a in s.legal_actions() if a.startswith("raise"))
        hi = raises[-1]
        r = refused(s, f"raise {hi + 2}")
        assert f"from {raises[0]} to {hi}" in r
        return
    pytest.fail("no raise decision in 40 seeds")


def test_a_choice_count_that_is_not_a_number_is_a_ruleset_error(tmp_path):
    """Found by tests/test_fuzz_mutants.py (svoyi-koziri, `count: C` on a choice parameter): it was an
    internal error (int('C')); it is an error at the key."""
    import cardspec
    from cardspec.errors import RulesetError
    src = (Path(__file__).resolve().parent.parent / "rulesets" / "svoyi-koziri.yaml").read_text()
    assert "suits: {choice: all_suits, count: 2}" in src
    p = tmp_path / "v.yaml"
    p.write_text(src.replace("suits: {choice: all_suits, count: 2}", "suits: {choice: all_suits, count: C}"))
    with pytest.raises(RulesetError) as e:
        cardspec.load(str(p))
    assert "a choice's count is a whole number of values" in str(e.value)
