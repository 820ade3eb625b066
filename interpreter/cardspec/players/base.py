"""Bots that cannot cheat: a bot is given a seat's ``view`` and the legal actions, never the state.

``Bot.act(view, legal)`` returns one of ``legal`` (text forms). The only driver
is ``take_turn(state, bot)``: it builds ``state.view(seat)`` (with the seat's
filtered ``log`` when the bot sets ``wants_log``) and applies the answer
through the checked public ``State.apply``. Every ``act`` of every subclass is
wrapped so that anything but a plain view dict (a ``State`` above all) raises
``TypeError``: no bot API accepts a State.

Bots: ``random`` (``RandomBot``), ``ismcts`` (``cardspec.ismcts.ISMCTSBot``),
and ``policy`` (a policy written in the ruleset, when ``cardspec.policy`` exists).
Specs for ``make_bot``: ``random``, ``ismcts``, ``ismcts:500`` (iterations per
decision), ``ismcts:0.2s`` (seconds per decision), ``policy:NAME``.
"""
from __future__ import annotations

import functools
import random

from ..errors import RulesetError


def _guard(act):
    @functools.wraps(act)
    def checked(self, view, legal):
        if type(view) is not dict:
            raise TypeError(f"{type(self).__name__}.act takes a seat's view (a dict from State.view), "
                            f"not {type(view).__name__}: bots never hold the state")
        if not isinstance(legal, (list, tuple)) or not all(isinstance(a, str) for a in legal):
            raise TypeError(f"{type(self).__name__}.act takes the legal actions as a list of text forms")
        return act(self, view, legal)
    checked._guarded = True
    return checked


class Bot:
    """Base class: ``act(view: dict, legal: list[str]) -> str`` (one of ``legal``).

    ``wants_log``: when True the driver adds ``view["log"]`` (``State.log(seat)``).
    """

    name = "bot"
    wants_log = False

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        act = cls.__dict__.get("act")
        if act is not None and not getattr(act, "_guarded", False):
            cls.act = _guard(act)

    def act(self, view: dict, legal: list) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def _check_view(self, view):
        """Kept for subclasses that call it explicitly; the guard already ran."""
        return view


class RandomBot(Bot):
    """Uniformly random legal actions.

    Simulations may play a RandomBot seat through the engine's internal fast path
    (``State.random_move``) instead: it ignores the view anyway, so the result is
    the same kind of play without building views.
    """

    name = "random"

    def __init__(self, seed=None, game=None):
        self.rng = random.Random(seed)

    def act(self, view, legal):
        return legal[self.rng.randrange(len(legal))]


def take_turn(state, bot: Bot, seat: int | None = None) -> str:
    """Ask ``bot`` for the seat to act's decision and apply it. Returns the action's text.

    The bot sees ``state.view(seat)`` (plus ``log`` if it wants it) and the legal actions; an
    answer that is not legal raises ``IllegalAction`` and leaves the state unchanged.
    """
    seat = state.to_act if seat is None else seat
    view = state.view(seat, log=True) if bot.wants_log else state.view(seat)
    action = bot.act(view, view["legal_actions"])
    state.apply(action, seat)
    return action


BOTS = ("random", "ismcts", "policy", "meld", "solver", "induction")


def make_bot(spec: str, seed=None, game=None, policy: str | None = None) -> Bot:
    """A bot from its spec (see the module doc). ``game`` (the rules) is needed by ``ismcts`` and ``policy``.

    Raises ``ValueError`` naming the known bots, or for a bad parameter / unknown policy.
    """
    name, _, arg = str(spec).strip().partition(":")
    name = name.strip().lower()
    if name == "random":
        return RandomBot(seed=seed)
    if name == "ismcts":
        from .ismcts import ISMCTSBot
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
    if name == "policy":
        return _policy_bot(game, arg or policy, seed)
    if name == "meld":
        from .meld import MeldBot, from_ruleset
        return from_ruleset(game, seed) or MeldBot(seed=seed)
    if name == "induction":   # a secret-rule game whose ruleset has bots: default: {bot: induction, …}
        from .induction import from_ruleset as _induction
        bot = _induction(game, seed)
        if bot is None:
            raise ValueError(f"{getattr(game, 'name', 'this ruleset')} names no induction bot (bots: default: "
                             "{bot: induction, …})")
        return bot
    if name == "solver":   # perfect-information two-player games (cardspec.solve); solver:12 = at most 12 cards
        from .solve import SolverBot
        if game is None:
            raise ValueError("the solver bot needs the game's rules")
        try:
            return SolverBot(game, max_cards=int(arg) if arg else 16, seed=seed)
        except ValueError:
            raise ValueError(f"solver takes the most cards in play it solves (solver:12), not '{arg}'") from None
    raise ValueError(f"unknown bot '{spec}'; bots: {', '.join(BOTS)}")


def _policy_bot(game, name, seed):
    """A policy bot from the ruleset's policies (``cardspec.policy.PolicyBot``), if that module exists."""
    if not name:
        raise ValueError("the policy bot needs a policy name (policy:NAME or --policy NAME)")
    rs_name = getattr(game, "name", "this ruleset")
    try:
        from . import policy as _policy
    except ImportError:
        raise ValueError(f"{rs_name} has no policy '{name}' (this cardspec has no policy bots)") from None
    PolicyBot = getattr(_policy, "PolicyBot", None)
    if PolicyBot is None:
        raise ValueError(f"{rs_name} has no policy '{name}' (this cardspec has no policy bots)")
    try:
        return PolicyBot(game, name, seed=seed)
    except ValueError as e:
        raise ValueError(str(e)) from None
    except RulesetError as e:
        raise ValueError(f"{rs_name}: policy '{name}' does not compile: {e}") from None
