"""What a solve answers: the values (``WIN``, ``DRAW``, ``LOSS``) and their words, the ``Result`` and its text,
which positions can be solved (``check_solvable``, ``SolveError``) and the value of a finished match.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import CardspecError

WIN, DRAW, LOSS = 1, 0, -1
VALUE_WORDS = {WIN: "win", DRAW: "draw", LOSS: "loss"}


class SolveError(CardspecError):
    """The position cannot be solved: not two players, hidden cards, or the match is over."""

    code = "solve/unsupported"


@dataclass
class Result:
    """What ``solve`` found, for the side to move (``seat``).

    ``value``: +1 win, 0 draw, -1 loss, or None when not proven in time (then ``lo``/``hi``
    bound it: e.g. ``lo=0, hi=1`` is "at least a draw"). ``best``: a best action's text (the
    first among equals; None when over). ``moves``: every legal action → its ``[lo, hi]``
    bounds after the last iteration. ``depth``: decisions searched in the last completed
    iteration; ``nodes``: positions visited; ``seconds``: wall time.
    """

    seat: int
    value: int | None
    lo: int
    hi: int
    best: str | None
    depth: int
    nodes: int
    seconds: float
    moves: dict = field(default_factory=dict)
    method: str = "alphabeta"

    @property
    def proven(self) -> bool:
        return self.value is not None

    def describe(self) -> str:
        """One line: ``win for seat 1 (the side to move); best move: lead 9S``."""
        if self.value is not None:
            what = f"{VALUE_WORDS[self.value]} for seat {self.seat} (the side to move)"
        else:
            what = f"not proven in time: between {VALUE_WORDS[self.lo]} and {VALUE_WORDS[self.hi]} " \
                   f"for seat {self.seat} (the side to move)"
        return what + (f"; best move: {self.best}" if self.best else "")

    def as_json(self) -> dict:
        return {"seat": self.seat, "value": VALUE_WORDS.get(self.value) if self.value is not None else None,
                "bounds": [VALUE_WORDS[self.lo], VALUE_WORDS[self.hi]], "best": self.best, "depth": self.depth,
                "nodes": self.nodes, "seconds": round(self.seconds, 3), "method": self.method,
                "moves": {k: [VALUE_WORDS[a], VALUE_WORDS[b]] for k, (a, b) in self.moves.items()}}


def check_solvable(state):
    """Raise ``SolveError`` unless ``state`` is a live two-player position with nothing hidden."""
    g = state.game
    if state.terminal:
        raise SolveError("the match is over: nothing to solve")
    if g.n != 2:
        raise SolveError(f"the solver handles two-player games; this one has {g.n} players")
    for zn in g.zones:
        cards = state.z[zn.index]
        held = any(cards) if zn.per_seat else bool(cards)
        if held and zn.visibility != "all":
            raise SolveError(f"not a perfect-information position: zone '{zn.name}' holds cards that are hidden "
                             f"(visibility: {zn.visibility})")


def terminal_value(state, seat: int) -> int:
    """+1 when ``seat`` won the finished match, -1 when it lost, 0 for a tie (``game_over``'s ``winner``)."""
    winners = (state.result or {}).get("winner") or []
    if len(winners) != 1:
        return DRAW
    return WIN if winners[0] == seat else LOSS
