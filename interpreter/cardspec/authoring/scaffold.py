"""``cardspec new NAME --from BASE``: a commented two-line variant of a ruleset, to edit.

Its first line points editors at the JSON Schema copied beside it (``SCHEMA_COPY``), so the reference
survives a new venv or Python version.

The file ``extends:`` its base and changes nothing yet; its comments list the base's options (type,
values or range, default, help) as commented-out overrides, and say how to replace a step or a list.
It validates as written (tests/test_scaffold.py).
"""
from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path

from ..errors import CardspecError
from ..rules.loader import _describe, read_ruleset, resolve_path, schema_path

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")

#: Where ``cardspec new`` keeps the schema an editor reads, relative to the new file: a copy beside it (issue
#: 35 item 9: a path into the installed package's site-packages broke when the venv or Python changed). The
#: copy is written anew by every ``cardspec new`` in that folder (a later release's schema only grows), or by
#: ``cardspec schema --out .cardspec/ruleset.schema.json``.
SCHEMA_COPY = "./.cardspec/ruleset.schema.json"


class ScaffoldError(CardspecError):
    """``cardspec new`` cannot write the file (bad name, file exists, unknown base)."""

    code = "new/invalid"


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, dict)):
        import json
        return json.dumps(v)
    return str(v)


def variant_text(base: str, name: str, folder: str | os.PathLike = ".") -> str:
    """The text of a new variant ``name`` of ``base`` (a built-in name or a path), to be saved in ``folder``.

    Raises ``RulesetError`` when the base cannot be read, ``ScaffoldError`` for a bad name.
    """
    if not NAME.match(name):
        raise ScaffoldError(f"'{name}' is not a ruleset name: letters, digits, '-', '_' and '.' (e.g. my-hearts)")
    rs = read_ruleset(base)
    folder = Path(folder).resolve()
    base_ref = base
    if os.sep in base or base.endswith((".yaml", ".yml")):
        base_ref = os.path.relpath(resolve_path(base).resolve(), folder)
    lines = [f"# yaml-language-server: $schema={SCHEMA_COPY}",
             f"# {name}: a variant of {rs.name} ({rs.title}). Everything not written here comes from {rs.name};",
             "# check it with `cardspec validate FILE`, play it with `cardspec play FILE` (docs/rulesets.md, Variants).",
             f"extends: {base_ref}",
             f"name: {name}"]
    if rs.options:
        lines += ["", f"# The options of {rs.name}: change a default here, or per game with --option NAME=VALUE.",
                  "# options:"]
        for key, spec in rs.options.items():
            what = _describe(spec)
            lo, hi = spec.get("min"), spec.get("max")
            if spec.get("values") is None and (lo is not None or hi is not None):
                what += f" {lo if lo is not None else '…'} to {hi if hi is not None else '…'}"
            lines.append(f"#   {key}: {{default: {_value(spec.get('default'))}}}    # {what}")
            help_text = " ".join(str(spec.get("help", "")).split())
            if help_text:
                for h in textwrap.wrap(help_text, 88):
                    lines.append(f"#       {h}")
    steps = [s.get("id") for s in rs.data.get("deal", []) if isinstance(s, dict) and s.get("id")]
    if steps:
        lines += ["", f"# The steps of a deal in {rs.name}, by id: {', '.join(steps)}.",
                  "# A step written here with one of these ids replaces that step's keys; a list tagged !replace",
                  "# replaces the base's list instead of merging. Example (a different pass):",
                  "# deal:",
                  f"#   - id: {steps[0]}",
                  "#     ..."]
    return "\n".join(lines) + "\n"


def write_variant(base: str, name: str, path: str | None = None, force: bool = False) -> Path:
    """Write ``variant_text`` to ``path`` (default ``NAME.yaml`` here); returns the path.

    Raises ``ScaffoldError`` when the file exists (unless ``force``) or cannot be written.
    """
    target = Path(path or f"{name}.yaml")
    if target.exists() and not force:
        raise ScaffoldError(f"{target} exists already (choose another name, or --force to overwrite it)")
    text = variant_text(base, name, target.resolve().parent)
    copy = target.resolve().parent / SCHEMA_COPY
    try:
        target.write_text(text, encoding="utf-8")
        copy.parent.mkdir(exist_ok=True)
        schema = schema_path().read_text(encoding="utf-8")
        if not copy.exists() or copy.read_text(encoding="utf-8") != schema:
            copy.write_text(schema, encoding="utf-8")
    except OSError as e:
        raise ScaffoldError(f"cannot write {target}: {e.strerror or e}") from None
    return target
