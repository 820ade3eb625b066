"""The expression language's types and records: type names (``int``, ``bool``, ``card``, ``suit``,
``color``, ``str``, ``list[T]``), ``Code`` (a checked expression's Python source and type),
``Binding`` (what a name means), ``Env`` (the names of one game) and ``DslError``."""
from __future__ import annotations

from dataclasses import dataclass, field


INT, BOOL, CARD, SUIT, COLOR, STR, ANY = "int", "bool", "card", "suit", "color", "str", "any"


def list_of(t: str) -> str:
    return f"list[{t}]"


def elem(t: str) -> str | None:
    if t == ANY:
        return ANY
    if t.startswith("list[") and t.endswith("]"):
        return t[5:-1]
    return None


class DslError(Exception):
    """An expression problem at ``line``/``col`` (1-based, within the expression text)."""

    def __init__(self, message, line=1, col=1, hint=""):
        super().__init__(message)
        self.message, self.line, self.col, self._hint = message, line, col, hint
        self.more: list = []   # further problems of the same expression (every unknown name, not only the first)

    @property
    def hint(self) -> str:
        """What to write instead (``""`` if nothing); a "did you mean" search runs only when asked for."""
        if callable(self._hint):
            self._hint = self._hint()
        return self._hint

    @hint.setter
    def hint(self, value):
        self._hint = value


@dataclass
class Code:
    src: str
    type: str
    const: bool = False   # no state read: may be folded
    values: frozenset | None = None   # every value it can take, when known (`x % 4`, a table's values)
    cost: float = 1.0     # worst-case elementary steps of one evaluation (docs/dsl.md, "Bounds")
    size: float | None = None   # a list: most items it can hold (None: the game's bound, ``_Compiler.bound``)
    mag: tuple | None = None    # an int: (a, d, b), |value| <= a * S**d + b where S bounds every int read from
                                # the state (INT_LIMIT); None: (1, 1, 0), a plain read


@dataclass
class Binding:
    """What a name means: Python source and type; ``params`` for a callable definition."""

    src: str
    type: str
    kind: str = "value"   # value | define | fn
    params: tuple = ()
    param_types: tuple = ()
    const: bool = False
    body: str | None = None   # a small definition's generated source (parameters p_NAME), inlined at each use
    values: frozenset | None = None   # the values a parameterless definition can take, when known
    cost: float = 0.0     # a definition: the cost of one evaluation of its body (charged at each use)
    size: float | None = None   # a list: most items (e.g. seats: players; a counter: players)
    mag: tuple | None = None    # an int: its magnitude bound (Code.mag)


class EngineText(str):
    """An expression the engine writes itself (a step's default: ``left_of(dealer)``, ``right_of(seat)``):
    compiled among the engine's own names, so a ruleset's declaration of the same name (``vars: {dealer: 0}``)
    never changes what an engine default means (docs/rulesets.md, "Stability")."""

    __slots__ = ()


@dataclass
class Env:
    """Names visible to every expression of one game (built by the engine)."""

    names: dict = field(default_factory=dict)
    deck: object = None
    players: int = 0
    ns: dict | None = None   # the namespace generated code runs in (tables, helpers): for folding
    # The sources (``s.z[K]``) of the per-seat zones of cards: one list per seat, always ``players`` of them.
    seat_zones: frozenset = frozenset()
    # Source (``s.z[K]``) → the most cards one seat's pile holds, for the per-seat zones declared with ``max:``:
    # the bound of ``hand[p]`` (a list's size, docs/dsl.md "Bounds").
    pile_max: dict = field(default_factory=dict)
    # The sources (``s.c[K]``) of the counters read per seat: one value per seat, always ``players`` of them.
    seat_counters: frozenset = frozenset()
    # The names each expression looked up, by owner: the definition being compiled (``owner``), or None
    # for everything else (steps, match, deck...). ``Game.options_read`` follows it from None through the
    # definitions used, so an option read only by a definition nothing calls counts as unread.
    used: dict = field(default_factory=dict)
    owner: str | None = None
    # The engine's own binding of each name it provides, whatever the ruleset declares: what an expression the
    # engine writes itself (``EngineText``, a step's default such as ``left_of(dealer)``) reads.
    engine: dict = field(default_factory=dict)
    # The engine's names that a declaration of the ruleset hides (docs/rulesets.md, "Stability"): in the
    # ruleset's expressions they mean the ruleset's declaration, even where a step gives its expressions a
    # parameter of that name.
    hides: frozenset = frozenset()
    # Whether a card's effective suit depends on the deal (``deck: suit_of:`` reading the trump or a var):
    # then ``card.suit`` reads the state's table (``EFF``, bound from ``s.eff`` in each generated function).
    dynamic_suit: bool = False

    def engine_view(self) -> "Env":
        """This env as an ``EngineText`` sees it: the engine's names only, none of the ruleset's hiding them."""
        view = Env(names=dict(self.engine), deck=self.deck, players=self.players, ns=self.ns,
                   seat_zones=self.seat_zones, pile_max=self.pile_max, seat_counters=self.seat_counters, used={}, engine=self.engine,
                   dynamic_suit=self.dynamic_suit)
        for name, b in self.names.items():
            view.names.setdefault(name, b)
        return view

    def lookup(self, name):
        self.used.setdefault(self.owner, set()).add(name)
        return self.names.get(name)

    def all_names(self):
        return list(self.names)
