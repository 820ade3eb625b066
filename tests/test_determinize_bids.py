"""ISMCTS determinizes positions inside bidding (docs/ismcts.md): found while giving Wizard its bots.

Before, the determinizer subtracted the step's ``flight`` from the unseen cards as if it held cards — it
does for a pass, but an auction keeps ``(seat, call)`` pairs there — so every auction position after the
first call failed ("hidden zones hold N cards but M are unaccounted for") and ISMCTS bid at random in
Napoleon, Briscola Chiamata and Auction Pitch; and a ``bid`` step (Oh Hell, Vanishing Whist, Wizard) could
not be rebuilt from a view at all. Each position here comes after at least one bid of the step.
"""
from __future__ import annotations

import random

import pytest

import cardspec
from cardspec.engine.determinize import Determinizer


@pytest.mark.parametrize("name,players", [("napoleon", 5), ("briscola-chiamata", 5), ("auction-pitch", 4),
                                          ("oh-hell", 4), ("wizard", 4)])
def test_positions_after_a_bid_are_determinized_with_the_bids_kept(name, players):
    game = cardspec.load(name, players=players)
    tried = 0
    for seed in range(6):
        s = game.new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(12):
            if s.terminal:
                break
            v = s.view(s.to_act, log=True)
            made = v.get("auction", {}).get("bids") or v.get("bids_made")
            if game.steps[s.pc].kind in ("auction", "bid") and made:
                det = Determinizer(game, v)
                world = det.sample(random.Random(tried))
                assert world.to_act == s.to_act
                assert sorted(world.legal_actions()) == sorted(s.legal_actions())   # the bids so far kept
                tried += 1
            s.apply(rng.choice(s.legal_actions()))
    assert tried >= 10
