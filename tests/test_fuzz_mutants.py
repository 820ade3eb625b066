"""Mutation fuzz over the built-in rulesets (issue 16, Deliver 4): seeded mutants (tests/_mutants.py)
must be refused by `cardspec validate` with ruleset errors only, and a mutant that validates must play
(bounded random games) without a crash or a hang.

tests/test_fuzz_loader.py feeds arbitrary text and YAML trees to the reader; this file starts from the
real rulesets, so most mutants get past the YAML and the schema into the compiler, the steps and play.

Each CI run tries ``CARDSPEC_FUZZ_MUTANTS`` mutants (default 1,500, in ``CHUNKS`` test items that
pytest-xdist spreads over its workers) of run ``CARDSPEC_FUZZ_SEED`` (default 2, printed in every
failure with the command that rebuilds the mutant; a fixed default, so that CI does not fail at
random: docs/fuzz.md lists the kinds other seeds found and how each was fixed). validate's own random games are
shortened here (``SMALL``) to fit CI; benchmarks/fuzz_mutants.py is the long run with the full checks
(docs/fuzz.md).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import _mutants  # noqa: E402

MUTANTS = int(os.environ.get("CARDSPEC_FUZZ_MUTANTS", "1500"))
SEED = int(os.environ.get("CARDSPEC_FUZZ_SEED", "2"))
CHUNKS = 4
#: validate's budgets in this test: one random game per player count, 0.1 CPU second per ruleset, four
#: option variants (the long run keeps validate's defaults).
SMALL = {"GAMES_PER_COUNT": 1, "PLAY_SECONDS": 0.1, "MAX_OPTION_VARIANTS": 4}


@pytest.fixture(scope="module")
def pool():
    srcs = _mutants.sources()
    return srcs, _mutants.Pool(srcs)


def test_mutants_are_deterministic(pool):
    """The same (seed, index) gives the same mutant text: a failure is rebuilt from its numbers."""
    srcs, p = pool
    assert _mutants.nth_mutant(srcs, p, 7, 11) == _mutants.nth_mutant(srcs, p, 7, 11)
    assert _mutants.nth_mutant(srcs, p, 7, 11) != _mutants.nth_mutant(srcs, p, 7, 12)


def test_the_check_tells_each_outcome_apart(tmp_path):
    """`check` itself: a built-in is clean, a broken one rejected, a crash at play and a crash at
    validate are failures (so the fuzz below cannot pass by never looking)."""
    base = (_mutants.rulesets_dir() / "hearts.yaml").read_text(encoding="utf-8")
    assert _mutants.check(base, tmp_path, 1, name="hearts").kind == "clean"
    assert _mutants.check(base.replace("name: hearts", "name: hearts\nplayers: 4"), tmp_path, 1,
                          name="bad").kind == "rejected"
    import cardspec.authoring.validate as v
    real = v._validate
    try:
        v._validate = lambda *a, **k: 1 / 0
        out = _mutants.check(base, tmp_path, 1, name="boom")
    finally:
        v._validate = real
    assert out.kind == "failed" and "internal" in out.detail and "ZeroDivisionError" in out.detail
    from cardspec.engine import State
    real_apply = State.apply
    try:
        State.apply = lambda self, *a, **k: [][1]
        out = _mutants.check(base, tmp_path, 1, name="boom2")
    finally:
        State.apply = real_apply
    assert out.kind == "failed"


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_mutants_give_ruleset_errors_or_play(pool, tmp_path, monkeypatch, chunk):
    """Issue 16 Deliver 4: no mutant gives an internal error at validate, and none that validates crashes
    or hangs in play. On failure: the seed, the indexes, and how to see each mutant."""
    import cardspec.authoring.validate as v
    for k, val in SMALL.items():
        monkeypatch.setattr(v, k, val)
    srcs, p = pool
    per = -(-MUTANTS // CHUNKS)
    failures, counts = [], {}
    for i in range(chunk * per, min(MUTANTS, (chunk + 1) * per)):
        base, text = _mutants.nth_mutant(srcs, p, SEED, i)
        out = _mutants.check(text, tmp_path, SEED, name=f"m{i}", play_seconds=0.1, max_actions=300, limit=20.0)
        counts[out.kind] = counts.get(out.kind, 0) + 1
        if out.kind == "failed":
            failures.append(f"{SEED}:{i} ({base}): {out.detail.strip()[-600:]}")
    assert not failures, (f"{len(failures)} of {sum(counts.values())} mutants failed (seed {SEED}; see one with "
                          f"`python benchmarks/fuzz_mutants.py --show SEED:INDEX`; {counts}):\n" +
                          "\n".join(failures[:10]))
