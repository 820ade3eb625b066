"""The ``do`` step: a list of effects run once (``set``, ``add``, ``move``, ``emit``; each may have ``if:``)."""
from __future__ import annotations

from ..effects import compile_effects
from .base import Step, step_type


@step_type("do")
class Do(Step):
    """Run a list of effects (``set``, ``add``, ``move``, ``emit``; each may have ``if:``)."""

    def __init__(self, game, comp, body, path):
        super().__init__(game, comp, body, path)
        self.fx = compile_effects(game, comp, body, path, ())

    def run(self, s):
        if self.fx is not None:
            self.fx(s)
