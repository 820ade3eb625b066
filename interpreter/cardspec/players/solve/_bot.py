"""``SolverBot`` (bot spec ``solver``, ``solver:12``): solves a position rebuilt from its view
(``state_from_public_view``) when few cards are in play (``cards_in_play``), else plays as its fallback.
"""
from __future__ import annotations

from ..base import Bot, RandomBot
from ._entry import solve
from ._result import SolveError


def cards_in_play(state) -> int:
    """Cards in per-seat zones (hands) and on shared zones other than the stock: the solver's size measure."""
    g = state.game
    total = 0
    for zn in g.zones:
        if zn.per_seat:
            total += sum(len(h) for h in state.z[zn.index])
        elif zn.index != g.stock:
            total += len(state.z[zn.index])
    return total


def state_from_public_view(game, view: dict):
    """The exact State behind a view of a perfect-information position (every zone shown as cards).

    Rebuilds zones, counters, vars, system values, the trick and the ``turns`` step's position (turn
    seat, phase, actions in the phase; a ``next_seat`` set earlier in the same turn is not in the
    view and is taken as unset). The repetition history is not in a view: it starts empty.
    Raises ``SolveError`` when the view hides cards or the match is over.
    """
    from ...engine.slots import SYSTEM_VARS, TO_ACT
    if view.get("terminal"):
        raise SolveError("the match is over")
    s = game.new_state(seed=0, record=False)
    s.events = None
    deck = game.deck
    for zn in game.zones:
        z = view["zones"].get(zn.name)
        if zn.per_seat:
            for seat in range(game.n):
                cards = z.get(str(seat)) if isinstance(z, dict) else None
                if not isinstance(cards, list):
                    raise SolveError(f"the view hides zone '{zn.name}' of seat {seat}: not perfect information")
                s.z[zn.index][seat] = [deck.face(c) if not isinstance(c, list) else tuple(deck.face(x) for x in c)
                                       for c in cards]
        else:
            if not isinstance(z, list):
                if isinstance(z, dict) and z.get("count", 0) == 0:
                    s.z[zn.index] = []
                    continue
                raise SolveError(f"the view hides zone '{zn.name}': not perfect information")
            s.z[zn.index] = [deck.face(c) if not isinstance(c, list) else tuple(deck.face(x) for x in c) for c in z]
    for c in game.counters:
        s.c[c.index] = list(view["counters"][c.name])
    for var in game.vars:
        s.v[var.index] = view["vars"][var.name]
    for i, (name, _, _) in enumerate(SYSTEM_VARS):
        s.v[i] = view["system"][name]
    s.plays = [(seat, deck.face(c)) for seat, c in view.get("trick") or []]
    s.pc = view["step_index"]
    s.entered = True
    s.terminal = False
    turn = view.get("turn")
    if turn is not None:
        from ...engine.steps.turns import ACTOR, CNT, PH, SEAT, TURNS
        ts = [0, 0, -1, 0, 0, -1, -1]
        ts[PH], ts[CNT], ts[SEAT] = turn["phase"], turn["actions_in_phase"], turn["seat"]
        ts[TURNS] = turn["number"] - 1
        ts[ACTOR] = view["to_act"]
        s.ts = ts
    s.v[TO_ACT] = view["to_act"]
    s._cache = None
    return s


class SolverBot(Bot):
    """Plays a perfect-information two-player ruleset: solves the position when at most ``max_cards`` cards
    are in play (``cards_in_play``), within ``seconds`` per decision, else asks ``fallback`` (random).

    Sees only its view, like every bot (``cardspec.bots``); rebuilds the position with
    ``state_from_public_view``.
    """

    name = "solver"

    def __init__(self, game, max_cards: int = 16, seconds: float = 2.0, fallback: Bot | None = None, seed=None):
        self.game = game
        self.max_cards = max_cards
        self.seconds = seconds
        self.fallback = fallback or RandomBot(seed)
        self.last = None   # the last Result (None when the fallback answered)

    def act(self, view, legal):
        self.last = None
        try:
            s = state_from_public_view(self.game, view)
        except (SolveError, KeyError, ValueError):
            return self.fallback.act(view, legal)
        if cards_in_play(s) > self.max_cards or len(legal) == 1:
            return self.fallback.act(view, legal)
        res = solve(s, self.seconds)
        self.last = res
        return res.best if res.best in legal else self.fallback.act(view, legal)


def make(arg: str, seed=None, game=None, policy=None) -> SolverBot:
    """``make_bot``'s ``solver`` / ``solver:12`` (at most 12 cards in play): perfect-information two-player games.

    Raises ``ValueError`` without the game or for a bad parameter.
    """
    if game is None:
        raise ValueError("the solver bot needs the game's rules")
    try:
        return SolverBot(game, max_cards=int(arg) if arg else 16, seed=seed)
    except ValueError:
        raise ValueError(f"solver takes the most cards in play it solves (solver:12), not '{arg}'") from None
