"""Shared by the determinization tests: real positions reached by random legal actions."""
from __future__ import annotations

import random


def random_position(game, seed: int, steps: int):
    """The State after ``steps`` random legal actions from ``game.new_state(seed=seed)`` (None when the match ended)."""
    rng = random.Random(seed)
    s = game.new_state(seed=seed)
    for _ in range(steps):
        if s.terminal:
            return None
        s.apply(rng.choice(s.legal_actions()))
    return None if s.terminal else s
