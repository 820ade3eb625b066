"""The ``turns`` step (docs/turns.md): the package's face.

Importing it registers the ``turns`` step kind (``core.Turns``, with ``@step_type``) and gives the
names other modules and tests import from ``cardspec.engine.steps.turns``. Inside, one room each:

- ``core.py``: the step, its turn order and flow (phases, ``enter``, ``apply``, ``legal``, text);
- ``search.py``: the search of an action one small choice at a time (random moves, "anything legal?");
- ``actions.py``: compiling one action kind (its generated lister and checker, effects);
- ``param.py``: the common face of a parameter kind, and the four kinds: ``card.py`` (one card of a
  zone), ``cards.py`` (several cards: melds, lay-offs, ordered plays), ``number.py`` (a number: bets,
  raises) and ``choice.py`` (values of a list: typed declarations);
- ``moves.py``: the internal moves (``DONE``, ``SKIP``) and the turn counters (``PH`` … ``WHY``).
"""
from .core import MAX_TURNS_WITHOUT_DECISION, Turns
from .moves import ACTOR, CNT, DONE, END, NEXT, PH, SEAT, SKIP, TURNS, WHY, counters_from_view
from .number import MAX_NUMBER_VALUES, _range

__all__ = ["Turns", "DONE", "SKIP", "PH", "CNT", "NEXT", "END", "TURNS", "SEAT", "ACTOR", "WHY",
           "MAX_NUMBER_VALUES", "MAX_TURNS_WITHOUT_DECISION", "_range", "counters_from_view"]
