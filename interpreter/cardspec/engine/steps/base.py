"""The steps of a deal: ``Step``, the table of step kinds and building a step from YAML.

Every step is built from one YAML item of ``deal:`` (``- shuffle``,
``- deal: {…}``, ``- pass: {…}``, ``- tricks: {…}``, ``- score: {…}``,
``- do: [effects]``) and registered in ``STEP_TYPES`` by its keyword
(jsonschema's ``_keywords.py`` idea: one table, one signature). Each kind is a
module of ``cardspec.engine.steps``, which imports them all, so the table is
full once the package is imported; this module imports none of them. Automatic
steps implement ``run(s)``; decision steps implement ``enter(s)`` (False when
there is nothing to decide), ``legal(s)`` (internal moves), ``apply(s, move)``
(True when the step is over), ``text``/``parse`` (the action's text form).

No step knows a game: everything game-specific is an expression or an effect
list in the ruleset.
"""
from __future__ import annotations

from ..choices import _sub_multiset  # noqa: F401 - passing and turns import it from here
from ..compiler import Compiler
from ...lang import BOOL, RuleFault

#: The most moves one listing may hold: the card sets (or sequences) of a ``cards:`` parameter or of a
#: pass, and the combinations of values one action's parameters try together (docs/rulesets.md, "Caps").
#: The counts depend on the hand, so they are checked when the moves are listed; past them the game stops
#: with a ``RuleFault`` at the step rather than run for hours or exhaust memory.
MAX_LISTED = 2_000_000


class ListingTooLarge(RuleFault):
    """A listing of moves would pass ``MAX_LISTED``. The state is sound (a hand of 40 cards in a game of
    ordered plays); only the list is not made: the state reports it as ``TooManyActions``."""


#: ``State._cache`` while ``State.apply`` (an action given as text) runs a step: the caller lists the legal
#: actions next (``legal_actions()``), so a step that has to search its next decision anyway may list it
#: instead and keep ``(texts, moves)`` there, as ``legal_actions`` would (the turns step's ``_run``).
#: ``State.apply`` puts ``None`` back when no step did. Never seen outside ``State.apply``.
LIST_NEXT = (None, None)


def _listing_too_large(what: str):
    """Raises ``ListingTooLarge`` (a ``RuleFault``): ``what`` would list more than ``MAX_LISTED`` moves."""
    raise ListingTooLarge(f"{what} would list more than {MAX_LISTED:,} moves at once (docs/rulesets.md, Caps)")

STEP_TYPES = {}




def step_type(name):
    def deco(cls):
        STEP_TYPES[name] = cls
        cls.kind = name
        return cls
    return deco


def build(game, comp: Compiler, spec, path):
    """Build the step for one item of ``deal:``; records a problem and returns None when unknown."""
    if isinstance(spec, str):
        kind, body = spec, {}
    elif isinstance(spec, dict):
        kinds = [k for k in spec if k not in ("id", "if", "name", "before_deal")]
        if len(kinds) != 1:
            comp.problem(path, f"a step has exactly one kind ({', '.join(sorted(STEP_TYPES))}); found "
                               f"{', '.join(kinds) or 'none'}")
            return None
        kind, body = kinds[0], spec[kinds[0]]
    else:
        comp.problem(path, "a step is a name (shuffle) or a mapping (deal: {...})")
        return None
    cls = STEP_TYPES.get(kind)
    if cls is None:
        import difflib
        close = difflib.get_close_matches(str(kind), list(STEP_TYPES), n=1)
        comp.problem(path, f"unknown step '{kind}'", f"did you mean '{close[0]}'?" if close else
                     "steps: " + ", ".join(sorted(STEP_TYPES)))
        return None
    body_path = path if isinstance(spec, str) else path + (kind,)
    step = cls(game, comp, body if body is not None else {}, body_path)
    step.id = spec.get("id") if isinstance(spec, dict) else None
    step.name = step.id or kind
    step.path = path
    step.when = comp.expr(spec["if"], path + ("if",), (), (BOOL,)) if isinstance(spec, dict) and "if" in spec else None
    # A decision step before the deal is complete (e.g. choosing suits that the deal depends on): a
    # scenario's `deal:` (the first deal's result) is applied at the first decision step after it.
    step.before_deal = bool(spec.get("before_deal", False)) if isinstance(spec, dict) else False
    return step


class Step:
    """Base class. ``decision`` steps wait for seats; others run at once."""

    decision = False
    kind = "step"
    before_deal = False
    #: Whether the step reads the play order table ``State.nxt`` directly (else only through
    #: ``Game.next_player``, which computes the table when it is not there).
    reads_order = False

    def __init__(self, game, comp: Compiler, body, path):
        self.game = game
        self.body = body

    def check(self, game, comp):
        pass

    # automatic
    def run(self, s):  # pragma: no cover - overridden
        pass

    # decisions
    def enter(self, s) -> bool:
        return False

    def legal(self, s) -> list:
        return []

    def legal_sorted(self, s) -> list:
        return self.legal(s)

    def text_fused(self):
        """``(listing lines, play lines)``: statements for ``compile.generate.fused_state_class``'s generated
        ``legal_actions``/``apply`` at this step, or None (the State's own methods answer)."""
        return None

    #: ``legal_texts(s) -> (texts, moves)``: ``legal_sorted`` and their ``texts`` made in one call (an
    #: optional fast path of ``State.legal_actions``; None: the two calls).
    legal_texts = None

    def random_move(self, s, rng):
        return rng.choice(self.legal(s))

    def is_legal(self, s, move) -> bool:
        """Whether ``move`` is legal now (steps may check faster than listing every move)."""
        return move in self.legal(s)

    #: ``playout(s, rng)``: plays random moves until the step ends (optional fast path).
    playout = None

    def apply(self, s, move) -> bool:  # pragma: no cover - overridden
        return True

    def text(self, s, move) -> str:
        return str(move)

    def texts(self, s, moves) -> list:
        """Text forms of ``moves`` (steps may build many at once faster)."""
        return [self.text(s, m) for m in moves]

    def parse(self, s, text):
        return text

    def why_illegal(self, s, move) -> str:
        return "not a legal action now"

    def add_view(self, s, seat, out):
        pass

    def played_for(self, s):
        """``(zone index, owner)`` of the pile the seat to act plays from when it is another seat's (a
        ``tricks`` step's ``played_by:``), else None; that seat's view shows the pile (engine/views.py)."""
        return None

    # ---- small choices (engine/choices.py, docs/actions.md) ----------------------------------------
    #: True when an action of this step may take more than one small choice.
    compound = False
    #: ``(key -> id, id -> move, names, mode, keys function, apply function, id -> key)`` when each legal
    #: move has one id found by a table look-up (``id_fast_path``; ``mode``: 0 ids to sort, 1 to sort
    #: and make unique, 2 already ascending); set by the game's ``ActionCodec``
    #: (``State.legal_action_ids``' hot path).
    id_fast = None

    def choice_names(self, game) -> list:
        """Every small choice (chunk of text) this step can ever offer in ``game``: its part of the
        game's integer action space. Decision steps override it; ``ActionSpaceError`` otherwise."""
        from ..choices import ActionSpaceError
        raise ActionSpaceError(f"step '{getattr(self, 'name', self.kind)}' ({self.kind}) has no action space")

    def choice_options(self, s, pos):
        """``(chunks, move)``: the legal next small choices at partial position ``pos`` (None: nothing
        chosen yet), or ``([], move)`` when the partial is a complete legal move. Here (a step whose
        actions are small): every legal action's text is one chunk."""
        if pos is None:
            return s.legal_actions(), None
        return [], pos[1]

    def move_ids(self, codec):
        """``(ids, inverse, table)``: a function ``(s, moves) -> ids`` giving the codec ids of this step's
        legal internal moves without making their texts, a table id -> move (every legal move's id maps
        back to it whatever the state) and, when moves are ints (or hashable), a list (or dict) move ->
        id that replaces the function (or None); optionally a 4th item: a function ``(s) -> moves``
        with the same moves as ``legal`` (a fast path; it may return a list the state holds, which
        the caller must not change), and a 5th: True when that function's moves always come in
        ascending order of their ids, each once. None: ids come from the texts."""
        return None

    def id_fast_path(self, codec, table):
        """The hot path of ``State.legal_action_ids``/``apply_id`` for this step, from ``table``
        (``move_ids``' answer): ``(key -> id, keys(s), apply(s, key) -> step over, id -> key,
        ascending)``, or None. A *key* stands for one legal move: ``keys(s)`` lists the legal ones (it
        may return a list the state holds: the caller never changes it), ``apply`` makes the move of
        a key exactly as ``self.apply`` makes the move, ``ascending``: the keys always come in
        ascending order of their ids, each once. Here: the moves themselves are the keys, when
        ``table`` has a move -> id list or dict."""
        if table is None or table[2] is None:
            return None
        return (table[2].__getitem__, table[3] if len(table) > 3 else self.legal, self.apply, table[1],
                len(table) > 4 and bool(table[4]))

    def id_fused(self, codec):
        """The id hot path (``id_fast``) as statements, for the state's generated ``legal_action_ids`` /
        ``apply_id`` (``compile.generate.fused_state_class``: no call into the step per action): ``(keys, play,
        names)``, where the ``keys`` statements set ``c1`` to the keys ``id_fast`` lists (they read
        ``s``; no effect), the ``play`` statements make the move of key ``p_card`` exactly as
        ``id_fast``'s apply and set ``done`` to its answer, and ``names`` (name -> object) are added to
        the game's namespace for them. Both are engine text or text generated from the checked tree.
        None: the step keeps the calls."""
        return None

    def choice_next(self, s, pos, chunk):
        """The partial position after the legal chunk ``chunk`` at ``pos``."""
        return ("move", s._legal_map()[chunk])

    @staticmethod
    def card_codes(game) -> list:
        """The codes of the deck's distinct cards, in display order."""
        deck = game.deck
        return [deck.code[f] for f in sorted(set(deck.cards), key=deck.sort_key.__getitem__)]


def zone_of(game, comp, name, path, per_seat=None):
    """Zone index by name; records a problem (with a hint) when unknown or of the wrong kind."""
    z = game.zone.get(str(name))
    if z is None:
        import difflib
        close = difflib.get_close_matches(str(name), list(game.zone), n=1)
        comp.problem(path, f"unknown zone '{name}'", f"did you mean '{close[0]}'?" if close else
                     "zones: " + ", ".join(game.zone))
        return 0
    if z.order == "top_only":   # a step's own code is not checked against it (docs/rulesets.md): refused
        comp.problem(path, f"zone '{name}' is declared order: top_only; a step may not name it",
                     f"drop order: top_only from zones: {name}, or fill it with a move effect")
    if per_seat is True and not z.per_seat:
        comp.problem(path, f"zone '{name}' is shared; this needs a per-seat zone (owner: seat)")
    if per_seat is False and z.per_seat:
        comp.problem(path, f"zone '{name}' is per seat; this needs a shared zone")
    return z.index


class DealError(RuleFault):
    """A step that cannot go on with these cards or values (a deal larger than the stock, a bid range with no
    bid, a short hand for the tricks, two seats passing to one); the State reports it as a RulesetError
    at the step (``State._failed``)."""

    def __init__(self, step, message):
        super().__init__(message)
        self.step = step
