"""Legal-action listings, the server's and its worker processes' (``cardspec.serve.workers``): every legal action
when they can be listed (``listing_or_none``), else the first ones found through the small choices
(``cardspec.engine.walk``): the head of a view (``legal_head_of``), a page of ``get_legal`` (``legal_page_of``),
a random bot's move (``random_action_of``).
"""
from __future__ import annotations

from .limits import CpuBudgetExceeded, cpu_budget

#: The most actions of a lazy listing that a ``get_legal`` prefix filters text by text (about 0.3 s of CPU);
#: a larger one is narrowed by the walk through the small choices, as a listing too large to list.
PREFIX_FILTERED = 200_000


def listing_or_none(st, budget: float | None = None) -> list | None:
    """Every legal action of the seat to act (``State.legal_actions()``), or None when they are too many to
    list: more than ``MAX_LISTED`` (``TooManyActions``) or, with ``budget`` (CPU seconds, in a worker
    process), more than that budget can list. The state is unchanged either way."""
    from ..errors import TooManyActions
    try:
        if budget is None:
            return st.legal_actions()
        with cpu_budget(budget):
            return st.legal_actions()
    except TooManyActions:
        st._cache = None   # (an interrupted listing made nothing the state keeps)
        return None
    except CpuBudgetExceeded:
        st._cache = None
        if budget is None:   # the calling request's own budget ran out: that call is over, not this listing
            raise
        return None


def legal_head_of(st, seat, limit: int, listing) -> tuple:
    """``(count, first limit legal actions)`` of ``seat`` ((0, []) unless it is to act). ``listing``: every
    legal action, or None when too many to list: then ``count`` is None and the actions are the first
    found through the small choices (``cardspec.engine.walk.legal_walk``: one for each way to begin)."""
    if seat is None or st.to_act != seat:
        return 0, []
    if listing is not None:
        return len(listing), listing[:limit]
    from ..engine.walk import legal_walk
    head, complete = legal_walk(st, limit=limit)
    return (len(head) if complete else None), head


def legal_page_of(st, seat, offset: int, limit: int, prefix: str, listing) -> dict:
    """``{count, offset, actions}``: the legal actions of ``seat`` starting with ``prefix`` (case-insensitive),
    ``limit`` from ``offset``. With ``listing`` None (too many to list) they come from the small choices
    in the walk's stable order, and ``count`` is None unless the walk found them all. A prefix over a lazy
    listing (a read-only sequence of a large play of card sets, engine/steps/turns/lazy.py) is narrowed by the
    walk too when it holds more than ``PREFIX_FILTERED`` actions: filtering would make every text of it in
    Python (about 1.5 s a million)."""
    if seat is None or st.to_act != seat:
        return {"count": 0, "offset": offset, "actions": []}
    if listing is not None and (not prefix or isinstance(listing, list) or len(listing) <= PREFIX_FILTERED):
        legal = listing
        if prefix:
            p = prefix.lower()
            legal = [a for a in legal if a.lower().startswith(p)]
        return {"count": len(legal), "offset": offset, "actions": legal[offset:offset + limit]}
    from ..engine.walk import legal_walk
    found, complete = legal_walk(st, prefix=prefix, limit=offset + limit)
    return {"count": len(found) if complete else None, "offset": offset, "actions": found[offset:offset + limit]}


def random_action_of(st, rng) -> str:
    """A random legal action of the seat to act: uniform over the listing, or — when the actions are too
    many to list — made of random small choices (``cardspec.engine.walk.random_legal_action``)."""
    legal = listing_or_none(st)
    if legal is not None:
        return legal[rng.randrange(len(legal))]
    from ..engine.walk import random_legal_action
    return random_legal_action(st, rng)
