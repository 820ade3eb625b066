"""A State's small choices and integer ids (docs/actions.md): ``legal_choices``, ``choose``,
``legal_action_ids``, ``apply_id`` and the partial decision in progress (``choosing``).

Every compound decision (a pass of three cards, a meld, a bid in digits) can be made as a sequence of
small choices, each legal only when it can be completed; the game's ``ActionCodec`` (``engine/choices.py``)
numbers them. ``SmallChoices`` is a base class of ``State`` (``state.py``): these are State methods, kept
in a room of their own; they use the State's ``_cache``, ``partial``, ``_chpos``, ``_commit``, ``_failed``.
The generated id methods of a game (``compile/generate.py``, ``fused_state_class``) answer the hot path
and fall back to the methods here.
"""
from __future__ import annotations

from ..errors import CardspecError, GameOver, IllegalAction
from ..lang import RuleFault
from .slots import TO_ACT


class SmallChoices:
    """The small-choice and id methods of ``State`` (module doc)."""

    __slots__ = ()

    @property
    def choosing(self) -> str:
        """The small choices made so far of the decision in progress, as text (``""``: none)."""
        return " ".join(self.partial)

    def _options(self, step):
        return self._options_at(step, self._chpos)

    def _options_at(self, step, pos):
        """``step.choice_options`` at partial position ``pos``; a failure of the rules as ``_failed``."""
        try:
            return step.choice_options(self, pos)
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001
            raise self._failed(e) from None

    def _next_at(self, step, pos, chunk):
        """``step.choice_next``: the partial position after the legal ``chunk`` at ``pos``."""
        try:
            return step.choice_next(self, pos, chunk)
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001
            raise self._failed(e) from None

    def legal_choices(self) -> list:
        """The small choices legal now (chunks of text: ``QS``, ``pass 2C``, ``3C``, ``done``), in a
        stable order; each can be completed to a legal action. Empty when the match is over."""
        if self.terminal:
            return []
        step = self.game.steps[self.pc]
        if not step.compound:
            return self.legal_actions()
        return list(self._options(step)[0])

    def choose(self, text: str, seat: int | None = None):
        """Make one small choice (a chunk from ``legal_choices()``). When it completes an action, the
        action is applied as if typed whole (history and log show the compound text); otherwise it is
        kept in ``partial`` and the same seat is still to act.

        Raises ``IllegalAction`` naming the legal small choices (state unchanged)."""
        if seat is not None and not self.terminal and seat != self.v[TO_ACT]:
            raise IllegalAction(seat, text, [], f"not your turn (seat {self.v[TO_ACT]} is to act)")
        if self.terminal:
            raise GameOver(None, text, [], "given after the game ended")
        step = self.game.steps[self.pc]
        if not step.compound:
            return self.apply(text)
        chunk = " ".join(str(text).split())
        opts = self._options(step)[0]
        if chunk not in opts:
            low = chunk.lower()
            chunk = next((o for o in opts if o.lower() == low), None)
            if chunk is None:
                so_far = f" after '{self.choosing}'" if self.partial else ""
                raise IllegalAction(self.v[TO_ACT], text, opts, f"not a legal small choice now{so_far}")
        try:
            pos = step.choice_next(self, self._chpos, chunk)
            nxt, move = step.choice_options(self, pos)
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001
            raise self._failed(e) from None
        if move is not None:
            self._commit(step, move, step.text(self, move))
        else:
            self.partial = self.partial + (chunk,)
            self._chpos = pos
        return self

    def legal_action_ids(self) -> list:
        """The ids (``game.actions``) of the small choices legal now, sorted ascending, each once. A new
        list on every call: the caller may keep or change it."""
        c = self._cache
        if c is None:
            if self.terminal:
                return []
            f = self.game.steps[self.pc].id_fast
            if f is not None:   # each legal move has one key and one id, by table look-ups: the hot path
                try:
                    keys = f[4](self)
                except CardspecError:
                    raise
                except Exception as e:  # noqa: BLE001
                    raise self._failed(e) from None
                if not keys:
                    raise self._failed(RuleFault(f"seat {self.v[TO_ACT]} has no legal action"))
                # The keys (perhaps a list the state holds) are kept, not the ids handed out: apply_id
                # checks the key of an id against them. (None, keys, None, the step's id_fast)
                self._cache = (None, keys, None, f)
                mode = f[3]
                if not mode:
                    return sorted(map(f[0], keys))
                return list(map(f[0], keys)) if mode == 2 else sorted(set(map(f[0], keys)))
        elif len(c) == 4:   # listed before by the hot path: the same ids again
            return sorted(set(map(c[3][0], c[1])))
        if self.terminal:
            return []
        step = self.game.steps[self.pc]
        if step.compound:
            return self.game.actions.ids(self.legal_choices())
        return self._ids_cached(step)[2][:]

    def _ids_cached(self, step):
        """``(texts or None, moves, sorted ids, id → move, names)`` of a step whose actions are small,
        cached like ``_legal_cached`` (``names``: the codec's chunk per id)."""
        c = self._cache
        if c is not None and len(c) > 2:
            if c[2] is None:   # the hot path's cache: the ids from its keys
                f = c[3]
                c = self._cache = (None, None, sorted(set(map(f[0], c[1]))), f[1], f[2])
            return c
        codec = self.game.actions
        table = step.__dict__.get("_id_table", False)
        if table is False:
            table = step.__dict__["_id_table"] = step.move_ids(codec)
        try:
            if table is None or c is not None:
                c = c or self._legal_cached()
                d = dict(zip(codec.ids_of(c[0]), c[1]))
                c = self._cache = (c[0], c[1], sorted(d), d, codec._names)
                return c
            moves = step.legal(self)
            if not moves:
                raise RuleFault(f"seat {self.v[TO_ACT]} has no legal action")
            tab = table[2]
            ids = [tab[m] for m in moves] if tab is not None else table[0](self, moves)
        except CardspecError:
            raise
        except Exception as e:  # noqa: BLE001
            raise self._failed(e) from None
        ids.sort()
        if len(ids) != len(moves):   # the same card twice (two decks): once
            ids = sorted(set(ids))
        c = self._cache = (None, moves, ids, table[1], codec._names)
        return c

    def apply_id(self, i: int, seat: int | None = None):
        """Make the small choice of id ``i`` (``game.actions``). Raises ``IllegalAction`` naming the
        legal small choices when ``i`` is not legal now (state unchanged)."""
        c = self._cache
        if c is not None and len(c) == 4 and seat is None:   # the ids were listed by the hot path
            f = c[3]
            key = f[6].get(i) if type(i) is int else None
            if key is not None and key in c[1]:
                self._cache = None
                self.history.append(f[2][i])
                try:
                    if f[5](self, key):
                        self._finish_step()
                except CardspecError:
                    raise
                except Exception as e:  # noqa: BLE001
                    raise self._failed(e) from None
                return self
        if self.terminal:
            raise GameOver(None, str(i), [], "given after the game ended")
        codec = self.game.actions
        step = self.game.steps[self.pc]
        if seat is not None and seat != self.v[TO_ACT]:
            raise IllegalAction(seat, str(i), [], f"not your turn (seat {self.v[TO_ACT]} is to act)")
        if not step.compound:
            c = self._ids_cached(step)
            move = c[3][i] if i in c[2] else None
            if move is None:
                raise IllegalAction(self.v[TO_ACT], str(i), self.legal_choices(),
                                    f"not a legal action id now ({codec.describe(i)})")
            self._commit(step, move, codec._names[i])
            return self
        try:
            text = codec.decode(i)
        except ValueError as e:
            raise IllegalAction(self.v[TO_ACT], str(i), self.legal_choices(), f"not an action id ({e})") from None
        return self.choose(text, seat)
