"""cardspec: card games written as data, run by one generic interpreter.

Public API::

    from cardspec import Game, load
    game = load("hearts", players=4, options={"moon": True})
    state = game.new_state(seed=1)
    while not state.terminal:
        state.apply(state.legal_actions()[0])
    state.scores()

The package's folders are its layers, lowest first (docs/architecture.md draws them): ``cards`` and
``errors``; ``lang/`` (the expression language); ``rules/`` (rulesets as data); ``engine/`` (a ruleset
compiled into a ``Game``, and the ``State`` of a match); ``players/`` (bots); then this module (the public
API) and the front ends grouped by purpose: ``authoring/`` (validate, explain, diff, new, the language
server, scenarios), ``play/`` (the terminal, the TUI, simulations), ``rl/`` (the integer action space,
observations, PettingZoo, OpenSpiel), ``serve/`` (the protocol, the server, workers, the table store);
``cli`` (the ``cardspec`` command) is on top.
"""
import importlib
import importlib.abc
import importlib.util
import sys

from .errors import CardspecError, GameOver, IllegalAction, Problem, RulesetError, ScenarioError
from .rules import Ruleset, builtin_names, read_ruleset
from .engine import Game, State

__version__ = "0.1.0"


def load(ruleset, players=None, options=None) -> Game:
    """Load and compile a ruleset (built-in name or path) for ``players`` seats.

    Raises ``RulesetError`` listing every problem found, each with file:line:col.
    """
    return Game(ruleset, players, options)


#: Modules that moved when the front ends were grouped by purpose (issue 33): the old import path still
#: gives the same module object (``import cardspec.pettingzoo`` is ``cardspec.rl.pettingzoo``).
MOVED = {
    "cardspec.validate": "cardspec.authoring.validate", "cardspec.explain": "cardspec.authoring.explain",
    "cardspec.diff": "cardspec.authoring.diff", "cardspec.scaffold": "cardspec.authoring.scaffold",
    "cardspec.lsp": "cardspec.authoring.lsp", "cardspec.scenario": "cardspec.authoring.scenario",
    "cardspec.tui": "cardspec.play.tui", "cardspec.simulate": "cardspec.play.simulate",
    "cardspec.actions": "cardspec.rl.actions", "cardspec.observation": "cardspec.rl.observation",
    "cardspec.pettingzoo": "cardspec.rl.pettingzoo", "cardspec.openspiel": "cardspec.rl.openspiel",
    "cardspec.protocol": "cardspec.serve.protocol", "cardspec.server": "cardspec.serve.server",
    "cardspec.workers": "cardspec.serve.workers", "cardspec.store": "cardspec.serve.store",
}


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path of ``MOVED`` and answers with the module at its new path (imported on first use)."""

    def find_spec(self, name, path=None, target=None):
        if name in MOVED:
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        module = importlib.import_module(MOVED[spec.name])
        spec.loader_state = module.__spec__   # (the import system sets the old path's spec on the module)
        return module

    def exec_module(self, module):
        module.__spec__ = module.__spec__.loader_state   # its own spec again: the module was run at its new path


if not any(isinstance(f, _MovedModules) for f in sys.meta_path):
    sys.meta_path.append(_MovedModules())


def __getattr__(name):
    """``cardspec.pettingzoo`` and the other moved modules as attributes too (after ``import cardspec``)."""
    new = MOVED.get(f"cardspec.{name}")
    if new is None:
        raise AttributeError(f"module 'cardspec' has no attribute '{name}'")
    return importlib.import_module(new)


__all__ = ["Game", "State", "load", "read_ruleset", "builtin_names", "Ruleset", "RulesetError",
           "IllegalAction", "GameOver", "ScenarioError", "CardspecError", "Problem"]
