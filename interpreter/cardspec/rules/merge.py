"""``extends:``: a variant merged over its base ruleset, and the checks of what it may change.

Mappings merge key by key; a list whose items all have an ``id:`` merges item by item (matching ids
are merged, a new item says where it goes with ``after: ID`` or ``before: ID``); any other list, and
a list tagged ``!replace``, replaces the base's list. A ``by_option`` mapping replaces the base value,
and is replaced, whole. Positions follow the winning value, so every later problem points at the
file that wrote it. ``_check_ids`` checks the ids lists are merged by; ``_check_overrides`` and
``_check_redefinitions`` catch a variant naming options or definitions its base lacks or defines
otherwise (usually a typo), and ``_replace_renamed_definitions`` lets ``f(p): …`` override ``f(s): …``.
"""
from __future__ import annotations

import difflib

from .options import RulesetOptions, is_by_option
from .schemacheck import _kind
from .yaml_pos import Positions, Replace


def _merge(base, child, bpos: Positions, cpos: Positions, path, out_pos: Positions, problems=None):
    """Deep-merge ``child`` over ``base`` (see module doc); positions follow the winning value.

    Problems of the merge (an id the base does not have and no position for it, a position naming no
    item) are appended to ``problems``; the item at fault is left out, so the base's items stay.
    """
    problems = [] if problems is None else problems
    if isinstance(base, dict) and isinstance(child, dict) and not is_by_option(child) and not is_by_option(base):
        out = {}   # (a by_option mapping replaces the base value, and is replaced, whole)
        for k in base:
            out[k] = base[k]
            _copy_pos(bpos, path + (k,), path + (k,), out_pos)
        for k, v in child.items():
            if k in base:
                out[k] = _merge(base[k], v, bpos, cpos, path + (k,), out_pos, problems)
            else:
                out[k] = v
                _copy_pos(cpos, path + (k,), path + (k,), out_pos)
        if path and path in cpos:   # the mapping itself is where the child wrote it
            out_pos[path] = cpos[path]
            if ("key",) + path in cpos:
                out_pos[("key",) + path] = cpos[("key",) + path]
        return out
    if isinstance(base, list) and isinstance(child, list) and not isinstance(child, Replace) and child and \
            _has_ids(base) and _has_ids(child):
        return _merge_by_id(base, child, bpos, cpos, path, out_pos, problems)
    _copy_pos(cpos, path, path, out_pos)
    return list(child) if isinstance(child, Replace) else child


#: Keys of a variant's list item that place it (``after: ID``, ``before: ID``); not part of the merged item.
PLACE_KEYS = ("after", "before")


def _has_ids(items) -> bool:
    return any(isinstance(x, dict) and "id" in x for x in items)


def _list_name(path) -> str:
    names = [str(p) for p in path if not isinstance(p, int)]
    return f"{names[-1]}:" if names else "the list"


def _merge_by_id(base, child, bpos, cpos, path, out_pos, problems):
    """Merge a variant's id-list into its base's: an item whose id the base has is merged into that item
    (and moved when it says ``after: ID`` / ``before: ID``); a new item must say where it goes with one of
    those keys. Every item of the base that the variant does not name stays where it is (docs/rulesets.md,
    "extends:"). An unknown id without a position is a problem with a did-you-mean hint (usually a typo);
    so is an item without an id, or a position naming no item."""
    result = [(x, "b", i) for i, x in enumerate(base)]

    def find(ident):
        return next((k for k, it in enumerate(result) if isinstance(it[0], dict) and it[0].get("id") == ident), None)

    def ids():
        return [str(it[0]["id"]) for it in result if isinstance(it[0], dict) and "id" in it[0]]

    def near(ident):
        close = difflib.get_close_matches(str(ident), ids(), n=1, cutoff=0.6)
        return f"did you mean '{close[0]}'? " if close else ""

    where = _list_name(path)
    for ci, cx in enumerate(child):
        if not isinstance(cx, dict) or "id" not in cx:
            problems.append(cpos.problem(path + (ci,), f"this item of {where} has no id: a variant's {where} "
                                         "is merged into the base's by id",
                                         f"give it the id of the base's item it changes, or a new id with "
                                         f"after: ID; to replace the base's whole list write {where} !replace "
                                         f"[…] (ids: {', '.join(ids())})"))
            continue
        places = [k for k in PLACE_KEYS if k in cx]
        at = None
        if len(places) > 1:
            problems.append(cpos.problem(path + (ci, places[1]), "give after: or before:, not both", key=True))
            continue
        if places:
            target = cx[places[0]]
            j = find(target)
            if j is None or target == cx["id"]:
                problems.append(cpos.problem(path + (ci, places[0]), f"{places[0]}: '{target}' names no item of "
                                             f"{where}", near(target) + f"ids: {', '.join(ids())}"))
                continue
            at = (places[0], target)
        item = {k: v for k, v in cx.items() if k not in PLACE_KEYS}
        j = find(cx["id"])
        if j is None and at is None:
            problems.append(cpos.problem(path + (ci, "id"), f"'{cx['id']}' is not the id of an item of the base's "
                                         f"{where} (the variant changes items by id)",
                                         near(cx["id"]) + f"a new item says where it goes: after: ID or before: ID "
                                         f"(ids: {', '.join(ids())})"))
            continue
        entry = (item, "c", ci) if j is None else (item, "m", (result[j][2], ci))
        if j is not None:
            del result[j]
        if at is None:
            result.insert(j, entry)
        else:
            k = find(at[1])
            result.insert(k + 1 if at[0] == "after" else k, entry)
    merged = []
    for newi, (x, kind, src) in enumerate(result):
        p = path + (newi,)
        if kind == "b":
            _copy_pos(bpos, path + (src,), p, out_pos)
            merged.append(x)
        elif kind == "c":
            _copy_pos(cpos, path + (src,), p, out_pos)
            merged.append(x)
        else:
            bi, ci = src
            sub = Positions()
            _copy_pos(bpos, path + (bi,), p, sub)
            csub = Positions()
            _copy_pos(cpos, path + (ci,), p, csub)
            merged.append(_merge(base[bi], x, sub, csub, p, out_pos, problems))
    return merged


def _copy_pos(src: Positions, frm, to, dst: Positions):
    """Copy the positions of ``src`` under path ``frm`` (and of its keys) to path ``to`` in ``dst``, in order."""
    n = len(frm)
    for k in _under(src, n).get(frm, ()):
        if k and k[0] == "key":
            dst[("key",) + to + k[1 + n:]] = src[k]
        else:
            dst[to + k[n:]] = src[k]


def _under(src: Positions, n: int) -> dict:
    """Prefix of length ``n`` → the paths of ``src`` under it, in ``src``'s order (built once per
    length: merging copies one subtree per key, and a scan of every position each time was quadratic)."""
    cache = src.__dict__.get("_under")
    if cache is None or cache[0] != len(src):
        cache = (len(src), {})
        src.__dict__["_under"] = cache
    index = cache[1].get(n)
    if index is None:
        index = {}
        for k in src:
            index.setdefault(k[1:1 + n] if k and k[0] == "key" else k[:n], []).append(k)
        cache[1][n] = index
    return index


def _check_ids(data, pos: Positions, path=()) -> list:
    """Problems of ``id:`` keys, which ``extends:`` merges list items by: in a list whose items carry
    ``id:``, each id is a name (text or a number, not a mapping or a list) used once in that list."""
    out = []
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(v, (dict, list)):
                out += _check_ids(v, pos, path + (k,))
    elif isinstance(data, list):
        first = {}
        for i, x in enumerate(data):
            if isinstance(x, (dict, list)):
                out += _check_ids(x, pos, path + (i,))
            if not isinstance(x, dict) or "id" not in x:
                continue
            ident = x["id"]
            if isinstance(ident, bool) or not isinstance(ident, (str, int, float)):
                out.append(pos.problem(path + (i, "id"), f"id: is a name (text), not {_kind(ident)}",
                                       "e.g. id: deal-hands"))
            elif ident in first:
                at = pos.get(path + (first[ident], "id"))
                out.append(pos.problem(path + (i, "id"), f"id '{ident}' is used twice in this list"
                                       + (f" (first at line {at.line})" if at is not None else ""),
                                       "ids name the items extends: merges: give each item its own id"))
            else:
                first[ident] = i
    return out


def _check_overrides(base: RulesetOptions, child: dict, pos: Positions) -> list:
    """Problems of a child ruleset naming options its base (a ``Ruleset``) does not declare (usually a typo).

    A new option in a child must be a full declaration (with ``type:``); a
    partial one (``{default: 8}``) overrides a base option and must name one.
    """
    out = []
    opts = child.get("options")
    if not isinstance(opts, dict):
        return out
    for name, spec in opts.items():
        if name in base.options or (isinstance(spec, dict) and "type" in spec):
            continue
        close = difflib.get_close_matches(name, list(base.options), n=1)
        hint = f"did you mean '{close[0]}'?" if close else "to add a new option, give its type: (and default:)"
        out.append(pos.problem(("options", name), f"option '{name}' is not declared by the base ruleset "
                                                  f"'{base.name}'", hint, key=True))
    return out


def _check_redefinitions(base: dict, child: dict, pos: Positions) -> list:
    """Problems of a variant's definition that has the name of a base definition but other parameters
    (``deal_points: 5`` over ``deal_points(s)``): it would be a second definition, not the override the
    author meant. (One file defining a name twice is caught when the names are bound: cardspec.engine.compile.names.)"""
    out = []
    bdefs, cdefs = base.get("define"), child.get("define")
    if not isinstance(bdefs, dict) or not isinstance(cdefs, dict):
        return out
    by_name = {}
    for key in bdefs:
        by_name.setdefault(_define_name(key), key)
    for key in cdefs:
        name = _define_name(key)
        bkey = by_name.get(name)
        if name is None or bkey is None or _define_sig(bkey) == _define_sig(key):
            continue
        out.append(pos.problem(("define", key), f"'{key}' redefines the base's '{bkey}' with other parameters",
                               f"an override keeps the parameters: write '{bkey}: …' (parameters by position, "
                               "the same count)" if "(" in str(bkey) else f"write '{bkey}: …'", key=True))
    return out


def _replaced_definitions(base: dict, child: dict, pos: Positions, base_pos: Positions) -> list:
    """Warnings for a variant's definition that replaces the base's of the same name and parameters without
    saying so (issue 32 item 3: a variant that "adds a helper" ``penalty(s)`` silently replaced the base's
    scoring). Marked ``penalty(s): !replace …`` it is meant: no warning. Each warning names the base's
    definition (file:line) and what reads it."""
    out = []
    bdefs, cdefs = base.get("define"), child.get("define")
    if not isinstance(bdefs, dict) or not isinstance(cdefs, dict):
        return out
    by_name = {}
    for key in bdefs:
        by_name.setdefault(_define_name(key), key)
    for key in cdefs:
        name = _define_name(key)
        bkey = by_name.get(name)
        if name is None or bkey is None or _define_sig(bkey) != _define_sig(key) or ("define", key) in pos.replaced:
            continue
        at = base_pos.find(("define", bkey))
        readers = _readers(base, name)
        w = pos.problem(("define", key), f"'{key}' replaces the base's '{bkey}' ({at.file}:{at.line})"
                        + (f", which {', '.join(readers)} read{'s' if len(readers) == 1 else ''}" if readers else ""),
                        f"if meant, mark it: '{key}': !replace … ; to add a helper of your own, give it another name",
                        key=True)
        w.severity, w.code = "warning", "define/replaces-base"
        out.append(w)
    return out


def _readers(data, name: str, limit: int = 3) -> list:
    """Where the expressions of ``data`` read ``name`` (at most ``limit``, in words: ``define: total(s)``,
    ``deal: score``)."""
    import re
    pattern = re.compile(rf"(?<![\w.]){re.escape(name)}\b")
    out = []

    def walk(node, where):
        if len(out) >= limit:
            return
        if isinstance(node, str):
            if pattern.search(node) and where not in out:
                out.append(where)
        elif isinstance(node, dict):
            for k, v in node.items():
                walk(v, where)
        elif isinstance(node, list):
            for x in node:
                walk(x, where)

    for section, body in data.items():
        if section == "define" and isinstance(body, dict):
            for k, v in body.items():
                if _define_name(k) != name:
                    walk(v, f"define: {k}")
        elif section == "deal" and isinstance(body, list):
            for i, step in enumerate(body):
                sid = step.get("id") if isinstance(step, dict) else None
                walk(step, f"deal: {sid or i}")
        elif section not in ("name", "title", "description", "source", "options", "bots"):
            walk(body, f"{section}:")
    return out


def _replace_renamed_definitions(data: dict, base: dict, child: dict):
    """A variant's ``f(p): …`` overrides the base's ``f(s): …`` (the same name and number of parameters,
    other parameter names or types): the base's key leaves the merged ``define:``, the variant's takes
    its place in the order."""
    bdefs, cdefs, merged = base.get("define"), child.get("define"), data.get("define")
    if not (isinstance(bdefs, dict) and isinstance(cdefs, dict) and isinstance(merged, dict)):
        return
    rename = {}
    for ckey in cdefs:
        name = _define_name(ckey)
        for bkey in bdefs:
            if bkey != ckey and name is not None and _define_name(bkey) == name and \
                    _define_sig(bkey) == _define_sig(ckey) and ckey not in bdefs:
                rename[bkey] = ckey
    if rename:
        data["define"] = {rename.get(k, k): merged[rename.get(k, k)] for k in merged if k not in rename.values()}


def _define_name(key):
    name = str(key).split("(", 1)[0].strip()
    return name if name.isidentifier() else None


def _define_sig(key) -> int:
    """How many parameters a ``define:`` key declares (``taken(s)`` → 1, ``penalty_total`` → 0)."""
    key = str(key)
    if "(" not in key:
        return 0
    inner = key.split("(", 1)[1].rsplit(")", 1)[0]
    return len([p for p in inner.split(",") if p.strip()])
