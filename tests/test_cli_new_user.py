"""Problems a new user met on the command line (a tester's report), each checked from the outside.

Sources: DESIGN.md "Errors" and docs/events.md "Exit codes of the command line" (errors on stderr,
file:line:col, exit 0/1/2, no traceback); DESIGN.md "Scenarios" (the scenario format: ruleset, players,
dealer, deal: {hands: {seat: [cards]}, ZONE: [cards]}); README "Built-in games" (`cardspec list` shows
player counts and options).
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardspec.cli import main
from cardspec.rules import resolve_path

HERE = Path(__file__).parent
BROKEN = HERE / "broken" / "typo-name.yaml"


def run(*args, stdin=None):
    r = CliRunner().invoke(main, [str(a) for a in args], input=stdin)
    assert "Traceback" not in r.stdout + r.stderr
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


# ---- 1: errors on stderr; the exit status survives a closed stdout ---------------------------------------

def test_validate_prints_problems_on_stderr_and_nothing_on_stdout():
    r = run("validate", BROKEN)
    assert r.exit_code == 1
    assert "error: unknown name 'led_siut'" in r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize("args,status", [
    (("validate", "hearts", "black-lady", "red-dog", str(BROKEN)), 1),   # ok lines on stdout, then a problem
    (("validate", "hearts", "black-lady"), 0),
    (("play", "hearts", "--seed", "1"), 0),                               # a long log
    (("replay", str(HERE / "scenarios" / "cancellation-QS-led-AS-AS-leader-wins.yaml")), 0),
])
def test_closed_stdout_keeps_the_exit_status_and_prints_no_traceback(args, status):
    """`cardspec validate BROKEN | head -1`: the reader goes away; the status is still the command's own."""
    proc = subprocess.Popen([sys.executable, "-m", "cardspec.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.close()          # like `head -1` exiting at once: every write to stdout fails (EPIPE)
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == status, err
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err, err


# ---- 2 and 3: scenario error positions; one "error:" prefix ------------------------------------------------

SCEN = """\
ruleset: black-lady
players: 3
seed: 1
dealer: 0
deal:
  hands:
    0: [2C, 3C]
    2: [4C,
        8X]
actions: []
"""


def _first_line(r):
    return r.stderr.splitlines()[0]


@pytest.mark.parametrize("cmd", ["replay", "solve"])
def test_bad_card_in_a_seat_list_is_reported_at_the_card_with_one_error_prefix(tmp_path, cmd):
    p = write(tmp_path, "s.yaml", SCEN)
    r = run(cmd, p)
    assert r.exit_code == 2
    first = _first_line(r)
    assert first.startswith(f"{p}:9:9: error: '8X' is not a card code"), r.stderr
    assert first.count("error:") == 1 and not r.stderr.startswith("error:")


def test_bad_card_in_a_shared_zone_list_points_at_the_card(tmp_path):
    p = write(tmp_path, "s.yaml", SCEN.replace("    0: [2C, 3C]\n    2: [4C,\n        8X]\n",
                                                "    0: [2C, 3C]\n  widow: [2H, 6X, 7H]\n"))
    r = run("replay", p)
    assert r.exit_code == 2
    assert _first_line(r).startswith(f"{p}:8:15: error: '6X' is not a card code"), r.stderr


def test_misspelt_scenario_key_is_reported_at_the_key_with_a_suggestion(tmp_path):
    p = write(tmp_path, "s.yaml", SCEN.replace("deal:", "dael:"))
    r = run("replay", p)
    assert r.exit_code == 2
    assert _first_line(r) == f"{p}:5:1: error: unknown scenario key 'dael'", r.stderr
    assert "    dael:\n    ^" in r.stderr
    assert "did you mean 'deal'?" in r.stderr


def test_card_named_more_often_than_the_deck_holds_points_at_the_second_naming(tmp_path):
    p = write(tmp_path, "s.yaml", SCEN.replace("    2: [4C,\n        8X]\n", "    1: [AD, 4C, 2C]\n"))
    r = run("replay", p)
    assert r.exit_code == 2
    assert _first_line(r) == f"{p}:8:17: error: deal: 2C is named more often than the deck holds", r.stderr


@pytest.mark.parametrize("dealer", ["9", "-1", "three"])
def test_dealer_out_of_range_is_an_error_naming_the_seats(tmp_path, dealer):
    p = write(tmp_path, "s.yaml", SCEN.replace("dealer: 0", f"dealer: {dealer}").replace("deal:\n", "x:\n")
              .split("x:\n")[0] + "actions: []\n")
    r = run("replay", p)
    assert r.exit_code == 2
    assert _first_line(r).startswith(f"{p}:4:9: error: dealer: "), r.stderr
    assert "seat 0 to 2" in r.stderr


# ---- 4: a bad option default is reported once, at its place ------------------------------------------------

def test_bad_int_option_default_reports_the_root_cause_only(tmp_path):
    text = Path(resolve_path("black-lady")).read_text()
    text, n = re.subn(r"(  pass_count:\n    type: int\n    default: )\d+", r"\1three", text)
    assert n == 1
    p = write(tmp_path, "bad.yaml", text)
    line = text.splitlines().index("    default: three") + 1
    r = run("validate", p)
    assert r.exit_code == 1
    assert r.stderr.count("error:") == 1, r.stderr
    assert re.match(rf"\S*bad\.yaml:{line}:14: error: bad default: option 'pass_count' takes a whole number",
                    r.stderr), r.stderr
    assert "not supported" not in r.stderr


# ---- 5: list shows options ---------------------------------------------------------------------------------

def test_list_shows_every_ruleset_option():
    import json
    rows = json.loads(run("list", "--json").stdout)
    text = run("list").stdout
    blocks = re.split(r"\n(?=\S)", text.strip())
    assert len(blocks) == len(rows)
    for row, block in zip(rows, blocks):
        assert block.split()[0] == row["name"]
        for name, default in row["options"].items():
            assert f"{name}=" in block, (name, block)


# ---- 6: --human -------------------------------------------------------------------------------------------

def _human(*extra, stdin=""):
    return run("play", "black-lady", "--players", "4", "--seed", "3", "--human", "0", *extra, stdin=stdin)


def test_human_eof_mid_game_is_a_non_zero_exit_saying_the_game_was_abandoned():
    r = _human()
    assert r.exit_code == 1
    assert "abandoned" in r.stderr


def test_human_multi_card_pass_shows_the_count_and_an_example_not_every_combination():
    r = _human()
    legal = [ln for ln in r.stdout.splitlines() if "legal:" in ln or "pass 3 cards" in ln]
    assert len(legal) == 1, r.stdout
    m = re.search(r"pass 3 cards, e\.g\. `pass (\S+) (\S+) (\S+)`", legal[0])
    assert m, legal
    assert legal[0].count("pass") == 2
    hand = [ln for ln in r.stdout.splitlines() if "your hand:" in ln][0]
    assert all(c in hand.split() for c in m.groups())


def test_human_legal_moves_use_one_format():
    """Single-word plays and multi-word actions are separated the same way."""
    r = _human("--option", "pass_count=0")
    legal = [ln for ln in r.stdout.splitlines() if ln.strip().startswith("legal:")][0]
    assert re.fullmatch(r"\s*legal: \S+( \| \S+)+", legal), legal
    r = run("play", "hearts", "--seed", "1", "--human", "0")
    legal = [ln for ln in r.stdout.splitlines() if ln.strip().startswith("legal:")][0]
    assert re.fullmatch(r"\s*legal: pass \S+( \| pass \S+)+", legal), legal


def test_human_counter_lines_use_the_declared_labels():
    """Issue 23 item 1: the terminal prints counters by their `label:` (black-lady.yaml: Score, Points
    this deal), one value per seat, never the raw counter name."""
    r = _human("--option", "pass_count=0")
    lines = r.stdout.splitlines()
    assert any(ln.strip() == "Score: seat 0: 0, seat 1: 0, seat 2: 0, seat 3: 0" for ln in lines), r.stdout
    assert any(ln.strip().startswith("Points this deal: seat 0: ") for ln in lines), r.stdout
    assert not any(ln.strip().startswith(("score", "points")) for ln in lines), r.stdout


# ---- 7: wording --------------------------------------------------------------------------------------------

def test_face_up_zone_event_reads_without_internal_names():
    out = run("play", "svoyi-koziri", "--seed", "1").stdout
    line = [ln for ln in out.splitlines() if "16 cards" in ln][0]
    assert "face_up" not in line and line.strip().startswith("face up: 16 cards: "), line


def test_game_over_reason_is_the_ruleset_reason_or_plain_words():
    """svoyi-koziri.md "End": the match ends when a player has no cards left."""
    out = run("play", "svoyi-koziri", "--seed", "1").stdout
    over = [ln for ln in out.splitlines() if ln.startswith("Game over")][0]
    assert over.startswith("Game over (a player has no cards left)."), over
    assert "end:" not in out


def test_player_count_error_with_a_single_count():
    r = run("play", "hearts", "--players", "3")
    assert r.exit_code == 2
    assert "hearts is for 4 players, not 3" in r.stderr, r.stderr


# ---- second report: wrong player counts, carets, unreachable expectations, missing files ------------------

def test_scenario_player_count_error_points_at_the_scenario_players_line(tmp_path):
    """DESIGN.md "Errors": the error is reported where it was written (the scenario), not in hearts.yaml."""
    p = write(tmp_path, "s.yaml", "ruleset: hearts\nplayers: 3\nactions: []\n")
    r = run("replay", p)
    assert r.exit_code == 2
    assert _first_line(r) == f"{p}:2:10: error: hearts is for 4 players, not 3", r.stderr
    assert "hearts.yaml" not in r.stderr


@pytest.mark.parametrize("cmd", ["play", "simulate"])
def test_command_line_player_count_error_is_labelled_like_a_bad_option(cmd):
    r = run(cmd, "hearts", "--players", "3")
    assert r.exit_code == 2
    assert _first_line(r) == "command line (--players 3): error: hearts is for 4 players, not 3", r.stderr
    assert "hearts.yaml" not in r.stderr


def test_bad_card_in_the_scenario_deck_list_points_at_the_card(tmp_path):
    p = write(tmp_path, "s.yaml", "ruleset: black-lady\nplayers: 3\ndeck: [8S, 9S, ZZ]\nactions: []\n")
    r = run("replay", p)
    assert r.exit_code == 2
    assert _first_line(r).startswith(f"{p}:3:16: error: 'ZZ' is not a card code"), r.stderr


def test_misspelt_deal_zone_points_at_the_key_with_a_suggestion(tmp_path):
    p = write(tmp_path, "s.yaml", SCEN.replace("    2: [4C,\n        8X]\n", "  widw: [2H]\n"))
    r = run("replay", p)
    assert r.exit_code == 2
    assert _first_line(r) == f"{p}:8:3: error: unknown zone 'widw'", r.stderr
    assert "did you mean 'widow'?" in r.stderr


BAD_ACTION = """\
ruleset: black-lady
players: 3
seed: 1
actions:
  - '0: 2X'
expect:
  terminal: true
  scores: {0: 5}
"""


def test_bad_action_is_reported_at_its_place_and_unreached_expectations_are_not_checked(tmp_path):
    """DESIGN.md "Scenarios": replay exits 1 when an expectation fails; the expectations after a
    refused action describe a state never reached, so they are named as not checked, not as failures."""
    p = write(tmp_path, "s.yaml", BAD_ACTION)
    r = run("replay", p)
    assert r.exit_code == 1, r.stderr
    lines = r.stderr.splitlines()
    assert lines[0].startswith(f"FAILED: {p}:5:5: error: action 1 ('0: 2X'): "), r.stderr
    assert not any("expected" in ln for ln in lines), r.stderr
    assert "not checked" in r.stderr and "terminal" in r.stderr and "scores" in r.stderr


def test_bad_action_without_expectations_is_bad_input_at_its_place(tmp_path):
    p = write(tmp_path, "s.yaml", BAD_ACTION.split("expect:")[0])
    r = run("replay", p)
    assert r.exit_code == 2
    assert _first_line(r).startswith(f"{p}:5:5: error: action 1 ('0: 2X'): "), r.stderr


@pytest.mark.parametrize("cmd", ["replay", "solve"])
def test_missing_scenario_file_is_one_error_line(tmp_path, cmd):
    r = run(cmd, tmp_path / "nope.yaml")
    assert r.exit_code == 2
    assert r.stderr == f"error: no scenario file '{tmp_path / 'nope.yaml'}'\n", r.stderr


def test_red_dog_casino_match_ends_in_words_when_every_hand_is_played():
    """red-dog.md "Casino Red Dog": the session is a number of hands (option hands); the match ends
    after them, which is not a safety cap."""
    out = run("play", "red-dog-casino", "--players", "2", "--seed", "1").stdout
    over = [ln for ln in out.splitlines() if ln.startswith("Game over")][0]
    assert over.startswith("Game over (all 20 deals are played)."), over   # a deal is a hand of the table
    assert "turn cap" not in out


def test_play_refuses_a_dealer_seat_the_table_does_not_have():
    """New-user review of 2026-12-02: ``--dealer 7`` with 4 players wrapped round silently; ``--human 4``
    was refused. Both name a seat, both are now checked."""
    from click.testing import CliRunner
    from cardspec.cli import main
    r = CliRunner().invoke(main, ["play", "hearts", "--seed", "1", "--dealer", "7", "--quiet"])
    assert r.exit_code != 0 and "no seat 7 with 4 players" in r.output


def test_a_pass_naming_a_card_twice_says_so():
    """New-user review of 2026-12-02: 'pass 3C 3C 5C' in black-lady said 'pass cards from your own hand'
    though 3C is in the hand; the fault is the repeated card. A card not held is named too."""
    import cardspec
    from cardspec.errors import IllegalAction
    s = cardspec.load("black-lady", 5).new_state(seed=1)
    hand = [s.game.deck.code[c] for c in s.z[0][s.to_act]]
    with pytest.raises(IllegalAction, match=f"{hand[0]} is named 2 times and you hold one"):
        s.apply(f"pass {hand[0]} {hand[0]} {hand[1]}")
    missing = next(c for c in s.game.deck.code if c not in hand)
    with pytest.raises(IllegalAction, match=f"{missing} is not in your hand"):
        s.apply(f"pass {hand[0]} {hand[1]} {missing}")
    assert s.history == []


def test_play_refuses_a_human_seat_with_json_output():
    """New-user review of 2026-12-02: ``play --human 0 --json`` mixed the interactive prompts into the
    JSON on standard output. The two are for different readers: one or the other."""
    from click.testing import CliRunner
    from cardspec.cli import main
    r = CliRunner().invoke(main, ["play", "hearts", "--human", "0", "--json"], input="")
    assert r.exit_code != 0 and "use one or the other" in r.output
