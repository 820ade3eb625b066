"""The frozen corpus (tests/corpus/README.md): rulesets written by outside authors' rules against one
release, which every later engine must still validate and play identically.

- every ``tests/corpus/*.yaml`` validates with no error (warnings allowed), as ``cardspec validate`` checks
  it, and loads through the public API at every player count it allows;
- every entry of ``tests/corpus/digests.json`` is reproduced exactly by ``tests/_seeded_games.py``
  (text API, views, logs, integer ids, random playouts; a difference names the part);
- the corpus holds at least eight files and every file has its digests.

These files and digests are never edited to make a later engine pass. ``python tests/test_frozen_corpus.py
--write`` adds the digests of a NEW corpus file (entries already in digests.json are never rewritten);
``--check`` prints every entry that differs.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest

import cardspec
from cardspec.validate import validate_ruleset

from _seeded_games import digests

CORPUS = Path(__file__).resolve().parent / "corpus"
DIGESTS = CORPUS / "digests.json"
#: What each seeded game hashes (``_seeded_games.digests``: "views" adds the views and the logs).
PARTS = ("text", "ids", "playout", "views")
SEEDS = (0, 1)
MIN_FILES = 8
SCHEMA_LINE = "# yaml-language-server: $schema=../../schema/ruleset.schema.json"


def corpus_files() -> list:
    return sorted(CORPUS.glob("*.yaml"))


def player_counts(path: Path) -> list:
    """Every count the ruleset allows, or min, default and max when the range is wider than three."""
    rs = cardspec.read_ruleset(str(path))
    lo, hi = rs.players
    if hi - lo < 3:
        return list(range(lo, hi + 1))
    default = rs.data.get("players", {}).get("default", lo)
    return sorted({lo, default, hi})


def key(path: Path, players: int, seed: int) -> str:
    return f"{path.name}/{players}/{seed}"


def games(path: Path):
    for n in player_counts(path):
        for seed in SEEDS:
            yield key(path, n, seed), n, seed


def compute(name: str, players: int, seed: int) -> dict:
    return digests(str(CORPUS / name), players, seed, parts=PARTS)


def recorded() -> dict:
    return json.loads(DIGESTS.read_text()) if DIGESTS.exists() else {}


def differing(expected: dict, got: dict) -> list:
    return [p for p in sorted(set(expected) | set(got)) if expected.get(p) != got.get(p)]


# ---- (a) every file validates -------------------------------------------------------------------------
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_corpus_file_validates(path):
    problems, status = validate_ruleset(str(path))
    errors = [p for p in problems if p.severity == "error"]
    assert status == 0 and not errors, "\n".join(p.format() for p in problems)
    rs = cardspec.read_ruleset(str(path))
    lo, hi = rs.players
    for n in range(lo, hi + 1):
        game = cardspec.load(str(path), players=n)
        state = game.new_state(seed=0)
        assert state.legal_actions() or state.terminal


# ---- (b) every recorded game is played identically ---------------------------------------------------
def _entries():
    return sorted(recorded().items())


@pytest.mark.parametrize("entry", _entries(), ids=lambda e: e[0])
def test_corpus_digest(entry):
    k, expected = entry
    name, players, seed = k.rsplit("/", 2)
    got = compute(name, int(players), int(seed))
    diff = differing(expected, got)
    assert not diff, (f"{k}: the seeded game differs in {', '.join(diff)} "
                      f"(expected {({p: expected.get(p) for p in diff})}, got {({p: got.get(p) for p in diff})}); "
                      "a frozen ruleset must play identically: change the engine, not tests/corpus "
                      "(tests/corpus/README.md)")


# ---- (c) the corpus is complete -----------------------------------------------------------------------
def test_corpus_is_complete():
    files = corpus_files()
    assert len(files) >= MIN_FILES, f"the frozen corpus has {len(files)} rulesets, at least {MIN_FILES} expected"
    have = recorded()
    missing = [k for path in files for k, _, _ in games(path) if k not in have]
    assert not missing, f"no digests for {missing}: python tests/test_frozen_corpus.py --write"
    names = {p.name for p in files}
    orphans = [k for k in have if k.rsplit("/", 2)[0] not in names]
    assert not orphans, f"digests of files no longer in tests/corpus: {orphans}"
    for k, v in have.items():
        assert set(v) == {"text", "views", "logs", "ids", "playout"}, f"{k}: parts {sorted(v)}"
        errors = [p for p, d in v.items() if d.startswith("error")]
        assert not errors, f"{k}: a recorded part is an error: {errors}"
    for path in files:
        head = path.read_text().splitlines()[:2]
        assert head[0] == SCHEMA_LINE, f"{path.name}: the first line is the schema line"
        assert head[1].startswith("# Source: "), f"{path.name}: the second line names the source"


# ---- the method: digests of a new file ----------------------------------------------------------------
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Digests of the frozen corpus (tests/corpus/README.md).")
    ap.add_argument("--write", action="store_true",
                    help="add the digests of corpus files that have none; entries already recorded are kept as they are")
    ap.add_argument("--check", action="store_true", help="recompute every recorded entry and print those that differ")
    a = ap.parse_args(argv)
    have = recorded()
    status = 0
    if a.write:
        added = {}
        for path in corpus_files():
            for k, n, seed in games(path):
                if k not in have:
                    added[k] = compute(path.name, n, seed)
                    print(k, added[k], file=sys.stderr, flush=True)
        bad = {k: v for k, v in added.items() if any(str(d).startswith("error") for d in v.values())}
        if bad:
            print(f"not written: parts that fail: {bad}", file=sys.stderr)
            return 1
        DIGESTS.write_text(json.dumps({**have, **added}, indent=1, sort_keys=True) + "\n")
        print(f"{len(added)} entries added, {len(have)} kept", file=sys.stderr)
    if a.check:
        for k, expected in sorted(have.items()):
            name, players, seed = k.rsplit("/", 2)
            diff = differing(expected, compute(name, int(players), int(seed)))
            if diff:
                status = 1
                print(f"{k}: differs in {', '.join(diff)}")
        print(f"{len(have)} entries checked", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
