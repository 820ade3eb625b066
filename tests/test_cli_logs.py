"""Logs and CLI a card player reads (issue 23, item 5): per-deal summaries (bids and tricks taken,
points, running totals), ties marked in rankings, `play --quiet`, `cardspec info` / `list RULESET`."""
import re

from click.testing import CliRunner

from cardspec.cli import main
from cardspec.play.terminal import _ranking_line


def _run(*args):
    r = CliRunner().invoke(main, list(args))
    assert r.exit_code == 0, r.output
    return r.output


def test_oh_hell_log_says_bid_and_took_per_seat_and_they_match_the_tricks():
    """The issue: "Oh Hell's log never says 'bid 4, took 3'"."""
    full = _run("play", "oh-hell", "--players", "4", "--seed", "2", "--option", "deals=2")
    deals = full.split("Deal ")[1:]
    for d in deals:
        took = {}
        for w in re.findall(r"-> seat (\d) wins", d):
            took[int(w)] = took.get(int(w), 0) + 1
        bids = {int(s): int(b) for s, b in re.findall(r"seat (\d) bids (\d+)", d)}
        line = re.search(r"bid/took +(.*)", d).group(1)
        for s in range(4):
            assert f"seat {s}: bid {bids[s]}, took {took.get(s, 0)}" in line


def test_quiet_prints_only_summaries_and_the_result():
    q = _run("play", "hearts", "--seed", "2", "--option", "deals=2", "--quiet")
    assert not re.search(r"^  trick +\d", q, re.M) and "passes" not in q
    assert q.count("Deal ") == 2 and q.count("  tricks      ") == 2 and "Game over" in q
    full = _run("play", "hearts", "--seed", "2", "--option", "deals=2")
    summary = [ln for ln in full.splitlines() if ln.startswith(("Deal ", "  tricks ", "  deal score", "  totals",
                                                              "Game over", "Ranking", "Winner", "Loser"))]
    assert q.splitlines() == summary


def test_ranking_marks_ties():
    ev = {"ranking": [1, 0, 3, 2], "scores": {"0": 5, "1": 9, "2": 4, "3": 5}}
    assert _ranking_line(ev) == "Ranking (best first): 1, 0 = 3 (tied), 2"
    assert _ranking_line({"ranking": [0, 1], "scores": {"0": 1, "1": 2}}) == "Ranking (best first): 0, 1"


def test_info_and_list_ruleset_show_players_options_with_help_and_steps():
    out = _run("info", "hearts")
    assert out.startswith("hearts: Hearts, 4 players")
    assert "pass_to = cycle  (one of right, left, across, cycle)" in out
    assert "Where the passed cards go." in out
    assert "a deal: shuffle -> deal-hands: deal" in out
    assert _run("list", "hearts") == out
    bad = CliRunner().invoke(main, ["info", "heart"])
    assert bad.exit_code == 2 and "hearts" in bad.output and "Traceback" not in bad.output


def test_a_face_up_widow_is_named_when_taken():
    """Issue 23 item 5: "taking a face-up widow does not show its cards" — cancellation-black-lady.md:
    half the widow is dealt face up; the log names those cards again when a trick's winner takes it."""
    full = _run("play", "cancellation-black-lady", "--players", "9", "--seed", "1")
    deals = full.split("Deal ")[1:]
    assert deals
    for d in deals:
        up = re.search(r"widow: (\d+) cards, face up: ((?:\S+ ?)+)\n", d)
        taken = re.search(r"takes the widow \((\d+) cards; face up: ((?:\S+ ?)+)\)", d)
        assert up and taken, d[:400]
        assert taken.group(1) == up.group(1) and taken.group(2).split() == up.group(2).split()


def test_face_up_cards_needs_a_shared_zone(tmp_path):
    import cardspec
    from cardspec.errors import RulesetError
    p = tmp_path / "v.yaml"
    p.write_text("extends: cancellation-black-lady\nname: v\ndefine:\n  bad: count(face_up_cards(hand))\n")
    try:
        cardspec.load(str(p), players=9)
    except RulesetError as e:
        assert "face_up_cards needs a shared zone of cards" in str(e) and "v.yaml:4:" in str(e)
    else:
        raise AssertionError("face_up_cards(hand) was accepted")


def test_partnership_totals_are_logged_per_team():
    """Issue 23: "team scores are labelled with seat names" — burraco.md: a partnership scores as one;
    the deal summary gives one entry per team, not the same total under each partner's seat."""
    full = _run("play", "burraco", "--seed", "1", "--quiet")
    lines = [ln for ln in full.splitlines() if ln.startswith(("  deal score", "  totals"))]
    assert lines
    for ln in lines:
        assert re.fullmatch(r"  (deal score|totals)\s+team 0 \(seats 0\+2\): -?\d+, team 1 \(seats 1\+3\): -?\d+", ln), ln
