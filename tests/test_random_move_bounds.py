"""Random moves without repeated searches (issue 37, item 3), counted, never timed.

- A number spelled in digits whose every value is legal (``_Action.digits_free``: Red Dog's ``raise``)
  is drawn from its range's ``DigitTable`` (engine/steps/turns/number.py): a random move enumerates no
  value of the range (``Number.matching`` is never called) and asks at most one witness search per
  first small choice it draws, instead of one per digit; the same moves as the per-digit search
  (the search with ``digits_free`` off), small choices and seeded playouts alike.
- The ``repetition`` effect counts a position with a look-up (``effects._Seen``), not a walk of the
  whole history every move: the same counts as that walk, clones that go different ways included.
"""
from __future__ import annotations

import random

import pytest

import cardspec
from cardspec.engine import effects
from cardspec.engine.choices import DIGITS
from cardspec.engine.steps.turns.core import Turns
from cardspec.engine.steps.turns.number import DigitTable, Number, _range
from cardspec.engine.steps.turns.search import ActionSearch

DIGIT_GAMES = [("red-dog", 2), ("red-dog", 7), ("red-dog-casino", 3)]


def _turns_actions(game):
    """The actions of ``game``'s turns steps."""
    return [a for step in game.steps if isinstance(step, Turns) for a in step.actions]


def _playouts(game, seeds):
    out = []
    for seed in seeds:
        s = game.new_state(seed=seed, record=False)
        s.random_playout()
        out.append((s.history, s.scores()))
    return out


@pytest.mark.parametrize("name,players", DIGIT_GAMES)
def test_a_random_move_enumerates_no_value_of_a_digits_range(monkeypatch, name, players):
    game = cardspec.load(name, players)
    assert any(a.digits_free for a in _turns_actions(game))
    calls = {"matching": 0, "witness": 0, "moves": 0}
    matching, witness, random_move = Number.matching, ActionSearch._witness, ActionSearch.random_move

    def counted_matching(self, *args):
        calls["matching"] += self.digits   # (a number listed whole, e.g. a bet of 5 to 100, is not spelled)
        return matching(self, *args)

    def counted_witness(self, *args):
        calls["witness"] += 1
        return witness(self, *args)

    def counted_move(self, *args):
        calls["moves"] += 1
        return random_move(self, *args)

    monkeypatch.setattr(Number, "matching", counted_matching)
    monkeypatch.setattr(ActionSearch, "_witness", counted_witness)
    monkeypatch.setattr(ActionSearch, "random_move", counted_move)
    for seed in range(3):
        game.new_state(seed=seed, record=False).random_playout()
    assert calls["moves"] > 50
    assert calls["matching"] == 0, "a random move enumerated a number's values (a search per digit)"
    # one witness search at most per first small choice drawn (the 11 first characters of a number and
    # the other actions): bounded per move, however many digits the number has
    assert calls["witness"] <= len(DIGITS) * calls["moves"]
    assert calls["witness"] < 3 * calls["moves"]   # Red Dog: about 2 a move (16 with a search per digit)


@pytest.mark.parametrize("name,players", DIGIT_GAMES)
def test_the_digit_table_draws_the_moves_of_the_per_digit_search(monkeypatch, name, players):
    """The same seeded playouts and the same small choices with the table as with the search per digit."""
    for options in ({}, {"start_chips": 3000}):
        if name == "red-dog-casino" and options:
            continue
        game = cardspec.load(name, players, options)
        fast = _playouts(game, range(4))
        choices_fast = _choices(game)
        for a in _turns_actions(game):
            monkeypatch.setattr(a, "digits_free", False)
        assert _playouts(game, range(4)) == fast
        assert _choices(game) == choices_fast


def _choices(game):
    """The small choices of every decision of a seeded match, and the chunks a random player picks."""
    s = game.new_state(seed=11)
    rng = random.Random(3)
    trail = []
    for _ in range(60):
        if s.terminal:
            break
        while True:   # one action, chunk by chunk
            opts = s.legal_choices()
            trail.append(tuple(opts))
            s.choose(opts[rng.randrange(len(opts))])
            if not s.partial:
                break
    return trail


@pytest.mark.parametrize("seed", range(6))
def test_digit_table_is_the_prefix_search_of_its_range(seed):
    rng = random.Random(seed)
    for _ in range(40):
        lo = rng.randrange(-300, 300)
        hi = lo + rng.randrange(-5, 400)
        st = rng.choice([-1, 0, 1, 2, 5, 7, 25])
        values = list(_range(lo, hi, st))
        t = DigitTable(_range(lo, hi, st))
        texts = [str(v) for v in values]
        prefixes = {""} | {w[:k] for w in texts for k in range(1, len(w) + 1)}
        for p in prefixes | {"-0", "00", "9" * 5, "-", "1"}:
            first = next((v for v, w in zip(values, texts) if w.startswith(p)), None)
            assert t.firsts.get(p) == first, (lo, hi, st, p)
            units = DIGITS[1:] if p else DIGITS
            assert t.nexts(p) == tuple((d, d) for d in units if any(w.startswith(p + d) for w in texts))


class _Position:
    """A stand-in state for ``_fx_seen``: a chosen position key and a repetition history."""

    def __init__(self, key=None, positions=None):
        self.key, self.positions = key, positions

    def position_key(self):
        return self.key

    class game:   # (its game's written-out key, ``Game.pos_key``, is the state's key: tests/test_position_key.py)
        pos_key = staticmethod(lambda s: s.position_key())


def _walked(chain, key):
    """Occurrences of ``key`` in a chain, counted by walking it (what ``_fx_seen`` did every move)."""
    n = 0
    while chain is not None:
        n += chain[1] == key
        chain = chain[2]
    return n


@pytest.mark.parametrize("seed", range(4))
def test_repetition_counts_are_the_walk_of_the_history(seed):
    rng = random.Random(seed)
    # keys of equal hash but unequal (hash(-1) == hash(-2)): counted apart, as the walk compares them
    keys = [(-1,), (-2,), ("a", 1), ("b", (2, 3)), (5,)]
    states = [_Position()]
    for _ in range(400):
        s = rng.choice(states)
        if rng.random() < 0.2:   # a clone: shares the history, then goes its own way
            s = _Position(positions=s.positions)
            states.append(s)
        s.key = rng.choice(keys)
        want = _walked(s.positions, s.key) + 1
        assert effects._fx_seen(s, 3) == want
        assert _walked(s.positions, s.key) == want


def _walk_seen(s, times=0):
    """The repetition effect's count as it was before ``_Seen``: a walk of the whole history every move."""
    key = s.position_key()
    n = 1 + _walked(s.positions, key)
    s.positions = (hash(key), key, s.positions, None)
    return n


def test_a_repetition_ends_a_match_where_the_walk_of_the_history_ends_it(monkeypatch):
    game = cardspec.load("svoyi-koziri", None, {"repetition": 2})
    fx = [a.fx for a in _turns_actions(game) if a.fx is not None and "_fx_seen" in a.fx.__globals__]
    assert fx, "the ruleset's actions record positions (effect repetition)"

    def matches():
        out = []
        for seed in range(8):
            s = game.new_state(seed=seed, record=False)
            rng = random.Random(seed)
            for _ in range(rng.randrange(10, 40)):
                if not s.terminal:
                    s.apply_move(s.random_move(rng))
            c = s.clone()   # the clone and the state extend the same history two ways
            s.random_playout(random.Random(seed + 100))
            c.random_playout(random.Random(seed + 200))
            out += [(x.history, x.scores(), x.ts[7] if x.ts is not None and len(x.ts) > 7 else None)
                    for x in (s, c)]
        return out

    looked_up = matches()
    monkeypatch.setitem(fx[0].__globals__, "_fx_seen", _walk_seen)
    assert matches() == looked_up
