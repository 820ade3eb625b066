"""docs/rulesets.md, "What the built-in bases offer a variant": every option, step id and definition the two
tables name exists in that base, and every definition a base adds is explained (issue 20 item 5: the doc
table should say what each definition means, so a variant overrides the right one)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardspec.rules import read_ruleset

DOC = Path(__file__).parent.parent / "docs" / "rulesets.md"


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("### What the built-in bases offer a variant")
    return text[start:text.index("\n## ", start) if "\n## " in text[start:] else len(text)]


def _rows(header: str) -> list:
    """The table rows (cells) under the table whose header line starts with ``header``."""
    lines = _section().splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith(header))
    out = []
    for ln in lines[i + 2:]:
        if not ln.startswith("|"):
            break
        out.append([c.strip() for c in ln.strip().strip("|").split("|")])
    return out


def _names(cell: str) -> list:
    return [re.sub(r"\(.*\)$", "", n) for n in re.findall(r"`([^`]+)`", cell)]


def _base(cell: str):
    """``(name, parent)`` of a first cell: "`hearts` (extends black-lady)"."""
    name = _names(cell)[0]
    m = re.search(r"extends ([\w-]+)", cell)
    return name, (m.group(1) if m else None)


def _defs(name) -> set:
    return {re.sub(r"\(.*\)$", "", str(k)) for k in (read_ruleset(name).data.get("define") or {})}


def _ids(name) -> set:
    return {x.get("id") for x in read_ruleset(name).data.get("deal") or [] if isinstance(x, dict)}


OPTION_ROWS = _rows("| base | options | step ids |")
DEF_ROWS = _rows("| base | definition | means |")


@pytest.mark.parametrize("row", OPTION_ROWS, ids=[r[0] for r in OPTION_ROWS])
def test_options_and_step_ids_exist_and_are_all_listed(row):
    name, parent = _base(row[0])
    rs = read_ruleset(name)
    listed = set(_names(row[1]))
    own = set(rs.options) - (set(read_ruleset(parent).options) if parent else set())
    assert listed == own, f"{name}: the doc lists {sorted(listed)}, the ruleset adds {sorted(own)}"
    if "same as" not in row[2]:
        ids = set(_names(row[2]))
        assert ids <= _ids(name), sorted(ids - _ids(name))
        new_ids = _ids(name) - (_ids(parent) if parent else set()) - {None}
        assert new_ids <= ids, f"{name}: step ids not listed: {sorted(new_ids - ids)}"


def _def_table() -> dict:
    out, base = {}, None
    for row in DEF_ROWS:
        if row[0]:
            base = _names(row[0])[0]
        assert row[2], f"{row[1]} has no meaning"
        out.setdefault(base, set()).update(_names(row[1]))
    return out


@pytest.mark.parametrize("base", sorted(_def_table()))
def test_every_definition_a_base_adds_is_explained(base):
    listed = _def_table()[base]
    parents = {_base(r[0])[0]: _base(r[0])[1] for r in OPTION_ROWS}
    parent = parents.get(base)
    assert listed <= _defs(base), f"{base}: not definitions of it: {sorted(listed - _defs(base))}"
    new = _defs(base) - (_defs(parent) if parent else set())
    assert new <= listed, f"{base}: definitions without a meaning in the table: {sorted(new - listed)}"
