"""A pass from a hand holding a face twice (several decks) reads its texts from the step's table of every
multiset of k faces (engine/steps/passing.py ``_table(..., repeats=True)``): the same texts, in the same
order, as made one by one, at every pass position of seeded matches; and the table is in use."""
import random

import pytest

import cardspec


@pytest.mark.parametrize("players", [6, 8])
def test_texts_from_the_multiset_table_are_the_texts_made_one_by_one(players):
    g = cardspec.load("cancellation-black-lady", players)
    step = next(st for st in g.steps if st.kind == "pass")
    assert not step._unique
    rng = random.Random(4)
    repeats = 0
    for m in range(3):
        s = g.new_state(seed=m)
        while not s.terminal:
            legal = s.legal_actions()
            if s.current_step() is step:
                hand = s.z[step.zone][s.v[7]]
                moves = step.legal(s)
                texts, made = step._legal_texts(s)
                assert list(made) == moves and texts == step.texts(s, moves) == [step.text(s, mv) for mv in moves]
                assert legal == texts
                repeats += len(set(hand)) != len(hand)
            s.apply(legal[int(rng.random() * len(legal))])
    assert repeats > 0
    assert any(k < 0 and t for k, t in step._tables.items())   # the multiset table was made and used
