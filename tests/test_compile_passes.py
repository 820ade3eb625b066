"""Compiling is a pipeline of passes, data flowing one way, and its result is a frozen ``Game`` (issue 33,
Deliver 2: read → check names and types → build the deck and zones → build steps → generate code →
a frozen Game; ``Game`` and ``State`` do not import each other).

Each pass of ``cardspec.engine.compile`` declares what it adds to the Game being compiled (``ADDS``); these
tests run the passes one by one over every built-in ruleset and check that each adds exactly that and
replaces nothing an earlier pass made — so a pass can be read knowing only the passes before it.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cardspec
from cardspec.engine.compile import COMPILING, PASSES, read
from cardspec.engine.game import Game

ROOT = Path(__file__).resolve().parent.parent
BUILTINS = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))
ENGINE = ROOT / "interpreter" / "cardspec" / "engine"


@pytest.mark.parametrize("name", BUILTINS)
def test_each_pass_adds_what_it_says_and_replaces_nothing_before_it(name):
    g = Game.__new__(Game)
    with COMPILING:
        read.run(g, name)
        assert set(vars(g)) == set(read.ADDS)
        for p in PASSES:
            before = {k: id(v) for k, v in vars(g).items()}
            out = p.run(g)
            assert out is g, f"{p.__name__}.run returns the Game it was given"
            added = set(vars(g)) - set(before)
            assert added == set(p.ADDS), f"{p.__name__} adds {sorted(added)}, declares {sorted(p.ADDS)}"
            changed = [k for k, i in before.items() if id(vars(g)[k]) != i]
            assert changed == [], f"{p.__name__} replaced what an earlier pass made: {changed}"
    # the same game as the pipeline makes in one go
    h = cardspec.load(name)
    assert [st.name for st in g.steps] == [st.name for st in h.steps]
    assert g.deck.cards == h.deck.cards and [z.name for z in g.zones] == [z.name for z in h.zones]


def test_every_pass_is_a_module_with_run_and_adds():
    names = [p.__name__.rsplit(".", 1)[1] for p in (read, *PASSES)]
    assert names == ["read", "scope", "deck", "names", "declarations", "definitions", "flow", "checks",
                     "generate"]
    for p in (read, *PASSES):
        assert callable(p.run) and isinstance(p.ADDS, tuple) and p.__doc__.startswith("Pass ")


def test_a_compiled_game_is_frozen():
    g = cardspec.load("hearts")
    with pytest.raises(AttributeError, match="does not change"):
        g.n = 5
    with pytest.raises(AttributeError, match="does not change"):
        del g.steps
    assert g.n == 4
    g.actions   # a cache the Game keeps itself is still made on first use
    s = g.new_state(seed=1)
    s.apply_id(s.legal_action_ids()[0])


def _imports(path: Path) -> set:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            out.add(node.module or "")
    return out


def test_game_and_state_do_not_import_each_other_and_state_never_imports_the_compiler():
    assert "state" not in _imports(ENGINE / "game.py")
    state = _imports(ENGINE / "state.py")
    assert "game" not in state and not any(m.startswith("compile") or m == "compiler" for m in state)
