"""The internal moves and turn counters of a turns step, shared by core.py (the turn loop) and search.py.

Internal moves are ``(action_index, args)`` tuples, with ``DONE``/``SKIP`` for ending an ``any`` or
``optional`` phase. ``State.ts`` holds the turn's counters: ``[phase, actions in phase, next seat
override, end level, turns taken, turn seat, acting seat, why]`` (``why``: ``(level, text)`` — what ended
the step, deal or match and why, for ``game_over``'s ``reason``; None while it runs), indexed by ``PH``
… ``WHY``.
"""
DONE = (-1, ())
SKIP = (-2, ())
PH, CNT, NEXT, END, TURNS, SEAT, ACTOR, WHY = range(8)
