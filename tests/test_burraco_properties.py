"""Property tests over whole Burraco games played by four meld bots (issue 6; ../shared/rules/burraco.md).

At every step: the 108 cards are all somewhere (hands, melds, pots, held pots, stock, discard pile);
every meld on the table is a valid set or sequence (checked by a plain-Python oracle written from the
digest, independent of the ruleset's expressions and of cardspec.engine.melds). After every deal: each
partnership's deal points equal the sum of their parts (melds, canastas, going out, pot, hands), and
the totals are the sums of the deal points. Every game ends, at or above the target.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from cardspec.engine import Game
from cardspec.players.meld import from_ruleset

GAMES = {}
VALUE = {"JK": 30, "2": 20, "A": 15, "K": 10, "Q": 10, "J": 10, "T": 10, "9": 10, "8": 10}
ORDER = "A23456789TJQKA"


def game(name):
    if name not in GAMES:
        GAMES[name] = Game(name, 4)
    return GAMES[name]


def value(code):
    return 30 if code == "JK" else VALUE.get(code[:-1], 5)


def is_wild(code):
    return code == "JK" or code[0] == "2"


def oracle_run_wilds(meld):
    """Fewest wilds of ``meld`` as one suit's sequence (ace low or high, no corner), or None: by trying
    every start place and every assignment of naturals to places (brute force, from the digest)."""
    n = len(meld)
    best = None
    for lo in range(0, 14 - n + 1):           # places lo..lo+n-1 of ORDER (A low at 0, A high at 13)
        places = ORDER[lo:lo + n]
        for suit in "SHDC":
            free = list(meld)
            stand = 0
            ok = True
            for r in places:
                c = r + suit
                if c in free:
                    free.remove(c)
                else:
                    stand += 1
            # the remaining cards must all be wilds standing in
            if any(not is_wild(c) for c in free) or len(free) != stand:
                ok = False
            if ok and any(not is_wild(c) for c in meld):
                best = stand if best is None else min(best, stand)
    return best


def oracle_valid(meld, max_set=108):
    nat = [c for c in meld if not is_wild(c)]
    if len(meld) < 3 or not nat:
        return False
    if len({c[:-1] for c in nat}) == 1 and len(meld) <= max_set:
        return True
    return oracle_run_wilds(meld) is not None


def oracle_wilds(meld):
    nat = [c for c in meld if not is_wild(c)]
    counts = []
    if len({c[:-1] for c in nat}) == 1:
        counts.append(len(meld) - len(nat))
    r = oracle_run_wilds(meld)
    if r is not None:
        counts.append(r)
    return min(counts)


def melds(s, team):
    g = s.game
    return [[g.deck.code[c] for c in m] for m in s.z[g.zone["table"].index][team]]


def count_cards(s):
    g = s.game
    total = 0
    for z in g.zones:
        zone = s.z[z.index]
        if z.per_seat:
            total += sum(sum(len(m) for m in h) if z.melds else len(h) for h in zone)
        else:
            total += len(zone)
    return total


def expected_points(s, seat, name):
    """Deal points of ``seat``'s partnership from the digest's scoring list, in plain Python."""
    g = s.game
    o = g.options
    team = seat % 2
    pts = 0
    for m in melds(s, team):
        pts += sum(value(c) for c in m)
        if len(m) >= 7:
            pts += o["clean"] if oracle_wilds(m) == 0 else o["dirty"]
    if s.v[g.var["went_out"].index] == team and (o["out_on_last_turn"] or not s.v[g.var["last_turn"].index]):
        pts += o["going_out"]
    if s.c[g.counter["pots"].index][seat] == 0:
        pts -= o["no_pot"]
    for p in (seat, (seat + 2) % 4):
        for zn in ("hand", "held"):
            pts -= sum(value(g.deck.code[c]) for c in s.z[g.zone[zn].index][p])
    return pts


def play(name, seed, check_every=1):
    g = game(name)
    s = g.new_state(seed=seed)
    bot = from_ruleset(g)
    max_set = g.options["max_set"]
    steps = 0
    deal_totals = [0, 0]
    seen = 0
    while not s.terminal:
        v = s.view(s.to_act)
        s.apply(bot.act(v, v["legal_actions"]))
        steps += 1
        assert count_cards(s) == 108
        if steps % check_every == 0:
            for t in (0, 1):
                for m in melds(s, t):
                    assert oracle_valid(m, max_set), m
                    if name == "burraco-fibur":
                        assert oracle_wilds(m) <= 1, m
        evs = s.log_all()
        for e in evs[seen:]:
            if e["type"] == "deal_score":
                for t in (0, 1):
                    deal_totals[t] += e["points"][str(t)]
                    assert e["points"][str(t)] == e["points"][str(t + 2)]
                    assert e["totals"][str(t)] == deal_totals[t]
        seen = len(evs)
        assert steps < 20000, "the game must end"
    return s, steps


@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10 ** 6))
def test_bot_games_keep_108_cards_valid_melds_and_end(seed):
    """Every step of a bot game: 108 cards, every meld valid (plain-Python oracle); the game ends at 2005."""
    s, _ = play("burraco", seed)
    totals = s.scores()
    assert max(totals.values()) >= 2005


@pytest.mark.parametrize("seed", [1, 2])
def test_federation_bot_games(seed):
    """The federation variant under the same properties, and at most one wild in every meld."""
    s, _ = play("burraco-fibur", seed, check_every=3)
    assert max(s.scores().values()) >= 2005


@pytest.mark.parametrize("name", ["burraco", "burraco-fibur"])
def test_deal_points_are_the_sum_of_their_parts(name):
    """burraco.md, Scoring a deal: the ruleset's deal points equal the digest's list (canastas clean
    or dirty, card values, going out, pot not taken, cards left in hands and held pots), recomputed
    in plain Python at the end of every deal of a bot game."""
    g = game(name)
    s = g.new_state(seed=11)
    bot = from_ruleset(g)
    checked = 0
    while not s.terminal:
        v = s.view(s.to_act)
        action = bot.act(v, v["legal_actions"])
        before = len(s.log_all())
        probe = s.clone()   # the same action, stopped before the score step runs
        step = g.steps[probe.pc]
        probe._cache = None
        over = step.apply(probe, probe._legal_map()[action])
        s.apply(action)
        ds = [e for e in s.log_all()[before:] if e["type"] == "deal_score"]
        if ds:
            assert over
            assert ds[0]["points"] == {str(p): expected_points(probe, p, name) for p in range(4)}
            checked += 1
    assert checked >= 2
