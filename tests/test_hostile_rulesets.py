"""Author text never becomes code except through the expression compiler (issue 16, Found 1 / Deliver 1).

Every YAML field whose text reaches the generated Python (names of zones, counters, vars, options,
definitions and their parameters, action parameters, ``for_each``'s ``as:``, event types and field
names) is given hostile strings (newlines, quotes, ``__import__('os')…``, dunders, keywords, unicode,
very long text) in a ruleset that ``extends:`` a built-in; each must be a ``RulesetError`` at the
file:line:col of the text, and the canary file the strings try to write must never appear. Names
that are valid for the language but are Python words (``lambda``, ``import``) must work: the engine
mangles every name it puts in code.
"""
from __future__ import annotations

import json
import re

import pytest

import cardspec
from cardspec.errors import RulesetError
from cardspec.rules import read_ruleset


def hostile_strings(canary) -> list:
    """Strings that would run code, break a line, or alias a name if pasted into Python source."""
    c = str(canary)
    return [
        f"x in []: pass\n__import__('os').system('touch {c}')\nwhile -1",
        f"__import__('os').system('touch {c}')",
        f"x = open({c!r}, 'w')",
        f"x\nopen({c!r}, 'w')",
        f"x'); open({c!r}, 'w'); ('",
        f'x"); open({c!r}, "w"); ("',
        f"x):\n    open({c!r}, 'w')\ndef y(",
        f"x, s=open({c!r}, 'w')",
        f"x#",
        "x\n",
        "\nx",
        "x\r",
        "x\x00",
        "x\u200b",        # a zero-width space
        "\uff58",         # a fullwidth x: NFKC turns it into x in Python source
        "é",
        "ﬁ",              # NFKC: fi
        "__class__",
        "__builtins__",
        "__import__",
        "1x",
        "",
        " ",
        "x y",
        "x-y",
        "x.y",
        "x[0]",
        "where",          # words of the expression language
        "if",
        "true",
        "a" * 5000,
    ]


#: Valid names that are Python words or builtins: harmless once mangled (p_lambda, _d_import).
PYTHON_WORDS = ["lambda", "import", "class", "None", "True", "def", "s", "p_x", "_l1_x", "len", "eval"]

#: field -> a ruleset (extends red-dog) with NAME where the hostile text goes; {q} is NAME quoted for YAML.
FIELDS = {
    "for_each.as": """\
extends: red-dog
deal:
  - id: hostile
    after: ante
    do:
      - for_each: {{as: {q}, do: [{{add: {{to: pot, value: 1}}}}]}}
""",
    "action.params": """\
extends: red-dog
actions:
  raise:
    params: {{{q}: {{number: {{min: 0, max: 1}}}}}}
""",
    "define.name": """\
extends: red-dog
define: {{{q}: "1"}}
""",
    "define.param": """\
extends: red-dog
define: {{{qf}: "1"}}
""",
    "zones": """\
extends: red-dog
zones: {{{q}: {{visibility: all}}}}
""",
    "counters": """\
extends: red-dog
counters: {{{q}: {{per: match}}}}
""",
    "vars": """\
extends: red-dog
vars: {{{q}: 0}}
""",
    "options": """\
extends: red-dog
options: {{{q}: {{type: int, default: 1}}}}
""",
    "set": """\
extends: red-dog
deal:
  - id: hostile
    after: ante
    do: [{{set: {{{q}: 1}}}}]
""",
    "transfer.moved": """\
extends: red-dog
deal:
  - id: hostile
    after: ante
    do: [{{transfer: {{from: pot, to: bet, value: 1, moved: {q}}}}}]
""",
    "emit.type": """\
extends: red-dog
deal:
  - id: hostile
    after: ante
    do: [{{emit: {{type: {q}, pot: pot}}}}]
""",
    "emit.field": """\
extends: red-dog
deal:
  - id: hostile
    after: ante
    do: [{{emit: {{type: bonus, {q}: pot}}}}]
""",
    "reveal.field": """\
extends: red-dog
deal:
  - id: hostile
    after: ante
    do: [{{reveal: {{cards: third, {q}: pot}}}}]
""",
}


def _write(tmp_path, field, name, i=0):
    quoted = json.dumps(name)   # a JSON string is a YAML double-quoted scalar
    text = FIELDS[field].format(q=quoted, qf=json.dumps(f"f({name})"))
    path = tmp_path / f"hostile-{field}-{i}.yaml"
    path.write_text(text, encoding="utf-8")
    line = next(n for n, ln in enumerate(text.splitlines(), 1) if quoted in ln or json.dumps(f"f({name})") in ln)
    return path, line


def _load(path):
    rs = read_ruleset(str(path))
    lo, _ = rs.players
    return cardspec.load(rs, players=lo)


#: Fields that are data keys, not names of the language (an event's type and field names): any text
#: matching these is accepted (as a repr'd constant), keywords and dunders included.
DATA_KEYS = {"emit.type": re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}\Z"),
             "emit.field": re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}\Z"),
             "reveal.field": re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}\Z"),
             "define.param": re.compile(r" *\Z")}   # f() and f( ): no parameter


@pytest.mark.parametrize("field", sorted(FIELDS))
def test_hostile_text_in_a_name_field_is_a_ruleset_error_and_runs_nothing(tmp_path, field):
    canary = tmp_path / "CANARY"
    for i, name in enumerate(hostile_strings(canary)):
        path, line = _write(tmp_path, field, name, i)
        if field in DATA_KEYS and DATA_KEYS[field].match(name):
            _load(path).new_state(seed=1)
            assert not canary.exists()
            continue
        with pytest.raises(RulesetError) as info:
            _load(path)
        assert not canary.exists(), f"{field} = {name!r} ran code"
        problems = info.value.problems
        assert problems, (field, name)
        here = [p for p in problems if str(p.file).endswith(path.name)]
        assert here, f"{field} = {name!r}: no problem in the file: {info.value}"
        assert all(p.line >= 1 and p.col >= 1 for p in here)
        assert any(p.line == line for p in here), f"{field} = {name!r}: {info.value}"
        assert "UnsafeName" not in str(info.value), "the name check must come before code generation"
    assert not canary.exists()


@pytest.mark.parametrize("field", ["for_each.as", "action.params", "define.name", "define.param", "zones",
                                   "counters", "vars", "options"])
def test_python_words_are_plain_names_once_mangled(tmp_path, field):
    """A name that is a Python keyword or builtin (but a name of the language) is accepted and harmless."""
    for i, name in enumerate(PYTHON_WORDS):
        path, _ = _write(tmp_path, field, name, i)
        if field == "action.params" and name == "s":
            with pytest.raises(RulesetError):   # `s` and `seat` name the acting seat
                _load(path)
            continue
        game = _load(path)
        state = game.new_state(seed=1)
        for _ in range(40):
            if state.terminal:
                break
            state.apply(state.legal_actions()[-1])


def test_issue_16_reproduction_runs_nothing(tmp_path, monkeypatch):
    """issue 16, Found 1, exactly: this file, given to `cardspec validate`, ran a shell command."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "pwn.yaml"
    path.write_text("""\
deal:
  - do:
      - for_each:
          as: "x in []: pass\\n__import__('os').system('id > PWNED')\\nwhile -1"
          do: [{add: {counter: score, value: 1, seat: x}}]
""", encoding="utf-8")
    from cardspec.cli import main
    with pytest.raises(SystemExit) as code:
        main(["validate", str(path)])
    assert code.value.code == 1
    assert not (tmp_path / "PWNED").exists()
    child = tmp_path / "pwn-red-dog.yaml"   # the same under a built-in (as the mutation fuzzer met it)
    child.write_text("extends: red-dog\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        _load(child)
    assert not (tmp_path / "PWNED").exists()
    assert any((p.line, p.col) == (5, 15) and "as:" in p.message for p in info.value.problems), str(info.value)


def test_hostile_text_in_data_fields_stays_data(tmp_path):
    """Free text (an end reason, an option's text value, an action's text) reaches code only as a repr'd
    constant: any string is accepted and comes back verbatim."""
    canary = tmp_path / "CANARY"
    for i, text in enumerate(hostile_strings(canary)[:8] + ["'''", '"""', "\\", "{0}", "%s"]):
        path = tmp_path / f"data-{i}.yaml"
        path.write_text(f"""\
extends: red-dog
options:
  greeting: {{type: str, default: {json.dumps(text)}}}
deal:
  - id: ante
    do:
      - emit: {{type: hello, text: greeting}}
  - id: turns
    turns: {{until: "true", until_reason: {json.dumps(text)}}}
""", encoding="utf-8")
        state = _load(path).new_state(seed=1)
        events = [e for e in state.log(None) if e.get("type") == "hello"]
        assert events and events[0]["text"] == text
        assert state.terminal
        over = [e for e in state.log(None) if e.get("type") == "game_over"]
        assert over and over[0].get("reason") == text, over
    assert not canary.exists()


def test_generated_code_cannot_reach_python(tmp_path):
    """The last line of defence (_compile.check_generated) refuses source that is not one plain function of
    the checked names, and the namespace's builtins hold no import, open, eval or getattr."""
    from cardspec.engine.compiler import SAFE_BUILTINS, check_generated
    from cardspec.lang import UnsafeName
    for name in ("__import__", "open", "eval", "exec", "getattr", "compile", "globals", "vars", "type"):
        assert name not in SAFE_BUILTINS
    bad = [
        "def _e1(s):\n    return 1\nimport os\n",
        "def _e1(s):\n    import os\n",
        "def _e1(s):\n    return ().__class__\n",
        "def _e1(s):\n    return __import__('os')\n",
        "def _e1(s):\n    global x\n    x = 1\n",
        "def _e1(s):\n    class A: pass\n",
        "def _e1(s):\n    return [c.__class__ for c in s]\n",
        "def _e2(s):\n    return 1\n",
        "def _e1(s):\n    return 1\nx = 1\n",
        "def _e1(s):\n    return (\n",
    ]
    for src in bad:
        with pytest.raises(UnsafeName):
            check_generated(src, "_e1")
    check_generated("def _e1(s, p_x):\n    return sum(map(_T1.__getitem__, s.z[0])) + p_x\n", "_e1")


def test_hostile_text_as_a_sits_out_expression_is_a_ruleset_error_and_runs_nothing(tmp_path):
    """The `sits_out:` step (new in issue 18) takes an expression: author text reaches Python only as tokens
    the grammar accepted and the checker resolved, so every hostile string is a RulesetError at its line
    and none runs (the canary file is never written)."""
    canary = tmp_path / "CANARY"
    for i, text in enumerate(hostile_strings(canary)):
        path = tmp_path / f"hostile-sits-out-{i}.yaml"
        path.write_text("extends: red-dog\ndeal:\n  - id: hostile\n    after: ante\n"
                        f"    sits_out: {json.dumps(text)}\n", encoding="utf-8")
        with pytest.raises(RulesetError) as info:
            _load(path)
        assert not canary.exists(), f"sits_out = {text!r} ran code"
        here = [p for p in info.value.problems if str(p.file).endswith(path.name)]
        assert any(p.line == 5 for p in here), f"sits_out = {text!r}: {info.value}"
    assert not canary.exists()
