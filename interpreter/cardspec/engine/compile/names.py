"""Pass 4 of compiling (``engine/compile``): the names an author declares may not hide the engine's names,
nor each other.

Reads: ``env`` (the engine's names, bound by ``scope`` and ``deck``), ``options``, ``deck``, ``data``,
``comp``. Adds nothing: problems only.

A ruleset declares names under ``options:``, ``zones:``, ``counters:``, ``vars:`` and ``define:``;
expressions read them. Each is one flat namespace with the names the engine binds itself (the system
values such as ``leader`` and ``trick_number``, ``players``, ``seats``, the deck's suit, rank and colour
names, the expression functions) and with the parameters the steps give their expressions (``seat``,
``card``, …). A declared name equal to one of those would either hide the engine's value everywhere
(``vars: {leader: 0}`` made every expression read the author's 0 while the engine went on setting its
own leader) or be hidden by it in some expressions only; two declarations of one name keep the last.
Both played a different game without a word (issue 20, item 3); here each is a ``RulesetError`` problem
at the declaring key. So is a ``define:`` parameter type that is not one of ``PARAM_TYPES`` (``c: crad``
became an int and failed in play with "int has no attribute 'rank'").

Run once per ``Game``, after the engine's own names are bound and before the author's are.
"""
from __future__ import annotations

import difflib

from ...lang import BUILTINS
from ..slots import SYSTEM_VARS

#: Parameters the steps give the expressions they compile (docs/dsl.md, "Names by context").
#: ``hand`` is left out on purpose: in a trick's ``play:``/``lead:`` it is the playing seat's hand,
#: the zone of that name narrowed to one seat — the meaning an author wants. A secret rule's ``last`` and
#: ``line`` are left out too: a secret rule sees no declared name at all (engine/steps/secret.py).
CONTEXT_NAMES = {
    "seat": "the seat an expression is about (a step's parameter: the acting, receiving or scored seat)",
    "card": "the card played or judged (a step's parameter)",
    "a": "the first of the two cards a cancel: rule compares",
    "b": "the second of the two cards a cancel: rule compares",
    "bid": "the bid being made (a bid step's parameter)",
    "choice": "the value chosen in a trick's choose: (its parameter)",
    "taker": "the seat that takes the trick (an after_trick: parameter)",
    "next_leader": "the seat that leads the next trick (an after_trick: parameter)",
    "turn_seat": "the turn's seat in a turns step",
    "number": "the number of the bid being made (an auction's parameter)",
    "suit": "the suit of the bid being made (an auction's parameter)",
    "rank": "the rank of the bid being made (an auction's parameter)",
    "contract": "the named contract of the bid being made (an auction's parameter)",
    "level": "the place of the bid being made in the auction's list (an auction's parameter)",
    "passed": "whether the call was a pass (an auction's after_bid: parameter)",
}

ADDS = ()


def run(g):
    check_names(g, g.comp, g.data)
    return g


#: ``define:`` parameter types: ``name(c: card, s: suit, n)`` (no type: an int, e.g. a seat).
PARAM_TYPES = ("card", "suit", "int", "seat", "cards")

#: The kinds of declaration, in the order the engine binds them (a later one hides an earlier one).
DECLARED = (("options", "option"), ("zones", "zone"), ("counters", "counter"), ("vars", "var"),
            ("define", "definition"))


def check_names(game, comp, data: dict) -> None:
    """Report (``comp.problem``) every declared name that collides with an engine name or with another
    declaration, and every unknown ``define:`` parameter type.

    Parameters:
        game: the ``Game`` being compiled; its ``env.names`` holds the engine's names and the options.
        comp: the game's ``Compiler`` (problems are collected there, each at file:line:col).
        data: the ruleset's data after ``by_option`` resolution.
    """
    options = set(game.options)
    engine = {}
    for name, _t, what in SYSTEM_VARS:
        engine[name] = f"the engine's {name} ({what})"
    for name in game.env.names:
        if name not in options and name not in engine:
            engine[name] = _constant_words(name, game)
    for name in BUILTINS:
        engine.setdefault(name, f"the function {name}(…) of the expression language")
    for name, what in CONTEXT_NAMES.items():
        engine.setdefault(name, what)
    seen = {}   # name -> (kind word, path) of its first declaration
    for section, word in DECLARED:
        spec = data.get(section)
        if not isinstance(spec, dict):
            continue
        for key in spec:
            path = (section, key)
            if section == "define":
                name, params = signature(str(key))
                if name is None:
                    continue   # reported where definitions are compiled
                _check_params(comp, path, key, params)
            else:
                name = str(key)
            if section == "zones" and name == "stock":
                continue   # the engine's stock may be declared (its visibility, help)
            if name in engine:
                comp.problems.append(comp.pos.problem(
                    path, f"{word} '{name}' has the name of {engine[name]}",
                    "choose another name: expressions would read one of the two and never the other",
                    key=True))
                continue
            if name in seen:
                first_word, first_path = seen[name]
                at = comp.pos.find(first_path)
                comp.problems.append(comp.pos.problem(
                    path, f"{word} '{name}' has the name of the {first_word} '{name}' ({at.file}:{at.line})",
                    "each name is declared once (options, zones, counters, vars and definitions share one "
                    "namespace); to change a base's definition write it with the same parameters",
                    key=True))
                continue
            seen[name] = (word, path)


def signature(key: str):
    """``(name, [(param, type), …])`` of a ``define:`` key (``taken(s)``, ``"rk(c: card)"``), or
    ``(None, [])`` when it is not of that form."""
    key = key.strip()
    if "(" not in key:
        return (key, []) if key.isidentifier() else (None, [])
    name, rest = key.split("(", 1)
    if not rest.endswith(")") or not name.strip().isidentifier():
        return None, []
    params = []
    for p in rest[:-1].split(","):
        p = p.strip()
        if not p:
            continue
        pname, _, ptype = p.partition(":")
        if not pname.strip().isidentifier():
            return None, []
        params.append((pname.strip(), ptype.strip()))
    return name.strip(), params


def _check_params(comp, path, key, params):
    names = set()
    for pname, ptype in params:
        if ptype and ptype not in PARAM_TYPES:
            close = difflib.get_close_matches(ptype, PARAM_TYPES, n=1, cutoff=0.5)
            comp.problems.append(comp.pos.problem(
                path, f"'{key}': parameter '{pname}' has the type '{ptype}', which is not a parameter type",
                (f"did you mean '{close[0]}'? " if close else "")
                + "types: " + ", ".join(PARAM_TYPES) + " (none: a whole number, e.g. a seat)", key=True))
        if pname in names:
            comp.problems.append(comp.pos.problem(path, f"'{key}': parameter '{pname}' is named twice", key=True))
        names.add(pname)


def _constant_words(name, game) -> str:
    deck = getattr(game, "deck", None)
    if name in ("players", "seats"):
        return f"the engine's {name} (the seats of this game)"
    if deck is not None and name in ("spades", "hearts", "diamonds", "clubs"):
        return f"the suit {name}"
    if name in ("red", "black"):
        return f"the colour {name}"
    if deck is not None and name in [str(r) for r in deck.ranks]:
        return f"the rank {name}"
    return f"the engine's name '{name}'"
