"""Checks shared by every test: no test writes a table store into the checkout (a test or a `serve` run
without `--store none` used to leave ``cardspec-tables.db``, the default store, in the working folder,
and it was once committed by accident)."""
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
