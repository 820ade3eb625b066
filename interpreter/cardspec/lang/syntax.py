"""Parsing an expression: the LALR grammar in ``grammar.lark`` (lark), tried after the hand-written
``fastparse`` (the same trees, faster), the bounds on length and nesting, and syntax errors worded for
an author (``DslError`` with line, column and a hint)."""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .fastparse import parse as fast_parse
from .types import DslError


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
        missing = _missing_if_word(text, _offset_of(text, tok.line, tok.column), e.expected)
        if missing and str(tok) != "=":
            raise DslError(f"missing '{missing}' before '{tok}'", tok.line, tok.column, IF_FORM) from None
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
    missing = _missing_if_word(text, len(text), expected)
    if missing:
        return f"missing '{missing}': the expression ends too early", line, col, IF_FORM
    return "the expression ends too early", line, col, _expected_hint(expected)


IF_FORM = "an if-expression is: if CONDITION then VALUE else VALUE"
_STRING = re.compile(r'"[^"]*"|\'[^\']*\'')
_IF_WORD = re.compile(r"(?<![A-Za-z0-9_.])(if|then|else)(?![A-Za-z0-9_])")


def _missing_if_word(text: str, offset: int, expected) -> str:
    """``then`` or ``else`` when the innermost ``if`` before ``offset`` still lacks it and the parser could
    take it there (issue 20 item 6: "if a 10 else 2" said only "unexpected '10'"), else ``""``."""
    expected = set(expected or ())
    open_ifs = []   # per open if: the word it waits for
    for m in _IF_WORD.finditer(_STRING.sub(lambda q: " " * len(q.group(0)), text[:offset])):
        w = m.group(1)
        if w == "if":
            open_ifs.append("then")
        elif open_ifs and w == open_ifs[-1] == "then":
            open_ifs[-1] = "else"
        elif open_ifs and w == "else" and open_ifs[-1] == "else":
            open_ifs.pop()
    if open_ifs and open_ifs[-1].upper() in expected:
        return open_ifs[-1]
    return ""


def _offset_of(text: str, line: int, col: int) -> int:
    """The 0-based offset of 1-based ``line``/``col`` in ``text``."""
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    return starts[min(max(line, 1), len(starts)) - 1] + max(col, 1) - 1


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
