"""Which names from YAML may reach generated code, and how: a declared name must be the grammar's NAME
(``name_problem``) and reaches code only mangled (``py_param``); any other YAML value reaches it only as
the ``repr`` of a checked constant (``literal_src``). docs/dsl.md, "Bounds"."""
from __future__ import annotations

import re


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
