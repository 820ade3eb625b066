"""Compiling a ruleset's expressions and effects for one game (players and options fixed).

``Compiler.expr`` turns an expression at a YAML path into a Python function
``f(s, *params)``; ``Compiler.effects`` turns a YAML list of effects into one
function with the same parameters. Problems are collected with their
file:line:col (the YAML position plus the offset inside the expression) and
raised together by ``Compiler.finish``.
"""
from __future__ import annotations

from .dsl import ANY, BOOL, CARD, INT, SUIT, STR, Binding, Code, DslError, Env, compile_expr, list_of, runtime_helpers
from .errors import Problem, RulesetError

ZONE = list_of(CARD)
SEAT_ZONE = list_of(list_of(CARD))
INTS = list_of(INT)


def _dummy(*a, **k):  # stands in for an expression that did not compile
    return 0


class Compiler:
    """Collects compiled functions and problems for one ``Game``."""

    def __init__(self, ruleset, env: Env, namespace: dict):
        self.rs = ruleset
        self.pos = ruleset.positions
        self.env = env
        self.ns = namespace
        self.ns.update(runtime_helpers())
        self.problems: list = []
        self._n = 0

    # ---- positions ----------------------------------------------------------
    def locate(self, path, text: str, err: DslError) -> Problem:
        pos = self.pos.find(path)
        exact = tuple(path) in self.pos
        lines = self.pos.sources.get(pos.file) or []
        if not exact:
            return self.pos.problem(path, f"in expression '{text}': {err.message}", err.hint)
        if pos.block:
            # Walk the block's source lines to find the character offset of the error.
            offset = _offset(text, err.line, err.col)
            ln = pos.line  # the indicator line; content starts on the next one
            acc = 0
            while ln < len(lines):
                src = lines[ln]
                stripped = src.lstrip()
                indent = len(src) - len(stripped)
                if acc + len(stripped) + 1 > offset or ln + 1 >= len(lines):
                    line, col = ln + 1, indent + (offset - acc) + 1
                    break
                acc += len(stripped) + 1
                ln += 1
            else:
                line, col = pos.line, pos.col
        else:
            line = pos.line + err.line - 1
            col = (pos.col + (1 if pos.quoted else 0) + err.col - 1) if err.line == 1 else err.col
        src = lines[line - 1] if 0 < line <= len(lines) else ""
        return Problem(pos.file, line, col, err.message, err.hint, src)

    def problem(self, path, message, hint=""):
        self.problems.append(self.pos.problem(path, message, hint))

    # ---- expressions -----------------------------------------------------------
    def code(self, text, path, params=(), want=()) -> Code | None:
        """Check ``text`` and return its generated ``Code`` (None after recording a problem)."""
        pmap = {name: Binding(f"p_{name}", t) for name, t in params}
        try:
            return compile_expr(text, self.env, pmap, want)
        except DslError as e:
            self.problems.append(self.locate(path, str(text), e))
            return None

    def expr(self, text, path, params=(), want=()):
        """Compile ``text`` into ``f(s, *params)``; on a problem, record it and return a dummy."""
        code = self.code(text, path, params, want)
        if code is None:
            return _dummy
        return self.function(code.src, params)

    def typed_expr(self, text, path, params=(), want=()):
        """Like ``expr`` but returns ``(function, type)``."""
        code = self.code(text, path, params, want)
        if code is None:
            return _dummy, ANY
        return self.function(code.src, params), code.type

    def function(self, body_src: str, params=(), name=None, statements=None):
        self._n += 1
        fname = name or f"_e{self._n}"
        args = ", ".join(["s"] + [f"p_{p}" for p, _ in params])
        if statements is None:
            src = f"def {fname}({args}):\n    return {body_src}\n"
        else:
            body = "\n".join("    " + ln for ln in statements) or "    pass"
            src = f"def {fname}({args}):\n{body}\n"
        exec(compile(src, f"<ruleset {self.rs.name}>", "exec"), self.ns)  # generated from the checked tree
        return self.ns[fname]

    def constant(self, value, path, want=(INT,)):
        """A YAML value that may be a number or an expression of options and players only."""
        if isinstance(value, bool) or isinstance(value, (int, float)) and not isinstance(value, bool):
            if INT in want and isinstance(value, (int, float)) and not isinstance(value, bool):
                return int(value)
            return value
        f = self.expr(value, path, (), want)
        try:
            return f(None)
        except Exception:
            self.problem(path, f"'{value}' must depend only on options and the player count here")
            return 0

    def finish(self):
        if self.problems:
            raise RulesetError(self.problems)


def _offset(text: str, line: int, col: int) -> int:
    lines = text.split("\n")
    return sum(len(l) + 1 for l in lines[:line - 1]) + col - 1
