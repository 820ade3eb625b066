"""The expression language: parse with Lark, check names and types, generate Python.

An author's expression (``"card.suit == led_suit or not any(c in hand where c.suit == led_suit)"``)
is parsed by the LALR grammar in ``grammar.lark``, then walked once by
``_Compiler``: every name is resolved (to a context parameter, a ruleset
definition, a state slot, an option's value, a suit, rank or card literal) and
every operation is type-checked. The result is a small Python expression over
the state's slots (``SUIT[card] == s.v[3]``) that the engine compiles, with all
the ruleset's other expressions, into one module: author text is never given
to ``eval``; only code generated from the checked tree runs.

Evaluation is bounded by construction: no loops but comprehensions over finite
collections, no recursion (a definition may use only earlier definitions), no
exponentiation, integer division by zero yields 0.

Types: ``int`` (seats are ints), ``bool``, ``card``, ``suit``, ``color``,
``str``, and ``list[T]``.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .fastparse import parse as fast_parse

INT, BOOL, CARD, SUIT, COLOR, STR, ANY = "int", "bool", "card", "suit", "color", "str", "any"


def list_of(t: str) -> str:
    return f"list[{t}]"


def elem(t: str) -> str | None:
    if t == ANY:
        return ANY
    if t.startswith("list[") and t.endswith("]"):
        return t[5:-1]
    return None


#: A name a ruleset declares (zone, counter, var, definition and its parameters, option, action parameter,
#: ``for_each``'s ``as:``): exactly the grammar's NAME token (grammar.lark), ASCII, checked with ``\Z`` (a
#: trailing newline is refused). Such a name reaches generated code only mangled (``p_NAME``, ``_d_NAME``)
#: after this check; anything else from YAML reaches it as a ``repr`` of a checked value (docs/dsl.md, "Bounds").
NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
#: The language's own words (grammar.lark): a name spelled so could never be referred to.
KEYWORDS = frozenset({"if", "then", "else", "or", "and", "not", "in", "where", "for", "by", "true", "false"})
MAX_NAME_CHARS = 64


def name_problem(name) -> str | None:
    """Why ``name`` (any YAML value) cannot name a zone, counter, var, definition, option or parameter;
    None when it can: a str matching the grammar's NAME (``[A-Za-z_][A-Za-z0-9_]*``, at most
    ``MAX_NAME_CHARS``), not a keyword of the language, not starting with two underscores."""
    if not isinstance(name, str):
        return f"a name is text, not {type(name).__name__}"
    if len(name) > MAX_NAME_CHARS:
        return f"a name has at most {MAX_NAME_CHARS} characters"
    if not NAME_RE.match(name):
        return f"'{_shown(name)}' is not a name (letters A-Z a-z, digits and _, not starting with a digit)"
    if name in KEYWORDS:
        return f"'{name}' is a word of the expression language, not a name"
    if name.startswith("__"):
        return f"'{name}': a name may not start with two underscores"
    return None


def _shown(text: str, width: int = 40) -> str:
    """``text`` for a message: one line, at most ``width`` characters."""
    r = repr(text)[1:-1]
    return r if len(r) <= width else r[:width - 1] + "…"


def literal_src(value) -> str:
    """Python source of a YAML or option value that generated code uses as a constant: ``repr`` of a
    bool, int or str, or of a tuple of them (a list becomes a tuple). Raises ``ValueError`` for
    anything else (a float, a mapping, None…), so no value reaches code as text."""
    if isinstance(value, (list, tuple)):
        return "(" + "".join(literal_src(v) + ", " for v in value) + ")"
    if isinstance(value, (bool, int, str)):
        return repr(value)
    raise ValueError(f"a value here is a number, true/false or text, not {type(value).__name__}")


class UnsafeName(ValueError):
    """A name that is not a checked NAME reached code generation (an engine bug: callers check first)."""


def py_param(name: str) -> str:
    """The Python name of context parameter ``name`` (``p_NAME``). Raises ``UnsafeName`` unless ``name``
    passes ``name_problem`` (or is one of the engine's own parameters such as ``seat``)."""
    if name_problem(name) is not None:
        raise UnsafeName(f"parameter name {name!r} reached code generation unchecked")
    return "p_" + name


_READS_STATE = re.compile(r"\bs\.|\(s[,)]|\bp_")
_IDENT = re.compile(r"[A-Za-z_]\w*")
_PY_WORDS = {"and", "or", "not", "if", "else", "True", "False", "None", "in", "is"}


class RuleFault(Exception):
    """The rules did at play what docs/dsl.md forbids (cards moved into the zone of no seat, a counter of
    no seat changed, a decision left with no legal action). The engine reports it as a ``RulesetError``
    at the step in progress (code ``ruleset/runtime``)."""


class NoZone(tuple):
    """What indexing a list of lists out of range gives (a per-seat zone of no seat: ``hand[-1]``,
    ``won[seat + 1]`` past the last seat, ``hand[holder(hand, X)]`` when nobody holds X): an empty
    zone to read. Cards cannot go into it (``RuleFault``); taking from it takes nothing."""

    __slots__ = ()

    def _refuse(self, *cards):
        raise RuleFault("cards were moved into a per-seat zone of no seat (an index below 0 or past the last "
                        "seat; docs/dsl.md: such a zone is empty and takes no cards)")

    append = insert = _refuse

    def extend(self, cards):
        for _ in cards:
            self._refuse()

    def clear(self):
        pass

    def sort(self, *a, **k):
        pass

    def remove(self, card):
        raise ValueError("not in an empty zone")


NO_ZONE = NoZone()


class DslError(Exception):
    """An expression problem at ``line``/``col`` (1-based, within the expression text)."""

    def __init__(self, message, line=1, col=1, hint=""):
        super().__init__(message)
        self.message, self.line, self.col, self._hint = message, line, col, hint

    @property
    def hint(self) -> str:
        """What to write instead (``""`` if nothing); a "did you mean" search runs only when asked for."""
        if callable(self._hint):
            self._hint = self._hint()
        return self._hint

    @hint.setter
    def hint(self, value):
        self._hint = value


@lru_cache(maxsize=1)
def parser() -> Lark:
    text = resources.files("cardspec.lang").joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", propagate_positions=True, maybe_placeholders=False)


#: Common mistakes and what to write instead (lark's ``match_examples`` idea, as a table).
_MISTAKES = [
    ("=", "==", "compare with '==' (a single '=' is not an operator here)"),
    ("&&", "and", "write 'and'"),
    ("||", "or", "write 'or'"),
    ("!", "not", "write 'not' (or '!=' for 'differs')"),
    ("?", "if … then … else …", "write 'if COND then A else B'"),
]


#: The cost budget (docs/dsl.md, "Bounds"): an expression or definition whose worst-case cost, in elementary
#: steps (a name read, an operation, one item of a loop), is above this is refused at load. The built-ins'
#: largest is about 2,300 (tests/test_bounds.py prints them); 2 comprehensions nested over a 108-card deck
#: cost about 12,000; 3 nested over 52 cards about 140,000; 4 nested over 52 cards, 7 million: refused.
COST_BUDGET = 3_000_000
#: A secret rule typed during play (Eleusis) has its own, smaller budget: it runs once per card judged.
RULE_BUDGET = 5_000
#: Integers stored in the state (vars, counters) and in events stay within +-INT_LIMIT (2**53 - 1, the
#: largest integer JSON readers such as JavaScript hold exactly): a value beyond saturates at the limit.
INT_LIMIT = 2 ** 53 - 1
#: A comprehension that reads no state (``filter(c in deck where c.rank == 2)``) is computed once at load
#: when it costs at most this; above, it is left to run time (where the budget bounds it).
FOLD_BUDGET = 100_000


def mag_add(m1, m2):
    """Magnitude bound of ``x + y`` (or ``x - y``) from those of x and y (``Code.mag``)."""
    (a1, d1, b1), (a2, d2, b2) = m1 or (1, 1, 0), m2 or (1, 1, 0)
    return (a1 + a2, max(d1, d2), b1 + b2)


def mag_mul(m1, m2):
    """Magnitude bound of ``x * y``: (a1 S^d1 + b1)(a2 S^d2 + b2)."""
    (a1, d1, b1), (a2, d2, b2) = m1 or (1, 1, 0), m2 or (1, 1, 0)
    if d1 == 0 or a1 == 0:
        return (a2 * b1, d2 if a2 * b1 else 0, b1 * b2)
    if d2 == 0 or a2 == 0:
        return (a1 * b2, d1 if a1 * b2 else 0, b1 * b2)
    return (a1 * a2 + a1 * b2 + a2 * b1, d1 + d2, b1 * b2)


def may_grow(mag) -> bool:
    """Whether an int of magnitude ``mag``, stored and read back again and again, may grow without bound
    (``x * x``, ``x + x``, a constant beyond INT_LIMIT): such a store saturates (``_clamp``); a store of
    ``x + 1`` or of a bounded value does not need to."""
    a, d, b = mag or (1, 1, 0)
    return d >= 2 or (d == 1 and a > 1) or b > INT_LIMIT


def _const_mag(src: str):
    try:
        v = abs(int(src.strip("()")))
    except ValueError:
        return None
    return (0, 0, v)


#: Bounds on author text (evaluation is bounded by construction; these bound the compiler).
MAX_EXPR_CHARS = 4000
MAX_NESTING = 40

_BAD_CARD = re.compile(r"(?<![A-Za-z0-9_])([0-9]+[A-Za-z][A-Za-z0-9_]*)")


@lru_cache(maxsize=2048)
def parse(text: str) -> Tree:
    """Parse one expression (memoized: a ruleset's definitions are parsed for their
    dependencies and again to compile; trees are never modified). Raises ``DslError`` with the position and what was expected.

    Common mistakes get a labelled message or hint (``=`` for ``==``, a missing
    ``)``, ``1X`` for a card, ``&&``/``||``/``!``/``?``); text longer than
    ``MAX_EXPR_CHARS`` or nested deeper than ``MAX_NESTING`` brackets is refused.
    """
    if len(text) > MAX_EXPR_CHARS:
        raise DslError(f"the expression is longer than {MAX_EXPR_CHARS} characters", 1, 1,
                       "split it into definitions (define:)")
    depth = 0
    for i, ch in enumerate(text):
        depth += ch in "([" and 1 or (ch in ")]" and -1 or 0)
        if depth > MAX_NESTING:
            line = text.count("\n", 0, i) + 1
            raise DslError(f"brackets nested more than {MAX_NESTING} deep", line, i - (text.rfind("\n", 0, i) + 1) + 1,
                           "split it into definitions (define:)")
    tree = fast_parse(text)   # the same tree as lark's, or None: lark then parses (and explains an error)
    try:
        if tree is None:
            tree = parser().parse(text)
    except UnexpectedCharacters as e:
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else ""
        hint = ""
        two = text[e.pos_in_stream:e.pos_in_stream + 2]
        for bad, good, h in _MISTAKES:
            if two.startswith(bad) and not (bad == "=" and two == "=="):
                hint = h
                break
        raise DslError(f"unexpected character '{ch}'", e.line, e.column, hint) from None
    except UnexpectedToken as e:
        tok = e.token
        if tok.type == "$END":
            line, col = _end_position(text)
            raise DslError(*_early_end(text, e.expected, line, col)) from None
        bad = _bad_card_at(text, tok)
        if bad:
            raise DslError(*bad) from None
        hint = _expected_hint(e.expected)
        if str(tok) == "=":
            hint = "compare with '=='"
        raise DslError(f"unexpected '{tok}'", tok.line, tok.column, hint) from None
    except UnexpectedEOF as e:
        line, col = _end_position(text)
        raise DslError(*_early_end(text, e.expected, line, col)) from None
    except UnexpectedInput as e:  # pragma: no cover - other lark errors
        raise DslError(str(e).splitlines()[0], getattr(e, "line", 1), getattr(e, "column", 1)) from None
    if len(text) >= MAX_DEPTH - 1:   # each level of a tree has a token of its own: shorter text is shallow enough
        _check_depth(tree)
    return tree


MAX_DEPTH = 60


def _check_depth(tree):
    """Refuse a tree deeper than ``MAX_DEPTH`` (``a + a + a + …`` thousands long): the compiler stays bounded."""
    stack = [(tree, 1)]
    while stack:
        node, d = stack.pop()
        if d > MAX_DEPTH:
            meta = getattr(node, "meta", None)
            line = getattr(meta, "line", 1) if meta is not None and not meta.empty else 1
            col = getattr(meta, "column", 1) if meta is not None and not meta.empty else 1
            raise DslError(f"the expression has more than {MAX_DEPTH} levels of operations", line, col,
                           "split it into definitions (define:)")
        if isinstance(node, Tree):
            stack.extend((c, d + 1) for c in node.children)


def _end_position(text: str):
    """(line, col) just after the last non-blank character."""
    body = text.rstrip()
    line = body.count("\n") + 1
    return line, len(body) - (body.rfind("\n") + 1) + 1


def _early_end(text, expected, line, col):
    opened = text.count("(") - text.count(")")
    if opened > 0:
        return ("missing ')'" if opened == 1 else f"missing {opened} ')'"), line, col, "every '(' needs a ')'"
    if text.count("[") > text.count("]"):
        return "missing ']'", line, col, "every '[' needs a ']'"
    if not text.strip():
        return "the expression is empty", 1, 1, "write a value, e.g. 0, true or card.suit == hearts"
    return "the expression ends too early", line, col, _expected_hint(expected)


def _bad_card_at(text, tok):
    """``(message, line, col, hint)`` when ``tok`` is the letter part of something like ``1X`` or ``11S``."""
    if getattr(tok, "type", "") not in ("NAME", "CARD", "INT") or tok.line is None:
        return None
    lines = text.split("\n")
    row = lines[tok.line - 1] if tok.line - 1 < len(lines) else ""
    for m in _BAD_CARD.finditer(row):
        if m.start() < tok.column <= m.end():
            return (f"'{m.group(1)}' is not a card", tok.line, m.start() + 1,
                    "a card is a rank then a suit: 2-9, T or 10, J, Q, K, A then S, H, D or C (QS, 10H, 2C), or JK")
    return None


_TOKEN_WORDS = {"RPAR": "')'", "RSQB": "']'", "LPAR": "'('", "LSQB": "'['", "NAME": "a name", "INT": "a number",
                "COMMA": "','", "CARD": "a card", "STRING": "a string", "COMP_OP": "a comparison",
                "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '/' or '%'", "DOT": "'.'", "MINUS": "'-'"}


def _expected_hint(expected) -> str:
    words = sorted({_TOKEN_WORDS.get(x, f"'{x.lower()}'" if x.isalpha() else x.lower())
                    for x in (expected or []) if not x.startswith("__")})
    if not words:
        return ""
    if len(words) > 6:
        words = words[:6] + ["…"]
    return "expected " + (", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0])


@dataclass
class Code:
    src: str
    type: str
    const: bool = False   # no state read: may be folded
    values: frozenset | None = None   # every value it can take, when known (`x % 4`, a table's values)
    cost: float = 1.0     # worst-case elementary steps of one evaluation (docs/dsl.md, "Bounds")
    size: float | None = None   # a list: most items it can hold (None: the game's bound, ``_Compiler.bound``)
    mag: tuple | None = None    # an int: (a, d, b), |value| <= a * S**d + b where S bounds every int read from
                                # the state (INT_LIMIT); None: (1, 1, 0), a plain read


@dataclass
class Binding:
    """What a name means: Python source and type; ``params`` for a callable definition."""

    src: str
    type: str
    kind: str = "value"   # value | define | fn
    params: tuple = ()
    param_types: tuple = ()
    const: bool = False
    body: str | None = None   # a small definition's generated source (parameters p_NAME), inlined at each use
    values: frozenset | None = None   # the values a parameterless definition can take, when known
    cost: float = 0.0     # a definition: the cost of one evaluation of its body (charged at each use)
    size: float | None = None   # a list: most items (e.g. seats: players; a counter: players)
    mag: tuple | None = None    # an int: its magnitude bound (Code.mag)


@dataclass
class Env:
    """Names visible to every expression of one game (built by the engine)."""

    names: dict = field(default_factory=dict)
    deck: object = None
    players: int = 0
    ns: dict | None = None   # the namespace generated code runs in (tables, helpers): for folding

    def lookup(self, name):
        return self.names.get(name)

    def all_names(self):
        return list(self.names)


_SIMPLE_SRC = re.compile(r"-?\d+|p_\w+|_l\d+_\w+|s\.[zcv]\[\d+\]")   # cheap to evaluate twice, no effects


class _Compiler:
    def __init__(self, env: Env, params: dict):
        self.env = env
        self.params = params          # name -> Binding (context parameters)
        self.locals: list = []        # stack of dicts name -> Binding (comprehension variables)
        self.last_where_map = None
        self._n = 0
        self._acc = [0.0]             # cost frames: each c() call adds its cost to the frame of its caller

    # ---- helpers --------------------------------------------------------
    def err(self, node, msg, hint=""):
        meta = getattr(node, "meta", None)
        if isinstance(node, Token):
            raise DslError(msg, node.line or 1, node.column or 1, hint)
        if meta is not None and not getattr(meta, "empty", True):
            raise DslError(msg, meta.line, meta.column, hint)
        raise DslError(msg, 1, 1, hint)

    def c(self, node) -> Code:
        """Compile ``node``: its ``Code`` with ``cost`` (this node's steps plus its parts'), ``size`` for a
        list and ``mag`` for an int filled in (docs/dsl.md, "Bounds")."""
        self._acc.append(0.0)
        try:
            if isinstance(node, Token):
                code = self.token(node)
            else:
                fn = getattr(self, "r_" + node.data, None)
                if fn is None:  # pragma: no cover
                    self.err(node, f"unsupported construct '{node.data}'")
                code = fn(node)
                code.cost = 1.0 + self._acc[-1]
                code = self.fold(code)   # (a comprehension over constants is computed at load if cheap)
        finally:
            inner = self._acc.pop()
        code.cost = 1.0 if code.const else 1.0 + inner
        if code.size is None and elem(code.type) is not None:
            code.size = self.bound_of(code)
        if code.type == INT and code.mag is None:
            code.mag = _const_mag(code.src) if code.const else \
                (0, 0, max(abs(x) for x in code.values)) if code.values else None
        self._acc[-1] += code.cost
        return code

    def charge(self, steps: float):
        """Add ``steps`` to the cost of the node being compiled (a builtin's own work, e.g. a sort)."""
        self._acc[-1] += steps

    def bound(self) -> float:
        """The most items any list of this game can hold: the deck's cards (copies and jokers counted), at
        least the player count (a list of seats) and 1."""
        deck = self.env.deck
        cards = len(deck.cards) if deck is not None and getattr(deck, "cards", None) is not None else 0
        return float(max(cards, self.env.players, 1))

    def bound_of(self, code: Code) -> float:
        """Most items of list ``code``: its ``size``, a constant tuple's length, else ``bound()``."""
        if code.size is not None:
            return code.size
        if code.const and code.src.startswith("("):
            return float(max(code.src.count(","), 1))
        return self.bound()

    def fold(self, code: Code) -> Code:
        """Constant folding: a sub-expression that reads no state is computed once, at load time.

        (Options and the player count are constants of a compiled game, so
        ``if pass_to == "left" then … else …`` costs nothing during play.)
        """
        ns = self.env.ns
        if ns is None or code.type == ANY:
            return code
        if _READS_STATE.search(code.src) or ("_l" in code.src and code.cost > FOLD_BUDGET):
            return self.tabulate(code)
        if code.src in ("True", "False") or code.src.lstrip("-").isdigit():
            code.const = True
            return code
        try:
            value = eval(code.src, ns)  # noqa: S307 - generated from the checked tree, reads no state
        except Exception:  # noqa: BLE001 - leave it to run time (e.g. a division guard)
            return self.tabulate(code) if "_l" in code.src else code
        if isinstance(value, range):
            value = tuple(value)
        if isinstance(value, list):
            value = tuple(value)
        if isinstance(value, (bool, int, str)) or (isinstance(value, tuple) and len(value) <= 256 and
                                                   all(isinstance(x, (bool, int, str)) for x in value)):
            return Code(repr(value), code.type, True)
        return code

    def tabulate(self, code: Code) -> Code:
        """A computation on one card and constants only, as a table indexed by that card.

        ``SUIT[p_card] == 1 or p_card == 10`` becomes ``_T3[p_card]``, the values for every face
        computed once at load (DESIGN.md, "Speed": precomputed tables). The table has one more
        entry, last, for -1 (a card expression's "none"), so ``T[-1]`` is what the expression
        gives for -1; anything else (another variable, a state read, a string) is left as it is.
        """
        if code.type not in (BOOL, INT, SUIT, COLOR) or self.env.deck is None:
            return code
        names = set(_IDENT.findall(code.src)) - _PY_WORDS
        free = [nm for nm in names if nm not in self.env.ns]
        if len(free) != 1 or re.fullmatch(r"[A-Z_]+\[\w+\]", code.src) or "'" in code.src or '"' in code.src:
            return code
        var = free[0]
        if self._local_type(var) != CARD:
            return code
        faces = len(self.env.deck.suit)
        try:
            f = eval(f"lambda {var}: {code.src}", self.env.ns)  # noqa: S307 - generated from the checked tree
            table = tuple(f(x) for x in range(-1, faces))
        except Exception:  # noqa: BLE001 - leave it to run time
            return code
        table = table[1:] + table[:1]   # faces 0 … F-1, then -1 last (Python's T[-1])
        if not all(isinstance(x, (bool, int)) for x in table):
            return code
        tables = self.env.ns.setdefault("_TABLES", {})
        name = tables.get(table)
        if name is None:
            name = tables[table] = f"_T{len(tables)}"
            self.env.ns[name] = table
        return Code(f"{name}[{var}]", code.type, values=frozenset(table) if len(set(table)) <= 64 else None)

    def _local_type(self, src: str):
        """Type of the parameter or comprehension variable whose Python name is ``src`` (None if not one)."""
        for frame in reversed(self.locals):
            for b in frame.values():
                if b.src == src:
                    return b.type
        for b in self.params.values():
            if b.src == src:
                return b.type
        return None

    def independent(self, code: Code, var: str) -> bool:
        """Whether generated ``code`` does not use the local ``var`` (e.g. ``p_card``)."""
        return re.search(r"\b" + re.escape(var) + r"\b", code.src) is None

    def filter_lines(self, node, var: str, lst: str, indent: str = "") -> list:
        """Statements narrowing list ``lst`` to the items ``var`` for which ``node`` holds.

        Parts of the condition that do not depend on ``var`` are tested once,
        not once per item: ``if A then P else Q`` with ``A`` independent becomes an
        ``if`` statement; independent terms of an ``or`` become a guard.
        """
        if isinstance(node, Tree) and node.data == "if_":
            cond = self.want(node.children[0], self.c(node.children[0]), BOOL)
            if self.independent(cond, var):
                a = self.filter_lines(node.children[1], var, lst, indent + "    ")
                b = self.filter_lines(node.children[2], var, lst, indent + "    ")
                return [f"{indent}if {cond.src}:"] + (a or [indent + "    pass"]) + \
                       [f"{indent}else:"] + (b or [indent + "    pass"])
        if isinstance(node, Tree) and node.data == "or_":
            terms = []

            def flat(t):
                if isinstance(t, Tree) and t.data == "or_":
                    flat(t.children[0])
                    flat(t.children[1])
                else:
                    terms.append(t)
            flat(node)
            codes = [(t, self.want(t, self.c(t), BOOL)) for t in terms]
            guard = [c.src for _, c in codes if self.independent(c, var)]
            dep = [c.src for _, c in codes if not self.independent(c, var)]
            if guard and dep:
                return [f"{indent}if not ({' or '.join(guard)}):",
                        f"{indent}    {lst} = [{var} for {var} in {lst} if {' or '.join(dep)}]"]
        code = self.want(node, self.c(node), BOOL)
        if code.src == "True":
            return []
        if self.independent(code, var):
            return [f"{indent}if not ({code.src}):", f"{indent}    {lst} = []"]
        m = re.fullmatch(rf"\(*{re.escape(var)} == (\d+)\)*", code.src)
        t = re.fullmatch(rf"(_T\d+)\[{re.escape(var)}\]", code.src)
        if t and code.type == BOOL:   # a tabulated condition true for one face only: that card
            hits = [f for f, x in enumerate(self.env.ns[t.group(1)][:-1]) if x]
            if len(hits) == 1:
                m = re.fullmatch(r"(\d+)", str(hits[0]))
        if m:   # one card named: its copies, counted in C (no per-card Python)
            return [f"{indent}{lst} = [{m.group(1)}] * {lst}.count({m.group(1)})"]
        return [f"{indent}{lst} = [{var} for {var} in {lst} if {code.src}]"]

    def want(self, node, code: Code, *types):
        if code.type == ANY or ANY in types or code.type in types:
            return code
        self.err(node, f"expected {' or '.join(types)}, found {code.type}")

    def token(self, tok: Token) -> Code:
        if tok.type == "INT":
            return Code(str(int(tok)), INT, True)
        if tok.type == "NAME":
            return self.name(tok)
        self.err(tok, f"unexpected '{tok}'")

    # ---- names ----------------------------------------------------------
    def resolve(self, name):
        for frame in reversed(self.locals):
            if name in frame:
                return frame[name]
        if name in self.params:
            return self.params[name]
        return self.env.lookup(name)

    def visible_names(self):
        names = set(self.params) | set(self.env.all_names())
        for frame in self.locals:
            names |= set(frame)
        return names

    def unknown(self, tok, name, what="name"):
        names = self.visible_names()

        def hint():   # computed when the error is shown, not when a probe compile fails
            close = difflib.get_close_matches(name, sorted(names), n=1, cutoff=0.6)
            return f"did you mean '{close[0]}'?" if close else ""
        self.err(tok, f"unknown {what} '{name}'", hint)

    def name(self, tok: Token) -> Code:
        b = self.resolve(str(tok))
        if b is None and str(tok) in BUILTINS:
            self.err(tok, f"'{tok}' is a function: call it as {tok}(…)")
        if b is None:
            self.unknown(tok, str(tok))
        if b.kind == "fn":
            self.err(tok, f"'{tok}' is a function: call it as {tok}(…)")
        if b.kind == "define":
            if b.params:
                self.err(tok, f"'{tok}' takes {len(b.params)} argument(s): {tok}({', '.join(b.params)})")
            self.charge(b.cost)
            if b.body is not None:
                return Code(f"({b.body})", b.type, values=b.values, size=b.size, mag=b.mag)
            return Code(f"{b.src}(s)", b.type, size=b.size, mag=b.mag)
        return Code(b.src, b.type, b.const, size=b.size, mag=b.mag)

    def r_name(self, n):
        return self.name(n.children[0])

    # ---- literals ---------------------------------------------------------
    def r_int_(self, n):
        return Code(str(int(n.children[0])), INT, True)

    def r_true(self, n):
        return Code("True", BOOL, True)

    def r_false(self, n):
        return Code("False", BOOL, True)

    def r_string(self, n):
        return Code(repr(str(n.children[0])[1:-1]), STR, True)

    def r_card(self, n):
        tok = n.children[0]
        deck = self.env.deck
        code = str(tok)
        if code.startswith("10"):
            code = "T" + code[2:]
        if deck is None or code not in deck.face_of:
            self.err(tok, f"card '{tok}' is not in this ruleset's deck")
        return Code(str(deck.face_of[code]), CARD, True)

    def r_list_(self, n):
        items = [self.c(ch) for ch in n.children]
        if not items:
            return Code("()", list_of(ANY), True)
        t = items[0].type
        for ch, it in zip(n.children, items):
            if it.type != t and ANY not in (it.type, t):
                self.err(ch, f"a list holds one type: {t} then {it.type}")
        return Code("(" + ", ".join(i.src for i in items) + ",)", list_of(t), all(i.const for i in items),
                    size=float(len(items)))

    # ---- operators --------------------------------------------------------
    def r_if_(self, n):
        cond, a, b = (self.c(ch) for ch in n.children)
        self.want(n.children[0], cond, BOOL)
        if a.type != b.type and ANY not in (a.type, b.type):
            self.err(n, f"'then' gives {a.type} but 'else' gives {b.type}")
        t = a.type if a.type != ANY else b.type
        if cond.src in ("True", "False"):
            return a if cond.src == "True" else b
        size = max(self.bound_of(a), self.bound_of(b)) if elem(t) is not None else None
        mag = tuple(max(x, y) for x, y in zip(a.mag or (1, 1, 0), b.mag or (1, 1, 0))) if t == INT else None
        return Code(f"({a.src} if {cond.src} else {b.src})", t, size=size, mag=mag)

    def _logic(self, n, op):
        a, b = self.c(n.children[0]), self.c(n.children[1])
        self.want(n.children[0], a, BOOL)
        self.want(n.children[1], b, BOOL)
        for x, y in ((a, b), (b, a)):
            if x.src in ("True", "False"):
                if (x.src == "True") == (op == "or"):
                    return Code(x.src, BOOL, True)
                return y
        return Code(f"({a.src} {op} {b.src})", BOOL)

    def r_or_(self, n):
        return self._logic(n, "or")

    def r_and_(self, n):
        return self._logic(n, "and")

    def r_not_(self, n):
        a = self.want(n.children[0], self.c(n.children[0]), BOOL)
        return Code(f"(not {a.src})", BOOL)

    def r_neg(self, n):
        a = self.want(n.children[0], self.c(n.children[0]), INT)
        return Code(f"(-{a.src})", INT, a.const, mag=a.mag)

    def r_compare(self, n):
        left, op, right = n.children
        a, b = self.c(left), self.c(right)
        op = str(op)
        if op in ("<", ">", "<=", ">="):
            self.want(left, a, INT)
            self.want(right, b, INT)
        elif a.type != b.type and ANY not in (a.type, b.type):
            hint = ""
            if {a.type, b.type} == {CARD, SUIT}:
                hint = "compare card.suit with a suit"
            elif {a.type, b.type} == {CARD, INT}:
                hint = "compare card.rank with a rank"
            self.err(n, f"cannot compare {a.type} with {b.type}", hint)
        if elem(a.type) is not None:
            self.charge(min(self.bound_of(a), self.bound_of(b)))   # comparing lists item by item
        if op in ("==", "!=", "<>"):
            # A value that cannot occur: e.g. a card's suit against no_suit in a deck without jokers.
            for x, y in ((a, b), (b, a)):
                if x.values is not None and y.const and re.fullmatch(r"-?\d+", y.src) and int(y.src) not in x.values:
                    return Code("False" if op == "==" else "True", BOOL, True)
        return Code(f"({a.src} {op} {b.src})", BOOL)

    def _in(self, n):
        left, right = n.children
        a, b = self.c(left), self.c(right)
        e = elem(b.type)
        if e is None:
            self.err(right, f"'in' needs a list or zone on the right, found {b.type}")
        if e != a.type and ANY not in (e, a.type):
            self.err(n, f"cannot look for {a.type} in {b.type}")
        return a, b

    def r_in_(self, n):
        a, b = self._in(n)
        self.charge(self.bound_of(b))
        return Code(f"({a.src} in {b.src})", BOOL)

    def r_not_in(self, n):
        a, b = self._in(n)
        self.charge(self.bound_of(b))
        return Code(f"({a.src} not in {b.src})", BOOL)

    def r_binop(self, n):
        left, op, right = n.children
        a = self.want(left, self.c(left), INT)
        b = self.want(right, self.c(right), INT)
        op = str(op)
        const = a.const and b.const
        if op in "+-" and b.src in ("0", "(0)"):
            return a                      # x + 0 (e.g. a trump bonus folded to 0 in a game without trumps)
        if op == "+" and a.src in ("0", "(0)"):
            return b
        if op in "/%" and re.fullmatch(r"\(?-?\d+\)?", b.src) and int(b.src.strip("()")) != 0:
            # a nonzero constant divisor needs no zero check (x / 0 and x % 0 are 0): plain Python
            k = int(b.src.strip("()"))
            values = frozenset(range(k)) if op == "%" and 0 < k <= 64 else None   # x % k is 0 … k-1
            mag = (0, 0, abs(k)) if op == "%" else a.mag
            return Code(f"({a.src} {'//' if op == '/' else '%'} {b.src})", INT, const, values, mag=mag)
        if op == "/":
            return Code(f"_div({a.src}, {b.src})", INT, const, mag=a.mag)
        if op == "%":
            return Code(f"_mod({a.src}, {b.src})", INT, const, mag=b.mag)
        mag = mag_mul(a.mag, b.mag) if op == "*" else mag_add(a.mag, b.mag)
        return Code(f"({a.src} {op} {b.src})", INT, const, mag=mag)

    # ---- access -------------------------------------------------------------
    _CARD_ATTRS = {"suit": ("SUIT", SUIT), "rank": ("RANK", INT), "points": ("POINTS", INT),
                   "color": ("COLOR", COLOR), "code": ("CODE", STR), "strength": ("STRENGTH", INT),
                   "printed_suit": ("PSUIT", SUIT)}

    def r_attr(self, n):
        obj, name = n.children
        a = self.c(obj)
        attr = str(name)
        if a.type in (CARD, ANY) and attr in self._CARD_ATTRS:
            table, t = self._CARD_ATTRS[attr]
            values = (self.env.ns or {}).get(table)
            mag = (0, 0, max((abs(x) for x in values if isinstance(x, int)), default=0)) \
                if t == INT and values is not None else None
            return Code(f"{table}[{a.src}]", t, mag=mag)
        if a.type == CARD:
            close = difflib.get_close_matches(attr, list(self._CARD_ATTRS), n=1)
            self.err(name, f"a card has no '{attr}'", f"did you mean '{close[0]}'?" if close else
                     "a card has suit, rank, strength, points, color, code, printed_suit")
        if a.type == SUIT and attr == "color":
            return Code(f"SUIT_COLOR[{a.src}]", COLOR)
        self.err(name, f"{a.type} has no attribute '{attr}'")

    def r_index(self, n):
        obj, idx = n.children
        a, i = self.c(obj), self.c(idx)
        self.want(idx, i, INT)
        e = elem(a.type)
        if e is None:
            self.err(obj, f"cannot index {a.type} with [ ]")
        if e == ANY:
            return Code(f"{a.src}[{i.src}]", e)
        if elem(e) is not None:
            # A list of lists (a per-seat zone, melds): out of range gives an empty zone (NoZone). A name
            # or a number as the index of a zone is checked inline (no call), anything else by _lat.
            if _SIMPLE_SRC.fullmatch(i.src) and _SIMPLE_SRC.fullmatch(a.src):
                return Code(f"({a.src}[{i.src}] if 0 <= {i.src} < len({a.src}) else _NO_ZONE)", e)
            return Code(f"_lat({a.src}, {i.src})", e)
        if a.const and i.values is not None and a.src.startswith("("):
            try:
                size = len(eval(a.src, {}))   # noqa: S307 - a folded constant tuple of the checked tree
            except Exception:  # noqa: BLE001
                size = -1
            if i.values and all(0 <= x < size for x in i.values):   # always in range: plain indexing
                return Code(f"{a.src}[{i.src}]", e)
        return Code(f"_at({a.src}, {i.src})", e)

    # ---- comprehensions and calls ---------------------------------------
    def _binder(self, node):
        """`NAME in COLLECTION` → (name, collection Code, element type)."""
        if not (isinstance(node, Tree) and node.data == "in_" and isinstance(node.children[0], Tree)
                and node.children[0].data == "name"):
            self.err(node, "expected 'NAME in COLLECTION' before 'where' or 'by'",
                     "e.g. count(c in hand where c.suit == hearts)")
        name = str(node.children[0].children[0])
        coll = self.c(node.children[1])
        e = elem(coll.type)
        if e is None:
            self.err(node.children[1], f"cannot go through {coll.type}: a list or zone is needed")
        return name, coll, e

    def _with_local(self, name, t, fn, coll: Code | None = None):
        """Compile ``fn()`` with comprehension variable ``name`` (type ``t``) bound; its cost counts once per
        item of ``coll`` (``bound_of``)."""
        self._n += 1
        py = f"_l{self._n}_{name}"
        self.locals.append({name: Binding(py, t)})
        self._acc.append(0.0)
        try:
            return py, fn()
        finally:
            self.locals.pop()
            inner = self._acc.pop()
            self._acc[-1] += inner * (self.bound_of(coll) if coll is not None else self.bound())

    def comprehension(self, arg):
        """Any argument form → (item_src, item_type, loop_src, ...) as Python comprehension parts.

        Returns ``(expr_src, expr_type, for_clause)`` where the comprehension is
        ``expr_src for_clause``, or ``None`` for a plain expression.
        """
        if not isinstance(arg, Tree):
            return None
        if arg.data == "where_arg":
            name, coll, e = self._binder(arg.children[0])
            py, cond = self._with_local(name, e, lambda: self.c(arg.children[1]), coll)
            self.want(arg.children[1], cond, BOOL)
            self.last_coll = coll
            self.last_loop, self.last_cond = f"for {py} in {coll.src}", cond.src
            self.last_map = None
            # `x in L where TABLE[x]` (a tabulated condition): the truth values as map(TABLE.__getitem__, L),
            # so all/any/count run in C with no Python frame per element (a filter stays a list
            # comprehension: itertools.compress measured slower on hands of 13)
            t = re.fullmatch(rf"(_T\d+)\[{re.escape(py)}\]", cond.src)
            self.last_where_map = (f"map({t.group(1)}.__getitem__, {coll.src})", coll.src) if t else None
            return py, e, f"for {py} in {coll.src} if {cond.src}"
        if arg.data in ("for_arg", "for_where_arg"):
            body, var, coll_node = arg.children[0], arg.children[1], arg.children[2]
            coll = self.c(coll_node)
            e = elem(coll.type)
            if e is None:
                self.err(coll_node, f"cannot go through {coll.type}: a list or zone is needed")
            def inner():
                b = self.c(body)
                cond = self.c(arg.children[3]) if arg.data == "for_where_arg" else None
                return b, cond
            py, (b, cond) = self._with_local(str(var), e, inner, coll)
            self.last_coll, self.last_body = coll, b
            if cond is not None:
                self.want(arg.children[3], cond, BOOL)
            clause = f"for {py} in {coll.src}" + (f" if {cond.src}" if cond is not None else "")
            # `TABLE[x] for x in L` with no condition: map(TABLE.__getitem__, L) needs no Python frame
            m = re.fullmatch(rf"([A-Z_]+)\[{re.escape(py)}\]", b.src) if cond is None else None
            self.last_map = f"map({m.group(1)}.__getitem__, {coll.src})" if m else None
            return b.src, b.type, clause
        return None

    def r_call(self, n):
        fname_tok = n.children[0]
        fname = str(fname_tok)
        args = n.children[1:]
        b = self.resolve(fname)
        if b is not None and b.kind == "define":
            if len(args) != len(b.params):
                self.err(n, f"'{fname}' takes {len(b.params)} argument(s), given {len(args)}")
            srcs = []
            for a, t in zip(args, b.param_types):
                code = self.c(a)
                self.want(a, code, t)
                srcs.append(code.src)
            self.charge(b.cost)
            inline = _inline(b, srcs)
            if inline is not None:
                return Code(inline, b.type, size=b.size, mag=b.mag)
            return Code(f"{b.src}(s, {', '.join(srcs)})", b.type, size=b.size, mag=b.mag)
        fn = BUILTINS.get(fname)
        if fn is None:
            if b is not None:
                self.err(fname_tok, f"'{fname}' is not a function")
            close = difflib.get_close_matches(fname, list(BUILTINS) + [k for k, v in self.env.names.items()
                                                                       if v.kind == "define"], n=1)
            self.err(fname_tok, f"unknown function '{fname}'", f"did you mean '{close[0]}'?" if close else "")
        extra = BUILTIN_COST.get(fname)
        if extra is not None:   # a builtin's own work beyond its arguments (e.g. finding melds in a hand)
            self.charge(extra(self.bound()))
        return fn(self, n, args)


def inline_body(src: str) -> str | None:
    """``src`` (a definition's generated body) when it may be inlined at its uses, else None.

    Inlined: short bodies that bind no names of their own (no comprehension, so an argument's names
    cannot be captured) and hold no string literal (where a parameter's name could appear as text).
    A definition is a pure expression, so inlining it changes nothing but the cost of a call.
    """
    if len(src) > 240 or " for " in src or "lambda" in src or "'" in src or '"' in src:
        return None
    return src


_SIMPLE_ARG = re.compile(r"[\w.\[\]]+|\(-?\d+\)")


def _inline(b: Binding, args: list) -> str | None:
    """A call of definition ``b`` with argument sources ``args`` as one expression, or None."""
    if b.body is None:
        return None
    body = b.body
    subst = {}
    for name, arg in zip(b.params, args):
        if len(re.findall(rf"\b{py_param(name)}\b", body)) > 1 and not _SIMPLE_ARG.fullmatch(arg):
            return None   # an argument with work in it is not evaluated twice
        subst[py_param(name)] = arg if _SIMPLE_ARG.fullmatch(arg) else f"({arg})"
    if not subst:
        return f"({body})"
    # One pass over the body: an argument that spells another parameter's name is not replaced again.
    pat = re.compile(r"\b(" + "|".join(map(re.escape, subst)) + r")\b")
    return "(" + pat.sub(lambda m: subst[m.group(1)], body) + ")"


# ---- builtin functions -------------------------------------------------------
BUILTINS = {}
#: A builtin's own cost beyond its arguments' (which are counted as compiled), as a function of the game's
#: list bound N (``_Compiler.bound``): registered by modules whose builtins do more than one pass over a
#: list (e.g. melds_in). Builtins defined here charge their work themselves (``_Compiler.charge``).
BUILTIN_COST = {}


def builtin(*names):
    def deco(f):
        for nm in names:
            BUILTINS[nm] = f
        return f
    return deco


def _argc(comp, n, args, lo, hi=None):
    hi = lo if hi is None else hi
    if not (lo <= len(args) <= hi):
        want = f"{lo}" if lo == hi else f"{lo} to {hi}"
        comp.err(n, f"'{n.children[0]}' takes {want} argument(s), given {len(args)}")


def _seat_fn(fmt):
    def f(comp, n, args):
        _argc(comp, n, args, 1)
        a = comp.want(args[0], comp.c(args[0]), INT)
        return Code(fmt.format(a=a.src, n=comp.env.players), INT, mag=(0, 0, comp.env.players))
    return f


BUILTINS["left_of"] = _seat_fn("(({a}) + 1) % {n}")
BUILTINS["right_of"] = _seat_fn("(({a}) - 1) % {n}")
BUILTINS["partner_of"] = _seat_fn("(({a}) + {n} // 2) % {n}")
BUILTINS["across_from"] = BUILTINS["partner_of"]
BUILTINS["seat_at"] = _seat_fn("({a}) % {n}")


@builtin("abs")
def _abs(comp, n, args):
    _argc(comp, n, args, 1)
    a = comp.want(args[0], comp.c(args[0]), INT)
    return Code(f"abs({a.src})", INT, mag=a.mag)


@builtin("count")
def _count(comp, n, args):
    _argc(comp, n, args, 1)
    comp_parts = comp.comprehension(args[0])
    if comp_parts:
        _, _, clause = comp_parts
        mag = (0, 0, comp.bound_of(comp.last_coll))
        if args[0].data == "where_arg" and comp.last_where_map is not None:
            return Code(f"sum({comp.last_where_map[0]})", INT, mag=mag)
        return Code(f"sum([1 {clause}])", INT, mag=mag)
    a = comp.c(args[0])
    if elem(a.type) is None:
        comp.err(args[0], f"count needs a list or zone, found {a.type}")
    return Code(f"len({a.src})", INT, mag=(0, 0, comp.bound_of(a)))


def _aggregate(pyfn, empty):
    def f(comp, n, args):
        if len(args) >= 2 and pyfn in ("max", "min"):
            codes = [comp.want(a, comp.c(a), INT) for a in args]
            mag = tuple(max(m) for m in zip(*[c.mag or (1, 1, 0) for c in codes]))
            return Code(f"{pyfn}({', '.join(c.src for c in codes)})", INT, mag=mag)
        _argc(comp, n, args, 1)
        parts = comp.comprehension(args[0])
        if parts:
            src, t, clause = parts
            if t not in (INT, ANY):
                comp.err(args[0], f"{n.children[0]} adds up numbers, found {t}",
                         "e.g. sum(c.points for c in won[seat])")
            body = comp.last_body.mag or (1, 1, 0)
            k = comp.bound_of(comp.last_coll)
            if pyfn == "sum":
                mag = (body[0] * k, body[1], body[2] * k)
                if comp.last_map is not None:
                    return Code(f"sum({comp.last_map})", INT, mag=mag)
                return Code(f"sum([{src} {clause}])", INT, mag=mag)
            return Code(f"{pyfn}([{src} {clause}], default={empty})", INT, mag=body)
        a = comp.c(args[0])
        if elem(a.type) not in (INT, ANY):
            comp.err(args[0], f"{n.children[0]} needs a list of numbers, found {a.type}",
                     "e.g. sum(c.points for c in won[seat])")
        k = comp.bound_of(a)
        comp.charge(k)
        if pyfn == "sum":
            return Code(f"sum({a.src})", INT, mag=(k, 1, 0))
        return Code(f"{pyfn}({a.src}, default={empty})", INT)
    return f


BUILTINS["sum"] = _aggregate("sum", 0)
BUILTINS["max"] = _aggregate("max", 0)
BUILTINS["min"] = _aggregate("min", 0)


def _quant(pyfn):
    def f(comp, n, args):
        _argc(comp, n, args, 1)
        parts = comp.comprehension(args[0])
        if parts:
            src, t, clause = parts
            if args[0].data == "where_arg":
                # any(c in hand where P): is there an element satisfying P / do all satisfy P
                # Generator expressions: all/any stop at the first element that decides them.
                loop, cond = comp.last_loop, comp.last_cond
                if comp.last_where_map is not None:
                    return Code(f"{pyfn}({comp.last_where_map[0]})", BOOL)
                return Code(f"{pyfn}(({cond}) {loop})" if pyfn == "all" else f"any(True {clause})", BOOL)
            comp.want(args[0], Code(src, t), BOOL)
            return Code(f"{pyfn}({src} {clause})", BOOL)
        a = comp.c(args[0])
        if elem(a.type) not in (BOOL, ANY):
            comp.err(args[0], f"{n.children[0]} needs 'x in LIST where CONDITION'",
                     "e.g. any(c in hand where c.suit == hearts)")
        comp.charge(comp.bound_of(a))
        return Code(f"{pyfn}({a.src})", BOOL)
    return f


BUILTINS["any"] = _quant("any")
BUILTINS["all"] = _quant("all")


@builtin("filter")
def _filter(comp, n, args):
    _argc(comp, n, args, 1)
    parts = comp.comprehension(args[0])
    if not parts or args[0].data != "where_arg":
        comp.err(n, "filter takes 'x in LIST where CONDITION'", "e.g. filter(c in hand where c.suit == hearts)")
    src, t, clause = parts
    return Code(f"[{src} {clause}]", list_of(t), size=comp.bound_of(comp.last_coll))


@builtin("sort")
def _sort(comp, n, args):
    _argc(comp, n, args, 1)
    a = args[0]
    if isinstance(a, Tree) and a.data == "by_arg":
        name, coll, e = comp._binder(a.children[0])
        py, key = comp._with_local(name, e, lambda: comp.c(a.children[1]), coll)
        comp.want(a.children[1], key, INT)
        comp.charge(_sort_cost(comp.bound_of(coll)))
        return Code(f"sorted({coll.src}, key=lambda {py}: {key.src})", coll.type, size=comp.bound_of(coll))
    code = comp.c(a)
    if elem(code.type) not in (INT, CARD, ANY):
        comp.err(a, f"sort needs a list of numbers or cards, found {code.type}")
    comp.charge(_sort_cost(comp.bound_of(code)))
    if elem(code.type) == CARD:
        return Code(f"sorted({code.src}, key=SORT_KEY.__getitem__)", code.type, size=comp.bound_of(code))
    return Code(f"sorted({code.src})", code.type, size=comp.bound_of(code))


def _sort_cost(k: float) -> float:
    """Steps of sorting ``k`` items: k log2 k (at least k)."""
    import math
    return k * max(1.0, math.log2(max(k, 2.0)))


@builtin("holder")
def _holder(comp, n, args):
    _argc(comp, n, args, 2)
    z = comp.c(args[0])
    card = comp.want(args[1], comp.c(args[1]), CARD)
    if z.type != list_of(list_of(CARD)):
        comp.err(args[0], "holder(ZONE, CARD) needs a per-seat zone such as hand")
    comp.charge(comp.bound())   # every seat's cards, at most the deck
    return Code(f"_holder({z.src}, {card.src})", INT, mag=(0, 0, comp.env.players))


@builtin("strength")
def _strength(comp, n, args):
    """``strength(R)``: the strength of rank value R in this deck (its place in ``ranks:``, lowest
    first; 0 for a rank the deck lacks); ``strength(CARD)`` is ``CARD.strength`` (docs/tricks.md)."""
    _argc(comp, n, args, 1)
    a = comp.c(args[0])
    if a.type == CARD:
        return Code(f"STRENGTH[{a.src}]", INT)
    comp.want(args[0], a, INT)
    return Code(f"_rank_strength({a.src})", INT)


@builtin("top")
def _top(comp, n, args):
    _argc(comp, n, args, 1)
    z = comp.c(args[0])
    if elem(z.type) is None:
        comp.err(args[0], f"top needs a zone or list, found {z.type}")
    return Code(f"_top({z.src})", elem(z.type))


@builtin("distinct")
def _distinct(comp, n, args):
    _argc(comp, n, args, 1)
    z = comp.c(args[0])
    if elem(z.type) is None:
        comp.err(args[0], f"distinct needs a zone or list, found {z.type}")
    comp.charge(_sort_cost(comp.bound_of(z)))
    return Code(f"sorted(set({z.src}))", z.type, size=comp.bound_of(z))


def runtime_helpers() -> dict:
    """Functions the generated code calls (names start with ``_``)."""
    def _div(a, b):
        return a // b if b else 0

    def _mod(a, b):
        return a % b if b else 0

    def _at(lst, i):
        return lst[i] if 0 <= i < len(lst) else -1   # docs/dsl.md: from 0; out of range (negative too) gives -1

    def _lat(lst, i):
        return lst[i] if 0 <= i < len(lst) else NO_ZONE   # a list of lists: out of range gives an empty one

    def _seat(i, n):
        """``i`` when it is a seat (0 <= i < n) a counter of which may be changed, else ``RuleFault``."""
        if 0 <= i < n:
            return i
        raise RuleFault(f"a counter of seat {i} was changed: there is no such seat (seats are 0 to {n - 1})")

    def _holder(zone, card):
        for seat, cards in enumerate(zone):
            if card in cards:
                return seat
        return -1

    def _top(lst):
        return lst[-1] if lst else -1

    def _clamp(x, hi=INT_LIMIT, lo=-INT_LIMIT):
        return x if lo <= x <= hi else (hi if x > hi else lo)   # docs/dsl.md, "Bounds": ints saturate

    return {"_div": _div, "_mod": _mod, "_at": _at, "_lat": _lat, "_NO_ZONE": NO_ZONE, "_seat": _seat,
            "_holder": _holder, "_top": _top, "_clamp": _clamp}


def rank_strength_helper(table):
    """``_rank_strength(r)`` for generated code: ``table[r]`` for a rank value 0 … 14, else 0."""
    def _rank_strength(r):
        return table[r] if 0 <= r < len(table) else 0
    return _rank_strength


def compile_expr(text, env: Env, params: dict, want: tuple = ()) -> Code:
    """Parse and check ``text`` in ``env`` with context ``params`` (name → Binding).

    Returns the generated Python source and its type. Raises ``DslError``.
    """
    if isinstance(text, bool):
        text = "true" if text else "false"
    text = str(text)
    tree = parse(text)
    comp = _Compiler(env, params)
    try:
        code = comp.c(tree)
    except RecursionError:  # pragma: no cover - MAX_DEPTH comes first
        raise DslError("the expression is nested too deeply", 1, 1, "split it into definitions (define:)") from None
    if want and code.type not in want and code.type != ANY:
        line, col = 1, 1
        if isinstance(tree, Tree) and not tree.meta.empty:
            line, col = tree.meta.line, tree.meta.column
        raise DslError(f"expected {' or '.join(want)}, but this expression gives {code.type}", line, col)
    return code
