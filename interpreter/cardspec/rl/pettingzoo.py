"""Any ruleset as a PettingZoo AEC environment (``pip install 'cardspec[rl]'``; docs/rl.md).

    from cardspec.pettingzoo import env
    e = env(ruleset, players=4, options={"deals": 1})   # a built-in name (cardspec list) or a file
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0`` … ``player_{n-1}`` (seat i is ``player_i``). Actions are ``Discrete(n)`` over the
game's action codec (``cardspec.actions``: ``decode(i)`` gives the action's text); the observation of
an agent is ``{"observation": float32 vector, "action_mask": int8 vector of n}`` with the vector from
``cardspec.observation.ObservationEncoder`` (the agent's ``State.view``) and the mask 1 for the legal
actions when that agent is to act (all zero otherwise). A compound decision (a pass of three cards, a
meld) is a sequence of small choices, so the same agent may act several times in a row.

Rewards: after every step each agent's reward is the change of its match score
(``cardspec.observation.seat_scores``: its team's when the ruleset has teams, negated when the
lowest score ranks best), so an agent's rewards over a match sum to its final signed score less
its starting score (the score counter's ``initial``; a change before the first decision, such as an
ante, comes with the first step's rewards). The
match ends every agent (``terminations``); there is no truncation.

An illegal action (not legal now, or outside ``Discrete(n)``) raises ``IllegalActionError`` (a
``cardspec.IllegalAction`` and a ``ValueError``) naming the legal actions; the state is unchanged
and the game goes on.
"""
from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .. import load
from ..errors import IllegalAction
from .observation import ObservationEncoder, action_codec, seat_scores, start_scores

__all__ = ["env", "raw_env", "CardspecEnv", "IllegalActionError"]


class IllegalActionError(IllegalAction, ValueError):
    """An action id that is not legal for the agent to act: the message names the legal ones.

    Attributes: ``agent`` (str), ``action`` (the id given), ``legal`` (the legal ids).
    """

    def __init__(self, agent, action, legal, texts, why):
        self.agent = agent
        self.action = action
        self.legal_ids = list(legal)
        seat = int(agent.rpartition("_")[2]) if isinstance(agent, str) else agent
        IllegalAction.__init__(self, seat, str(action), texts, why)


class CardspecEnv(AECEnv):
    """A PettingZoo ``AECEnv`` playing one ruleset (see the module docstring).

    Args:
        ruleset: a built-in ruleset name or a path to a ruleset file.
        players: the player count (the ruleset's default when None).
        options: the ruleset's option values (``{"deals": 1}``).
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the text) or ``"human"`` (prints it).

    Raises ``cardspec.RulesetError`` when the ruleset does not load.
    """

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, ruleset, players=None, options=None, render_mode=None):
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.game = load(ruleset, players=players, options=options)
        self.codec = action_codec(self.game)
        self.encoder = ObservationEncoder(self.game)
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"cardspec_{self.game.name}")
        n = self.game.n
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.n,), np.int8),
        })
        self._act_space = spaces.Discrete(self.codec.n)
        self._seeds = random.Random()
        self.state = None
        self.agents = []

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    # ---- the AEC API ----------------------------------------------------------
    def reset(self, seed=None, options=None):
        """Deal a new match. ``seed`` (int) fixes it: the same seed and actions give the same match."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.state = self.game.new_state(seed=self._seeds.getrandbits(64), record=False)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._last = start_scores(self.game)   # what happened before the first decision (antes) counts at the first step
        self._sync()

    def _sync(self):
        s = self.state
        if s.terminal:
            for a in self.agents:
                self.terminations[a] = True
            # the agents leave one by one (PettingZoo's dead steps), in seat order
            self.agent_selection = self.agents[0] if self.agents else None
        else:
            self.agent_selection = self.possible_agents[s.to_act]

    def observe(self, agent):
        seat = self._seat[agent]
        s = self.state
        mask = np.zeros(self.codec.n, dtype=np.int8)
        if not s.terminal and s.to_act == seat:
            mask[s.legal_action_ids()] = 1
        return {"observation": self.encoder.encode(s, seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        s = self.state
        try:
            a = int(action)
        except (TypeError, ValueError):
            a = None
        try:
            if a is None:
                raise IllegalAction(s.to_act, str(action), [], "not an action id")
            s.apply_id(a)      # checks legality itself; an illegal id leaves the state unchanged
        except IllegalAction:
            legal = s.legal_action_ids()
            texts = [f"{i} ({self.codec.decode(i)})" for i in legal]
            what = "not an action id" if a is None else (
                f"outside Discrete({self.codec.n})" if not 0 <= a < self.codec.n
                else f"'{self.codec.decode(a)}', not legal now")
            raise IllegalActionError(agent, action, legal, texts, what) from None
        self._cumulative_rewards[agent] = 0
        now = seat_scores(s)
        for ag in self.agents:
            i = self._seat[ag]
            self.rewards[ag] = now[i] - self._last[i]
        self._last = now
        self._sync()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """The text view of the agent to act (``ansi``: returned; ``human``: printed)."""
        if self.state is None:
            return None
        seat = self.state.to_act
        text = render_view(self.state, seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        self.state = None


def render_view(state, seat) -> str:
    """A seat's view as readable text: the step, whose turn, zones, trick, counters, vars."""
    v = state.view(seat, legal=False)
    lines = [f"deal {v['deal']}, dealer {v['dealer']}, " + (
        "match over" if v["terminal"] else f"step {v['step']}, seat {v['to_act']} to act")]
    for name, entry in v["zones"].items():
        if isinstance(entry, dict) and all(k.isdigit() for k in entry):
            for owner, e in entry.items():
                lines.append(f"  {name} {owner}: {_zone_text(e)}")
        else:
            lines.append(f"  {name}: {_zone_text(entry)}")
    if v["trick"]:
        lines.append("  trick: " + " ".join(f"{st}:{c}" for st, c in v["trick"]))
    for name, vals in v["counters"].items():
        lines.append(f"  {name}: " + " ".join("?" if x is None else str(x) for x in vals))
    if v["vars"]:
        lines.append("  " + ", ".join(f"{k}={x}" for k, x in v["vars"].items()))
    if not v["terminal"] and seat is not None and state.to_act == seat:
        lines.append("  legal: " + " | ".join(state.legal_actions()[:40]))
    return "\n".join(lines)


def _zone_text(e) -> str:
    if isinstance(e, list):
        return " ".join(c if isinstance(c, str) else "[" + " ".join(c) + "]" for c in e) or "-"
    out = f"{e.get('count', 0)} cards"
    if e.get("face_up"):
        out += " (face up: " + " ".join(e["face_up"]) + ")"
    if e.get("top"):
        out += f" (top {e['top']})"
    return out


def raw_env(ruleset, players=None, options=None, render_mode=None) -> CardspecEnv:
    """The environment without PettingZoo's wrappers."""
    return CardspecEnv(ruleset, players=players, options=options, render_mode=render_mode)


def env(ruleset, players=None, options=None, render_mode=None) -> CardspecEnv:
    """An AEC environment for ``ruleset`` (see ``CardspecEnv``). Unwrapped: PettingZoo's order-enforcing
    wrapper would turn an illegal action into a warning and a lost game; this one raises
    ``IllegalActionError`` instead."""
    return raw_env(ruleset, players=players, options=options, render_mode=render_mode)
