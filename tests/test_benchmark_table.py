"""benchmarks/table.py (issue 37: "Publish the table (each ruleset: loop, API, per decision, instructions) in
docs/performance.md from one command"): the table has a row per ruleset asked for, Hearts first at 1.0, names
the rulesets below 0.8× Hearts, and --write replaces only the text between its markers. Rates are not checked
(no timed test): only the table's shape and the ratios' arithmetic."""
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCH))

import table  # noqa: E402


def test_table_rows_and_write(tmp_path):
    got = table.rows(["red-dog", "euchre"], seconds=0.05, rounds=1, callgrind=0, skip=set())
    assert [r["name"] for r in got] == ["hearts", "red-dog", "euchre"]
    h = got[0]
    assert h["loop_x"] == h["api_x"] == h["dps_x"] == 1.0 and h["ipd"] is None
    for r in got:
        assert r["loop"] > 0 and r["api"] > 0 and r["dps"] > 0
        assert abs(r["dps_x"] - r["dps"] / h["dps"]) < 1e-9
    text = table.markdown(got, callgrind=0)
    assert text.count("\n| ") == 3 and "\n| hearts | 4 |" in text and "not measured" in text
    assert text.splitlines()[-1].startswith("Below 0.8× Hearts per decision by the clock")
    doc = tmp_path / "perf.md"
    doc.write_text(f"# head\n{table.BEGIN}\nold\n{table.END}\ntail\n", encoding="utf-8")
    table.write(str(doc), text)
    new = doc.read_text(encoding="utf-8")
    assert new.startswith("# head\n") and new.endswith(f"{table.END}\ntail\n") and "old" not in new and text in new


def test_instructions_ratio_uses_hearts_of_the_same_run():
    rows = [{"name": "hearts", "players": 4, "loop": 10, "api": 5, "loop_x": 1, "api_x": 1, "dps": 100, "dps_x": 1.0,
             "ipd": 30000, "ipd_x": 1.0},
            {"name": "x", "players": 4, "loop": 1, "api": 1, "loop_x": .1, "api_x": .2, "dps": 50, "dps_x": 0.5,
             "ipd": 40000, "ipd_x": 0.75}]
    text = table.markdown(rows, callgrind=1)
    assert "40,000 (0.750)" in text and text.endswith("by instructions: x.")
