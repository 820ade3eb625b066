"""`cardspec simulate`: aggregates against values computed by hand, worker independence, output formats.

Rules of the tiny rulesets are in tests/simulate/*.yaml (issue 9: "simulate's aggregates on a tiny
ruleset against values computed by hand; identical results for 1 and 2 workers").
"""
import json
import math
import os

import pytest
from click.testing import CliRunner

import cardspec
from cardspec.cli import main
from cardspec.play.simulate import Aggregate, MatchResult, SimulationError, Z95, simulate, wilson

HERE = os.path.dirname(os.path.abspath(__file__))
ONE_TRICK = os.path.join(HERE, "simulate", "one-trick.yaml")
HIGH_CARD = os.path.join(HERE, "simulate", "high-card.yaml")


def test_wilson_interval_textbook_values():
    # Wilson (1927) / Newcombe (1998): 50 of 100 -> [0.4038, 0.5962]; 0 of 10 -> [0, 0.2775].
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_one_trick_one_deal_leader_always_wins():
    """Dealer seat 0, seat 1 leads and only the led suit wins: seat 1 takes 2 points every match."""
    n = 40
    res = simulate(ONE_TRICK, n, seed=7)
    s0, s1 = res["sides"]
    assert (s0["wins"], s0["losses"], s1["wins"], s1["losses"]) == (0, n, n, 0)
    assert s1["win_ci"][0] == pytest.approx(n / (n + Z95 ** 2))      # Wilson lower bound for k = n
    assert s1["win_ci"][1] == 1.0
    assert s0["score"]["mean"] == 0 and s1["score"]["mean"] == 2
    assert s1["score"]["sd"] == 0 and s1["score"]["distribution"] == {"2": n}
    assert res["length"]["actions"]["mean"] == 2 and res["length"]["deals"]["mean"] == 1
    first = res["first_seat"]
    assert first["by_side"] == {"0": 0, "1": n}
    assert first["win_rate"] == 1.0 and first["mean_win_rate"] == 0.5 and first["advantage"] == 0.5


def test_one_trick_three_deals_dealer_rotates():
    """Deals 1 and 3 are led by seat 1, deal 2 by seat 0: totals 2 and 4, 6 actions, 3 deals."""
    res = simulate(ONE_TRICK, 25, options={"deals": 3})
    s0, s1 = res["sides"]
    assert s0["score"]["distribution"] == {"2": 25} and s1["score"]["distribution"] == {"4": 25}
    assert s1["win_rate"] == 1.0 and s0["loss_rate"] == 1.0
    assert res["length"]["actions"] == {"mean": 6.0, "sd": 0.0, "mean_ci": [6.0, 6.0], "min": 6, "max": 6}
    assert res["length"]["deals"]["mean"] == 3


def test_high_card_aggregates_match_a_direct_count():
    """Whoever holds AS takes 2 points; count the holders directly from the match seeds (seed/i)."""
    n, seed = 120, 5
    res = simulate(HIGH_CARD, n, seed=seed)
    game = cardspec.load(HIGH_CARD)
    w0 = 0
    for i in range(n):
        st = game.new_state(seed=f"{seed}/{i}")
        hand0 = st.view(0)["zones"]["hand"]["0"]
        w0 += hand0 == ["AS"]
    s0, s1 = res["sides"]
    assert s0["wins"] == w0 and s1["wins"] == n - w0 and s0["losses"] == n - w0
    assert 0 < w0 < n
    assert s0["score"]["distribution"] == {"0": n - w0, "2": w0}
    assert s0["score"]["mean"] == pytest.approx(2 * w0 / n)
    sd = math.sqrt(4 * w0 * (n - w0) / (n * (n - 1)))        # sample SD of a 0/2 variable
    assert s0["score"]["sd"] == pytest.approx(sd)
    half = Z95 * sd / math.sqrt(n)
    assert s0["score"]["mean_ci"] == pytest.approx([2 * w0 / n - half, 2 * w0 / n + half])
    assert s0["win_ci"] == pytest.approx(list(wilson(w0, n)))


@pytest.mark.parametrize("ruleset, n, options, bots", [
    (HIGH_CARD, 300, {}, None),
    ("hearts", 30, {"deals": 1}, None),
    ("hearts", 6, {"deals": 1}, "ismcts:10,random"),
])
def test_one_and_two_workers_give_identical_results(ruleset, n, options, bots):
    a = simulate(ruleset, n, bots=bots, workers=1, seed=11, options=options)
    b = simulate(ruleset, n, bots=bots, workers=2, seed=11, options=options)
    assert a == b
    c = simulate(ruleset, n, bots=bots, workers=1, seed=12, options=options)
    assert c != a      # the seed matters


def test_aggregate_merge_equals_adding_in_one_go():
    rs = [MatchResult({0: i % 3, 1: 5 - i}, (0,) if i % 2 else (1,), (1,) if i % 2 else (0,), 10 + i, 1, i % 2)
          for i in range(9)]
    whole = Aggregate([0, 1])
    for r in rs:
        whole.add(r)
    a, b = Aggregate([0, 1]), Aggregate([0, 1])
    for r in rs[:4]:
        a.add(r)
    for r in rs[4:]:
        b.add(r)
    a.merge(b)
    assert a.summary() == whole.summary()


def test_bad_input_is_a_clear_error():
    with pytest.raises(SimulationError, match="unknown bot"):
        simulate(HIGH_CARD, 3, bots="nobody")
    with pytest.raises(SimulationError, match="has no policy 'careful'"):
        simulate(HIGH_CARD, 3, policy="careful")
    with pytest.raises(SimulationError, match="at least 1"):
        simulate(HIGH_CARD, 0)


def test_cli_table_json_csv_and_errors():
    r = CliRunner().invoke(main, ["simulate", ONE_TRICK, "-n", "20", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["matches"] == 20 and data["sides"][1]["wins"] == 20
    r = CliRunner().invoke(main, ["simulate", ONE_TRICK, "-n", "20", "--csv"])
    lines = r.output.strip().splitlines()
    assert lines[0].startswith("side,label,bot,matches,wins") and len(lines) == 3
    r = CliRunner().invoke(main, ["simulate", ONE_TRICK, "-n", "20"])
    assert r.exit_code == 0 and "seat 1" in r.output and "100.0%" in r.output and "\x1b" not in r.output
    r = CliRunner().invoke(main, ["simulate", ONE_TRICK, "-n", "5", "--bots", "wizard"])
    assert r.exit_code == 2 and "unknown bot 'wizard'" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["simulate", "hearts", "-n", "5", "--policy", "careful"])
    assert r.exit_code == 2 and "no policy 'careful'" in r.output


def test_cli_plot_writes_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "scores.png"
    r = CliRunner().invoke(main, ["simulate", HIGH_CARD, "-n", "30", "--plot", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_labels_chips_as_chips(tmp_path, monkeypatch):
    """Issue 23 item 5: "chips labelled as chips in plots" — the axis names the score counter's label
    (red-dog.yaml: chips, label Chips), not "points"."""
    pytest.importorskip("matplotlib")
    import matplotlib.axes
    from cardspec.play.simulate import plot
    seen = []
    orig = matplotlib.axes.Axes.set_xlabel
    monkeypatch.setattr(matplotlib.axes.Axes, "set_xlabel",
                        lambda self, text, *a, **k: (seen.append(text), orig(self, text, *a, **k))[1])
    res = simulate("red-dog", 3, players=2)
    assert res["score_label"] == "Chips"
    plot(res, str(tmp_path / "chips.png"))
    assert seen == ["Chips at the end of the match"]
