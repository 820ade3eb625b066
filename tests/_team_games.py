"""Helpers for the five-player team games' tests (napoleon, goninkan, briscola-bugiarda)."""
import copy
import json
import random

import cardspec


def to_play(state, rng=None, step="play"):
    """Random legal actions until the deal's ``step`` (the tricks) is reached; returns the state."""
    rng = rng or random.Random(0)
    while state.view(None)["step"] != step:
        state.apply(rng.choice(state.legal_actions()))
    return state


def trick_winner(game, base, plays, leader, trick_number=1, trump=None, hands=None, choices=None):
    """The seat that wins a trick of ``plays`` (codes, in play order from ``leader``), played from a
    position built from ``base`` (a state in its tricks step) with ``Game.state_from_view``: each seat
    holds its card (plus ``hands[seat]``), the trick is number ``trick_number``, trumps ``trump``."""
    n = game.n
    v = copy.deepcopy(base.view(None))
    order, seat = [], leader
    for _ in plays:
        order.append(seat)
        seat = game.next_player(base, seat)
    held = {s: [] for s in range(n)}
    for s, c in zip(order, plays):
        held[s].append(c)
    if hands is None:   # one more card each, of neither the led suit nor trumps: the deal goes on
        deck = game.deck
        avoid = {plays[0][-1], trump or ""}
        spare = [c for c in dict.fromkeys(deck.code[f] for f in deck.cards)
                 if c not in plays and c != "JK" and c[-1] not in avoid]
        hands = {p: [spare[p]] for p in range(n)}
    for s, extra in hands.items():
        held[s] += extra
    for name, z in v["zones"].items():   # other hidden cards: none (the position needs only the trick)
        if isinstance(z, dict) and "count" in z:
            v["zones"][name] = {"count": 0}
        elif isinstance(z, dict):
            for k, e in z.items():
                if isinstance(e, dict):
                    z[k] = {"count": 0}
    for s in range(n):
        v["zones"]["hand"][str(s)] = {"count": len(held[s])}
    v["system"].update(trick_number=trick_number, leader=leader, to_act=leader, led_suit=-1)
    if trick_number > v["system"]["tricks_total"]:
        v["system"]["tricks_total"] = trick_number
    if trump is not None:
        v["system"]["trump"] = game.deck.suit_index(trump)
    v["trick"] = []
    s = game.state_from_view(v, {("hand", p): cards for p, cards in held.items()})
    s.events = []   # record this trick's events
    for p, c in zip(order, plays):
        assert s.to_act == p, (p, c, s.to_act)
        s.apply(c)
        if c in (choices or {}):   # a decision inside the trick (naming a suit when a joker is led)
            s.apply(choices[c])
    return [e for e in s.events if e["type"] == "trick"][-1]["winner"]


def play_random(game, seed, check=None):
    """A whole match with random legal actions; ``check(state)`` after each action."""
    rng = random.Random(seed)
    s = game.new_state(seed=seed)
    while not s.terminal:
        s.apply(rng.choice(s.legal_actions()))
        if check is not None:
            check(s)
    return s


def card_count(state):
    g = state.game
    return sum(len(h) for zn in g.zones for h in (state.z[zn.index] if zn.per_seat else [state.z[zn.index]])) \
        + len(state.plays)


def same_for(a, b, seats):
    """``a`` and ``b`` look the same to each of ``seats`` (views with logs)."""
    for seat in seats:
        if json.dumps(a.view(seat, log=True), sort_keys=True) != json.dumps(b.view(seat, log=True), sort_keys=True):
            return False
    return True
