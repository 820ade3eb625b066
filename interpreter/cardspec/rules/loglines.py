"""A ruleset's ``log:`` lines: templates with ``{field}`` parts, filled from an event's fields.

``log: {ante: "everyone antes {each}; the pot holds {pot}"}`` writes the play log's line for the
ruleset's own ``ante`` event. A template is author text and so untrusted: it is never given to
``str.format`` (whose ``{x.__class__}``, ``{x[0]}`` and ``{x:>1500000000}`` reach Python objects or
allocate without bound). A part is a field name only — letters, digits and ``_`` — and ``{{``/``}}``
are a literal brace; anything else is refused when the ruleset is loaded (``check``) at the
template's file:line:col.
"""
from __future__ import annotations

import re
import string
from functools import lru_cache

#: A template's longest text (characters): a line of a play log.
MAX_TEMPLATE = 1000

_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class TemplateError(ValueError):
    """A ``log:`` template that is not text with ``{field}`` parts; the message says what is wrong."""


@lru_cache(maxsize=256)
def parse(template: str) -> tuple:
    """``template`` as ``((literal, field or None), …)``.

    Raises ``TemplateError`` for an unmatched brace, a part that is not a field name (an attribute, an
    index, a position), a format spec or conversion (``{x:>9}``, ``{x!r}``) or text longer than
    ``MAX_TEMPLATE``."""
    if len(template) > MAX_TEMPLATE:
        raise TemplateError(f"a log line is at most {MAX_TEMPLATE} characters (this one has {len(template)})")
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError as e:
        raise TemplateError(f"{e} (a literal brace is written {{{{ or }}}})") from None
    out = []
    for literal, field, spec, conversion in parts:
        if field is None:
            out.append((literal, None))
            continue
        if not _FIELD.fullmatch(field) or spec or conversion:
            shown = "{" + field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
            raise TemplateError(f"'{shown[:60]}' is not a field part: write {{name}} with an event field's name "
                                "(letters, digits, _), no index, attribute or format")
        out.append((literal, field))
    return tuple(out)


def render(template: str, fields: dict) -> str:
    """``template`` with each ``{field}`` replaced by ``fields[field]`` as text (``?`` when missing).
    Raises ``TemplateError`` for a template ``parse`` refuses."""
    get = fields.get
    return "".join(lit + (str(get(f, "?")) if f is not None else "") for lit, f in parse(template))


def check(comp, data: dict) -> None:
    """Record a problem (``comp.problem``, at the template) for each ``log:`` line ``parse`` refuses."""
    for event, template in (data.get("log") or {}).items():
        try:
            parse(str(template))
        except TemplateError as e:
            comp.problem(("log", event), f"log line for '{event}': {e}")
