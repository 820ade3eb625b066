"""The ``turns`` step (docs/turns.md): the package's face.

Importing it registers the ``turns`` step kind (``core.Turns``) and gives the names other modules and
tests import from ``cardspec.engine.steps.turns``.
"""
from .core import (ACTOR, CNT, DONE, END, MAX_NUMBER_VALUES, MAX_TURNS_WITHOUT_DECISION, NEXT, PH, SEAT, SKIP,
                   TURNS, WHY, Turns, _range)

__all__ = ["Turns", "DONE", "SKIP", "PH", "CNT", "NEXT", "END", "TURNS", "SEAT", "ACTOR", "WHY",
           "MAX_NUMBER_VALUES", "MAX_TURNS_WITHOUT_DECISION", "_range"]
