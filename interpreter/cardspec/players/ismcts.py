"""Information-set Monte Carlo tree search (single observer, UCT): a bot that plays from its view.

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search",
IEEE TCIAIG 4(2), 2012 (SO-ISMCTS). Each iteration:

1. samples a determinization: a full State consistent with the bot's view and
   the public facts of its log (``cardspec._determinize.Determinizer``: seen
   cards, hidden-zone counts, cards passed, suits shown void);
2. descends one tree shared by all determinizations, whose nodes are action
   sequences; a child is *available* when its action is legal in this
   determinization, and UCB1 uses availability counts instead of parent visits;
3. expands one untried action, plays the rest at random (the engine's internal
   fast path) up to the horizon (the end of the current deal, or of the match);
4. backs up each seat's result into the nodes where that seat moved.

A seat's result is the change of its match score (``match.score`` counter, by
team if the ruleset has teams) over the search, negated when the lowest score
ranks best, and normalised to [0, 1] with the smallest and largest seen.

The bot receives only ``view`` (with ``log``) and ``legal`` (``Bot.act``); the
rules (the ``Game``) are given once at construction. Budget: ``iterations``
per decision, or ``seconds`` per decision (whichever is given; both: the first
reached).
"""
from __future__ import annotations

import math
import random
import time

from ..engine.slots import DEAL_NUMBER, TO_ACT
from .base import Bot
from ..engine.determinize import Determinizer, DeterminizeError


class _Node:
    __slots__ = ("seat", "children", "visits", "avail", "total")

    def __init__(self, seat):
        self.seat = seat          # the seat whose move led here
        self.children = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


class ISMCTSBot(Bot):
    """SO-ISMCTS with UCT. ``act(view, legal)`` needs ``view`` made with ``log=True``.

    Parameters:
        game: the ``Game`` (the rules; never a State).
        seed: seed of the bot's own RNG (determinizations and playouts).
        iterations: iterations per decision (default 200 when ``seconds`` is not given).
        seconds: wall-clock budget per decision (s).
        c: UCB1 exploration constant (results are normalised to [0, 1]).
        horizon: ``"deal"`` (play out to the end of the current deal) or ``"match"``.

    Raises ``ValueError`` for a bad budget or horizon.
    """

    name = "ismcts"
    wants_log = True

    def __init__(self, game, seed=None, iterations: int | None = None, seconds: float | None = None,
                 c: float = 0.7, horizon: str = "deal"):
        if iterations is None and seconds is None:
            iterations = 200
        if iterations is not None and int(iterations) < 1:
            raise ValueError("ismcts: iterations must be at least 1")
        if seconds is not None and float(seconds) <= 0:
            raise ValueError("ismcts: seconds must be positive")
        if horizon not in ("deal", "match"):
            raise ValueError("ismcts: horizon is 'deal' or 'match'")
        from ..engine import Game
        if not isinstance(game, Game):
            raise TypeError(f"ISMCTSBot takes the Game (the rules), not {type(game).__name__}: "
                            "bots never hold the state")
        self.game = game
        self.rng = random.Random(seed)
        self.iterations = int(iterations) if iterations is not None else None
        self.seconds = float(seconds) if seconds is not None else None
        self.c = float(c)
        self.horizon = horizon
        self.fallbacks = 0        # decisions taken at random because the view could not be determinized
        self.last_iterations = 0

    def act(self, view: dict, legal: list) -> str:
        """One of ``legal`` (text forms), chosen by search from ``view`` (with ``log``)."""
        if "log" not in view:
            raise ValueError("ISMCTSBot needs the seat's log in its view: State.view(seat, log=True) "
                             "(cardspec.bots.take_turn does this)")
        if len(legal) == 1:
            return legal[0]
        try:
            det = Determinizer(self.game, view)
        except DeterminizeError:
            self.fallbacks += 1
            return legal[self.rng.randrange(len(legal))]
        return self._search(det, view, legal)

    # ---- search ----------------------------------------------------------------
    def _search(self, det, view, legal):
        game = self.game
        rng = self.rng
        steps = game.steps
        c = self.c
        me = view["seat"]
        root = _Node(me)
        deal0 = view["deal"]
        match_horizon = self.horizon == "match"
        lo, hi = math.inf, -math.inf
        sign = -1 if game.ranking == "lowest" else 1
        side = self._side_of
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        limit = self.iterations
        it = 0
        base = None
        while True:
            if limit is not None and it >= limit:
                break
            if deadline is not None and it > 0 and time.perf_counter() >= deadline:
                break
            it += 1
            s = det.sample(rng)
            if base is None:
                base = s.game_scores()
            node = root
            path = []
            v = s.v
            # Selection and expansion.
            while not s.terminal and (match_horizon or v[DEAL_NUMBER] == deal0):
                step = steps[s.pc]
                moves = step.legal(s)
                seat = v[TO_ACT]
                children = node.children
                untried = [m for m in moves if m not in children]
                if untried:
                    m = untried[int(rng.random() * len(untried))]
                    child = _Node(seat)
                    children[m] = child
                    for mm in moves:
                        ch = children.get(mm)
                        if ch is not None:
                            ch.avail += 1
                    s.apply_move(m)
                    path.append(child)
                    break
                best, best_u = None, -math.inf
                span = hi - lo if hi > lo else 1.0
                for mm in moves:
                    ch = children[mm]
                    ch.avail += 1
                    u = ((ch.total / ch.visits) - lo) / span + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if u > best_u:
                        best, best_u = mm, u
                node = children[best]
                s.apply_move(best)
                path.append(node)
            # Playout.
            while not s.terminal and (match_horizon or v[DEAL_NUMBER] == deal0):
                s.apply_move(s.random_move(rng))
            end = s.game_scores()
            rewards = {k: sign * (end.get(k, 0) - base.get(k, 0)) for k in end}
            for r in rewards.values():
                if r < lo:
                    lo = r
                if r > hi:
                    hi = r
            for nd in path:
                nd.visits += 1
                nd.total += rewards.get(side(nd.seat), 0)
        self.last_iterations = it
        # The most visited action at the root, as text.
        s = det.template
        step = steps[s.pc]
        by_text = {}
        for m, ch in root.children.items():
            t = step.text(s, m)
            by_text[t] = max(by_text.get(t, -1), ch.visits)
        choices = [t for t in legal if t in by_text]
        if not choices:
            return legal[rng.randrange(len(legal))]
        return max(choices, key=lambda t: by_text[t])

    def _side_of(self, seat):
        teams = self.game.teams
        if not teams:
            return seat
        for i, t in enumerate(teams):
            if seat in t:
                return i
        return seat


def make(arg: str, seed=None, game=None, policy=None) -> ISMCTSBot:
    """``make_bot``'s ``ismcts``, ``ismcts:500`` (iterations per decision), ``ismcts:0.5s`` (seconds).

    Raises ``ValueError`` without the game or for a bad parameter.
    """
    if game is None:
        raise ValueError("the ismcts bot needs the game's rules")
    kw = {}
    if arg:
        try:
            if arg.endswith("s"):
                kw["seconds"] = float(arg[:-1])
            else:
                kw["iterations"] = int(arg)
        except ValueError:
            raise ValueError(f"ismcts takes iterations (ismcts:500) or seconds (ismcts:0.5s), not '{arg}'") \
                from None
    return ISMCTSBot(game, seed=seed, **kw)
