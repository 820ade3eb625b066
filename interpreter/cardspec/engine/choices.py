"""Small choices: every decision as a sequence of small steps, and the fixed integer action space of a game.

A decision step's action may be *compound*: a pass of three cards, a meld of any number of cards,
an ordered play of 1–4 cards and a declaration. Listing every compound action can take millions of
items (docs/actions.md). Here a compound action is made as a sequence of **small choices**, each a
short text (a *chunk*): the first names the action and, when the action's first parameter always has
a first word, that word too (``pass 2C``, ``meld 7H``, ``lay off 2``, ``play 8S``); each later chunk is
one word (a card ``3C``, a number ``40``, a value ``success``) or ``done``, which ends a list of cards
(or a number's digits) that could go on. Legality is checked at each small choice: a chunk is offered
only when some legal compound action starts with the chunks chosen so far and it (no dead ends). The
chunks chosen so far are the *partial choice*, part of the ``State`` (``State.choosing``, the view of
the seat to act: ``view(seat)["choosing"]``); a complete action is applied as if typed whole, so logs
and the history show the compound text (``pass 2C 3C 4C``).

A decision step takes part through four methods (``engine/steps/base.py`` has the defaults, one chunk
per legal action, for steps whose actions are already small):

- ``choice_names(game) -> list[str]``: every chunk the step can ever offer in this game (the space);
- ``compound``: True when its actions take more than one chunk;
- ``choice_options(s, pos) -> (chunks, move)``: the legal next chunks at partial position ``pos``
  (``None``: nothing chosen yet), or ``([], move)`` when the partial is a complete legal move;
- ``choice_next(s, pos, chunk) -> pos``: the position after a legal chunk.

``ActionCodec`` numbers the chunks of every decision step of a game: ``n`` ids, the same for every
state (docs/actions.md, "How ids are assigned").
"""
from __future__ import annotations

import ast

from ..errors import CardspecError

#: The chunk that ends a list that could go on (cards of a meld, a number's digits).
DONE_WORD = "done"

#: Digit chunks of a number whose range is not known when the ruleset loads (``-`` starts a negative one).
DIGITS = tuple("-0123456789")

#: A number parameter with at most this many values known at load time gets one chunk per value,
#: else it is spelled in digits (docs/actions.md).
MAX_VALUE_CHUNKS = 400


class ActionSpaceError(CardspecError):
    """The game's actions cannot be given a fixed integer space (e.g. a choice among texts that are not
    known when the ruleset loads). Code ``actions/space``."""

    code = "actions/space"


def empty_tests(env) -> dict:
    """The quick emptiness tests of a compiled game's searched ``candidates:`` values (``env``: its
    expression environment): the generated source of a builtin call whose value is a ``CardSetSearch``
    → the source of a cheap test, a bool that is True only when that value holds no card set at all
    (``none_holding(())`` would say so), reading only some of the call's arguments. A builtin records
    one when it compiles a call; a ``cards`` parameter whose ``candidates:`` is exactly that call asks
    it first (turns/search.py ``_witness``), before the value is made. One entry per call site of
    such a builtin in the ruleset's text (bounded at load)."""
    got = env.__dict__.get("empty_tests")
    if got is None:
        got = env.__dict__["empty_tests"] = {}
    return got


class CardSetSearch:
    """A ``candidates:`` value that can be searched, not only listed (docs/turns.md, "Searched candidates").

    As a value it is the list of its card sets (``list[tuple[card]]``, listed on first use: ``count``,
    ``for``, indexing and the listing of legal actions see exactly that list). A small choice needs less:
    whether some card set holding the cards chosen so far is legal. ``containing(cur)`` yields the card
    sets that hold the multiset ``cur`` (each a tuple of cards in any order, a set possibly more than
    once) without listing the others, so that search stops at the first legal one; ``holds(v)`` says
    whether ``v`` (a tuple of cards) is one of the card sets; ``units(cur)`` narrows the cards worth
    trying next. All agree with the list (a subclass gives ``_listing``, and may give the others
    faster; tests compare them).
    """

    __slots__ = ("_list",)

    def _listing(self) -> list:
        raise NotImplementedError

    def containing(self, cur):
        """The card sets that hold every card of ``cur`` (with repeats): an iterator of tuples."""
        k = len(cur)
        for v in self._all():
            if k == 0 or _sub_multiset(cur, v):
                yield v

    def units(self, cur):
        """Cards that may be added to ``cur``: every card ``u`` such that some card set holds ``cur``
        and ``u`` is among them (more may be given: each is checked by a search), or None when
        every card of the zone may."""
        return None

    def none_holding(self, cur) -> bool:
        """True when surely no card set holds ``cur`` (a quick test before ``containing``; False tells nothing)."""
        return False

    def holds(self, v) -> bool:
        """Whether the card set ``v`` (any order) is one of these."""
        want = sorted(v)
        return any(sorted(x) == want for x in self._all())

    def _all(self) -> list:
        try:
            return self._list
        except AttributeError:
            self._list = self._listing()
            return self._list

    def __iter__(self):
        return iter(self._all())

    def __len__(self):
        return len(self._all())

    def __getitem__(self, i):
        return self._all()[i]

    def __contains__(self, v):
        return v in self._all()

    def __bool__(self):
        return bool(self._all())

    def __eq__(self, other):
        return list(self._all()) == (list(other) if isinstance(other, (list, tuple, CardSetSearch)) else other)

    __hash__ = None

    def __repr__(self):
        return f"{type(self).__name__}({self._all()!r})"


def _rest_if_within(v, cur):
    """The cards of ``v`` left once ``cur`` is taken out (with repeats), or None when ``v`` does not hold
    every card of ``cur``."""
    rest = list(v)
    for c in cur:
        if c not in rest:
            return None
        rest.remove(c)
    return rest


def _sub_multiset(cards, zone) -> bool:
    """True when every card of ``cards`` (with repeats) is in ``zone`` (the steps' legality checks use it too)."""
    if len(cards) == 1:
        return cards[0] in zone
    return _rest_if_within(zone, cards) is not None


# ---- static bounds of number expressions ---------------------------------------------------------

_INF = float("inf")


def _bounds(node, cap):
    """``(lo, hi)`` bounds of a compiled int expression (a Python AST), ``±inf`` when unknown.

    ``cap``: the most cards a zone can hold (``len(...)`` of anything is within ``[0, cap]``). Understands
    constants, ``+ - * //``, unary minus, ``min``, ``max`` (and ``_min2``, ``_max2``), ``abs``, ``len`` and ``x if c else y``.
    """
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, bool)):
        return node.value, node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        lo, hi = _bounds(node.operand, cap)
        return -hi, -lo
    if isinstance(node, ast.IfExp):
        a, b = _bounds(node.body, cap), _bounds(node.orelse, cap)
        return min(a[0], b[0]), max(a[1], b[1])
    if isinstance(node, ast.BinOp):
        a, b = _bounds(node.left, cap), _bounds(node.right, cap)
        if isinstance(node.op, ast.Add):
            return a[0] + b[0], a[1] + b[1]
        if isinstance(node.op, ast.Sub):
            return a[0] - b[1], a[1] - b[0]
        if isinstance(node.op, ast.Mult) and _INF not in map(abs, a + b):
            p = [x * y for x in a for y in b]
            return min(p), max(p)
        if isinstance(node.op, ast.FloorDiv) and b[0] == b[1] and b[0] > 0 and _INF not in map(abs, a):
            return a[0] // b[0], a[1] // b[0]
        return -_INF, _INF
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        f = node.func.id
        args = [_bounds(x, cap) for x in node.args]
        if f == "len" and len(args) == 1:
            return 0, cap
        if f == "_min2" and len(args) == 2 or f == "min" and len(args) >= 2:   # (_min2: lang/builtins.py)
            return min(x[0] for x in args), min(x[1] for x in args)
        if f == "_max2" and len(args) == 2 or f == "max" and len(args) >= 2:
            return max(x[0] for x in args), max(x[1] for x in args)
        if f == "abs" and len(args) == 1:
            lo, hi = args[0]
            return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))
    return -_INF, _INF


def static_range(lo_src: str, hi_src: str, step_src: str, cap: int):
    """The values a number parameter can ever take, from its compiled ``min``/``max``/``step``
    sources: a ``range`` when they are bounded at load time and at most ``MAX_VALUE_CHUNKS`` values,
    else None (the number is then spelled in digits)."""
    try:
        lo = _bounds(ast.parse(lo_src, mode="eval").body, cap)[0]
        hi = _bounds(ast.parse(hi_src, mode="eval").body, cap)[1]
        st = ast.literal_eval(step_src) if step_src else 1
    except (SyntaxError, ValueError):
        return None
    if not isinstance(st, int) or st <= 0:
        st = 1 if st is not None and not isinstance(st, int) else st
        if not isinstance(st, int):
            return None
    if abs(lo) == _INF or abs(hi) == _INF or hi < lo:
        return None if abs(lo) == _INF or abs(hi) == _INF else range(0)
    if st > 1 and lo_src.strip().lstrip("-").isdigit():
        r = range(int(lo), int(hi) + 1, st)   # a constant min: the steps from it
    else:
        r = range(int(lo), int(hi) + 1)       # any value in the bounds may be a min + k * step
    return r if len(r) <= MAX_VALUE_CHUNKS else None


def literal_list(src: str):
    """The items of a compiled list expression that is a constant (``['success', 'failure']``), else None."""
    try:
        v = ast.literal_eval(src)
    except (SyntaxError, ValueError):
        return None
    return list(v) if isinstance(v, (list, tuple)) else None


# ---- the codec -----------------------------------------------------------------------------------

class ActionCodec:
    """The fixed integer action space of one ``Game`` (ruleset, player count, options).

    Ids are ``0..n-1``; each names one small choice (a chunk of text, module doc). Built once per
    game (``game.actions``); the same for every state of that game.

    Attributes: ``n`` (int, the number of ids).
    Raises ``ActionSpaceError`` (at construction) when a step's chunks are not known at load time.
    """

    __slots__ = ("n", "_names", "_index", "game")

    def __init__(self, game):
        self.game = game
        names = []
        seen = set()
        done = False
        for step in game.steps:
            if not step.decision:
                continue
            for t in step.choice_names(game):
                if t not in seen:
                    seen.add(t)
                    names.append(t)
            done = done or step.compound
        if done and DONE_WORD not in seen:
            names.append(DONE_WORD)
        self._names = tuple(names)
        self._index = {t: i for i, t in enumerate(names)}
        self.n = len(names)
        for step in game.steps:
            if step.decision and not step.compound:
                table = step.move_ids(self)
                fast = step.id_fast_path(self, table) if table is not None else None
                if fast is not None:
                    get, keys, apply, key_of, ascending = fast
                    mode = 2 if ascending else 1 if len(set(game.deck.cards)) != len(game.deck.cards) else 0
                    step.id_fast = (get, table[1], self._names, mode, keys, apply, key_of)

    def ids_of(self, texts) -> list:
        """The ids of chunks ``texts``, in their order."""
        index = self._index
        return [index[t] for t in texts]

    def describe(self, i) -> str:
        """``i`` and its chunk, for messages (``'out of range'`` when it is no id)."""
        return f"'{self._names[i]}'" if isinstance(i, int) and 0 <= i < self.n else f"out of range 0..{self.n - 1}"

    def encode(self, text: str) -> int:
        """The id of small choice ``text`` (a chunk such as ``QS``, ``pass 2C``, ``done``).

        Raises ``ValueError`` when ``text`` is no chunk of this game."""
        i = self._index.get(text)
        if i is None:
            i = self._index.get(" ".join(str(text).split()))
            if i is None:
                raise ValueError(f"'{text}' is not a small choice of this game ({self.n} ids; see names())")
        return i

    def decode(self, i: int) -> str:
        """The chunk of id ``i``. Raises ``ValueError`` when ``i`` is not in ``0..n-1``."""
        if not isinstance(i, int) or not 0 <= i < self.n:
            raise ValueError(f"action id {i!r} is out of range 0..{self.n - 1}")
        return self._names[i]

    def names(self) -> list:
        """Every chunk, by id."""
        return list(self._names)

    def ids(self, texts) -> list:
        """The sorted ids of chunks ``texts`` (every one must be a chunk of the game)."""
        index = self._index
        return sorted([index[t] for t in texts])

    def mask(self, state) -> bytes:
        """``n`` bytes, 1 at the ids legal now in ``state`` (all 0 when the match is over)."""
        m = bytearray(self.n)
        for i in state.legal_action_ids():
            m[i] = 1
        return bytes(m)

    def __repr__(self):
        return f"<ActionCodec {self.game.name} n={self.n}>"


def digit_options(values, prefix: str):
    """The small choices of a number spelled in digits: ``(next characters, complete)`` for the
    characters typed so far ``prefix`` among the legal ``values`` (ints). ``complete``: ``prefix`` is
    itself a legal value (with next characters too, ``done`` ends it)."""
    nxt = set()
    complete = False
    k = len(prefix)
    for v in values:
        t = str(v)
        if t.startswith(prefix):
            if len(t) == k:
                complete = True
            else:
                nxt.add(t[k])
    return sorted(nxt, key=DIGITS.index), complete
