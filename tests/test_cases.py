"""Every shared case in ../shared/cases/ replays with exit status 0.

Source: ../shared/cases/README.md ("`cardspec replay FILE` exits 0 for each")
and ../shared/DESIGN.md ("Scenarios", the replay JSON shape, a contract).
Each case goes through the Python API (``cardspec.authoring.scenario.replay``) and
through the ``cardspec replay FILE --json`` command in a subprocess.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardspec.authoring.scenario import replay

CASES = Path(__file__).resolve().parents[2] / "shared" / "cases"
FILES = sorted(CASES.rglob("*.yaml")) if CASES.is_dir() else []
IDS = [str(p.relative_to(CASES)) for p in FILES]

needs_shared = pytest.mark.skipif(not FILES, reason=f"no shared cases folder at {CASES} (a checkout without ../shared)")

JSON_KEYS = {"events", "terminal", "to_act", "legal_actions", "scores"}


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "cardspec.cli", *args], capture_output=True, text=True, timeout=60)


@needs_shared
@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_case_replays_through_the_api(path):
    rep = replay(str(path))
    assert rep.error is None, rep.error
    assert rep.ok, rep.failures
    # The expected trick really is in the log (not an empty expect: block).
    assert any(ev["type"] == "trick" for ev in rep.state.log_all())


@needs_shared
@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_case_replays_through_the_cli_json(path):
    proc = _cli("replay", str(path), "--json")
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert "Traceback" not in proc.stderr
    out = json.loads(proc.stdout)
    assert JSON_KEYS <= set(out)
    assert isinstance(out["events"], list) and all(isinstance(e, dict) and "type" in e for e in out["events"])
    assert isinstance(out["terminal"], bool)
    assert out["to_act"] is None or isinstance(out["to_act"], int)
    assert isinstance(out["legal_actions"], list) and all(isinstance(a, str) for a in out["legal_actions"])
    assert isinstance(out["scores"], dict)
    tricks = [e for e in out["events"] if e["type"] == "trick"]
    assert tricks
    for t in tricks:
        assert {"leader", "winner", "cards", "cancelled"} <= set(t)
        assert all(isinstance(s, int) and isinstance(c, str) for s, c in t["cards"])


@needs_shared
def test_the_seed_example_is_among_the_cases():
    """The issue's acceptance: ../shared/cases/cancellation-black-lady/seed-example.yaml passes as it is."""
    assert "cancellation-black-lady/seed-example.yaml" in IDS


@needs_shared
def test_a_broken_expectation_exits_1(tmp_path):
    """The replay check can fail: a copy of a case expecting the wrong winner exits 1."""
    src = next(p for p in FILES if p.name == "seed-example.yaml")
    text = src.read_text(encoding="utf-8").replace("winner: 5", "winner: 4")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("ruleset: cancellation-black-lady", "ruleset: cancellation-black-lady"),
                   encoding="utf-8")
    assert _cli("replay", str(bad)).returncode == 1
    assert not replay(str(bad)).ok


# ---- the project's own scenarios (tests/scenarios/), same contract -------------------------------
OWN = Path(__file__).resolve().parent / "scenarios"
OWN_FILES = sorted(OWN.rglob("*.yaml"))


@pytest.mark.parametrize("path", OWN_FILES, ids=[p.name for p in OWN_FILES])
def test_own_scenario_replays(path):
    """tests/scenarios/*.yaml: each names its rule's source in its comment and replays green."""
    head = path.read_text(encoding="utf-8").splitlines()[:4]
    assert any("shared/rules/" in line for line in head), "a scenario names the rule it comes from"
    rep = replay(str(path))
    assert rep.ok, rep.failures


def test_own_scenario_with_a_wrong_winner_fails(tmp_path):
    """The scenario checks can fail: each trick scenario with its winner changed no longer replays green."""
    import yaml
    for path in OWN_FILES:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        ev = data["expect"]["events"][0]
        if ev.get("winner") is None:
            ev["carried"] = False
        else:
            ev["winner"] = (ev["winner"] + 1) % data["players"]
        bad = tmp_path / path.name
        bad.write_text(yaml.safe_dump(data), encoding="utf-8")
        assert not replay(str(bad)).ok, path.name
