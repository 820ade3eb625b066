"""The searches' key of a position (bytes equal exactly when ``State.position_key()`` is) and the key and copy
written out per game for the searches (``_search_fns``).
"""
from __future__ import annotations

import weakref
from marshal import dumps as _dumps

from ...engine import State
from ...engine.slots import TURN
from ...engine.steps.turns import TURNS as _TS_TURNS


def _key(state) -> bytes:
    """The search's key of a position: the parts of ``State.position_key()`` as bytes (``marshal`` format 0,
    which writes equal values of ints, strings, None, bools, tuples and lists as equal bytes whatever their
    sharing or interning — pickle does not: it back-references a repeated object — so equal keys iff equal
    position keys). About 400 bytes instead of about 1.5 KB of nested tuples per position in the tables, and
    bytes cache their hash (a tuple hashes all its parts at every table look-up). The same parts as
    ``position_key`` (``_KEY_PARTS`` of them; a test checks the two agree), marshalled from the state's own
    lists instead of tuple copies of them: about a quarter cheaper. The searches use ``_search_fns``'s copy
    of it written out for the game's zones (the same bytes)."""
    v = state.v
    ts = state.ts
    fl = state.flight
    if fl is not None:   # its entries are tuples or lists (a clone's), as position_key: tuples
        fl = [tuple(f) if f is not None else None for f in fl]
    return _dumps((state.pc, state.terminal,
                   [[sorted(h) for h in zone] if mode == 1 else zone if not mode or not zone
                    else (zone[-1], sorted(zone[:-1])) for mode, zone in zip(state.game.key_mode, state.z)],
                   state.c, v[:TURN], v[TURN + 1:], ts[:_TS_TURNS] + ts[_TS_TURNS + 1:] if ts is not None else None,
                   state.face_up, state.plays, fl, state.queue, state.carried), 0)


_FNS = weakref.WeakKeyDictionary()   # game -> (key, copy): _search_fns


def _search_fns(game):
    """``(key, copy)`` for the searches over ``game``'s positions: ``_key`` and ``State.clone(True)`` written
    out (generated once per game) for its zones (how many, which are per seat, how each is keyed), its seats
    and counters, without the loops, ``zip`` and per-zone tests of the general code; same results (``key``
    gives ``_key``'s bytes, a test checks it). ``copy`` also shares the action history (``apply_move``,
    all a search applies, never records one) and keeps no event log (the searches' states have none)."""
    fns = _FNS.get(game)
    if fns is not None:
        return fns
    n = game.n
    zones = []
    for i, mode in enumerate(game.key_mode):
        if mode == 1:
            zones.append("[" + ", ".join(f"sorted(z[{i}][{j}])" for j in range(n)) + "]")
        elif mode == 2:
            zones.append(f"((z{i}[-1], sorted(z{i}[:-1])) if (z{i} := z[{i}]) else z{i})")
        else:
            zones.append(f"z[{i}]")
    key = ("def key(state):\n"
           "    z = state.z\n"
           "    v = state.v\n"
           "    ts = state.ts\n"
           "    fl = state.flight\n"
           "    if fl is not None:\n"
           "        fl = [tuple(f) if f is not None else None for f in fl]\n"
           f"    return dumps((state.pc, state.terminal, [{', '.join(zones)}], state.c, v[:{TURN}], v[{TURN + 1}:], "
           f"ts[:{_TS_TURNS}] + ts[{_TS_TURNS + 1}:] if ts is not None else None, state.face_up, state.plays, fl, "
           "state.queue, state.carried), 0)\n")
    zc = ", ".join("[" + ", ".join(f"z[{i}][{j}].copy()" for j in range(n)) + "]" if per else f"z[{i}].copy()"
                   for i, per in enumerate(game.per_seat))
    cc = ", ".join(f"c[{i}].copy()" for i in range(len(game.counters)))
    copy = ("def copy(self):\n"
            "    s = new(State)\n"
            "    s.game = self.game\n"
            "    s.n = self.n\n"
            "    z = self.z\n"
            f"    s.z = [{zc}]\n"
            "    c = self.c\n"
            f"    s.c = [{cc}]\n"
            "    s.v = self.v.copy()\n"
            "    s.rng = self.rng\n"
            "    s.pc = self.pc\n"
            "    s.entered = self.entered\n"
            "    s.terminal = self.terminal\n"
            "    s.events = self.events.copy() if self.events is not None else None\n"
            "    s.face_up = self.face_up.copy()\n"
            "    s.plays = self.plays.copy()\n"
            "    fl = self.flight\n"
            "    s.flight = [list(f) if f is not None else None for f in fl] if fl is not None else None\n"
            "    s.queue = self.queue.copy()\n"
            "    s.carried = self.carried.copy()\n"
            "    s.history = self.history\n"
            "    s._stack_order = self._stack_order\n"
            "    s._result = self._result\n"
            "    s._deal_override = None\n"
            "    s._cache = None\n"
            "    ts = self.ts\n"
            "    s.ts = ts.copy() if ts is not None else None\n"
            "    s.positions = self.positions\n"
            "    s.nxt = self.nxt\n"
            "    s.partial = self.partial\n"
            "    s._chpos = self._chpos\n"
            "    s.eff = self.eff\n"
            "    s.win = self.win\n"
            "    return s\n")
    ns = {"dumps": _dumps, "new": State.__new__, "State": State}
    exec(compile(key + copy, "<solve._search_fns>", "exec"), ns)
    fns = _FNS[game] = (ns["key"], ns["copy"])
    return fns


_KEY_PARTS = 12   # the parts of State.position_key() that _key writes
