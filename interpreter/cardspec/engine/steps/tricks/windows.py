"""Windows in the play of tricks (``tricks: windows:``): decisions out of the turn of play (docs/tricks.md,
"Decisions between plays").

Some decisions belong to the moment, not to the seat whose turn it is: a trick's winner may make a
declaration after that trick, players announce a doubling while the tricks go on, the holder of two
cards announces them as he plays the second (the games: docs/tricks.md, "Decisions between plays"). A
window opens at a moment of the play — after a
trick (``after: trick``, before the next lead) or after a card that is not a trick's last (``after:
card``) — when its ``when:`` holds, and runs a ``turns`` step there (``turns:``: the same keys as a
``turns`` step of the deal: ``first:``, ``next:``, ``until:``, its actions and phases), so the seats
that may act, their priority (the order the turns go round) and what each may do (an action, or an
action kind that passes) are the ruleset's. When the turns are over the play goes on exactly where it
stopped, and the step's ``until:`` is read again (a decision can end the play at once).

Only one seat decides at a time (OpenSpiel's turn-with-priority convention), so the integer action
space, the adapters, the bots and the tables work unchanged: the window's actions are actions of the
step, listed after its cards. A window's actions take no parameters (a choice among values is
several actions), and a step with windows plays its random playouts through the general loop.

The step's own position while a window is open: ``s.win`` (the window's index) and ``s.ts`` (its turns
step's counters); a view shows ``window`` (``{"name", "after"}``) and the turns step's ``turn``.
"""
from __future__ import annotations

from .. import base
from ...slots import LEADER, TO_ACT, TRICK_NUMBER
from ....lang import BOOL

#: The moments a window may open at.
MOMENTS = ("trick", "card")


class Window:
    """One window: ``name`` (for views), ``after`` (a moment), ``when`` (f(s) -> bool or None),
    ``step`` (the turns step run in it)."""

    def __init__(self, name, after, when, step):
        self.name, self.after, self.when, self.step = name, after, when, step


def windows_setup(game, comp, spec, path) -> list:
    """Compile ``windows:`` (a list of ``{after, when, turns, name}``) into ``Window`` objects."""
    if spec is None:
        return []
    if not isinstance(spec, list) or not spec:
        comp.problem(path, "windows: is a list of {after: trick|card, when: EXPR, turns: {...}}")
        return []
    out = []
    for i, w in enumerate(spec):
        p = path + (i,)
        if not isinstance(w, dict) or not isinstance(w.get("turns"), dict):
            comp.problem(p, "a window is {after: trick|card, when: EXPR, turns: {first, until, actions, turn}}",
                         "e.g. {after: trick, when: sukonku, turns: {first: winner, turn: [{one: [juroku, decline]}]}}")
            continue
        after = str(w.get("after", "trick"))
        if after not in MOMENTS:
            comp.problem(p + ("after",), f"a window opens after a trick or a card, not '{after}'")
            continue
        when = comp.expr(w["when"], p + ("when",), (), (BOOL,)) if "when" in w else None
        step = base.STEP_TYPES["turns"](game, comp, w["turns"], p + ("turns",))
        kinds = {**(game.data.get("actions") or {}), **(w["turns"].get("actions") or {})}
        used = {name for ph in (w["turns"].get("turn") or []) if isinstance(ph, dict)
                for name in ([ph.get("one")] if isinstance(ph.get("one"), str) else ph.get("one") or [])}
        with_params = sorted(k for k in used if isinstance(kinds.get(k), dict) and kinds[k].get("params"))
        if with_params:
            comp.problem(p + ("turns",), f"a window's actions take no parameters ({', '.join(with_params)}): a "
                         "choice among values is several actions")
        step.name = str(w.get("name", f"window {i + 1}"))
        out.append(Window(step.name, after, when, step))
    return out


class Windows:
    """The part of the ``Tricks`` step that opens, runs and closes its windows (module doc). Used only when
    the step has ``windows:``; the step's decision methods then ask ``_window(s)`` first."""

    def _window(self, s):
        """The turns step of the open window, or None."""
        return self.windows[s.win].step if s.win is not None else None

    def _w_after_play(self, s, done) -> bool:
        """After a card: open the first window of this moment whose ``when:`` holds (a window with nothing
        to decide closes at once); True when the step is over."""
        if done:
            return True
        if self.choose is not None and self.pending(s):   # the card's player chooses first (choose:)
            return False
        return self._w_open(s, 0)

    def _w_open(self, s, start) -> bool:
        moment = "card" if s.plays else "trick"
        for i in range(start, len(self.windows)):
            w = self.windows[i]
            if w.after != moment or (w.when is not None and not w.when(s)):
                continue
            s.win = i
            if s.events is not None:
                s.emit({"type": "window", "name": w.name})
            if w.step.enter(s):
                return False          # a seat of the window decides now
            if self._w_close(s, i):   # nothing to decide: closed at once
                return True
            return False
        return False

    def _w_close(self, s, i) -> bool:
        """Close window ``i``: play goes on where it stopped, unless the step's ``until:`` now holds (True:
        the step is over). A later window of the same moment may open next."""
        s.win = None
        s.ts = None
        if not s.plays and self._until_fn is not None and self._until_fn(s):
            s.v[TRICK_NUMBER] -= 1   # the next trick never began
            return True
        seat = self.position(s)
        s.v[TO_ACT] = seat if self.played_by is None else self.played_by(s, seat) % s.n
        if not s.plays:
            s.v[LEADER] = seat
        return self._w_open(s, i + 1)

    # ---- the step's decision methods while a window may be open --------------------------------------
    def _w_apply(self, s, move):
        w = self._window(s)
        if w is not None:
            if w.apply(s, move):
                return self._w_close(s, s.win)
            return False
        return self._w_after_play(s, self._move(s, move))

    def _w_legal(self, s):
        w = self._window(s)
        return w.legal(s) if w is not None else self._legal(s)

    def _w_legal_sorted(self, s):
        w = self._window(s)
        return w.legal_sorted(s) if w is not None else self._cards_sorted(s)

    def _w_texts(self, s, moves):
        w = self._window(s)
        return w.texts(s, moves) if w is not None else self._card_texts(s, moves)

    def restore_window(self, s, view):
        """Rebuild an open window from a view (determinization): its index and its turns counters."""
        s.win = None
        win = view.get("window")
        if win is None:
            return
        i = next(k for k, w in enumerate(self.windows) if w.name == win["name"])
        from ..turns import counters_from_view
        s.ts = counters_from_view(view)
        s.win = i
