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
        """The problem ``err`` (line/col inside ``text``) at its file:line:col.

        ``Positions.locate`` maps the offset inside the expression to the file for
        every scalar style (plain, quoted, ``|``, ``>``, several lines).
        """
        at = self.pos.locate(path, text, _offset(text, err.line, err.col))
        if at is None:
            return self.pos.problem(path, f"in expression '{text}': {err.message}", err.hint)
        pos = self.pos.find(path)
        return Problem(pos.file, at[0], at[1], err.message, err.hint, self.pos.line_text(pos.file, at[0]))

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

    def filter_lines(self, text, path, params, var: str, lst: str):
        """Statements narrowing list ``lst`` by condition ``text`` on parameter ``var`` (see dsl)."""
        from .dsl import _Compiler, parse
        pmap = {name: Binding(f"p_{name}", t) for name, t in params}
        try:
            if isinstance(text, bool):
                text = "true" if text else "false"
            return _Compiler(self.env, pmap).filter_lines(parse(str(text)), f"p_{var}", lst)
        except DslError as e:
            self.problems.append(self.locate(path, str(text), e))
            return []

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
