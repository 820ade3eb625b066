"""The fixed integer action space of a game and its small choices (docs/actions.md).

    import cardspec
    from cardspec.actions import codec
    game = cardspec.load("hearts")
    actions = codec(game)            # the same object as game.actions
    s = game.new_state(seed=1)
    ids = s.legal_action_ids()       # sorted ints in 0..actions.n-1
    s.apply_id(ids[0])               # one small choice ("pass 2C"), the same seat may still be to act
    actions.decode(ids[0]), actions.mask(s)

Every compound decision (a pass of three cards, a meld, an ordered play and its declaration, a bid
in digits) is made as a sequence of small choices, each legal only when it can be completed; the
text API (``state.apply("pass 2C 3C 4C")``) keeps the compound forms.
"""
from __future__ import annotations

from ..engine.choices import DONE_WORD, ActionCodec, ActionSpaceError

__all__ = ["ActionCodec", "ActionSpaceError", "DONE_WORD", "codec"]


def codec(game) -> ActionCodec:
    """The ``ActionCodec`` of ``game`` (a ``cardspec.Game``): ``game.actions``.

    Raises ``ActionSpaceError`` when a step's small choices are not known at load time."""
    return game.actions
