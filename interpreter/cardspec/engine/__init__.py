"""The engine: a ``Game`` (a ruleset compiled for a player count, immutable) and a ``State``
(one position of a match). Over the rules and the expression language, under the players
and the front ends; ``steps/`` holds one module per mechanism of a deal.
"""
from .game import Game
from .state import State

__all__ = ["Game", "State"]
