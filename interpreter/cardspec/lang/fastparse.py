"""A hand-written parser for the expression grammar (grammar.lark) that builds the same trees as lark.

``parse(text)`` returns exactly the ``lark.Tree`` that ``Lark(grammar, parser="lalr",
propagate_positions=True, maybe_placeholders=False).parse(text)`` returns — same node
names, children, ``Token`` types, values and positions, and the same ``meta`` (line,
column, start/end positions and lark's ``container_*`` positions of parenthesised nodes)
— or ``None`` whenever the text is not plainly valid (any unexpected character or token,
a keyword where a name would be read, a card name after ``.`` …). The caller then parses
with lark, which gives the tree or the precise error. It is about ten times faster than
lark on ruleset expressions; tests/test_fastparse.py compares both on every built-in
expression and on generated texts.
"""
from __future__ import annotations

import re

from lark import Token, Tree
from lark.tree import Meta

_TOKEN = re.compile(r"""
    (?P<ws>[ \t\f\r\n]+)
  | (?P<CARD>(?:10|[2-9TJQKA])[SHDC](?![A-Za-z0-9_])|JK(?![A-Za-z0-9_]))
  | (?P<INT>[0-9]+)
  | (?P<NAME>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<STRING>"[^"\n]*"|'[^'\n]*')
  | (?P<COMP_OP>==|!=|<=|>=|<|>)
  | (?P<ADD_OP>[+-])
  | (?P<MUL_OP>[*/%])
  | (?P<punct>[.\[\](),])
  | (?P<bad>[\s\S])
""", re.VERBOSE)

_KEYWORDS = frozenset(["if", "then", "else", "or", "and", "not", "in", "true", "false", "where", "for", "by"])


class _Bail(Exception):
    pass


def _lex(text: str):
    """Tokens ``(kind, value, start, line, column)``; kind is a terminal name, a keyword or a punctuation
    character (``-`` is ``ADD_OP`` here; the parser reads it as negation in operand position)."""
    out = []
    append = out.append
    line, line_start = 1, 0
    for m in _TOKEN.finditer(text):   # every character starts a match (the last group is "bad")
        kind = m.lastgroup
        value = m.group()
        pos = m.start()
        if kind == "ws":
            if "\n" in value:
                line += value.count("\n")
                line_start = pos + value.rfind("\n") + 1
            continue
        if kind == "NAME":
            if value in _KEYWORDS:
                kind = value
        elif kind == "punct":
            kind = value
        elif kind == "bad":
            raise _Bail
        append((kind, value, pos, line, pos - line_start + 1))
    n = len(text)
    append(("$END", "", n, line, n - line_start + 1))
    return out


_new_token = Token._future_new   # Token(...) without the deprecation-argument check


def _tok(t) -> Token:
    kind, value, start, line, col = t
    return _new_token(kind, value, start, line, col, line, col + len(value), start + len(value))


# positions of a child: a Token (named or not, as a tuple) or a Tree (its container span)
def _start(x):
    if isinstance(x, tuple):
        return x[3], x[4], x[2]
    if isinstance(x, Token):
        return x.line, x.column, x.start_pos
    m = x.meta
    return m.container_line, m.container_column, m.container_start_pos


def _end(x):
    if isinstance(x, tuple):
        n = len(x[1])
        return x[3], x[4] + n, x[2] + n
    if isinstance(x, Token):
        return x.end_line, x.end_column, x.end_pos
    m = x.meta
    return m.container_end_line, m.container_end_column, m.container_end_pos


def _node(data, children, first, last) -> Tree:
    m = Meta()
    m.line, m.column, m.start_pos = m.container_line, m.container_column, m.container_start_pos = _start(first)
    m.empty = False
    m.end_line, m.end_column, m.end_pos = m.container_end_line, m.container_end_column, m.container_end_pos = \
        _end(last)
    return Tree(data, children, m)


class _Parser:
    __slots__ = ("toks", "i")

    def __init__(self, toks):
        self.toks = toks
        self.i = 0

    def peek(self):
        return self.toks[self.i][0]

    def take(self, kind):
        t = self.toks[self.i]
        if t[0] != kind:
            raise _Bail
        self.i += 1
        return t

    # ?expr: "if" expr "then" expr "else" expr -> if_ | or_expr
    def expr(self):
        if self.peek() == "if":
            first = self.take("if")
            c = self.expr()
            self.take("then")
            a = self.expr()
            self.take("else")
            b = self.expr()
            return _node("if_", [c, a, b], first, b)
        return self.or_expr()

    def or_expr(self):
        left = self.and_expr()
        while self.toks[self.i][0] == "or":
            self.i += 1
            right = self.and_expr()
            left = _node("or_", [left, right], left, right)
        return left

    def and_expr(self):
        left = self.not_expr()
        while self.toks[self.i][0] == "and":
            self.i += 1
            right = self.not_expr()
            left = _node("and_", [left, right], left, right)
        return left

    def not_expr(self):
        if self.peek() == "not":
            first = self.take("not")
            x = self.not_expr()
            return _node("not_", [x], first, x)
        return self.comparison()

    def comparison(self):
        left = self.sum()
        k = self.peek()
        if k == "COMP_OP":
            op = _tok(self.take(k))
            right = self.sum()
            return _node("compare", [left, op, right], left, right)
        if k == "in":
            self.i += 1
            right = self.sum()
            return _node("in_", [left, right], left, right)
        if k == "not":
            self.i += 1
            self.take("in")
            right = self.sum()
            return _node("not_in", [left, right], left, right)
        return left

    def sum(self):
        left = self.product()
        while self.toks[self.i][0] == "ADD_OP":
            op = _tok(self.take("ADD_OP"))
            right = self.product()
            left = _node("binop", [left, op, right], left, right)
        return left

    def product(self):
        left = self.unary()
        while self.toks[self.i][0] == "MUL_OP":
            op = _tok(self.take("MUL_OP"))
            right = self.unary()
            left = _node("binop", [left, op, right], left, right)
        return left

    def unary(self):
        t = self.toks[self.i]
        if t[0] == "ADD_OP" and t[1] == "-":
            self.i += 1
            x = self.unary()
            return _node("neg", [x], t, x)
        x = self.atom()
        toks = self.toks
        while True:   # postfix: .NAME and [index]
            k = toks[self.i][0]
            if k == ".":
                self.i += 1
                name = _tok(self.take("NAME"))
                x = _node("attr", [x, name], x, name)
            elif k == "[":
                self.i += 1
                e = self.expr()
                last = self.take("]")
                x = _node("index", [x, e], x, last)
            else:
                return x

    def atom(self):
        t = self.toks[self.i]
        k = t[0]
        if k == "INT":
            self.i += 1
            tok = _tok(t)
            return _node("int_", [tok], tok, tok)
        if k == "CARD":
            self.i += 1
            tok = _tok(t)
            return _node("card", [tok], tok, tok)
        if k == "STRING":
            self.i += 1
            tok = _tok(t)
            return _node("string", [tok], tok, tok)
        if k == "true" or k == "false":
            self.i += 1
            return _node(k, [], t, t)
        if k == "NAME":
            self.i += 1
            tok = _tok(t)
            if self.peek() != "(":
                return _node("name", [tok], tok, tok)
            self.i += 1
            args = [tok]
            if self.peek() != ")":
                args.append(self.arg())
                while self.peek() == ",":
                    self.i += 1
                    args.append(self.arg())
            last = self.take(")")
            return _node("call", args, tok, last)
        if k == "[":
            self.i += 1
            items = []
            if self.peek() != "]":
                items.append(self.expr())
                while self.peek() == ",":
                    self.i += 1
                    items.append(self.expr())
            last = self.take("]")
            return _node("list_", items, t, last)
        if k == "(":
            self.i += 1
            x = self.expr()
            last = self.take(")")
            m = x.meta   # lark keeps the node's own span and records the brackets as its container
            m.container_line, m.container_column, m.container_start_pos = _start(t)
            m.container_end_line, m.container_end_column, m.container_end_pos = _end(last)
            return x
        raise _Bail

    # ?arg: expr | expr "where" expr | expr "for" NAME "in" or_expr ["where" expr] | expr "by" expr
    def arg(self):
        e = self.expr()
        k = self.peek()
        if k == "where":
            self.i += 1
            w = self.expr()
            return _node("where_arg", [e, w], e, w)
        if k == "by":
            self.i += 1
            b = self.expr()
            return _node("by_arg", [e, b], e, b)
        if k == "for":
            self.i += 1
            name = _tok(self.take("NAME"))
            self.take("in")
            src = self.or_expr()
            if self.peek() == "where":
                self.i += 1
                w = self.expr()
                return _node("for_where_arg", [e, name, src, w], e, w)
            return _node("for_arg", [e, name, src], e, src)
        return e


def parse(text: str) -> Tree | None:
    """The lark tree of ``text``, or ``None`` when this parser does not accept it (then ask lark)."""
    try:
        p = _Parser(_lex(text))
        tree = p.expr()
        if p.peek() != "$END":
            return None
        return tree
    except (_Bail, RecursionError):
        return None
