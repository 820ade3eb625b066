"""``cardspec explain`` (issue 24, item 1): every step kind and effect kind has a describer, every
built-in is explained, and what the text says agrees with the digests."""
import re

import pytest
from click.testing import CliRunner

from cardspec.cli import main
from cardspec.engine.effects import EFFECT_KINDS
from cardspec.engine.steps.base import STEP_TYPES
from cardspec.authoring.explain import EFFECT_DESCRIBERS, STEP_DESCRIBERS, explain
from cardspec.rules import builtin_names


def test_every_step_kind_has_a_describer():
    assert set(STEP_TYPES) - set(STEP_DESCRIBERS) == set()


def test_every_effect_kind_has_a_describer():
    assert set(EFFECT_KINDS) - set(EFFECT_DESCRIBERS) == set()


@pytest.mark.parametrize("name", builtin_names())
def test_every_builtin_is_explained_step_by_step(name):
    text = explain(name)
    from cardspec.rules import read_ruleset
    steps = read_ruleset(name).data["deal"]
    numbered = re.findall(r"^(\d+)\. ", text, re.M)
    assert [int(x) for x in numbered] == list(range(1, len(steps) + 1))
    assert "_d_" not in text and "lambda" not in text and "s.v[" not in text    # no generated Python


def test_cancellation_widow_table_is_the_digests():
    """cancellation-black-lady.md, "Deal and widow": each / widow / face up for 6 to 11 players."""
    text = explain("cancellation-black-lady")
    for n, each, widow, up in [(6, 17, 2, 1), (7, 14, 6, 3), (9, 11, 5, 3), (10, 10, 4, 2), (11, 9, 5, 3)]:
        assert f"- {n} players: {each} cards in each hand, {widow} in the widow ({up} face up)" in text
    assert "- 8 players: 13 cards in each hand\n" in text
    eight = explain("cancellation-black-lady", players=8, options={"widow_8p": 8})
    assert "- 8 players: 12 cards in each hand, 8 in the widow (4 face up)" in eight
    assert "- widow_8p = 8" in eight


def test_cli_explain_with_options_and_players():
    r = CliRunner().invoke(main, ["explain", "cancellation-black-lady-8-widow"])
    assert r.exit_code == 0 and "8 in the widow (4 face up)" in r.output
    bad = CliRunner().invoke(main, ["explain", "hearts", "--players", "9"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


def test_explain_reads_as_words_issue_35_item_7():
    """Issue 35 item 7, the broken phrases measured: "1 players", "move 1 cards", "Deals: 0", "The deal passes
    to the none", and a refusal reason read as the condition ("Allowed when count(stock) > 0 (the stock is
    empty)"); a meld effect was printed as a raw mapping."""
    gin = explain("gin-rummy", width=1000)
    assert "Deal 1 card of the stock to the discard." in gin and not re.search(r"\b1 cards", gin)
    assert "Deals: as many as it takes" in gin and "Deals: 0" not in gin
    assert "Allowed when `count(discard) > 0` (refused otherwise: the discard pile is empty)" in gin
    assert "lay `m` from `hand[knocker]` as a new meld in `laid[knocker]`" in gin and "{'from'" not in gin
    for name in ("red-dog", "red-dog-casino", "burraco", "hearts", "napoleon"):
        text = explain(name, width=1000)
        assert "passes to the none" not in text and not re.search(r"\b1 (players|cards)\b", text), name


def test_a_deal_after_the_first_decision_is_measured_after_it():
    """eleusis-prophets.yaml: the dealer chooses the secret rule, then each child is dealt hand_size (12)
    and one card starts the line. The deal table said "no card dealt before play" (fresh-eyes report on
    issue 35); it now says what the deal gives once the first decision is taken."""
    text = explain("eleusis-prophets", players=4)
    line = next(ln for ln in text.splitlines() if ln.startswith("- 4 players"))
    assert "no card dealt before play" not in text
    assert "no card dealt before the first decision; after 1 decision" in " ".join(text.split())
    joined = " ".join(text.split())
    assert "12 cards in each hand, but 1 player is dealt none, 1 in the line, 67 left in the stock" in joined, line
