"""Reviewed golden texts of ``cardspec explain`` (issue 35, item 7): every built-in at its smallest and its
largest player count (one golden when they are equal), compared exactly with tests/goldens/explain/NAME-N.txt.

A change to the describer or to a ruleset's words shows here as a unified diff; read it as a player would,
then regenerate the goldens with

    CARDSPEC_UPDATE_GOLDENS=1 python -m pytest tests/test_explain_goldens.py

and commit them with the change.
"""
import difflib
import os
from pathlib import Path

import pytest

from cardspec.authoring.explain import explain
from cardspec.rules import builtin_names, read_ruleset

GOLDENS = Path(__file__).parent / "goldens" / "explain"
UPDATE = os.environ.get("CARDSPEC_UPDATE_GOLDENS") == "1"


def _cases():
    out = []
    for name in builtin_names():
        lo, hi = read_ruleset(name).players
        out += [(name, n) for n in sorted({lo, hi})]
    return out


CASES = _cases()


@pytest.mark.parametrize("name,players", CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_explain_matches_its_golden(name, players):
    text = explain(name, players=players)
    path = GOLDENS / f"{name}-{players}.txt"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"no golden {path.name}: run with CARDSPEC_UPDATE_GOLDENS=1 and review it"
    want = path.read_text(encoding="utf-8")
    if text != want:
        diff = "".join(difflib.unified_diff(want.splitlines(keepends=True), text.splitlines(keepends=True),
                                            f"golden/{path.name}", f"explain/{path.name}"))
        pytest.fail(f"explain {name} --players {players} differs from its golden "
                    f"(CARDSPEC_UPDATE_GOLDENS=1 rewrites it after review):\n{diff}", pytrace=False)


def test_no_stray_golden():
    """Every golden file belongs to a case (a renamed ruleset or changed player range leaves none behind)."""
    want = {f"{n}-{p}.txt" for n, p in CASES}
    have = {p.name for p in GOLDENS.glob("*.txt")}
    assert have <= want, sorted(have - want)
