"""The first legal actions of a decision found through its small choices, without listing them all.

A compound decision can have more legal actions than any list should hold: a play of one to four
ordered cards from a 40-card hand is 2.25 million card sequences, over the listing cap
(``MAX_LISTED``), and ``State.legal_actions()`` raises ``TooManyActions`` there. Its small choices stay few (at most one
per card and word, docs/actions.md): ``legal_walk`` walks them depth first and returns the first
``limit`` whole actions, each legal (every small choice can be completed, so no branch is a dead end).

    >>> actions, complete = legal_walk(state, prefix="play KS", limit=500)

The order is stable for a state: first one action for each first small choice (so a front end that
shows the first page learns every way to begin: each card that can lead a play), then the rest of
each first choice's actions in turn. When ``complete`` is true the list holds every legal action that
starts with ``prefix`` (in the walk's order, not ``legal_actions()``'s). Used by the server's views,
``get_legal`` pages and random bots when a listing is too long (cardspec.protocol, cardspec.workers).

Cost: each node of the walk is one small-choice step (``choice_options``), bounded at load like any
small choice (docs/dsl.md, "Bounds"); the walk visits at most ``max_nodes`` of them (default
``50 * limit + 1000``) and then returns what it found with ``complete`` false.
"""
from __future__ import annotations

DONE = "done"


def _key(chunks) -> str:
    """The chunks as the letters of an action's text: ``done`` words dropped, no spaces, lower case (a
    number's digits are chunks of their own: ``bid 4``, ``0`` is the text ``bid 40``)."""
    return "".join(c for c in chunks if c.lower() != DONE).replace(" ", "").lower()


def legal_walk(state, prefix: str = "", limit: int = 500, max_nodes: int | None = None) -> tuple[list, bool]:
    """``(actions, complete)``: at most ``limit`` legal actions of the seat to act whose text starts with
    ``prefix`` (case-insensitive; spaces as in the action's text), each once, in the walk's stable order
    (module doc), and whether they are all of them.

    ``limit`` (int ≥ 0): actions returned at most. ``max_nodes`` (int): small-choice steps tried at most.
    A step whose actions are small (a card of a trick, a bid) has its whole listing filtered instead.
    Reads the state only (it is not changed). Empty and complete when the match is over. Raises what the
    rules raise (``RulesetError`` at the step)."""
    if state.terminal or limit <= 0:
        return [], state.terminal
    step = state.game.steps[state.pc]
    low = " ".join(str(prefix).split()).lower()
    if not step.compound:
        legal = [a for a in state.legal_actions() if a.lower().startswith(low)]
        return legal[:limit], len(legal) <= limit
    want = low.replace(" ", "")
    budget = [50 * limit + 1000 if max_nodes is None else max_nodes]
    seen: set = set()
    visited: set = set()
    done_before = tuple(state.partial)

    def options(pos):
        if budget[0] <= 0:
            raise _OutOfNodes
        budget[0] -= 1
        return state._options_at(step, pos)

    def children(pos, chunks, opts):
        """``(position, chunks)`` after each small choice of ``opts`` that can still match ``prefix``, each
        position once (the same cards chosen in another order of an unordered set: one branch)."""
        for c in opts:
            more = chunks + (c,)
            k = _key(more)
            if not (k.startswith(want) or want.startswith(k)):
                continue
            nxt = state._next_at(step, pos, c)
            try:
                if nxt in visited:
                    continue
                visited.add(nxt)
            except TypeError:        # a position that does not hash: only the texts are compared
                pass
            yield nxt, more

    def branch(pos, chunks):
        """The legal actions below partial position ``pos`` reached by ``chunks``, depth first."""
        opts, move = options(pos)
        if move is not None:
            text = step.text(state, move)
            if text not in seen and text.lower().startswith(low):
                seen.add(text)
                yield text
            return
        for nxt, more in children(pos, chunks, opts):
            yield from branch(nxt, more)

    out: list = []
    complete = False
    try:
        top, move = options(state._chpos)
        if move is not None:   # (a partial that is already a whole action: not kept by choose)
            text = step.text(state, move)
            return ([text], True) if text.lower().startswith(low) else ([], True)
        gens = [branch(nxt, more) for nxt, more in list(children(state._chpos, done_before, top))]
        live = []
        for g in gens:   # one action for each way to begin, then the rest of each in turn
            if len(out) >= limit:
                live.append(g)
                continue
            a = next(g, None)
            if a is not None:
                out.append(a)
                live.append(g)
        for g in live:
            for a in g:
                if len(out) >= limit:
                    return out, False
                out.append(a)
        complete = True
    except _OutOfNodes:
        pass
    return out, complete


class _OutOfNodes(Exception):
    """The walk's node budget ran out."""


def random_legal_action(state, rng) -> str:
    """The text of a legal action of the seat to act made of random small choices (each uniform among the
    legal ones, as ``State.random_move``), without listing the actions: for a decision whose listing is
    too long. Reads the state only. ``rng``: a ``random.Random``."""
    step = state.game.steps[state.pc]
    if not step.compound:
        legal = state.legal_actions()
        return legal[rng.randrange(len(legal))]
    pos = state._chpos
    while True:
        opts, move = state._options_at(step, pos)
        if move is not None:
            return step.text(state, move)
        pos = state._next_at(step, pos, opts[rng.randrange(len(opts))])
