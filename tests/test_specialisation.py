"""Game.specialisation(): which steps the generated API methods answer, and why the others take the
generic path (issue 37 item 1: the fallback is named, per ruleset)."""
import os

import cardspec

RULESETS = os.path.join(os.path.dirname(__file__), "..", "rulesets")


def test_hearts_steps_specialised():
    rows = {r["step"]: r for r in cardspec.load("hearts", options={"deals": 1}).specialisation()}
    assert rows["play"]["text"] == rows["play"]["ids"] == "generated"
    assert rows["pass"]["ids"] == "generated"
    assert rows["pass"]["text"] != "generated" and "pass" in rows["pass"]["text"]   # the reason names the kind
    assert rows["score"]["ids"].startswith("no decision")


def test_every_builtin_reports_each_step():
    for f in sorted(os.listdir(RULESETS)):
        if not f.endswith(".yaml"):
            continue
        g = cardspec.load(f[:-5])
        rows = g.specialisation()
        assert len(rows) == len(g.steps)
        for r in rows:
            assert set(r) == {"step", "kind", "text", "ids"}
            assert all(isinstance(r[k], str) and r[k] for k in r)
