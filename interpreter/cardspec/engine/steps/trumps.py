"""The ``trump`` step (the trump suit of a deal), the ``trump`` effect and the ``suit_named`` expression function.

YAML::

    - trump: EXPR          # a suit expression; no_suit for a deal without trumps

Examples (the bidding games' digest in shared/rules/, "Trumps")::

    - trump: if count(turnup) > 0 then top(turnup).suit else no_suit   # the turned-up card's suit
    - trump: suit_named(trumps)[(deal_number - 1) % count(trumps)]     # a rotation given as an option list

The same as an effect, in any effect list, sets the trump during play (docs/rulesets.md, "Effects")::

    after_play:
      - if: trick_number == 1 and seat == leader       # the pitcher's first lead names trumps
        trump: card.suit                               # (docs/rulesets.md, Effects: trump)

The step sets the state's ``trump`` slot (read by the tricks step's default
``wins``/``key``; ``no_suit`` = -1 when none) and emits
``{"type": "trump", "deal": n, "suit": "S"}`` (``"suit": null`` for no trump).

``suit_named(TEXT)`` turns a suit's name into a suit: ``S``/``spades``/``♠``
(any case) and so on; ``none``/``no_trump``/``NT``/``-`` give ``no_suit``.
Given a list of names it gives a list of suits. A name known at load time (an
option's value) that is no suit of the deck is a ruleset error; a name only
known in play that is no suit gives ``no_suit``.
"""
from __future__ import annotations

import ast

from ..effects import EXTRA_EFFECTS
from ..slots import DEAL_NUMBER, TRUMP
from .base import Step, step_type
from ...lang.types import ANY, Code, STR, SUIT, elem, list_of
from ...lang.builtins import BUILTINS, _argc
from ...errors import BUG_HINT

_SUIT_WORDS = {
    "S": ("s", "spade", "spades", "♠"), "H": ("h", "heart", "hearts", "♥"),
    "D": ("d", "diamond", "diamonds", "♦"), "C": ("c", "club", "clubs", "♣"),
}
_NONE_WORDS = ("none", "no_trump", "no trump", "notrump", "nt", "-", "no_suit")


def _names_for(deck) -> dict:
    """Lower-case name → suit index for this deck (no-trump words → -1)."""
    table = {w: -1 for w in _NONE_WORDS}
    for i, s in enumerate(deck.suits):
        for w in _SUIT_WORDS.get(s, (s.lower(),)):
            table[w] = i
    return table


def _suit_named(comp, n, args):
    _argc(comp, n, args, 1)
    a = comp.c(args[0])
    table = _names_for(comp.env.deck)
    is_list = elem(a.type) is not None and a.type != ANY
    if is_list and elem(a.type) not in (STR, ANY):
        comp.err(args[0], f"suit_named needs text or a list of text, found {a.type}")
    if not is_list and a.type not in (STR, ANY):
        comp.err(args[0], f"suit_named needs text or a list of text, found {a.type}")
    if a.const:
        try:
            value = ast.literal_eval(a.src)
        except (ValueError, SyntaxError):  # pragma: no cover - constants are literals
            value = None
        if value is not None:
            items = list(value) if isinstance(value, (tuple, list)) else [value]
            suits = []
            for x in items:
                key = str(x).strip().lower()
                if key not in table:
                    comp.err(args[0], f"'{x}' is not a suit of this deck",
                             "write S, H, D, C (or spades, ♠ …) or none for no trump")
                suits.append(table[key])
            if isinstance(value, (tuple, list)):
                return Code("(" + "".join(f"{x}, " for x in suits) + ")", list_of(SUIT), True)
            return Code(str(suits[0]), SUIT, True)
    if is_list:
        return Code(f"tuple({table!r}.get(str(_x).strip().lower(), -1) for _x in {a.src})", list_of(SUIT))
    return Code(f"{table!r}.get(str({a.src}).strip().lower(), -1)", SUIT)


BUILTINS["suit_named"] = _suit_named


@step_type("trump")
class Trump(Step):
    """Set the deal's trump suit from a suit expression (``no_suit``: no trump); emits ``trump``."""

    def __init__(self, game, comp, body, path):
        super().__init__(game, comp, body, path)
        if body == {}:
            comp.problem(path, "trump takes a suit expression (no_suit for none), e.g. trump: top(turnup).suit")
            body = "no_suit"
        elif isinstance(body, (dict, list)):
            comp.problem(path, "trump takes a suit expression, e.g. trump: top(turnup).suit")
            body = "no_suit"
        self.suit = comp.expr(body, path, (), (SUIT,))
        _not_folded(game, comp, path)

    # Counted as a decision point that never waits (``enter`` returns False): a scenario's ``deal:``
    # override is put in place at the deal's first decision point, so the trump sees the overridden cards.
    decision = True

    def enter(self, s):
        self.run(s)
        return False

    def choice_names(self, game):
        return []   # never waits for a seat

    def run(self, s):
        t = self.suit(s)
        t = t if 0 <= t < s.game.deck.n_suits else -1
        s.v[TRUMP] = t
        if s.game.eff_of is not None:   # suits that depend on the trump (deck suit_of)
            s.eff = s.game.eff_of(s)
        s.emit({"type": "trump", "deal": s.v[DEAL_NUMBER], "suit": s.game.deck.suit_label(t)})


def _trump_effect(game, comp, body, path, params):
    """``trump: SUIT_EXPR`` as an effect: statements setting the trump slot and emitting ``trump``."""
    if isinstance(body, (dict, list)) or body is None:
        comp.problem(path, "the trump effect takes a suit expression, e.g. trump: card.suit")
        return None
    code = comp.code(body, path, params, (SUIT,))
    if code is None or not _not_folded(game, comp, path):
        return None
    suits = tuple(game.deck.suits) + tuple(game.deck.extra_suits)
    return [f"_t = {code.src}", f"_t = _t if 0 <= _t < {len(suits)} else -1", f"s.v[{TRUMP}] = _t",
            "if s.events is not None:",
            f"    s.emit({{'type': 'trump', 'deal': s.v[{DEAL_NUMBER}], 'suit': {suits!r}[_t] if _t >= 0 else None}})"]


EXTRA_EFFECTS["trump"] = _trump_effect


#: Top-level sections whose keys are names an author chose (a var, an option, an event type of ``log:``…)
#: or that hold no effects: a key ``trump`` there sets no trump.
_NO_EFFECTS = frozenset({"name", "title", "description", "source", "extends", "players", "options", "deck",
                         "zones", "counters", "vars", "define", "log", "match"})


def sets_trump(data) -> bool:
    """Whether a ruleset may set the trump: a ``trump`` step or a ``trump`` effect anywhere a step or an
    effect can be — in ``deal:``, in the actions of ``actions:`` or of a step, in ``after_bid:``,
    ``after_trick:``, a phase's ``do:``, nested in ``if``/``for_each`` (issue 38 item 1: an action block's
    ``trump:`` was missed, and every expression read ``no_suit`` while the views showed the trump). Without
    one the trump is the constant ``no_suit`` for the whole match, folded away at load; a mapping with a
    ``trump`` key anywhere outside the sections of names (``_NO_EFFECTS``) counts, so the answer errs only
    towards reading the trump at run time."""
    if isinstance(data, dict):
        return any(sets_trump(v) for k, v in data.items() if k not in _NO_EFFECTS)
    return _any_trump(data)


def _any_trump(node) -> bool:
    if isinstance(node, dict):
        return "trump" in node or any(_any_trump(v) for v in node.values())
    if isinstance(node, list):
        return any(_any_trump(x) for x in node)
    return False


def _not_folded(game, comp, path) -> bool:
    """A trump is set here, so ``trump`` must not have been folded to the constant ``no_suit`` (``sets_trump``
    saw every place); a problem with the bug hint if it was (an engine fault, never an author's)."""
    b = game.env.engine.get("trump")
    if b is not None and b.const:
        comp.problem(path, "internal: this sets the trump, but expressions were compiled reading no trump",
                     BUG_HINT)
        return False
    return True
