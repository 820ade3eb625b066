"""Parts of ``cardspec explain`` that read a ruleset's shape rather than one step: a trick's card order as
a list (from an ``if … then N else …`` chain), the options set away from their defaults, and what a variant
changes from its base."""
from __future__ import annotations

import re

from ..errors import CardspecError


def _code(x) -> str:
    return "`" + " ".join(str(x).split()) + "`"


def _top_split(text: str, word: str) -> list:
    """``text`` split on the keyword ``word`` outside parentheses and brackets."""
    parts, depth, start, i = [], 0, 0, 0
    pat = re.compile(rf"\b{word}\b")
    while i < len(text):
        ch = text[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0 and pat.match(text, i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            parts.append(text[start:i])
            start = i = i + len(word)
            continue
        i += 1
    parts.append(text[start:])
    return [x.strip() for x in parts]


def _chain(text: str):
    """``[(condition, value), …, (None, value)]`` for ``if A then X else if B then Y … else Z`` (the first
    rule that applies), or None for any other shape."""
    segs = _top_split(" ".join(str(text).split()), "else")
    if len(segs) < 3:
        return None
    out = []
    for seg in segs[:-1]:
        if not seg.startswith("if "):
            return None
        halves = _top_split(seg[3:], "then")
        if len(halves) != 2 or not halves[0] or not halves[1] or _top_split(halves[1], "if")[0] != halves[1]:
            return None
        out.append((halves[0], halves[1]))
    if segs[-1].startswith("if ") or not segs[-1]:
        return None
    return out + [(None, segs[-1])]


def _card_order(key, ctx, wins=None) -> list:
    """A trick's card order as a list, high to low, when its ``key`` (or the definition it calls, e.g.
    ``power(card)``) is a chain of ``if … then N else …`` from the strongest card down: the order a player
    learns, not one expression to untangle."""
    if not isinstance(key, str):
        return []
    text, arg = key, "card"
    m = re.fullmatch(r"\s*(\w+)\(\s*card\s*\)\s*", key)
    if m:
        for name, body in ctx.defines.items():
            dm = re.fullmatch(rf"{m.group(1)}\((\w+)(?::\s*card)?\)", str(name).replace(" ", "").replace(":card", ""))
            if dm:
                text, arg = str(body), dm.group(1)
                break
    chain = _chain(text)
    if not chain:
        return []
    zero_loses = isinstance(wins, str) and " ".join(wins.split()) == f"{' '.join(key.split())} > 0"

    def lead(v):
        n = re.match(r"\s*(-?\d+)", v)
        return int(n.group(1)) if n else None
    nums = [lead(v) for _, v in chain]
    known = [x for x in nums if x is not None]
    if len(known) * 2 < len(nums) or any(a < b for a, b in zip(known, known[1:])):
        return []
    out = [f"The card order, high to low (the first line that applies to a card `{arg}` gives its strength):"]
    for i, (c, v) in enumerate(chain, 1):
        last = c is None
        what = "any other card" if last else _code(c)
        v = v.strip()
        by_rank = re.fullmatch(rf"(?:(\d+)\s*\+\s*)?{arg}\.rank", v)
        worth = ("cannot win" if v == "0" and last and zero_loses else f"strength {v}" if v.lstrip("-").isdigit()
                 else (("the higher rank first (strength: " + (f"{by_rank.group(1)} + rank)" if by_rank.group(1)
                                                             else "its rank)")) if by_rank
                       else f"strength {_code(v)}"))
        out.append(f"  {i}. {what}: {worth}")
    return out


def _show(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ", ".join(str(x) for x in v)
    return str(v)


def _options_set(rs, options, described: bool) -> list:
    """A line naming the options this explanation sets away from their defaults (the description and the
    help texts are written for the defaults, so a changed pass count is said here, not left unsaid)."""
    if not options:
        return []
    defaults, values = rs.option_values(), rs.option_values(options)
    changed = [f"{k} = {_show(values[k])} (default {_show(defaults[k])})" for k in values
               if k in defaults and values[k] != defaults[k]]
    if not changed:
        return []
    return [f"Options set for this explanation{' (the description is for the defaults)' if described else ''}: "
            + "; ".join(changed) + "."]


def _variant(rs) -> list:
    """For a ruleset that ``extends:`` another, its base and what it changes: the player range, option values,
    the deck, zones, definitions, the match and the steps, by name (``cardspec diff`` shows each in full)."""
    if len(getattr(rs, "chain", None) or []) < 2:
        return []
    from ..rules import read_ruleset
    from .compare import compare
    try:
        base = read_ruleset(rs.chain[-2])
        rows = compare(base, rs)
    except CardspecError:
        return []
    out = ["", f"A variant of {base.title} ({base.name}). What it changes:"]
    if base.players != rs.players:
        fmt = lambda p: f"{p[0]}" if p[0] == p[1] else f"{p[0]} to {p[1]}"   # noqa: E731
        out.append(f"- players: {fmt(rs.players)} (the base: {fmt(base.players)})")
    bv, vv = base.option_values(), rs.option_values()
    for k in vv:
        if k in bv and vv[k] != bv[k]:
            out.append(f"- option {k} = {_show(vv[k])} (the base: {_show(bv[k])})")
    new_opts = [k for k in vv if k not in bv]
    if new_opts:
        out.append(f"- new {'option' if len(new_opts) == 1 else 'options'}: "
                   + ", ".join(f"{k} = {_show(vv[k])}" for k in new_opts))
    named = {"deck": "the deck", "zones": "zones", "define": "definitions", "match": "the match"}
    for sec, word in named.items():
        items = list(dict.fromkeys(item.split(".")[0] for s_, item, *_ in rows if s_ == sec))
        if items:
            out.append(f"- {word}: " + ", ".join(items))
    new_steps = [item for s_, item, a, *_ in rows if s_ == "deal" and a is None]
    gone = [item for s_, item, a, b, *_ in rows if s_ == "deal" and b is None]
    changed = [item for s_, item, a, b, *_ in rows if s_ == "deal" and a is not None and b is not None]
    for word, items in (("new steps", new_steps), ("steps changed", changed), ("steps left out", gone)):
        if items:
            out.append(f"- {word}: " + ", ".join(items))
    if rs.data.get("description") and rs.data.get("description") == base.data.get("description"):
        out.append("- (the description above is the base's)")
    return out if len(out) > 2 else []
