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


def counters_from_view(view) -> list:
    """A turns step's counters (``State.ts``) rebuilt from a view's ``turn`` (``Turns.add_view``) and its
    ``to_act``: phase, actions in it, the turn's seat, the next-seat override, turns taken, the actor.
    Raises ``KeyError`` when the view has no ``turn``."""
    turn = view["turn"]
    ts = [0, 0, -1, 0, 0, -1, -1, None]
    ts[PH], ts[CNT], ts[SEAT] = turn["phase"], turn["actions_in_phase"], turn["seat"]
    ts[NEXT] = turn.get("next_seat", -1)
    ts[TURNS] = turn["number"] - 1
    ts[ACTOR] = view["to_act"]
    return ts

