"""The turns step lists exactly what it accepts (docs/turns.md, "Parameter kinds"; DESIGN.md, "Actions").

``legal_actions()`` comes from generated listing functions, a typed action from a separate direct
check (``is_legal``). For every ruleset the two must agree: every listed action is accepted by
``apply`` (and reads back to itself), and an action ``apply`` accepts is listed wherever the
listing is complete by design — every parameter kind without ``candidates:``; with
``candidates:`` (docs/turns.md: "the card lists worth checking"), every proposed card set that
passes the count, zone and ``where`` checks.

tests/turns/candidates.yaml is written for this test: its ``lay`` action's ``candidates:``
deliberately proposes sets that break ``count``/``where``, cards not held (or held once), and a
set in reverse display order; ``free`` is the same action without ``candidates:``; the choices
list values twice.
"""
from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

import pytest

import cardspec
from cardspec import IllegalAction

RULES = str(Path(__file__).parent / "turns" / "candidates.yaml")


def accepted(s, text):
    try:
        return s.parse_action(text)
    except IllegalAction:
        return None


def sub_multisets(cards, kmin, kmax):
    out = set()
    for k in range(kmin, kmax + 1):
        out.update(itertools.combinations(sorted(cards), k))
    return out


def positions(players, seeds):
    g = cardspec.load(RULES, players)
    for seed in seeds:
        s = g.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.terminal:
            yield g, s
            s.apply(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("players", [2, 3])
def test_every_listed_action_is_accepted_and_reads_back_to_itself(players):
    for g, s in positions(players, range(8)):
        legal = s.legal_actions()
        assert len(legal) == len(set(legal)), f"an action listed twice: {legal}"
        for a in legal:
            assert accepted(s, a) == a, f"listed '{a}' is not accepted as itself"


@pytest.mark.parametrize("players", [2, 3])
def test_cards_actions_accepted_are_listed(players):
    """Brute force: every sub-multiset of the hand typed as ``free …`` (no candidates) is accepted exactly
    when listed; ``lay …`` is accepted for a proposed set exactly when listed."""
    checked = 0
    for g, s in positions(players, range(5)):
        legal = set(s.legal_actions())
        if not any(a == "draw" for a in legal):
            continue   # the choice phase
        seat = s.to_act
        hand = [g.deck.code[c] for c in s.z[g.zone["hand"].index][seat]]
        for combo in sub_multisets(hand, 1, 4):
            for verb in ("free", "lay"):
                text = accepted(s, f"{verb} {' '.join(combo)}")
                if verb == "free" or text is None:
                    assert (text in legal) == (text is not None), (verb, combo, text)
                checked += 1
        # A lay accepted directly is listed when its candidates propose it: the high cards (2-3 of them)
        high = [c for c in hand if g.deck.face(c) in g.deck.cards and g.deck.rank[g.deck.face(c)] >= 10]
        if 2 <= len(high) <= 3:
            assert accepted(s, "lay " + " ".join(high)) in legal
    assert checked > 100


def test_choices_listed_once_and_each_accepted():
    g = cardspec.load(RULES, 2)
    s = g.new_state(seed=1)
    legal = s.legal_actions()
    names = [a for a in legal if a.startswith("name")]
    picks = [a for a in legal if a.startswith("pick")]
    assert sorted(picks) == ["pick hearts", "pick spades"]
    # two distinct values of [spades, hearts, spades, clubs]: 3 unordered pairs
    assert len(names) == 3 and all(accepted(s, a) == a for a in names)
    assert accepted(s, "name spades spades") is None
