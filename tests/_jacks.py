"""Helpers shared by the jack games' tests (Knave, Four Jacks, Auction Pitch): constructed deals,
playing a trick from given cards, and reaching a deal's end with chosen match totals."""
from __future__ import annotations

import random


def arrange(g, hands: dict, each: int, other: dict | None = None, void: dict | None = None,
            dealer: int = 0, seed: int = 0, full_deck: list | None = None):
    """A new state whose first deal gives each seat the cards of ``hands`` (seat -> codes), completed to
    ``each`` cards from the rest of the deck; ``void`` (seat -> suit letters) keeps those suits out of the
    completion; ``other`` (zone name -> codes) fixes shared zones (e.g. the turned card). Cards not named
    go where the deal's sizes leave room (the stock, a widow)."""
    d = g.deck
    other = other or {}
    void = void or {}
    named = [c for cs in hands.values() for c in cs] + [c for cs in other.values() for c in cs]
    deck = full_deck or [d.code[f] for f in d.cards]
    pool = list(deck)
    for c in named:
        pool.remove(c)
    out = {}
    # Seats with voids first, so the suits they may not hold are left for the others.
    order = sorted(range(g.n), key=lambda s: -len(void.get(s, "")))
    for seat in order:
        cards = list(hands.get(seat, []))
        for c in list(pool):
            if len(cards) >= each:
                break
            if c[-1] in void.get(seat, ""):
                continue
            cards.append(c)
            pool.remove(c)
        assert len(cards) == each, f"cannot complete seat {seat}'s hand"
        out[(g.zone["hand"].index, seat)] = [d.face(c) for c in cards]
    for name, cs in other.items():
        out[(g.zone[name].index, None)] = [d.face(c) for c in cs]
    return g.new_state(seed=seed, dealer=dealer, deal=out)


def tricks(state) -> list:
    return [e for e in state.log_all() if e["type"] == "trick"]


def play(state, *cards):
    """Apply ``cards`` (action texts) in order, each by the seat to act."""
    for c in cards:
        state.apply(c)
    return state


def random_deal(state, rng) -> list:
    """Play random legal actions to the end of the current deal (or the match); returns the actions."""
    deal = state.view(None)["deal"]
    acts = []
    while not state.terminal and state.view(None)["deal"] == deal:
        a = rng.choice(state.legal_actions())
        acts.append(a)
        state.apply(a)
    return acts


def deal_with_totals(g, totals: list, seed: int = 1, counter: str = "score", choose=None, dealer: int = 0):
    """A state at the end of its first deal whose match totals are ``totals`` there: the deal is played once
    (random actions from ``seed``, or ``choose(state, legal)``), then replayed from the same seed with the
    match totals set beforehand to ``totals`` minus that deal's gains. Returns ``(state, gains)``."""
    rng = random.Random(seed)
    s = g.new_state(seed=seed, dealer=dealer)
    ci = g.counter[counter].index
    before = list(s.c[ci])
    acts = []
    deal = 1
    while not s.terminal and s.view(None)["deal"] == deal:
        legal = s.legal_actions()
        a = choose(s, legal) if choose else rng.choice(legal)
        acts.append(a)
        s.apply(a)
    gains = [x - b for x, b in zip(s.c[ci], before)]
    t = g.new_state(seed=seed, dealer=dealer)
    t.c[ci] = [x - d for x, d in zip(totals, gains)]
    for a in acts:
        t.apply(a)
    assert t.c[ci] == list(totals)
    return t, gains
