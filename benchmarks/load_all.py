"""Load and compile built-in rulesets in one process, for callgrind instruction counts.

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/load_all.py [--imports-only] [--only NAME] [--repeat N]

Loads every built-in ruleset (or only NAME) with ``cardspec.load`` at its
default player count, ``--repeat`` times (default 1; the expression-parse cache
is cleared between rounds, as benchmarks/load_compile.py does). Subtract the
``--imports-only`` total for the cost of the first (cold: grammar, schema,
imports) round; subtract the ``--repeat 1`` total from ``--repeat 2`` for a
warm round, the figure benchmarks/load_compile.py times.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "interpreter"))

import cardspec  # noqa: E402
from cardspec.lang import parse  # noqa: E402
from cardspec.rules import builtin_names  # noqa: E402


def _arg(flag, default):
    return sys.argv[sys.argv.index(flag) + 1] if flag in sys.argv else default


if "--imports-only" not in sys.argv:
    names = [_arg("--only", None)] if "--only" in sys.argv else builtin_names()
    for _ in range(int(_arg("--repeat", 1))):
        parse.cache_clear()
        for n in names:
            cardspec.load(n)
