"""Every shared case in ../shared/cases/ replays with exit status 0.

Source: ../shared/cases/README.md ("`cardspec replay FILE` exits 0 for each")
and ../shared/DESIGN.md ("Scenarios", the replay JSON shape, a contract).
Each case goes through the Python API (``cardspec.scenario.replay``) and
through the ``cardspec replay FILE --json`` command in a subprocess.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardspec.scenario import replay

CASES = Path(__file__).resolve().parents[2] / "shared" / "cases"
FILES = sorted(CASES.rglob("*.yaml")) if CASES.is_dir() else []
IDS = [str(p.relative_to(CASES)) for p in FILES]

pytestmark = pytest.mark.skipif(not FILES, reason=f"no shared cases folder at {CASES} (a checkout without ../shared)")

JSON_KEYS = {"events", "terminal", "to_act", "legal_actions", "scores"}


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "cardspec.cli", *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_case_replays_through_the_api(path):
    rep = replay(str(path))
    assert rep.error is None, rep.error
    assert rep.ok, rep.failures
    # The expected trick really is in the log (not an empty expect: block).
    assert any(ev["type"] == "trick" for ev in rep.state.log_all())


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


def test_the_seed_example_is_among_the_cases():
    """The issue's acceptance: ../shared/cases/cancellation-black-lady/seed-example.yaml passes as it is."""
    assert "cancellation-black-lady/seed-example.yaml" in IDS


def test_a_broken_expectation_exits_1(tmp_path):
    """The replay check can fail: a copy of a case expecting the wrong winner exits 1."""
    src = next(p for p in FILES if p.name == "seed-example.yaml")
    text = src.read_text(encoding="utf-8").replace("winner: 5", "winner: 4")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("ruleset: cancellation-black-lady", "ruleset: cancellation-black-lady"),
                   encoding="utf-8")
    assert _cli("replay", str(bad)).returncode == 1
    assert not replay(str(bad)).ok
