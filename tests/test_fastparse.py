"""The hand-written expression parser (cardspec/lang/fastparse.py) builds lark's trees exactly.

dsl.parse uses it first and lark only when it declines, so a tree that differs (a node, a
token type, a position used by an error message) would change compiled code or error
positions. Compared here: every expression of every built-in ruleset, texts generated from
the grammar (docs/dsl.md) with random spacing and line breaks, and mutated texts (where the
fast parser must decline whatever lark rejects).
"""
import random

import pytest
from lark import Token, Tree
from lark.exceptions import UnexpectedInput

import cardspec
from cardspec.lang import fastparse as _fastparse, syntax as dsl
from cardspec.rules import builtin_names


def _assert_same(a, b, path="tree"):
    if isinstance(a, Tree):
        assert isinstance(b, Tree), path
        assert (a.data, len(a.children)) == (b.data, len(b.children)), path
        assert vars(a.meta) == vars(b.meta), f"{path} ({a.data}): meta"
        for i, (x, y) in enumerate(zip(a.children, b.children)):
            _assert_same(x, y, f"{path}/{i}")
    else:
        assert type(b) is Token and (a.type, str(a)) == (b.type, str(b)), f"{path}: {a!r} {b!r}"
        for f in ("start_pos", "line", "column", "end_line", "end_column", "end_pos"):
            assert getattr(a, f) == getattr(b, f), f"{path}: {f}"


def _builtin_texts(monkeypatch):
    texts = set()
    real = _fastparse.parse

    def record(text):
        texts.add(text)
        return real(text)

    monkeypatch.setattr(dsl, "fast_parse", record)
    dsl.parse.cache_clear()
    try:
        for name in builtin_names():
            cardspec.load(name)
    finally:
        dsl.parse.cache_clear()
    return sorted(texts)


def test_builtin_expressions_parse_to_lark_trees(monkeypatch):
    texts = _builtin_texts(monkeypatch)
    assert len(texts) > 100
    for text in texts:
        fast = _fastparse.parse(text)
        assert fast is not None, text
        _assert_same(dsl.parser().parse(text), fast, text)


_WS = [" ", " ", " ", "", "  ", "\n", "\n  ", "\t", " \r\n "]


def _gen(rng, depth=0):
    """A random text of the grammar (grammar.lark), as a list of pieces."""
    leaf = depth > 3 or rng.random() < 0.3
    if leaf:
        return [rng.choice(["1", "42", "hand", "x_1", "AS", "10H", "JK", "2C", "true", "false", "'a b'", '"q"',
                            "iff", "notx", "ASx", "JKS", "in_"])]
    k = rng.randrange(17)
    sub = lambda: _gen(rng, depth + 1)  # noqa: E731
    if k == 0:
        return ["if"] + sub() + ["then"] + sub() + ["else"] + sub()
    if k == 1:
        return sub() + [rng.choice(["or", "and"])] + sub()
    if k == 2:
        return ["not"] + sub()
    if k == 3:
        return sub() + [rng.choice(["==", "!=", "<=", ">=", "<", ">", "in"])] + sub()
    if k == 4:
        return sub() + ["not", "in"] + sub()
    if k == 5:
        return sub() + [rng.choice(["+", "-", "*", "/", "%"])] + sub()
    if k == 6:
        return ["-"] + sub()
    if k == 7:
        return sub() + [".", rng.choice(["rank", "suit", "x"])]
    if k == 8:
        return sub() + ["["] + sub() + ["]"]
    if k == 9:
        return ["("] + sub() + [")"]
    if k == 10:
        items = [sub() for _ in range(rng.randrange(3))]
        out = ["["]
        for i, it in enumerate(items):
            out += ([","] if i else []) + it
        return out + ["]"]
    args = []
    for _ in range(rng.randrange(4)):
        a = sub()
        form = rng.randrange(6)
        if form == 1:
            a += ["where"] + sub()
        elif form == 2:
            a += ["for", "c", "in"] + sub()
        elif form == 3:
            a += ["for", "c", "in"] + sub() + ["where"] + sub()
        elif form == 4:
            a += ["by"] + sub()
        args.append(a)
    out = [rng.choice(["f", "count", "sum"]), "("]
    for i, a in enumerate(args):
        out += ([","] if i else []) + a
    return out + [")"]


def _join(rng, pieces):
    out = []
    for i, p in enumerate(pieces):
        sep = rng.choice(_WS)
        if i and not sep and (p[0].isalnum() or p[0] in "_'\"") and (out[-1][-1].isalnum() or out[-1][-1] in "_'\""):
            sep = " "
        out.append(sep + p if i else p)
    return "".join(out)


def _lark(text):
    try:
        return dsl.parser().parse(text)
    except UnexpectedInput:
        return None


@pytest.mark.parametrize("seed", range(4))
def test_generated_and_mutated_texts_agree_with_lark(seed):
    rng = random.Random(seed)
    accepted = 0
    for _ in range(300):
        pieces = _gen(rng)
        text = _join(rng, pieces)
        mutants = [text]
        for _ in range(3):   # drop, duplicate or swap in a piece: often invalid, sometimes another valid text
            m = list(pieces)
            j = rng.randrange(len(m))
            op = rng.randrange(3)
            if op == 0:
                del m[j]
            elif op == 1:
                m.insert(j, m[j])
            else:
                m[j] = rng.choice(["if", "in", "not", "-", ".", "(", ")", "=", "!", "for", "AS", "1", ","])
            mutants.append(_join(rng, m) if m else "")
        for i, t in enumerate(mutants):
            fast, slow = _fastparse.parse(t), _lark(t)
            if fast is not None:
                assert slow is not None, f"fast parser accepted what lark rejects: {t!r}"
                _assert_same(slow, fast, t)
                accepted += 1
            elif i == 0 and slow is not None:
                # a generated text lark accepts must be accepted (else the speed-up silently stops), unless
                # lark read a keyword as a name where no keyword fits (`a + not (b)`: a call of 'not')
                assert any(str(tok) in _fastparse._KEYWORDS for tok in slow.scan_values(lambda v: True)), \
                    f"fast parser declined a valid text: {t!r}"
    assert accepted > 300
