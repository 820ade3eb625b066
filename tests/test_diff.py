"""``cardspec diff A B`` (issue 24, item 2)."""
import re

from click.testing import CliRunner

from cardspec.cli import main
from cardspec.authoring.diff import compare, diff_text, simulate_both
from cardspec.rules import read_ruleset


def test_the_8_widow_variant_differs_only_in_the_widow_and_the_player_count():
    """The issue's example: the diff mentions only the widow and the player count (and the rounding
    option the variant narrows to one value: an even widow never reads it, validate's
    option/values-alike)."""
    text = diff_text("cancellation-black-lady", "cancellation-black-lady-8-widow")
    rows = compare(read_ruleset("cancellation-black-lady"), read_ruleset("cancellation-black-lady-8-widow"))
    assert {(sec, item) for sec, item, *_ in rows} == {("players", "min"), ("players", "max"),
                                                        ("options", "widow_8p.default"),
                                                        ("options", "face_up_rounding.values")}
    assert "options.widow_8p.default: 0 → 8" in text
    assert re.search(r"cancellation-black-lady-8-widow\.yaml:9\)", text)      # where B writes it
    assert "With 8 players: 13 cards in each hand → 12 cards in each hand, 8 in the widow (4 face up)." in text
    assert "Players: 6 to 11 → 8." in text


def test_a_ruleset_against_itself_has_no_difference_and_options_count():
    assert "No difference in play" in diff_text("hearts", "hearts")
    t = diff_text("cancellation-black-lady", "cancellation-black-lady", options_b={"widow_8p": 8})
    assert "With 8 players: 13 cards in each hand → 12 cards in each hand, 8 in the widow (4 face up)." in t


def test_steps_are_compared_by_id_in_words(tmp_path):
    v = tmp_path / "v.yaml"
    v.write_text("extends: black-lady\nname: v\ndeal:\n  - id: pass\n    pass: {count: 2, to: left_of(seat)}\n")
    t = diff_text("black-lady", str(v))
    assert "~ deal.pass:" in t and f"{v.name}:4" in t.replace(str(tmp_path) + "/", "")
    assert "now: Every player passes 2 cards from their hand face down to the player `left_of(seat)`" in t


def test_simulate_compares_statistics_with_intervals():
    lines = simulate_both("black-lady", "hearts", 30, None, {"deals": 1}, {"deals": 1})
    assert lines[0].startswith("Simulated 30 matches each, 4 players")
    assert any(x.startswith("  seat 0: win ") and "→" in x for x in lines)
    assert any("length in actions" in x for x in lines)


def test_cli_diff_and_bad_input():
    r = CliRunner().invoke(main, ["diff", "cancellation-black-lady", "cancellation-black-lady-8-widow"])
    assert r.exit_code == 0 and "widow" in r.output
    bad = CliRunner().invoke(main, ["diff", "hearts", "svoyi-koziri", "--simulate", "5"])
    assert bad.exit_code == 2 and "no player count in common" in bad.output and "Traceback" not in bad.output
