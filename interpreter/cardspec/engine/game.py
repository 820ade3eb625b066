"""The ``Game``: a ruleset compiled for a player count and option values, immutable once compiled.

``Game(ruleset, players, options)`` runs the compile pipeline (``engine/compile``: read → scope → deck →
names → declarations → definitions → flow → checks → generate), which resolves the deck's tables, zones,
counters and vars to list indexes, turns every expression into a Python function (through
``cardspec.lang``) and builds the deal's steps (``cardspec.engine.steps``). What is here is what a compiled
game answers during play: its States (``new_state``; OpenSpiel's split: only the Game makes States), its
play order, its integer action space. What happens during play is in ``state.py``; the two modules do not
import each other (the pipeline's ``generate`` pass hands the State class over).

Seats are 0..n-1 clockwise; seat i+1 is at seat i's left (DESIGN.md).
"""
from __future__ import annotations

import json as _json
import random
import re
from itertools import chain as _chain_iter

from . import melds as _melds  # noqa: F401  (meld functions for expressions, meld/lay_off effects)
from . import plays as _plays  # noqa: F401  (the play and plays_to effects: cards played in sequence)
from .compile import compile_into
from .compile.generate import action_codec, specialisation as _specialisation
from .compiler import _ID_IN_NAME
from .model import Counter, VISIBILITY, Var, Zone  # noqa: F401  (the declarations' shapes, also named here)
from .slots import SITS_OUT
from ..rules import by_option_nodes

_chain_lists = _chain_iter.from_iterable
_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def _fingerprint(g) -> str:
    """What compiling made, as one digest (``Game.fingerprint``): every generated function's source (the
    compiler's digest, option values folded into them), the tables they read (the namespace's plain
    values) and the ruleset as its ``by_option`` choices resolved it. Object addresses and names made
    from id() are written alike, so two compiles of the same game give the same digest. Taken when
    compiling ends (later caches, such as the action codec, add nothing)."""
    h = g.comp.digest.copy()
    for k, v in g.ns.items():
        if k != "__builtins__" and isinstance(v, (tuple, frozenset, dict, int, str, float)):
            h.update(_ID_IN_NAME.sub("#", _ADDRESS.sub("", f"{k}={v!r};")).encode())   # (addresses first: hex digits after a letter are no id)
    h.update(_json.dumps(g.data, default=repr, sort_keys=True).encode())
    return h.hexdigest()


class Game:
    """A ruleset compiled for ``players`` seats and option values.

    Parameters:
        ruleset: a ``Ruleset`` or a built-in name / file path.
        players: number of seats (within the ruleset's ``players`` range).
        options: option name → value (text or typed), over the declared defaults.

    Raises ``RulesetError`` for any problem (each with file:line:col). Once made, a Game does not change:
    setting an attribute raises ``AttributeError`` (caches kept by the Game itself, such as the action
    codec and the play-order tables, are not attributes set from outside).
    """

    _frozen = False

    def __init__(self, ruleset, players: int | None = None, options: dict | None = None):
        compile_into(self, ruleset, players, options)
        self.fingerprint = _fingerprint(self)
        self._frozen = True

    def __setattr__(self, name, value):
        if self._frozen:
            raise AttributeError(f"a compiled Game does not change: cannot set '{name}' (compile another Game)")
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if self._frozen:
            raise AttributeError(f"a compiled Game does not change: cannot delete '{name}'")
        object.__delattr__(self, name)

    # ---- states -------------------------------------------------------------
    @property
    def actions(self):
        """The game's ``ActionCodec`` (engine/choices.py, docs/actions.md): its fixed integer action
        space, built on first use and kept. Raises ``ActionSpaceError`` when a step's small choices are
        not known at load time."""
        codec = self.__dict__.get("_codec")
        if codec is None:
            codec, cls = action_codec(self)
            self.__dict__.update(_codec=codec, _state_class=cls)   # (caches: allowed on a frozen Game)
        return codec

    def specialisation(self) -> list:
        """Which steps run code generated for this ruleset and which take the generic path, and why:
        one dict per step (``step``, ``kind``, ``text``, ``ids``; ``"generated"`` or the reason), as
        ``compile.generate.specialisation`` describes. Builds the action codec if needed; never raises."""
        return _specialisation(self)

    def new_state(self, seed=None, dealer: int | None = None, deck_order=None, record: bool = True,
                  deal=None, rng: random.Random | None = None):
        """A new match at its first decision: a ``State`` (``engine/state.py``).

        Parameters:
            seed: the RNG seed (any int or str); the same seed gives the same shuffles.
            dealer: the first dealer's seat (default: the ruleset's, usually 0).
            deck_order: optional list of card codes fixing the first deal's shuffled order, top first
                (cards not named follow in the seed's order).
            record: keep the event log (off for the fastest playouts).
            deal: optional ``{(zone_index, seat or None): [faces]}`` fixing the first deal's result
                (see ``cardspec.scenario``).
            rng: a ``random.Random`` to use instead of a new one seeded with ``seed`` (shared, not copied).
        """
        return self._state_class(self, seed, dealer, deck_order, record, deal, rng)

    def next_player(self, s, seat: int) -> int:
        """The seat after ``seat`` in play order this deal (``match: next_player``; default: to the left),
        skipping a seat that sits the deal out (``sits_out``)."""
        nxt = s.nxt
        if nxt is None:
            if self.next_expr is None and (not self.may_sit_out or s.v[SITS_OUT] < 0):
                return (seat + 1) % self.n
            nxt = s.nxt = self.order_table(s)   # not computed since the step began (State._advance_steps)
        return nxt[seat % self.n]

    def order_table(self, s):
        """``match: next_player`` for every seat, as a tuple (None without one in a game where no seat
        ever sits out: play goes left). A seat that sits out (``sits_out``) is passed over: the seat before it is
        followed by the one after it (its own entry stays its successor, so a walk from it goes on)."""
        out = s.v[SITS_OUT] if self.may_sit_out else -1
        if self.next_expr is None:
            if out < 0 and not self.may_sit_out:
                return None
            # A game where a seat may sit out reads the table in its generated code (the tricks step's
            # fast loop) even in a deal where nobody does: a sits_out step placed after the deal, whose
            # seat depends on the play (a maker going alone), often names none (issue 34 item 11).
            # Play goes left: the table depends on the seat sitting out alone, made once per seat
            # (a cache of the Game's own: a game where a seat may sit out asks at every step a deal enters).
            made = self.__dict__.setdefault("_left_orders", {})
            got = made.get(out)
            if got is not None:
                return got
            order = [(seat + 1) % self.n for seat in range(self.n)]
            if out < 0:
                got = made[out] = tuple(order)
                return got
            after = order[out]
            for seat in range(self.n):
                if order[seat] == out and seat != out:
                    order[seat] = after
            got = made[out] = tuple(order)
            return got
        else:
            order = self._expr_order(s)
            if out < 0:
                return order
            order = list(order)
        if out >= 0:
            after = order[out]
            for seat in range(self.n):
                if order[seat] == out and seat != out:
                    order[seat] = after
        return tuple(order)

    def playing(self, s) -> int:
        """How many seats play this deal: ``players``, one fewer while a seat sits out (``sits_out``)."""
        return self.n - (1 if self.may_sit_out and s.v[SITS_OUT] >= 0 else 0)

    def seated(self, s, seat: int) -> int:
        """``seat`` (mod players), or the next seat in play order when it sits this deal out: where a
        step given a first seat (a first leader, an auction's first bidder) starts."""
        seat %= self.n
        if self.may_sit_out and seat == s.v[SITS_OUT]:
            return self.next_player(s, seat)
        return seat

    def _expr_order(self, s) -> tuple:
        """``match: next_player`` of every seat, as a tuple. When the expression reads only counters and
        vars (``chair[p]``, ``dealer``), the table is kept per value of those (a seat change makes a new
        one): the same table, computed once."""
        f = self.next_expr
        slots = self._order_key
        if slots is None:
            return tuple([f(s, seat) % self.n for seat in range(self.n)])
        vs, cs = slots
        c = s.c
        key = (*map(s.v.__getitem__, vs), *_chain_lists(map(c.__getitem__, cs)))
        table = self._order_cache.get(key)
        if table is None:
            table = tuple([f(s, seat) % self.n for seat in range(self.n)])
            if len(self._order_cache) >= 256:
                self._order_cache.clear()
            self._order_cache[key] = table
        return table

    def state_from_view(self, view: dict, hidden: dict | None = None, seed=None):
        """A State built from one seat's ``view`` plus guesses for what it hides (``cardspec._determinize``)."""
        from .determinize import state_from_view
        return state_from_view(self, view, hidden, seed)

    def zone_index(self, name: str) -> Zone:
        return self.zone[name]

    def option_named(self, value):
        """The value of the option a step field names (``if_none_wins: MODE_OPTION``), else ``None``;
        the option counts as read (``options_read``)."""
        if isinstance(value, str) and value in self.options:
            self._options_named.add(value)
            return self.options[value]
        return None

    @property
    def options_read(self) -> set:
        """Names of the options this compiled game reads: in an expression compiled for it (in a
        definition only if an expression outside the definitions uses it, directly or not), as a
        ``by_option`` (any of its cases, chosen or not), or named by a step field (``option_named``).
        ``cardspec validate`` warns about a declared option outside this set for every option value it
        tries (issue 20: an inherited option that changes nothing)."""
        by_option = {node["by_option"] for _, node in by_option_nodes(self.ruleset.data)}
        used, todo = set(), [None]   # names read from outside definitions, then from the definitions used
        while todo:
            for name in self.env.used.get(todo.pop(), ()):
                if name not in used:
                    used.add(name)
                    if name in self.env.used:
                        todo.append(name)
        return (used | by_option | self._options_named) & set(self.options)
