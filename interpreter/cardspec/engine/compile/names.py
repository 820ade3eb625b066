"""Pass 4 of compiling (``engine/compile``): the names a ruleset declares, against the engine's and each other.

Reads: ``env`` (the engine's names, bound by ``scope`` and ``deck``), ``options``, ``deck``, ``data``,
``comp``. Adds: ``warnings`` (problems of severity ``warning`` found while compiling: ``cardspec validate``
prints them; the ruleset runs). Sets ``env.hides``.

A ruleset declares names under ``options:``, ``zones:``, ``counters:``, ``vars:`` and ``define:``;
expressions read them. The engine provides names too: the system values (``leader``, ``trick_number``,
``bid_suit``, …), ``players``, ``seats``, the deck's suit, rank and colour names, the expression functions,
the names of ``sides:``, and the parameters steps give their expressions (``seat``, ``card``, ``taker``,
``passed``, ``level``, …). New mechanisms keep adding such names, and a ruleset valid yesterday must stay
valid and play the same (issue 32, item 4; docs/rulesets.md, "Stability"): so **a declared name always
means the ruleset's declaration** in that ruleset's expressions — it hides the engine's name of the same
spelling, even a step's parameter, and the engine's own defaults (``EngineText``) still read the engine's.
Hiding is never silent: each is a ``warning`` at the declaring key that names what is hidden
(``var 'leader' hides the engine's leader …``); the author renames the declaration when the engine's name
is wanted (no tool rewrites it: nothing needs rewriting to stay valid). A name spelled like a card literal
(``QS``, ``JK``) is a warning too: the grammar reads it as the card, so nothing can read the declaration.
A name declared twice (two kinds, or two files of a variant) is an
error, and so is a ``define:`` parameter type that is not one of ``PARAM_TYPES`` (``c: crad`` became an int
and failed in play with "int has no attribute 'rank'").
"""
from __future__ import annotations

import difflib
import re

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
    "last_call": "the auction's last bid or call before this one (a call's parameter: \"\", \"bid\" or its name)",
    "last_caller": "the seat of the auction's last bid or call (a call's parameter)",
    "p": "the seat whose pile a zone's public_when: or whose turn a trick's played_by: is about",
}

ADDS = ("warnings",)

#: Names ``sides:`` binds for every expression (engine/sides.py).
SIDES_NAMES = {
    "partner": "the partner found by the called card (sides:)",
    "alone": "whether the declarer has no partner (sides:)",
    "partner_known": "whether the called card has been played (sides:)",
    "on_declarer_side": "the function on_declarer_side(p) of sides:",
}

#: The warning's code (``Problem.code``): a declaration hides an engine name.
HIDES = "name/hides-engine"

#: The warning's code: a declared name is spelled like a card, so no expression can read it.
CARD_SPELLING = "name/card-literal"

#: The grammar's card literal (lang/grammar.lark, ``CARD``, which the lexer prefers over ``NAME``).
_CARD_LITERAL = re.compile(r"(10|[2-9TJQKA])[SHDC]|JK")


def run(g):
    g.warnings = list(g.ruleset.warnings)   # what reading found (a variant replacing a base's definition)
    g.env.hides = frozenset(check_names(g, g.comp, g.data, g.warnings))
    return g


def engine_names(game, data: dict) -> dict:
    """Every name the engine provides to this ruleset's expressions → what it is, in words."""
    engine = {}
    for name, _t, what in SYSTEM_VARS:
        engine[name] = f"the engine's {name} ({what})"
    for name in game.env.engine:
        if name not in engine:
            engine[name] = _constant_words(name, game)
    for name in BUILTINS:
        engine.setdefault(name, f"the function {name}(…) of the expression language")
    for name, what in CONTEXT_NAMES.items():
        engine.setdefault(name, what)
    if data.get("sides") is not None:
        for name, what in SIDES_NAMES.items():
            engine.setdefault(name, what)
    return engine


#: ``define:`` parameter types: ``name(c: card, s: suit, n)`` (no type: an int, e.g. a seat).
PARAM_TYPES = ("card", "suit", "int", "seat", "cards")

#: The kinds of declaration, in the order the engine binds them (a later one hides an earlier one).
DECLARED = (("options", "option"), ("zones", "zone"), ("counters", "counter"), ("vars", "var"),
            ("define", "definition"))


def check_names(game, comp, data: dict, warnings: list) -> set:
    """The engine names a declaration hides (module doc), each with a warning in ``warnings``; a problem
    (``comp.problems``) for every name declared twice and every unknown ``define:`` parameter type.

    Parameters:
        game: the ``Game`` being compiled; its ``env.engine`` holds the engine's names.
        comp: the game's ``Compiler`` (problems are collected there, each at file:line:col).
        data: the ruleset's data after ``by_option`` resolution.
        warnings: where the warnings go (``Game.warnings``).
    """
    engine = engine_names(game, data)
    hides = set()
    seen = {}   # name -> (kind word, path) of its first declaration
    deck = data.get("deck") if isinstance(data.get("deck"), dict) else {}
    for i, sp in enumerate(deck.get("specials") or []):
        if isinstance(sp, dict) and sp.get("code") is not None:   # a special card's code names it (docs/cards.md)
            seen[str(sp["code"])] = ("special card", ("deck", "specials", i, "code"))
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
            if _CARD_LITERAL.fullmatch(name):
                w = comp.pos.problem(
                    path, f"{word} '{name}' is spelled like a card: an expression reads {name} as the card, "
                    f"never as this {word}", f"rename the {word} (e.g. has_{name.lower()})", key=True)
                w.severity, w.code = "warning", CARD_SPELLING
                warnings.append(w)
            if name in engine:
                hides.add(name)
                w = comp.pos.problem(
                    path, f"{word} '{name}' hides {engine[name]}: this ruleset's expressions read the {word}",
                    f"fine if meant (a name you declare is always yours); to use the engine's, rename the {word} "
                    "where it is declared and read", key=True)
                w.severity, w.code = "warning", HIDES
                warnings.append(w)
    return hides


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


#: The engine's constants and trick names in words (docs/dsl.md).
CONSTANT_WORDS = {
    "deck": "the engine's deck (every card of the deck)",
    "trick": "the engine's trick (the cards of the trick in progress)",
    "trick_seats": "the engine's trick_seats (the seats of the trick in progress)",
    "led_card": "the engine's led_card (the first card of the trick in progress)",
    "none": "the engine's none (no seat, -1)",
    "no_suit": "the engine's no_suit",
    "no_card": "the engine's no_card",
}


def _constant_words(name, game) -> str:
    if name in CONSTANT_WORDS:
        return CONSTANT_WORDS[name]
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
