"""Checks shared by every test: no test writes a table store into the checkout (a test or a `serve` run
without `--store none` used to leave ``cardspec-tables.db``, the default store, in the working folder,
and it was once committed by accident). And the split of the suite in two (issue 33, Deliver 5):
README's test command runs the quick part (``-m "not slow"`` is in pyproject.toml's ``addopts``), and
``python -m pytest -n 2 -m slow`` the long runs listed in ``SLOW`` — fuzzing, a real browser, kill -9 of
a server, whole searches of the slowest game. CI (.ci/run) runs both."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STORE_GLOB = "cardspec-tables.db*"


def _stores() -> set:
    return set(ROOT.glob(STORE_GLOB)) | set(Path.cwd().glob(STORE_GLOB))


@pytest.fixture(autouse=True)
def _no_store_in_the_checkout():
    before = _stores()
    yield
    new = _stores() - before
    for f in new:
        f.unlink(missing_ok=True)
    assert not new, (f"this test wrote {sorted(str(f) for f in new)}: give `serve` `--store none` or a store "
                     "under tmp_path")


#: The long runs (``-m slow``), by file or by test id prefix, each with why it is long.
SLOW = {
    "test_fuzz_mutants.py": "thousands of mutated rulesets validated and played",
    "test_browser.py": "a real Chromium plays whole deals",
    "test_store_restart.py": "a server killed with SIGKILL and restarted, on SQLite and PostgreSQL",
    "test_actions.py::test_every_builtin_small_choices_never_dead_end[eleusis-prophets]":
        "every small choice of whole Eleusis games (typed rules)",
    "test_solve.py::test_search_key_equal_exactly_when_position_keys_are[eleusis-prophets-4]":
        "thousands of Eleusis positions keyed two ways",
    "test_solve.py::test_search_key_and_copy_written_out_per_game_are_key_and_clone[eleusis-prophets-4]":
        "thousands of Eleusis positions keyed and cloned two ways",
    "test_display.py::test_no_front_end_line_of_a_builtin_names_an_undeclared_counter_or_var[eleusis-prophets]":
        "every front-end line of whole Eleusis games",
    "test_tui.py::test_a_whole_hearts_deal_is_played_by_clicking_cards": "a whole deal clicked in the TUI",
    "test_zone_order.py::test_solver_with_the_relaxed_key_agrees_with_an_exact_order_retrograde_analysis":
        "a retrograde analysis of every position",
}


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a long run, left out of README's test command (tests/conftest.py SLOW)")


def pytest_collection_modifyitems(config, items):
    for item in items:
        name = item.nodeid.rpartition("/")[2]   # test_file.py::test_name[param]
        if name.partition("::")[0] in SLOW or any(name.startswith(k) for k in SLOW if "::" in k):
            item.add_marker(pytest.mark.slow)
