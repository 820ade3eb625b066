"""Any ruleset as an OpenSpiel game (``pyspiel``; docs/rl.md).

    import pyspiel
    from cardspec.openspiel import register
    name = register(ruleset)           # a built-in name or a file; "my-game" -> "cardspec_my_game"
    game = pyspiel.load_game(name, {"players": 4, "deals": 1})

``register(ruleset)`` registers a Python game with OpenSpiel under a short name (``cardspec_`` and the
ruleset's name with ``_`` for ``-``): its parameters are ``players``, every option of the ruleset
(an option of type ``list`` is a string of its items separated by spaces: OpenSpiel's game strings
split parameters at commas) and ``seed`` (see below).

- **Chance.** Every deal's shuffle (the ``shuffle`` step) is a run of chance nodes, one per card: the
  outcome is the face of the next card dealt from the stock (top first), with probability its
  count among the cards not yet placed (so algorithms that enumerate chance see every deal). The
  last cards, once only one kind is left, are placed without a node. Other randomness of a ruleset
  (an effect ``shuffle``, a refilled stock, ``insert_random``) draws from a generator seeded by the
  parameter ``seed``: fixed by the history, not chance nodes.
- **Actions**: the game's action codec (``cardspec.actions``): ``num_distinct_actions`` is its
  ``n``; ``action_to_string`` its text. Chance actions are faces (``deck.n_faces`` of them).
- **Observations**: the observation string is the player's ``State.view`` as JSON; the
  information-state string adds the player's log (``State.log(player)``: every event it has seen,
  so it has perfect recall) and the texts of its own actions. The observation and
  information-state tensors are ``cardspec.observation.ObservationEncoder``'s vector (the same for
  both: a fixed-length vector cannot hold a whole history; the view carries the won piles, counters
  and the current trick).
- **Returns** (reward model ``TERMINAL``): at the end, each player's signed match score
  (``cardspec.observation.seat_scores``); 0 before. Utility bounds are ±``UTILITY_BOUND``.
- ``resample_from_infostate(player, sampler)`` draws a state consistent with the player's view
  and the public log (``cardspec.engine.determinize.Determinizer``), for ISMCTS.
- A state pickles (and ``pyspiel.serialize_game_and_state`` works) as its game's parameters and
  its history, replayed on load (not a resampled state: its history is the original's). As for
  every Python game of OpenSpiel, the process that loads it must have registered the game first.

An illegal action raises ``pyspiel.SpielError``-compatible ``ValueError`` naming the legal actions.
"""
from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pyspiel

from .. import load
from ..errors import IllegalAction
from ..engine.determinize import Determinizer, DeterminizeError
from .observation import ChanceRNG, NeedShuffle, ObservationEncoder, action_codec, seat_scores
from ..rules import read_ruleset

__all__ = ["register", "short_name", "UTILITY_BOUND", "MAX_GAME_LENGTH"]

#: The utility bounds every registered game declares (scores are raw match points).
UTILITY_BOUND = 1e6
#: The game length every registered game declares (an upper bound, not a property of the ruleset).
MAX_GAME_LENGTH = 1_000_000
_NEW = -1            # the pending transition of a state whose first deal waits for chance

_REGISTERED: dict = {}    # short name -> ruleset argument
_GAMES: dict = {}         # (ruleset, players, options) -> _Compiled


def short_name(ruleset) -> str:
    """The OpenSpiel short name of a ruleset: ``cardspec_`` + its name, ``-`` as ``_``."""
    return "cardspec_" + read_ruleset(str(ruleset)).name.replace("-", "_").replace(" ", "_")


class _Compiled:
    """A cardspec ``Game`` with its action codec and observation encoder (shared by all states)."""

    def __init__(self, ruleset, players, options):
        self.game = load(ruleset, players=players, options=options)
        self.codec = action_codec(self.game)
        self.encoder = ObservationEncoder(self.game)
        self.faces = self.game.deck.n_faces


def _compiled(ruleset, params: dict) -> _Compiled:
    rs = read_ruleset(str(ruleset))
    players = int(params.get("players", rs.default_players))
    options = {}
    for k, v in params.items():
        if k in rs.options:
            if rs.options[k].get("type") == "list" and isinstance(v, str):   # "S C D H none"
                v = v.replace(",", " ").split()
            options[k] = v
    key = (str(ruleset), players, tuple(sorted((k, str(v)) for k, v in options.items())))
    c = _GAMES.get(key)
    if c is None:
        c = _GAMES[key] = _Compiled(ruleset, players, options)
    return c


def _param_default(spec):
    d = spec.get("default")
    if spec.get("type") == "list":
        return " ".join(str(x) for x in (d or []))
    if isinstance(d, (bool, int, float, str)):
        return d
    return str(d)


def register(ruleset, players=None) -> str:
    """Register ``ruleset`` (a built-in name or a path) as an OpenSpiel game; return its short name.

    ``players``: the default of the ``players`` parameter (the ruleset's default when None).
    Registering the same short name again returns it (the first registration stays).
    Raises ``cardspec.RulesetError`` when the ruleset does not load.
    """
    rs = read_ruleset(str(ruleset))
    name = short_name(ruleset)
    if name in _REGISTERED or name in pyspiel.registered_names():
        return name
    lo, hi = rs.players
    spec = {"players": int(players if players is not None else rs.default_players), "seed": 0}
    for k, v in rs.options.items():
        spec[k] = _param_default(v)
    gtype = pyspiel.GameType(
        short_name=name, long_name=f"cardspec {rs.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi, min_num_players=lo,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=spec)

    class CardspecGame(pyspiel.Game):
        """One ruleset as a pyspiel game (``cardspec.openspiel``)."""

        def __init__(self, params=None):
            params = dict(params or {})
            full = dict(spec, **params)
            self.core = _compiled(ruleset, full)
            self.ruleset = ruleset
            self.seed = int(full.get("seed", 0))
            self.full_params = full
            info = pyspiel.GameInfo(
                num_distinct_actions=self.core.codec.n, max_chance_outcomes=self.core.faces,
                num_players=self.core.game.n, min_utility=-UTILITY_BOUND, max_utility=UTILITY_BOUND,
                utility_sum=None, max_game_length=MAX_GAME_LENGTH)
            super().__init__(gtype, info, params)

        def new_initial_state(self):
            return CardspecState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return _Observer(self.core, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))

    CardspecGame.__name__ = CardspecGame.__qualname__ = f"CardspecGame_{name}"
    pyspiel.register_game(gtype, CardspecGame)
    _REGISTERED[name] = ruleset
    return name


class _Run:
    """A state's engine side (in the pyspiel state's ``__dict__``): copied by ``State.clone`` and
    ``copy.deepcopy``, pickled as the game's parameters and the history (replayed on load).

    ``s``: the engine State (None while the first deal waits for chance). While chance nodes are
    pending: ``pre`` (the engine State before the action that needs them, None for the first deal),
    ``pending`` (that action's id, or ``_NEW``), ``left`` (the faces still to place), ``order``
    (faces placed so far, first dealt first), ``done`` (complete orders of earlier shuffles of the
    same transition). ``base``/``since``: the engine State after the last chance run and the action
    ids applied since (to rebuild ``pre`` when an action turns out to need a shuffle). ``own``: each
    seat's own action texts. ``history``: every action (chance and players), for pickling.
    """

    def __init__(self, core, seed, params, name, ruleset):
        self.core, self.seed, self.params, self.name, self.ruleset = core, seed, params, name, ruleset
        self.s = None
        self.pre = None
        self.pending = None
        self.left = None
        self.order = []
        self.done = []
        self.base = None
        self.since = []
        self.own = [[] for _ in range(core.game.n)]
        self.prefix = None        # a resampled state: each seat's log before the resampling (shared)
        self.history = []
        self._resolve(_NEW)

    # -- copying and pickling --
    def __deepcopy__(self, memo):
        r = _Run.__new__(_Run)
        r.core, r.seed, r.params, r.name, r.ruleset = self.core, self.seed, self.params, self.name, self.ruleset
        r.s = _clone(self.s)
        r.pre = self.pre          # never changed in place: shared
        r.pending = self.pending
        r.left = Counter(self.left) if self.left is not None else None
        r.order = list(self.order)
        r.done = [list(o) for o in self.done]
        r.base = self.base        # never changed in place: shared
        r.since = list(self.since)
        r.own = [list(x) for x in self.own]
        r.prefix = self.prefix
        r.history = list(self.history)
        return r

    def __reduce__(self):
        if self.prefix is not None:
            raise TypeError("a state made by resample_from_infostate cannot be pickled: its history is the "
                            "original state's, so a replay would not give it back")
        return (_replay, (self.ruleset, self.params, list(self.history)))

    # -- chance --
    def _rng(self):
        rng = self.pre.rng.copy() if self.pre is not None else ChanceRNG(self.seed)
        for o in self.done:
            rng.queue(o)
        return rng

    def _resolve(self, pending):
        """Run ``pending`` (an action id, or ``_NEW``) from ``pre`` with the complete shuffles in ``done``;
        start a run of chance nodes if it needs one more shuffle."""
        rng = self._rng()
        try:
            if pending == _NEW:
                s = self.core.game.new_state(rng=rng)
            else:
                s = _clone(self.pre)
                s.rng = rng
                s.apply_id(pending)
        except NeedShuffle as e:
            self.pending = pending
            self.left = Counter(e.cards)
            self.order = []
            self.s = None
            return
        self.s = s
        self.pre = None
        self.pending = None
        self.left = None
        self.order = []
        self.done = []
        self.base = _clone(s)
        self.since = []

    def chance_outcomes(self):
        total = sum(self.left.values())
        return [(f, c / total) for f, c in sorted(self.left.items())]

    def apply_chance(self, face: int):
        if not self.left.get(face):
            raise ValueError(f"chance outcome {face} is not a card left to deal "
                             f"(left: {sorted(self.left.elements())})")
        self.left[face] -= 1
        if not self.left[face]:
            del self.left[face]
        self.order.append(face)
        if len(self.left) <= 1:       # one kind left: no more choice
            self.order += list(self.left.elements())
            self.done.append(self.order)
            self._resolve(self.pending)

    def apply_player(self, a: int):
        s = self.s
        seat = s.to_act
        text = None
        try:
            s.apply_id(a)      # checks legality itself; an illegal id leaves the state unchanged
        except NeedShuffle:
            pre = _clone(self.base)
            for i in self.since:
                pre.apply_id(i)
            self.pre = pre
            self.done = []
            self._resolve(a)
        except IllegalAction:
            codec = self.core.codec
            shown = " | ".join(f"{i} ({codec.decode(i)})" for i in s.legal_action_ids()[:20])
            what = f"{a} ({codec.decode(a)})" if 0 <= a < codec.n else f"{a} (outside 0..{codec.n - 1})"
            raise ValueError(f"seat {seat}: action {what} is not legal now; legal: {shown}") from None
        else:
            self.since.append(a)
        self.own[seat].append(text if text is not None else self.core.codec.decode(a))


def _clone(s):
    if s is None:
        return None
    c = s.clone()
    c.rng = s.rng.copy() if isinstance(s.rng, ChanceRNG) else c.rng
    return c


def _replay(ruleset, params, history):
    """The ``_Run`` of ``ruleset``'s game with ``params`` after ``history`` (registered first: the
    unpickling process may not have registered it yet)."""
    game = pyspiel.load_game(register(ruleset), params)
    st = game.new_initial_state()
    for a in history:
        st.apply_action(a)
    return st._run


class CardspecState(pyspiel.State):
    """A position of a registered cardspec game (see the module docstring)."""

    def __init__(self, game):
        super().__init__(game)
        self._run = _Run(game.core, game.seed, game.full_params, game.get_type().short_name, game.ruleset)

    def current_player(self):
        r = self._run
        if r.s is None:
            return pyspiel.PlayerId.CHANCE
        if r.s.terminal:
            return pyspiel.PlayerId.TERMINAL
        return r.s.to_act

    def is_terminal(self):
        r = self._run
        return r.s is not None and r.s.terminal

    def _legal_actions(self, player):
        r = self._run
        if r.s is None or r.s.terminal or player != r.s.to_act:
            return []
        return sorted(r.s.legal_action_ids())

    def chance_outcomes(self):
        r = self._run
        return r.chance_outcomes() if r.s is None else []

    def _apply_action(self, action):
        r = self._run
        if r.s is None:
            r.apply_chance(int(action))
        else:
            r.apply_player(int(action))
        r.history.append(int(action))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return "deal " + self._run.core.game.deck.code[action]
        return self._run.core.codec.decode(action)

    def returns(self):
        r = self._run
        if r.s is None or not r.s.terminal:
            return [0.0] * r.core.game.n
        return seat_scores(r.s)

    def resample_from_infostate(self, player_id, probability_sampler=None):
        """A state consistent with ``player_id``'s information (the engine's determinizer); the same
        information-state string. Raises ``ValueError`` when the position cannot be determinized."""
        r = self._run
        if r.s is None or r.s.terminal:
            return self.clone()
        seed = int(probability_sampler() * 2 ** 31) if callable(probability_sampler) else random.getrandbits(31)
        try:
            det = Determinizer(r.core.game, r.s.view(player_id, log=True, legal=False))
            s = det.sample(random.Random(seed))
        except DeterminizeError as e:
            raise ValueError(f"cannot resample this position: {e}") from None
        s.rng = ChanceRNG(r.seed + seed)
        s.events = []             # the log goes on from here; what came before is the prefix
        out = self.clone()
        o = out._run
        o.prefix = [(r.prefix[p] if r.prefix else []) + r.s.log(p) for p in range(r.core.game.n)]
        o.s = s
        o.base = _clone(s)
        o.since = []
        return out

    def __str__(self):
        r = self._run
        if r.s is None:
            placed = len(r.order) + sum(map(len, r.done))
            return f"dealing: {placed} cards placed, {sum(r.left.values())} to place"
        return json.dumps(r.s.view(None, legal=False), sort_keys=True)


class _Observer:
    """OpenSpiel's observer for one observation type: ``tensor``/``dict`` from ``ObservationEncoder``,
    strings from views (the information-state string when ``perfect_recall``)."""

    def __init__(self, core, iig_obs_type):
        self.core = core
        self.perfect_recall = bool(getattr(iig_obs_type, "perfect_recall", False))
        self.tensor = np.zeros(core.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        r = state._run
        s = r.s if r.s is not None else r.pre
        if s is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = self.core.encoder.encode(s, player)

    def string_from(self, state, player):
        r = state._run
        s = r.s if r.s is not None else r.pre
        if s is None:
            text = "dealing"
        else:
            text = json.dumps(s.view(player, legal=False), sort_keys=True, separators=(",", ":"))
            if r.s is None:
                text = "dealing " + text
        if self.perfect_recall:
            log = (r.prefix[player] if r.prefix else []) + (s.log(player) if s is not None else [])
            text += "\nlog: " + json.dumps(log, sort_keys=True, separators=(",", ":"), default=str)
            text += "\nown: " + " | ".join(r.own[player])
        return text
