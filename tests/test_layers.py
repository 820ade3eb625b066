"""The package's folders are its layers, and no module imports one of a higher layer (issue 17).

From the bottom up: the shared leaves (``errors``, ``cards``) < ``lang/`` (the expression
language) < ``rules/`` (rulesets as data) < ``engine/`` (``Game``, ``State``, effects, melds,
``steps/``) < ``players/`` (bots, search, solver) < ``cardspec/__init__.py`` (the public API) < the
front ends, grouped by purpose (issue 33: ``authoring/``, ``play/``, ``rl/``, ``serve/``) < ``cli``
(the ``cardspec`` command). Every ``import`` and ``from … import`` of every module counts, lazy ones
inside functions too, and so does ``importlib.import_module`` with a literal name. Imports within
one layer are free, but none may close a circle of modules, not even through an import under
``if TYPE_CHECKING:`` (never run, but two modules that name each other's types are one room in two
files). The package's top holds only the CLI, the public API and the shared leaves, and no module of
the package is longer than ``MAX_LINES``.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "interpreter" / "cardspec"

#: (layer name, rank): the first entry whose prefix matches a module's dotted name wins.
LAYERS = [
    ("cardspec.errors", "core", 0),
    ("cardspec.cards", "core", 0),
    ("cardspec.lang", "lang", 1),
    ("cardspec.rules", "rules", 2),
    ("cardspec.engine", "engine", 3),
    ("cardspec.players", "players", 4),
    ("cardspec.authoring", "front ends", 6),
    ("cardspec.play", "front ends", 6),
    ("cardspec.rl", "front ends", 6),
    ("cardspec.serve", "front ends", 6),
    ("cardspec.cli", "cli", 7),
    ("cardspec", "public API", 5),
]

#: The most lines a module of the package may have (issue 33: rooms of a few hundred lines, split by concept).
MAX_LINES = 800


def layer(module: str) -> tuple[str, int]:
    """The layer of a dotted module name inside ``cardspec`` (a top-level module is a front end)."""
    for prefix, name, rank in LAYERS:
        if module == prefix or module.startswith(prefix + "."):
            return name, rank
    raise ValueError(f"{module} is not part of cardspec")


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["cardspec", *parts])


def _typing_only(tree) -> set:
    """The import nodes under ``if TYPE_CHECKING:`` (never run)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return out


def imports(source: str, module: str, is_package: bool, known: set, typing: bool = True) -> list[tuple[int, str]]:
    """``(line, imported module)`` for every import of a ``cardspec`` module in ``source``.

    ``from X import name`` counts as an import of ``X.name`` when that is a module of ``known``
    (``from . import dsl``), else of ``X``. Relative imports are resolved from ``module``. With
    ``typing=False``, imports under ``if TYPE_CHECKING:`` are left out.
    """
    package = module if is_package else module.rpartition(".")[0]
    out = []
    tree = ast.parse(source)
    skip = set() if typing else _typing_only(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for a in node.names:
                sub = f"{target}.{a.name}"
                out.append((node.lineno, sub if sub in known else target))
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None))
              == "import_module" and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            out.append((node.lineno, node.args[0].value))
    return [(line, m) for line, m in out if m == "cardspec" or m.startswith("cardspec.")]


def graph(root: Path = PACKAGE, typing: bool = True) -> dict:
    """``{module: [(line, imported module), ...]}`` for every module under ``root``."""
    files = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    return {m: imports(p.read_text(encoding="utf-8"), m, p.name == "__init__.py", set(files), typing)
            for m, p in files.items()}


def upward(g: dict) -> list[str]:
    bad = []
    for m, edges in g.items():
        (name, rank) = layer(m)
        for line, target in edges:
            tname, trank = layer(target)
            if trank > rank:
                bad.append(f"{m} (line {line}, {name}) imports {target} ({tname}), a higher layer")
    return bad


def circles(g: dict) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), ignoring a package's own
    ``__init__`` (importing ``a.b`` runs ``a/__init__.py`` first; that is not a circle of code)."""
    edges = {m: sorted({t for _, t in g[m] if t in g and t != m and not m.startswith(t + ".")}) for m in g}
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(out)


def test_every_module_has_a_layer_and_the_layers_are_folders():
    g = graph()
    assert "cardspec.lang.checker" in g and "cardspec.engine.state" in g and "cardspec.players.base" in g
    # The package's top holds only the CLI, the public API and the two shared leaves; all else is a folder.
    assert sorted(p.name for p in PACKAGE.glob("*.py")) == ["__init__.py", "cards.py", "cli.py", "errors.py"]
    for m in g:
        assert layer(m)[0] != "public API" or m == "cardspec", f"{m} is at the package's top"


def test_no_module_is_longer_than_the_limit():
    long = {str(p.relative_to(PACKAGE)): n for p in sorted(PACKAGE.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}, f"split these by concept (at most {MAX_LINES} lines a module): {long}"


def test_no_module_imports_a_higher_layer():
    assert upward(graph()) == []


def test_no_circle_of_imports():
    assert circles(graph()) == []


def test_the_shared_leaves_import_nothing_of_the_package():
    g = graph()
    assert g["cardspec.errors"] == [] and g["cardspec.cards"] == []


def test_the_scan_sees_an_upward_import_a_lazy_one_and_a_circle(tmp_path):
    """The checks above can fail: a made-up package with each fault is caught."""
    pkg = tmp_path / "cardspec"
    for d in ("lang", "engine", "engine/steps", "players"):
        (pkg / d).mkdir(parents=True)
        (pkg / d / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from .engine import state\n")
    (pkg / "errors.py").write_text("")
    (pkg / "lang" / "dsl.py").write_text("def f():\n    from ..players import base\n")    # lazy, upward
    (pkg / "engine" / "steps" / "base.py").write_text("from . import tricks\n")
    (pkg / "engine" / "steps" / "tricks.py").write_text("from .base import Step\n")          # a circle
    (pkg / "players" / "base.py").write_text("import importlib\nimportlib.import_module('cardspec.cli')\n")
    (pkg / "scenario.py").write_text("from .engine.state import State\n")
    (pkg / "engine" / "game.py").write_text("from typing import TYPE_CHECKING\nfrom .state import State\n"
                                            "if TYPE_CHECKING:\n    from ..cli import main\n")   # upward
    (pkg / "engine" / "state.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .game import Game\n"    # no circle
        "from ..scenario import apply\nfrom . import steps\n")   # upward
    (pkg / "cli.py").write_text("from . import scenario\n")
    g = graph(pkg)
    bad = upward(g)
    assert any(b.startswith("cardspec.lang.dsl (line 2") and "cardspec.players.base" in b for b in bad)
    assert any(b.startswith("cardspec.engine.state (line 4") and "cardspec.scenario" in b for b in bad)
    assert any(b.startswith("cardspec.engine.game (line 4") and "cardspec.cli" in b for b in bad)
    assert any(b.startswith("cardspec.players.base (line 2") and "cardspec.cli" in b for b in bad)
    assert len(bad) == 4
    assert circles(graph(pkg, typing=False)) == [["cardspec.engine.state", "cardspec.scenario"],
                                                 ["cardspec.engine.steps.base", "cardspec.engine.steps.tricks"]]
    assert any("cardspec.engine.game" in c for c in circles(g))   # counted when TYPE_CHECKING imports count


@pytest.mark.parametrize("module,expected", [("cardspec", "public API"), ("cardspec.cli", "cli"),
                                             ("cardspec.serve.protocol", "front ends"),
                                             ("cardspec.errors", "core"), ("cardspec.lang.dsl", "lang"),
                                             ("cardspec.engine.steps.turns", "engine"),
                                             ("cardspec.players.solve", "players")])
def test_layer_names(module, expected):
    assert layer(module)[0] == expected
