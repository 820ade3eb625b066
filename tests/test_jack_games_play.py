"""The jack games (issue 19, "Deliver" 2): playable by people (``cardspec play --human``) and by every bot
(random, ISMCTS through its determinizer, which reads the trick event's ``taker``), whole matches at every
player count they allow.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

import cardspec
from cardspec.play.simulate import simulate

GAMES = [("knave", 3), ("four-jacks", 4), ("four-jacks", 5), ("four-jacks", 6), ("four-jacks-3", 3),
         ("four-jacks-polignac", 4), ("auction-pitch", 2), ("auction-pitch", 4), ("auction-pitch", 7)]


@pytest.mark.parametrize("name, players", GAMES, ids=[f"{n}-{p}" for n, p in GAMES])
def test_every_bot_plays_whole_matches(name, players):
    """Issue 19, "Done when": whole matches at every player count; an ISMCTS seat (determinizing hidden hands
    from the log) and random seats."""
    res = simulate(name, 1, players=players, bots="ismcts:8,random", seed=1)
    assert res["matches"] == 1
    assert sum(side["wins"] for side in res["sides"]) >= 1


@pytest.mark.parametrize("name, players", [("knave", 3), ("four-jacks", 4), ("four-jacks-3", 3), ("auction-pitch", 4)])
def test_a_person_plays_from_the_terminal(name, players):
    """Issue 19, "Deliver" 2: ``cardspec play NAME --human 0`` shows the human's hand and asks for a card
    (here: the first legal one the prompt offers, then the input ends: the match is abandoned cleanly)."""
    p = subprocess.run([sys.executable, "-m", "cardspec.cli", "play", name, "--players", str(players), "--seed",
                        "2", "--human", "0"], input="?\n", capture_output=True, text=True, timeout=120)
    assert "Traceback" not in p.stdout + p.stderr
    assert "your hand:" in p.stdout and "legal:" in p.stdout
    assert p.returncode == 1 and "abandoned" in p.stderr


@pytest.mark.parametrize("name, players", GAMES, ids=[f"{n}-{p}" for n, p in GAMES])
def test_listed(name, players):
    """Issue 19, "Deliver" 2: in ``cardspec list`` (the built-in names) and in README's table."""
    from pathlib import Path
    assert name in cardspec.builtin_names()
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    assert f"`{name}`" in readme
