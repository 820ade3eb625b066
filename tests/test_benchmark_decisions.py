"""benchmarks/decisions.py names a ruleset with a player count and options (``NAME@PLAYERS``,
``--option NAME:KEY=VALUE``), so issue 37's "every built-in ≥ 0.8× Hearts per decision" can be measured on a
variant that needs them; a bad spec ends with a one-line message, not a traceback. No rate is checked."""
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCH))

import decisions  # noqa: E402


def test_spec_players_and_options():
    g = decisions.load_spec("cancellation-black-lady@8", ["cancellation-black-lady:widow_8p=8", "other:x=1"])
    assert g.n == 8 and g.options["widow_8p"] == 8
    assert decisions.load_spec("cancellation-black-lady").options["widow_8p"] == 0
    assert decisions.load_spec("hearts").n == 4


@pytest.mark.parametrize("spec, options, says", [
    ("black-lady@x", [], "whole number"),
    ("black-lady", ["black-lady=3"], "NAME:KEY=VALUE"),
    ("black-lady", ["black-lady:nope=3"], "unknown option 'nope'"),
    ("black-lady@9", [], "black-lady@9"),
])
def test_bad_spec_exits_with_a_message(spec, options, says):
    with pytest.raises(SystemExit) as e:
        decisions.load_spec(spec, options)
    assert says in str(e.value)
