"""cardspec: card games written as data, run by one generic interpreter.

Public API::

    from cardspec import Game, load
    game = load("hearts", players=4, options={"moon": True})
    state = game.new_state(seed=1)
    while not state.terminal:
        state.apply(state.legal_actions()[0])
    state.scores()

See DESIGN.md in the repository for the layers and contracts.
"""
from .errors import CardspecError, GameOver, IllegalAction, Problem, RulesetError, ScenarioError
from .rules import Ruleset, builtin_names, read_ruleset
from .engine import Game, State

__version__ = "0.1.0"


def load(ruleset, players=None, options=None) -> Game:
    """Load and compile a ruleset (built-in name or path) for ``players`` seats.

    Raises ``RulesetError`` listing every problem found, each with file:line:col.
    """
    return Game(ruleset, players, options)


__all__ = ["Game", "State", "load", "read_ruleset", "builtin_names", "Ruleset", "RulesetError",
           "IllegalAction", "GameOver", "ScenarioError", "CardspecError", "Problem"]
