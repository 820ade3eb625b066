"""``teams.fixed_totals``: the generated team totals of fixed partnerships (``by: team`` counters read by
expressions) give ``team_totals``' list for every row, and the games with ``match: teams`` use them."""
import random

import pytest

import cardspec
from cardspec.engine import teams


@pytest.mark.parametrize("groups,n", [(((0, 2), (1, 3)), 4), (((0, 3), (1, 4), (2, 5)), 6), (((0, 1, 2), (3,)), 4),
                                      (((0,), (1,), (2,)), 3), (((0, 2), (1,), (3,)), 4)])
def test_fixed_totals_match_team_totals(groups, n):
    class G:
        team_groups = groups

    class S:
        game = G()

    fast = teams.fixed_totals(groups, n)
    rng = random.Random(3)
    for _ in range(200):
        row = [rng.randint(-50, 50) for _ in range(n)]
        assert fast(None, row) == teams.team_totals(S(), row)


def test_a_seat_out_of_range_keeps_the_loop():
    assert teams.fixed_totals(((0, 4), (1, 2)), 4) is None


@pytest.mark.parametrize("name", ["euchre", "bridge"])
def test_games_with_teams_read_the_generated_totals(name):
    g = cardspec.load(name)
    assert g.ns["_team_totals"] is not teams.team_totals
    s = g.new_state(seed=1)
    rng = random.Random(1)
    for _ in range(60):
        if s.terminal:
            break
        for row in s.c:
            assert g.ns["_team_totals"](s, row) == teams.team_totals(s, row)
        legal = s.legal_actions()
        s.apply(legal[int(rng.random() * len(legal))])


@pytest.mark.parametrize("name", ["sheepshead", "briscola-chiamata"])
def test_side_totals_match_the_groups_loop(name):
    """``side_totals`` (read by ``by: side`` counters) gives ``totals(s, row, "side")`` at every position."""
    g = cardspec.load(name)
    assert g.ns["_side_totals"] is teams.side_totals
    rng = random.Random(2)
    seen = 0
    for m in range(3):
        s = g.new_state(seed=m)
        while not s.terminal:
            for row in s.c:
                assert teams.side_totals(s, row) == teams.totals(s, row, "side")
                seen += 1
            legal = s.legal_actions()
            s.apply(legal[int(rng.random() * len(legal))])
    assert seen
