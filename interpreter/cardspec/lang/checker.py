"""Checking and compiling one expression: every name resolved (a context parameter, a ruleset definition,
a state slot, an option's value, a suit, rank or card literal) and every operation type-checked, in the
same walk of the tree that generates its Python source (``compile_expr``; ``_Compiler``). Only code
generated from the checked tree runs; author text is never given to ``eval``."""
from __future__ import annotations

import difflib
import re

from lark import Token, Tree

from .types import ANY, BOOL, Binding, CARD, COLOR, Code, DslError, EngineText, Env, INT, STR, SUIT, elem, list_of
from .syntax import parse
from .names import py_param
from .builtins import BUILTINS, BUILTIN_COST
from .bounds import FOLD_BUDGET, MAX_INT_BITS, _const_mag, mag_add, mag_bits, mag_mul, mag_substitute


_READS_STATE = re.compile(r"\bs\.|\(s[,)]|\bp_")


_IDENT = re.compile(r"[A-Za-z_]\w*")
_STR_LIT = re.compile(r"'[^'\\\n\"]*'")   # a plain string literal of generated code (repr of a word)


_PY_WORDS = {"and", "or", "not", "if", "else", "True", "False", "None", "in", "is"}


_SIMPLE_SRC = re.compile(r"-?\d+|p_\w+|_l\d+_\w+|s\.[zcv]\[\d+\]")   # cheap to evaluate twice, no effects


class _Compiler:
    def __init__(self, env: Env, params: dict):
        self.env = env
        self.params = params          # name -> Binding (context parameters)
        self.locals: list = []        # stack of dicts name -> Binding (comprehension variables)
        self.last_where_map = None
        self.last_where_in = None
        self._n = 0
        self._acc = [0.0]             # cost frames: each c() call adds its cost to the frame of its caller
        self.unknowns: list = []      # DslError of each unknown name met (compiling goes on: all are reported)

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
        if code.const and code.src.startswith("("):   # a folded tuple: (a, b) has 2 items, (a,) one
            src = code.src.rstrip()
            return float(max(src.count(",") + (0 if src.endswith(",)") else 1), 1))
        return self.bound()

    def fold(self, code: Code) -> Code:
        """Constant folding: a sub-expression that reads no state is computed once, at load time.

        (Options and the player count are constants of a compiled game, so
        ``if pass_to == "left" then … else …`` costs nothing during play.)
        """
        ns = self.env.ns
        if ns is None or code.type == ANY or self.unknowns:
            # (after an unknown name, which compiles to None until the error is raised, nothing is computed:
            # ``None[0]`` is no value, and Python would warn about it as it compiles)
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
        # Names outside string literals (``CODE[p_c] == 'JK'``: a card's code compared with a text is a
        # computation on the card too); a literal with a quote or backslash inside is left alone.
        bare = _STR_LIT.sub("''", code.src)
        names = set(_IDENT.findall(bare)) - _PY_WORDS
        free = [nm for nm in names if nm not in self.env.ns]
        if len(free) != 1 or re.fullmatch(r"[A-Z_]+\[\w+\]", code.src) or "'" in bare.replace("''", "") \
                or '"' in bare:
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
        ``if`` statement; independent terms of an ``or``, and of an ``and`` under ``not``, become a guard.
        """
        if isinstance(node, Tree) and node.data == "if_":
            cond = self.want(node.children[0], self.c(node.children[0]), BOOL)
            if self.independent(cond, var):
                a = self.filter_lines(node.children[1], var, lst, indent + "    ")
                b = self.filter_lines(node.children[2], var, lst, indent + "    ")
                return [f"{indent}if {cond.src}:"] + (a or [indent + "    pass"]) + \
                       [f"{indent}else:"] + (b or [indent + "    pass"])
        if isinstance(node, Tree) and node.data == "or_":
            terms = _operands(node, "or_")
            codes = [(t, self.want(t, self.c(t), BOOL)) for t in terms]
            guard = [c.src for _, c in codes if self.independent(c, var)]
            dep = [c.src for _, c in codes if not self.independent(c, var)]
            if guard and dep:
                return [f"{indent}if not ({' or '.join(guard)}):",
                        f"{indent}    {lst} = {_narrowed(var, lst, ' or '.join(dep))}"]
        if isinstance(node, Tree) and node.data == "not_" and isinstance(node.children[0], Tree) \
                and node.children[0].data == "and_":
            # not (A and B) with B independent of the item: every item holds unless B does, and then
            # the items for which A does not (lead: not (is_joker(card) and trick_number == 1)).
            terms = _operands(node.children[0], "and_")
            codes = [self.want(t, self.c(t), BOOL) for t in terms]
            guard = [c.src for c in codes if self.independent(c, var)]
            dep = [c.src for c in codes if not self.independent(c, var)]
            if guard and dep:
                return [f"{indent}if {' and '.join(guard)}:",
                        f"{indent}    {lst} = [{var} for {var} in {lst} if not ({' and '.join(dep)})]"]
        code = self.want(node, self.c(node), BOOL)
        if code.src == "True":
            return []
        if self.independent(code, var):
            return [f"{indent}if not ({code.src}):", f"{indent}    {lst} = []"]
        m = re.fullmatch(rf"\(*{re.escape(var)} == (\d+|s\.v\[\d+\]|v\[\d+\])\)*", code.src)
        t = re.fullmatch(rf"(_T\d+)\[{re.escape(var)}\]", code.src)
        if t and code.type == BOOL:   # a tabulated condition true for one face only: that card
            hits = [f for f, x in enumerate(self.env.ns[t.group(1)][:-1]) if x]
            if len(hits) == 1:
                m = re.fullmatch(r"(\d+)", str(hits[0]))
        if m:   # one card named (a number or a slot): its copies, counted in C (no per-card Python)
            return [f"{indent}{lst} = [{m.group(1)}] * {lst}.count({m.group(1)})"]
        x = re.fullmatch(rf"\(*{re.escape(var)} != (s\.v\[\d+\]|v\[\d+\]|\d+)\)*", code.src)
        if x:   # every item but one value (a slot or a number): a pass over the list only when it holds it
            return [f"{indent}if {x.group(1)} in {lst}:",
                    f"{indent}    {lst} = [{var} for {var} in {lst} if {code.src}]"]
        return [f"{indent}{lst} = {_narrowed(var, lst, code.src)}"]

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

    def raise_unknowns(self):
        """Raise the first unknown name met, the others in its ``more`` (issue 20 item 6: all are reported)."""
        if self.unknowns:
            first = self.unknowns[0]
            first.more = self.unknowns[1:]
            raise first

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
        if b is None:   # recorded; the rest of the expression is still checked for more unknown names
            try:
                self.unknown(tok, str(tok))
            except DslError as e:
                if all(u.message != e.message for u in self.unknowns):
                    self.unknowns.append(e)
            return Code("None", ANY)
        if b.kind == "fn":
            self.err(tok, f"'{tok}' is a function: call it as {tok}(…)")
        if b.kind == "define":
            if b.params:
                self.err(tok, f"'{tok}' takes {len(b.params)} argument(s): {tok}({', '.join(b.params)})")
            self.charge(b.cost)
            if b.body is not None:
                return Code(f"({b.body})", b.type, values=b.values, size=b.size, mag=b.mag)
            return Code(f"{b.src}(s)", b.type, size=b.size, mag=b.mag)
        return Code(b.src, b.type, b.const, values=b.values, size=b.size, mag=b.mag)

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
        self._bits_ok(n, mag)
        return Code(f"({a.src} {op} {b.src})", INT, const, mag=mag)

    def _bits_ok(self, n, mag):
        """Refuse (``DslError`` at ``n``) an int whose magnitude bound passes ``MAX_INT_BITS`` bits: its
        evaluation could take time and memory without bound (docs/dsl.md, "Bounds")."""
        bits = mag_bits(mag)
        if bits > MAX_INT_BITS:
            self.err(n, f"this value may need up to {bits:,} bits, more than the {MAX_INT_BITS:,} an expression "
                        "may compute (each product of large values doubles the bits)",
                     "products of products (d2 = d1 * d1, …) grow without bound: store an intermediate "
                     "value (a var or counter saturates at 2^53 - 1) or compute less")

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
            if attr == "suit" and self.env.dynamic_suit:
                return Code(f"EFF[{a.src}]", t)   # the suit this deal gives the card (the state's table)
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
            if a.src in self.env.seat_zones:
                # A per-seat zone holds one pile per seat, always: the bound is the player count (a
                # constant of the game), and an index whose values are all seats needs no check.
                n = self.env.players
                most = self.env.pile_max.get(a.src)   # a per-seat zone's max: (one seat's pile)
                if i.values is not None and i.values and all(0 <= x < n for x in i.values):
                    return Code(f"{a.src}[{i.src}]", e, size=most)
                if _SIMPLE_SRC.fullmatch(i.src):
                    return Code(f"({a.src}[{i.src}] if 0 <= {i.src} < {n} else _NO_ZONE)", e, size=most)
            most = self.env.pile_max.get(a.src)
            if _SIMPLE_SRC.fullmatch(i.src) and _SIMPLE_SRC.fullmatch(a.src):
                return Code(f"({a.src}[{i.src}] if 0 <= {i.src} < len({a.src}) else _NO_ZONE)", e, size=most)
            return Code(f"_lat({a.src}, {i.src})", e, size=most)
        if a.const and i.values is not None and a.src.startswith("("):
            try:
                size = len(eval(a.src, {}))   # noqa: S307 - a folded constant tuple of the checked tree
            except Exception:  # noqa: BLE001
                size = -1
            if i.values and all(0 <= x < size for x in i.values):   # always in range: plain indexing
                return Code(f"{a.src}[{i.src}]", e)
        if a.src in self.env.seat_counters and i.values and all(0 <= x < self.env.players for x in i.values):
            # a counter holds one value per seat, always: a seat loop's variable (p in seats) is in range
            return Code(f"{a.src}[{i.src}]", e)
        if _SIMPLE_SRC.fullmatch(i.src) and _SIMPLE_SRC.fullmatch(a.src):   # checked inline, as above
            return Code(f"({a.src}[{i.src}] if 0 <= {i.src} < len({a.src}) else -1)", e)
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
        n = self.env.players
        # a variable going through the seats (p in seats) takes the seat numbers only: its values are known
        seats = frozenset(range(n)) if coll is not None and n > 0 and coll.src in (f"range({n})", repr(tuple(range(n)))) \
            else None
        self.locals.append({name: Binding(py, t, values=seats)})
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
            self.last_where_in = _where_in(py, coll.src, cond.src)
            side = self._side_seats(py, coll, cond)
            if side is not None:
                self.last_where_map = self.last_where_in = None
                return py, e, side
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
            if cond is not None:
                clause = self._side_seats(py, coll, cond) or clause
            # `TABLE[x] for x in L` with no condition: map(TABLE.__getitem__, L) needs no Python frame
            m = re.fullmatch(rf"([A-Z_]+)\[{re.escape(py)}\]", b.src) if cond is None else None
            self.last_map = f"map({m.group(1)}.__getitem__, {coll.src})" if m else None
            return b.src, b.type, clause
        return None

    def _side_seats(self, py, coll, cond):
        """``for p in seats where on_declarer_side(p)`` (docs/sides.md) as ``for p in _sides_team(s)``: the
        declarer and the partner in seat order, found once, instead of asking each seat (each asking finds
        the declarer and looks for the called card again). Else None."""
        seats = self.env.names.get("seats")
        if (cond.src != f"_sides_side(s, {py})" or seats is None
                or coll.src not in (seats.src, repr(tuple(range(self.env.players))))):
            return None
        return f"for {py} in _sides_team(s)"

    def r_call(self, n):
        fname_tok = n.children[0]
        fname = str(fname_tok)
        args = n.children[1:]
        b = self.resolve(fname)
        if b is not None and b.kind == "define":
            if len(args) != len(b.params):
                self.err(n, f"'{fname}' takes {len(b.params)} argument(s), given {len(args)}")
            srcs, mags = [], []
            for a, t in zip(args, b.param_types):
                code = self.c(a)
                self.want(a, code, t)
                srcs.append(code.src)
                if code.type == INT:
                    mags.append(code.mag)
            self.charge(b.cost)
            # (the body's bound holds for inputs of a state value's size; larger arguments raise it)
            mag = mag_substitute(b.mag, mags) if b.type == INT and mags else b.mag
            if mag is not b.mag:
                self._bits_ok(n, mag)
            inline = _inline(b, srcs)
            if inline is not None:
                return Code(inline, b.type, size=b.size, mag=mag)
            return Code(f"{b.src}(s, {', '.join(srcs)})", b.type, size=b.size, mag=mag)
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


#: A value that is evaluated once instead of once per element by ``_where_in`` without any change: it
#: cannot fail and reads nothing the loop changes (a table entry of a parameter or of an outer loop's
#: item, a state slot, a number).
_ONCE_SAFE = re.compile(r"[A-Z_][A-Z0-9_]*\[(?:p_\w+|_l\d+_\w+)\]|s\.v\[\d+\]|-?\d+")


def _operands(node, op: str) -> list:
    """The operands of a chain of ``op`` (``or_``, ``and_``) nodes, left to right: ``a or b or c`` → [a, b, c]."""
    if isinstance(node, Tree) and node.data == op:
        return _operands(node.children[0], op) + _operands(node.children[1], op)
    return [node]


def _where_in(py: str, coll: str, cond: str):
    """For ``any(x in L where T[x] == E)`` (E not reading ``x``): ``E in map(T.__getitem__, L)``, the
    same truth value with the loop in C (``in`` compares with ``==`` and stops at the first match;
    ``E`` is one of ``_ONCE_SAFE``, so evaluating it once, even for an empty ``L``, changes nothing).
    None for any other condition."""
    item = rf"([A-Z_][A-Z0-9_]*)\[{re.escape(py)}\]"
    m = re.fullmatch(rf"\(?{item} == (.+?)\)?", cond)
    if m is not None:
        table, other = m.group(1), m.group(2)
    else:
        m = re.fullmatch(rf"\(?(.+?) == {item}\)?", cond)
        if m is None:
            return None
        other, table = m.group(1), m.group(2)
    if not _ONCE_SAFE.fullmatch(other) or re.search(rf"\b{re.escape(py)}\b", other):
        return None
    return f"({other} in map({table}.__getitem__, {coll}))"


def _narrowed(var: str, lst: str, cond: str) -> str:
    """The items ``var`` of list ``lst`` for which ``cond`` holds, in order: a tabulated condition of the
    item (``_T4[p_card]``, a table of the game made at load) as the table's look-up called by ``filter``
    (no comprehension's frame, no Python per item), anything else as a comprehension."""
    t = re.fullmatch(rf"\(*(_T\d+)\[{re.escape(var)}\]\)*", cond)
    if t and cond.count("(") == cond.count(")"):
        return f"list(filter({t.group(1)}.__getitem__, {lst}))"
    return f"[{var} for {var} in {lst} if {cond}]"


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


def compile_expr(text, env: Env, params: dict, want: tuple = ()) -> Code:
    """Parse and check ``text`` in ``env`` with context ``params`` (name → Binding).

    Returns the generated Python source and its type. Raises ``DslError``.
    """
    if isinstance(text, bool):
        text = "true" if text else "false"
    if isinstance(text, EngineText):   # the engine's own default: its names, not the ruleset's
        env = env.engine_view()
    elif env.hides:   # a name the ruleset declares means its declaration, even over a step's parameter
        params = {k: b for k, b in params.items() if k not in env.hides}
    text = str(text)
    tree = parse(text)
    comp = _Compiler(env, params)
    try:
        code = comp.c(tree)
    except RecursionError:  # pragma: no cover - MAX_DEPTH comes first
        raise DslError("the expression is nested too deeply", 1, 1, "split it into definitions (define:)") from None
    except DslError:
        comp.raise_unknowns()   # what follows an unknown name may fail only because of it
        raise
    comp.raise_unknowns()
    if want and code.type not in want and code.type != ANY:
        line, col = 1, 1
        if isinstance(tree, Tree) and not tree.meta.empty:
            line, col = tree.meta.line, tree.meta.column
        raise DslError(f"expected {' or '.join(want)}, but this expression gives {code.type}", line, col)
    return code
