"""Compiling a ruleset's expressions and effects for one game (players and options fixed).

``Compiler.expr`` turns an expression at a YAML path into a Python function
``f(s, *params)``; ``Compiler.effects`` turns a YAML list of effects into one
function with the same parameters. Problems are collected with their
file:line:col (the YAML position plus the offset inside the expression) and
raised together by ``Compiler.finish``.
"""
from __future__ import annotations

import ast
import builtins
import dis
import hashlib
import re
import types

from ..lang import (ANY, BOOL, CARD, INT, SUIT, STR, Binding, Code, DslError, Env, UnsafeName, compile_expr, list_of,
                   py_param, runtime_helpers)
from ..lang.bounds import COST_BUDGET
from ..errors import Problem, RulesetError
from .peephole import seat_lists, table_extremes

ZONE = list_of(CARD)
SEAT_ZONE = list_of(list_of(CARD))
INTS = list_of(INT)


#: Digits of an object's id() in a generated name (``_choices_140494720053648``): not part of what the code does.
_ID_IN_NAME = re.compile(r"(?<=[A-Za-z_])\d{9,}")


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
        self.ns["__builtins__"] = SAFE_BUILTINS   # generated code sees these builtins and nothing else
        self.problems: list = []
        self._n = 0
        self.top_only: dict = {}   # zone index -> name: zones declared `order: top_only` (check_top_only)
        self.scale = 1.0           # times each expression compiled now runs per evaluation (for_each loops)
        self.seat_vars: dict = {}  # parameter name -> its values: a for_each's name going through the seats
        self.max_cost = 0.0        # the largest cost met (benchmarks and tests print it)
        #: path -> the worst-case cost (steps) of the expression compiled there (the largest when several
        #: are): what one evaluation of it costs, for the listing bounds of decision steps (engine/listing.py)
        self.costs: dict = {}
        #: A digest of every generated function's source, in the order compiled (names made from an
        #: object's id() written alike): with the tables and the resolved ruleset, ``Game.fingerprint``.
        self.digest = hashlib.blake2b(digest_size=20)
        #: (path, generated source) of every expression compiled, in order: what the information-flow check
        #: reads (engine/compile/leaks.py).
        self.compiled: list = []

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
    def code(self, text, path, params=(), want=(), whole_zone=False) -> Code | None:
        """Check ``text`` and return its generated ``Code`` (None after recording a problem).

        ``whole_zone``: the caller uses a bare zone (``move``'s ``from``/``to``) and checks that use itself
        against ``order: top_only`` (``check_top_only`` is skipped when the whole expression is a zone)."""
        try:
            sv = self.seat_vars
            pmap = {name: Binding(py_param(name), t, values=sv.get(name) if sv else None) for name, t in params}
        except UnsafeName:   # callers check names where they are declared; this keeps a miss out of the code
            self.problem(path, "a parameter of this expression is not a name", "names are letters, digits and _")
            return None
        try:
            code = compile_expr(text, self.env, pmap, want)
        except DslError as e:
            # A YAML value that is not text (true, 12, 1e3) is not spelled in the file as str() spells it:
            # its problems are placed at the value itself, not searched for in the source.
            self.problems.extend(self.locate(path, str(text), x) if isinstance(text, str) else
                                 self.pos.problem(path, x.message, x.hint) for x in [e] + e.more)
            return None
        if self.top_only and not (whole_zone and self.top_only_zone(code.src) is not None):
            if not self.check_top_only(code.src, text, path):
                return None
        if not self.within_budget(code.cost * self.scale, path, str(text)):
            return None
        self._cost_at(path, code.cost)
        self.compiled.append((path, code.src))
        return code

    def _cost_at(self, path, cost: float):
        key = tuple(path)
        self.costs[key] = max(self.costs.get(key, 0.0), float(cost))

    def cost_under(self, path) -> float:
        """The summed cost (steps) of every expression compiled at ``path`` or below it."""
        key = tuple(path)
        k = len(key)
        return sum(c for p, c in self.costs.items() if p[:k] == key)

    def within_budget(self, cost: float, path, text: str = "") -> bool:
        """False (and a problem at ``path`` with the estimate) when ``cost`` steps exceed ``COST_BUDGET``."""
        self.max_cost = max(self.max_cost, cost)
        if cost <= COST_BUDGET:
            return True
        loops = " inside for_each" if self.scale > 1 else ""
        self.problem(path, f"this expression{loops} may take about {_steps(cost)} steps to evaluate; the budget "
                     f"is {COST_BUDGET:,} (docs/dsl.md, \"Bounds\")",
                     "nest fewer loops over zones or the deck (count(x in deck where count(y in deck where …)…)), "
                     "or split the work into vars set by effects")
        return False

    def top_only_zone(self, src: str):
        """The index of the ``order: top_only`` zone that ``src`` (generated code) is, else None."""
        m = _BARE_ZONE.fullmatch(src)
        return int(m.group(1)) if m and int(m.group(1)) in self.top_only else None

    def check_top_only(self, src: str, text, path) -> bool:
        """False (and a problem at the offending name's file:line:col) when generated code ``src`` of
        expression ``text`` reads a zone declared ``order: top_only`` other than through ``top(ZONE)`` or
        ``count(ZONE)``: such a zone's order below its top card is no part of the position
        (``State.position_key``), so the rules may read only its top card and its size. Conservative: any
        other appearance of the zone in the generated code is refused."""
        ok = True
        for zi, name in self.top_only.items():
            z = f"s.z[{zi}]"
            if z not in src:
                continue
            rest = src.replace(f"_top({z})", "").replace(f"len({z})", "")
            if z not in rest:
                continue
            ok = False
            text = str(text)
            # the offending use in the text (a name not inside top(NAME) or count(NAME)); none: it comes
            # through a definition, which gets its own problem
            for m in re.finditer(rf"\b{re.escape(name)}\b", text):
                before = text[:m.start()].rstrip()
                after = text[m.end():].lstrip()
                if re.search(r"\b(top|count)\s*\($", before) and after.startswith(")"):
                    continue
                self.problems.append(self.locate(path, text, DslError(
                    f"zone '{name}' is declared order: top_only, so the rules may read only top({name}) and "
                    f"count({name}) (or move it whole into a per-seat zone); '{_use(text, m.start(), m.end())}' "
                    f"reads more of it", *_line_col(text, m.start()),
                    f"drop order: top_only from zones: {name} if its order matters")))
                break
        return ok

    def condition_parts(self, spec, path, default_reason=None) -> list:
        """The parts of a condition that may carry reasons (docs/rulesets.md, "Reasons"): ``spec`` is an
        expression (text or bool), ``{rule: EXPR, reason: TEXT}``, or a list of those (all must hold: an
        ``and`` whose parts have their own reasons). Returns ``[(text, reason or default_reason, path)]``
        (an empty list records a problem). Messages name the reason of the one part that fails."""
        items = spec if isinstance(spec, list) else [spec]
        sub = isinstance(spec, list)
        out = []
        for i, item in enumerate(items):
            p = path + ((i,) if sub else ())
            if isinstance(item, dict):
                extra = [k for k in item if k not in ("rule", "reason")]
                if "rule" not in item or extra:
                    self.problem(p, "a condition with a reason is {rule: EXPR, reason: TEXT}"
                                 + (f"; found {', '.join(map(str, extra))}" if extra else ""))
                    continue
                why = item.get("reason")
                out.append((item["rule"], " ".join(str(why).split()) if why is not None else default_reason,
                            p + ("rule",)))
            elif item is None or isinstance(item, (list, dict)):
                self.problem(p, "a condition is an expression or {rule: EXPR, reason: TEXT}")
            else:
                out.append((item, default_reason, p))
        if sub and not items:
            self.problem(path, "an empty list of conditions: leave the key out instead")
        return out

    def condition(self, spec, path, params=(), default_reason=None):
        """``(fn, parts)``: ``fn(s, *params)`` is the whole condition (every part holds); ``parts`` is
        ``[(fn_i, reason_i, text_i)]``, each part alone, for messages (``condition_parts``)."""
        parts = self.condition_parts(spec, path, default_reason)
        codes = [(self.code(text, p, params, (BOOL,)), why, text) for text, why, p in parts]
        if any(c is None for c, _, _ in codes) or not codes:
            return _dummy, []
        src = " and ".join(f"({c.src})" for c, _, _ in codes) if len(codes) > 1 else codes[0][0].src
        fns = [(self.function(c.src, params), why, " ".join(str(text).split())) for c, why, text in codes] \
            if len(codes) > 1 else [(None, codes[0][1], " ".join(str(codes[0][2]).split()))]
        return self.function(src, params), fns

    def filter_lines(self, text, path, params, var: str, lst: str):
        """Statements narrowing list ``lst`` by condition ``text`` on parameter ``var`` (see dsl)."""
        from ..lang.syntax import parse
        from ..lang.checker import _Compiler
        pmap = {name: Binding(py_param(name), t) for name, t in params}
        try:
            if isinstance(text, bool):
                text = "true" if text else "false"
            comp = _Compiler(self.env, pmap)
            try:
                lines = comp.filter_lines(parse(str(text)), py_param(var), lst)
            except DslError:
                comp.raise_unknowns()
                raise
            comp.raise_unknowns()
            # the condition's cost, as if compiled as an expression: it runs once per card considered
            cost = compile_expr(str(text), self.env, pmap, (BOOL,)).cost
        except DslError as e:
            self.problems.extend(self.locate(path, str(text), x) for x in [e] + e.more)
            return []
        if self.top_only and not self.check_top_only("\n".join(lines), text, path):
            return []
        if not self.within_budget(cost * self.scale, path, str(text)):
            return []
        self._cost_at(path, cost)
        return lines

    def or_split(self, text, params, var: str):
        """``(free, dep)``: the terms of condition ``text`` (an ``or``) that do not read parameter ``var``
        (``free``, one source, ``A or B``) and those that do (``dep``), or None when it has not both kinds
        (or does not compile: its problems are recorded where it is compiled whole). A caller tests
        ``free`` once where it would test ``text`` per item: where it holds every item does."""
        from ..lang.syntax import parse
        from ..lang.checker import _Compiler, _operands
        if not isinstance(text, str):
            return None
        pmap = {name: Binding(py_param(name), t) for name, t in params}
        v = py_param(var)
        try:
            node = parse(text)
            if not (hasattr(node, "data") and node.data == "or_"):
                return None
            terms = _operands(node, "or_")
            comp = _Compiler(self.env, pmap)
            kinds = [comp.independent(comp.want(t, comp.c(t), BOOL), v) for t in terms]
            if all(kinds) or not any(kinds):
                return None
            # each kind's terms as one ``or`` (compiled together: card-only terms become one table)
            free, dep = (comp.want(x, comp.c(x), BOOL).src for x in (
                _or_tree([t for t, k in zip(terms, kinds) if k is want]) for want in (True, False)))
            comp.raise_unknowns()
        except DslError:
            return None
        return free, dep

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

    def function(self, body_src: str, params=(), name=None, statements=None, args=None):
        """Define ``def NAME(s, p_PARAM, …)`` returning ``body_src`` (or running ``statements``) in the game's
        namespace and return it. ``params``: ``(name, type)`` pairs, each a checked NAME (``dsl.py_param``);
        ``name``: ``_d_NAME`` of a checked definition name, else a fresh ``_eN``. The source is checked
        by ``check_generated`` before it is compiled. Raises ``UnsafeName`` on an unchecked name.
        ``args``: the parameter list's source instead of ``s`` and ``params`` (a constant of the engine,
        never author text: ``"s, i, seat=None"``)."""
        self._n += 1
        fname = name or f"_e{self._n}"
        if not _FN_NAME.fullmatch(fname):
            raise UnsafeName(f"function name {fname!r} reached code generation unchecked")
        if args is None:
            args = ", ".join(["s"] + [py_param(p) for p, _ in params])
        if statements is None:
            src = f"def {fname}({args}):\n    return {body_src}\n"
        else:
            body = "\n".join("    " + ln for ln in statements) or "    pass"
            src = f"def {fname}({args}):\n{body}\n"
        if "sum(map(" in src:
            src = self._byte_sums(src)
        if ", default=" in src:   # a least or largest table value over a zone's cards (peephole.py)
            src = table_extremes(src)
        src = _TABLE_GET.sub(self._fast_get, src)
        src = seat_lists(src, self.env.players)   # a counter's values, the piles' sizes over every seat
        if self.env.dynamic_suit:
            src = _dynamic_suits(src)
        if " if " in src and "SUIT[" in src:
            src = self._suit_faces(src)
        code = check_generated(src, fname, f"<ruleset {self.rs.name}>")
        self.digest.update(_ID_IN_NAME.sub("#", src).encode())
        exec(code, self.ns)  # generated from the checked tree, checked again by check_generated
        return self.ns[fname]

    def _byte_sums(self, src: str) -> str:
        """``sum(map(TABLE.__getitem__, PILE))`` (a total of a card table over a zone's cards: points taken)
        as ``sum(_BYTES(PILE).translate(TABLE_B))``: the cards as bytes, each replaced by its value in C,
        summed — a third fewer instructions than a call per card. Only where it gives the same value: a
        table of ints 0..255 indexed by card faces below 256, and a pile that is a zone read
        (``s.z[i][...]`` or ``z[i][...]``: card faces only, never -1 or another value)."""
        out, pos = [], 0
        for m in _SUM_MAP.finditer(src):
            if m.start() < pos:
                continue
            t = self.ns.get(m.group(1))
            arg0 = m.end()
            end = _paren_end(src, arg0)   # the ')' closing map(
            if not isinstance(t, tuple) or not t or len(t) > 256 or end is None or \
                    not all(type(x) is int and 0 <= x <= 255 for x in t) or not _ZONE_READ.fullmatch(src[arg0:end]):
                continue
            made = self.__dict__.setdefault("_byte_tables", {})
            key = (m.group(1), id(t))
            if key not in made or made[key][0] is not t:
                name = f"_B{len(made)}_{m.group(1).strip('_')}"
                self.ns[name] = bytes(t) + bytes(256 - len(t))
                made[key] = (t, name)
            self.ns["_BYTES"] = bytes
            out.append(src[pos:m.start()])
            out.append(f"sum(_BYTES({src[arg0:end]}).translate({made[key][1]})")
            pos = end + 1   # (the ')' of map( is replaced; sum('s own stays)
        out.append(src[pos:])
        return "".join(out)

    def _fast_get(self, m) -> str:
        """``TABLE.__getitem__`` of a tuple table (``map(POINTS.__getitem__, won)``, a sort key) as the
        ``__getitem__`` of a dict with the same entries (index -1 included): a builtin method, called
        per element with less work than a tuple's slot wrapper; the same values."""
        name = m.group(2)
        t = self.ns.get(name) if name else None
        if not isinstance(t, tuple) or not t or len(t) > 100_000:
            return m.group(0)
        made = self.__dict__.setdefault("_getters", {})
        key = (name, id(t))
        if key not in made or made[key][0] is not t:   # (a table replaced since gets a getter of its own)
            g = f"_G{len(made)}_{name.strip('_')}"
            d = dict(enumerate(t))
            d[-1] = t[-1]
            self.ns[g] = d.__getitem__
            made[key] = (t, g)
        return made[key][1]

    def _suit_faces(self, src: str) -> str:
        """Comprehensions over the whole deck whose condition requires one suit (``filter(c in deck where
        c.suit == trump and c.rank == A)``) go through that suit's cards only: the same cards in the same
        order (the condition is still tested), a quarter of the work. The suit must be a slot, a parameter
        or a number (evaluated once instead of per card; it cannot fail)."""
        deck, suit = self.ns.get("DECK"), self.ns.get("SUIT")
        if not isinstance(deck, tuple) or not isinstance(suit, tuple) or len(deck) < 8:
            return src
        lit = " in " + repr(deck) + " if "
        if lit not in src:
            return src
        made = self.__dict__.setdefault("_suit_faces_tables", {})
        key = (id(deck), id(suit))
        if key not in made:
            name = f"_SUIT_FACES{len(made)}"
            faces = {}
            for f in deck:
                faces.setdefault(suit[f], []).append(f)
            self.ns[name] = {x: tuple(fs) for x, fs in faces.items()}
            made[key] = (deck, suit, name)
        name = made[key][2]
        out, pos = [], 0
        while True:
            i = src.find(lit, pos)
            if i < 0:
                break
            var = re.search(r"(_l\d+_\w+)$", src[:i])
            cond_start = i + len(lit)
            end = _comprehension_end(src, cond_start)
            x = None
            if var is not None and end is not None:
                x = _required_suit(src[cond_start:end], var.group(1))
            out.append(src[pos:i])
            out.append(f" in {name}.get({x}, ()) if " if x is not None else lit)
            pos = cond_start
        out.append(src[pos:])
        return "".join(out)

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


_BARE_ZONE = re.compile(r"s\.z\[(\d+)\]")
_SUM_MAP = re.compile(r"\bsum\(map\(([A-Z][A-Z_0-9]*|_T\d+)\.__getitem__, ")
#: a zone's pile as generated code reads it (``Compiler._byte_sums``): card faces only
_ZONE_READ = re.compile(r"\((?:s\.)?z\[\d+\]\[(?:\w+|s\.v\[\d+\])\] if 0 <= (?:\w+|s\.v\[\d+\]) < \d+ else _NO_ZONE\)"
                        r"|(?:s\.)?z\[\d+\](?:\[(?:\w+|s\.v\[\d+\])\])?")


def _paren_end(src: str, start: int):
    """Index of the ')' closing the call whose arguments start at ``start`` (None past a string or the end)."""
    depth = 0
    for j in range(start, len(src)):
        ch = src[j]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return j if ch == ")" else None
            depth -= 1
        elif ch in "'\"":
            return None
    return None
_SIMPLE_OPERAND = r"s\.v\[\d+\]|p_\w+|_l\d+_\w+|-?\d+"


_SUIT_READ = re.compile(r"(?<![\w.])SUIT\[")
_IN_SUIT_READ = re.compile(r"(?<![\w.])_IN_SUIT\[")


def _dynamic_suits(src: str) -> str:
    """A generated function of a game whose cards' suits depend on the deal (``deck: suit_of:`` reading the
    trump or a var): every read of the effective suit (``SUIT[…]``, the follow tables ``_IN_SUIT[…]``)
    reads the state's tables instead, bound once at the function's start from ``s.eff`` (State,
    ``compile/declarations.py``). The function's first parameter is always the state ``s``."""
    src = _SUIT_READ.sub("EFF[", _IN_SUIT_READ.sub("EFFIN[", src))
    if "EFF[" not in src and "EFFIN[" not in src:
        return src
    head, _, body = src.partition(":\n")
    return f"{head}:\n    EFF, EFFIN = s.eff\n{body}"


def _comprehension_end(src: str, start: int):
    """Index of the bracket closing the comprehension whose condition starts at ``start`` (None if unsure)."""
    depth = 0
    for j in range(start, len(src)):
        ch = src[j]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return j if ch == "]" else None
            depth -= 1
        elif ch in "'\"" or (depth == 0 and src.startswith(" for ", j)):
            return None   # a string, or a second for clause: left alone
    return None


def _required_suit(cond: str, var: str):
    """``X`` when every item comprehension condition ``cond`` keeps has ``SUIT[var] == X`` (a conjunct of
    the top-level ``and``s, X a simple operand not naming ``var``), else None."""
    cond = _unparen(cond.strip())
    parts = _split_and(cond)
    if len(parts) > 1:
        for p in parts:
            x = _required_suit(p, var)
            if x is not None:
                return x
        return None
    m = re.fullmatch(rf"SUIT\[{re.escape(var)}\] == ({_SIMPLE_OPERAND})", cond)
    return m.group(1) if m is not None and var not in m.group(1) else None


def _split_and(src: str) -> list:
    """``src`` split at its top-level `` and `` (outside brackets)."""
    parts, depth, last, j = [], 0, 0, 0
    while j < len(src):
        ch = src[j]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and src.startswith(" and ", j):
            parts.append(src[last:j])
            last = j + 5
            j += 5
            continue
        elif depth == 0 and (src.startswith(" or ", j) or src.startswith(" if ", j)):
            return [src]   # an `or` or a conditional at the top: not a conjunction
        j += 1
    parts.append(src[last:])
    return parts


def _unparen(src: str) -> str:
    """``src`` without the parentheses that enclose all of it."""
    while src.startswith("(") and src.endswith(")"):
        depth = 0
        for k, ch in enumerate(src):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0 and k < len(src) - 1:
                return src
        src = src[1:-1]
    return src


#: ``TABLE.__getitem__`` in generated code (string literals skipped): ``Compiler._fast_get``.
_TABLE_GET = re.compile(r"('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")|\b([A-Z][A-Z_0-9]*|_T\d+)\.__getitem__\b")
_FN_NAME = re.compile(r"_e\d+|_d_[A-Za-z_][A-Za-z0-9_]*")

#: The only builtins generated code can reach (the namespace's ``__builtins__``): pure functions on values.
SAFE_BUILTINS = {k: getattr(builtins, k) for k in (
    "abs", "all", "any", "bool", "dict", "enumerate", "int", "len", "list", "map", "max", "min", "range",
    "reversed", "set", "sorted", "str", "sum", "tuple", "zip", "frozenset", "isinstance", "iter", "next", "filter",
    "ValueError", "IndexError", "KeyError", "StopIteration", "TypeError", "AttributeError", "Exception")}
#: Opcodes generated code never needs (imports, classes, globals, frames): refused before it runs.
_BAD_OPS = frozenset(dis.opmap[n] for n in (
    "IMPORT_NAME", "IMPORT_FROM", "IMPORT_STAR", "LOAD_BUILD_CLASS", "STORE_GLOBAL", "DELETE_GLOBAL",
    "STORE_NAME", "DELETE_NAME", "SETUP_WITH", "BEFORE_WITH", "GET_AWAITABLE") if n in dis.opmap)


def failed_reason(parts, s, *args, fallback=None):
    """The reason of the first part of a condition (``Compiler.condition``) that does not hold for
    ``args`` (call it once the whole condition failed; a lone part has no function of its own): text,
    else ``fallback``. A part without a reason is named by its condition as written
    (``the rule: TEXT``); an error inside a part counts as not holding."""
    for fn, why, text in parts:
        try:
            held = fn is not None and bool(fn(s, *args))   # None: the one part, which failed
        except Exception:   # noqa: BLE001 - a value the part's expression cannot take
            held = False
        if not held:
            return why or f"the rule: {text}"
    return fallback


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


_STRING = r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\""   # a string literal of generated code: left as it is


def inline_calls(src: str, defs: dict, arg: str) -> str:
    """``src`` with every call ``_d_NAME(s, ARG)`` of a one-parameter definition replaced by the
    definition's body, ``arg`` (a local name of the generated code: ``p_seat``, ``p_card``) in place
    of its parameter. ``defs``: generated function name → (parameter names, body source), the
    game's ``env.def_src``. A definition is a pure expression of its parameter and the state, so the
    body gives the call's value; what is saved is the call (once per seat of a score step, once per
    card of a trick's resolution). String literals of ``src`` and of the bodies are left as they are.
    Example: ``key: power(card)`` resolves a trick with ``power``'s body inlined for each card.
    """
    call = re.compile(rf"({_STRING})|\b(_d_\w+)\(s, {re.escape(arg)}\)")

    def body(m):
        params, text = defs.get(m.group(2), ((), None)) if m.group(2) else ((), None)
        if len(params) != 1 or text is None:
            return m.group(0)
        param = re.compile(rf"({_STRING})|\b{re.escape(params[0])}\b")
        return "(" + param.sub(lambda x: x.group(1) or arg, text) + ")"

    return call.sub(body, src)


def hoist_invariants(src: str, var: str, prefix: str = "_inv", lazy: str | None = None) -> tuple:
    """Split generated expression ``src``, evaluated once per value of the name ``var``, into the
    parts that do not depend on ``var`` and the rest: ``(assignments, rest)``.

    ``assignments`` are ``(NAME, SOURCE)`` pairs to evaluate once, before the loop over ``var``;
    ``rest`` is ``src`` with each such part replaced by its ``NAME`` (``PREFIX0``, ``PREFIX1``, …).
    A part is hoisted when it is a call or a comprehension (a cheap name or index stays), names
    neither ``var`` nor a variable bound inside ``src`` around it, and is evaluated on every
    evaluation of ``src``: not inside a branch of ``if``/``else``, after the first operand of
    ``and``/``or`` or of a chained comparison, or inside a comprehension or lambda. Expressions are
    pure and the loop runs at least once, so the values and any error are the same; a part hoisted
    once also replaces its equal copies in conditional places (it was computed anyway). A
    generator expression alone is never hoisted (it can be consumed only once). Example: a score
    value ``if max(penalties(s) for s in seats) == 26 then … else …`` computes the ``max`` once per
    step instead of once per seat. Returns ``([], src)`` when nothing is hoisted.

    ``lazy``: the name of a dict (empty before the loop; the caller makes it when ``rest`` reads it):
    a part that does not depend on ``var`` but is evaluated only on some evaluations (a branch, after
    ``and``/``or``) is kept in it the first time it is needed, ``(D[k] if k in D else D.setdefault(k,
    PART))``: the largest such parts holding a call or a comprehension, each the same value on every
    evaluation (pure, the state unchanged), evaluated where first needed (so an error is raised where
    the plain expression raises it). A ``deal_points(seat)`` reading the makers' tricks (a team total)
    in three branches, for each seat, reads it once a step.
    """
    tree = ast.parse(src, mode="eval")
    bound = {var}
    for node in ast.walk(tree):   # names bound inside src: comprehension targets, lambda arguments
        if isinstance(node, ast.comprehension):
            bound.update(n.id for n in ast.walk(node.target) if isinstance(n, ast.Name))
        elif isinstance(node, ast.Lambda):
            bound.update(a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg))
        elif isinstance(node, ast.NamedExpr):
            return [], src

    def free(node) -> bool:
        """True when ``node`` reads none of the names bound in ``src`` (or ``var``) from outside it."""
        inner = set()
        for n in ast.walk(node):
            if isinstance(n, ast.comprehension):
                inner.update(x.id for x in ast.walk(n.target) if isinstance(x, ast.Name))
            elif isinstance(n, ast.Lambda):
                inner.update(a.arg for a in ast.walk(n.args) if isinstance(a, ast.arg))
        return not any(isinstance(n, ast.Name) and n.id in bound and n.id not in inner for n in ast.walk(node))

    def worth(node) -> bool:
        return isinstance(node, (ast.Call,) + _COMPREHENSIONS) and not isinstance(node, ast.GeneratorExp)

    found = {}   # ast.dump of a hoisted part -> its name

    def collect(node, always):
        if always and isinstance(node, ast.expr) and worth(node) and free(node):
            key = ast.dump(node)
            if key not in found:
                found[key] = (f"{prefix}{len(found)}", ast.unparse(node))
            return
        for field, value in ast.iter_fields(node):
            items = value if isinstance(value, list) else [value]
            for k, child in enumerate(items):
                if not isinstance(child, ast.AST):
                    continue
                cond = not always
                if isinstance(node, ast.IfExp) and field != "test":
                    cond = True
                elif isinstance(node, ast.BoolOp) and k > 0:
                    cond = True
                elif isinstance(node, ast.Compare) and field == "comparators" and k > 0:
                    cond = True
                elif isinstance(node, _COMPREHENSIONS + (ast.Lambda,)):
                    cond = True
                collect(child, not cond)

    collect(tree.body, True)
    if not found:
        return ([], _lazy_parts(src, free, lazy)) if lazy else ([], src)

    class Replace(ast.NodeTransformer):
        def visit(self, node):
            if isinstance(node, ast.expr):
                hit = found.get(ast.dump(node))
                if hit is not None and free(node):
                    return ast.copy_location(ast.Name(id=hit[0], ctx=ast.Load()), node)
            return self.generic_visit(node)

    rest = ast.unparse(Replace().visit(tree).body)
    if lazy:
        rest = _lazy_parts(rest, free, lazy)
    return [hit for hit in found.values()], rest


def _lazy_parts(src: str, free, memo: str, keep=None) -> str:
    """``src`` with its largest parts that ``free`` accepts and that hold a call or a comprehension read
    through the dict ``memo`` (``hoist_invariants``' ``lazy``); ``src`` itself when there is none.
    ``keep``: when given, a part is kept only when ``keep(part)`` is true too (e.g. no iterator)."""
    tree = ast.parse(src, mode="eval")
    keys = {}

    def costly(node) -> bool:
        return any(isinstance(n, (ast.Call,) + _COMPREHENSIONS) for n in ast.walk(node))

    class Memo(ast.NodeTransformer):
        def visit(self, node):
            if isinstance(node, ast.expr) and not isinstance(node, (ast.GeneratorExp, ast.Starred)) \
                    and not isinstance(getattr(node, "ctx", None), (ast.Store, ast.Del)) \
                    and costly(node) and free(node) and (keep is None or keep(node)):
                k = keys.setdefault(ast.dump(node), len(keys))
                part = ast.parse(f"({memo}[{k}] if {k} in {memo} else {memo}.setdefault({k}, 0))",
                                 mode="eval").body
                part.orelse.args[1] = node
                return ast.copy_location(part, node)
            return self.generic_visit(node)

    body = Memo().visit(tree.body)
    return ast.unparse(body) if keys else src


#: Builtins whose value is an iterator: read once, never kept to be read again (``lazy_invariants``).
_ITERATORS = frozenset({"map", "filter", "zip", "iter", "reversed", "enumerate"})


def lazy_invariants(src: str, var_names, memo: str, ns) -> str:
    """``src`` (a condition tested for every value of a loop) with its largest parts that read none of
    ``var_names`` (the loop's variables) nor a name bound inside ``src`` around them, and that hold a call
    or a comprehension, kept in the dict ``memo`` the first time each is needed (``_lazy_parts``): each is
    the same value on every test (expressions are pure, the state is unchanged while a listing runs) and is
    evaluated where the plain condition first evaluates it (an error is raised there, none where it never
    was). A part whose value is an iterator (a generator expression, a call of ``map``, ``filter`` … or
    of a generator function of ``ns``), or a call of anything but a plain name, is not kept: it is read
    once. ``src`` itself when nothing is kept or it cannot be parsed."""
    import inspect
    try:
        tree = ast.parse(src, mode="eval")
    except SyntaxError:
        return src
    bound = set(var_names)
    for node in ast.walk(tree):
        if isinstance(node, ast.comprehension):
            bound.update(n.id for n in ast.walk(node.target) if isinstance(n, ast.Name))
        elif isinstance(node, ast.Lambda):
            bound.update(a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg))
        elif isinstance(node, ast.NamedExpr):
            return src

    def free(node) -> bool:
        inner = set()
        for n in ast.walk(node):
            if isinstance(n, ast.comprehension):
                inner.update(x.id for x in ast.walk(n.target) if isinstance(x, ast.Name))
            elif isinstance(n, ast.Lambda):
                inner.update(a.arg for a in ast.walk(n.args) if isinstance(a, ast.arg))
        return not any(isinstance(n, ast.Name) and n.id in bound and n.id not in inner for n in ast.walk(node))

    def keep(node) -> bool:
        if isinstance(node, _COMPREHENSIONS):
            return not isinstance(node, ast.GeneratorExp)
        if not isinstance(node, ast.Call):   # (an operation on parts: its value is a number, a bool, …)
            return isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Subscript))
        f = node.func
        if not isinstance(f, ast.Name) or f.id in _ITERATORS:
            return False
        fn = ns.get(f.id)
        return not (inspect.isgeneratorfunction(fn) or inspect.isclass(fn))

    return _lazy_parts(src, free, memo, keep)


def _or_tree(terms):
    """``a or b or c`` (left-nested ``or_`` nodes, as the parser makes them) of parsed ``terms``."""
    from lark import Tree
    node = terms[0]
    for t in terms[1:]:
        node = Tree("or_", [node, t])
    return node


def check_generated(src: str, fname: str, filename: str = "<ruleset>"):
    """Compile generated ``src`` (one ``def fname``) and refuse anything an expression cannot produce.

    The last line of defence behind the name checks (``dsl.name_problem``), on the code objects (cheap,
    nothing parsed twice): the module only defines ``fname``; no code object (the function, its
    comprehensions and lambdas) names anything starting with ``__`` but ``__getitem__``, imports,
    builds a class, writes a global or opens a ``with``. The namespace's builtins are
    ``SAFE_BUILTINS``, so any other name is the game's own (tables, helpers) or a NameError.
    Returns the module's code object. Raises ``UnsafeName`` (an engine bug: YAML text reached code
    generation as text)."""
    try:
        module = compile(src, filename, "exec")
    except (SyntaxError, ValueError) as e:
        raise UnsafeName(f"generated code does not compile ({e}); a YAML value reached it as text") from None
    fns = [c for c in module.co_consts if isinstance(c, types.CodeType)]
    if module.co_names != (fname,) or len(fns) != 1 or fns[0].co_name != fname:
        raise UnsafeName("generated code is not one plain function definition")
    stack = fns
    while stack:
        co = stack.pop()
        for nm in co.co_names:
            if nm.startswith("__") and nm != "__getitem__":
                raise UnsafeName(f"generated code names {nm!r}")
        for i in range(0, len(co.co_code), 2):
            if co.co_code[i] in _BAD_OPS:
                raise UnsafeName(f"generated code holds {dis.opname[co.co_code[i]]}")
        stack.extend(c for c in co.co_consts if isinstance(c, types.CodeType))
    return module


def _steps(cost: float) -> str:
    """``cost`` for a message: ``1,234,567`` or ``1.2e+19``."""
    return f"{int(cost):,}" if cost < 1e15 else f"{cost:.1e}"


def _line_col(text: str, offset: int) -> tuple:
    """(line, column), from 1, of ``offset`` in ``text``."""
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def _use(text: str, start: int, end: int) -> str:
    """The few characters around ``text[start:end]`` (one line) that show how a name is used."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line = text[line_start:line_end if line_end >= 0 else len(text)]
    a, b = start - line_start, end - line_start
    return line[max(0, a - 12):b + 12].strip()


def _offset(text: str, line: int, col: int) -> int:
    lines = text.split("\n")
    return sum(len(l) + 1 for l in lines[:line - 1]) + col - 1
