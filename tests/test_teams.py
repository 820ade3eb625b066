"""Team-level counters (``counters: {C: {by: team | side}}``; engine/teams.py, docs/teams.md).

A counter declared ``by: team`` is read as a team's total: ``tricks[p]`` is the tricks of p's partnership
(``match: teams``), the same for both partners, added once per trick (an ``add:`` with the winner as
``seat:``). The rules: Whist's side tricks (pagat.com "Whist": the side's tricks over six score a point
each; tests/teams/whist.yaml) and Euchre's (docs/rules/euchre.md, "Scoring": the makers' tricks decide the
deal). ``by: side`` reads the sides of ``sides:`` (docs/sides.md): the declarer with the partner against
the rest (shared/rules/sheepshead.md, "Scoring": the picker's side's card points).
"""
from __future__ import annotations

import pathlib
import random

import pytest
import yaml

import cardspec
from cardspec.errors import RulesetError

HERE = pathlib.Path(__file__).parent
WHIST = HERE / "teams" / "whist.yaml"


def _load(tmp_path, path, edit, players=None):
    data = yaml.safe_load(path.read_text())
    edit(data)
    p = tmp_path / path.name
    p.write_text(yaml.safe_dump(data, sort_keys=False))
    return cardspec.load(str(p), players) if players else cardspec.load(str(p))


def _played(g, seed):
    s = g.new_state(seed=seed)
    rng = random.Random(seed)
    while not s.terminal:
        s.apply(rng.choice(s.legal_actions()))
    return s


def _probe(data, names):
    """Vars set at the end of the play from team-level reads (the values expressions see)."""
    data.setdefault("vars", {})
    for n in names:
        data["vars"][n] = {"type": "int", "default": -1, "per": "match"}
    return data


@pytest.mark.parametrize("seed", range(6))
def test_whist_side_tricks_are_read_once_per_partnership(tmp_path, seed):
    """pagat "Whist": partners opposite; the side's tricks over six score one point each, once per side.
    Each seat reads its team's total; the score is kept once per team (not twice, not per partner)."""
    def edit(d):
        _probe(d, ["t0", "t1", "t2", "t3"])
        d["deal"].insert(4, {"do": [{"set": {f"t{i}": f"tricks[{i}]" for i in range(4)}}]})
    g = _load(tmp_path, WHIST, edit)
    s = _played(g, seed)
    won = [0, 0]
    for ev in s.log_all():
        if ev["type"] == "trick":
            won[ev["winner"] % 2] += 1
    v = s.view(None)
    assert [v["vars"][f"t{i}"] for i in range(4)] == [won[0], won[1], won[0], won[1]]
    assert sum(v["counters"]["tricks"]) == 13                   # each trick added once, to one seat
    assert s.game_scores() == {0: max(won[0] - 6, 0), 1: max(won[1] - 6, 0)}
    ds = [e for e in s.log_all() if e["type"] == "deal_score"][-1]
    assert ds["totals"] == {str(p): max(won[p % 2] - 6, 0) for p in range(4)}
    shown = {c["name"]: c for c in v["display"]["counters"]}
    assert shown["tricks"]["by"] == "team"
    assert [x["value"] for x in shown["tricks"]["values"]] == won
    assert [x["value"] for x in shown["score"]["values"]] == [max(w - 6, 0) for w in won]


def test_add_without_seat_is_once_per_team_and_set_makes_the_total(tmp_path):
    """docs/teams.md, Writing: an add: without seat: adds once per team; set: {C[p]: V} makes p's team's
    total V whatever either partner held."""
    def edit(d):
        _probe(d, ["a0", "a1", "b0", "b1"])
        d["deal"] = [
            {"do": [{"add": {"counter": "score", "value": 5}},
                    {"set": {"a0": "score[0]", "a1": "score[3]"}},
                    {"add": {"counter": "score", "seat": 2, "value": 1}},
                    {"set": {"score[0]": 10}},
                    {"set": {"b0": "score[2]", "b1": "score[1]"}}]}]
        d["deal"].insert(0, "shuffle")
        d["deal"].insert(1, {"deal": {"to": "hand", "each": 1}})
        d["deal"].append({"tricks": {}})
    s = _played(_load(tmp_path, WHIST, edit), 0)
    v = s.view(None)["vars"]
    assert (v["a0"], v["a1"], v["b0"], v["b1"]) == (5, 5, 10, 5)


def test_side_counter_follows_the_called_partner(tmp_path):
    """docs/sides.md: the declarer's side is the declarer and the secret partner; a by: side counter adds
    each seat's cards and reads the side's total (the defenders' for a defender). Read at the end, it is
    the cards the side took, for either member (tests/sides/toy.yaml, the called-partner toy)."""
    def edit(d):
        _probe(d, ["decl", "part", "other", "side_seen"])
        d["counters"]["taken"] = {"per": "deal", "by": "side"}
        tricks = next(x for x in d["deal"] if isinstance(x, dict) and "tricks" in x)
        tricks["tricks"] = dict(tricks["tricks"] or {})
        tricks["tricks"]["after_trick"] = [{"add": {"counter": "taken", "seat": "winner", "value": "count(trick)"}}]
        d["deal"].append({"do": [{"set": {"decl": "taken[declarer]",
                                          "part": "if partner >= 0 then taken[partner] else -1",
                                          "other": "taken[filter(p in seats where not on_declarer_side(p))[0]]"}}]})
    g = _load(tmp_path, HERE / "sides" / "toy.yaml", edit, players=4)
    checked = 0
    for seed in range(12):
        s = _played(g, seed)
        v = s.view(None)
        d = v["sides"]["declarer"]
        if d < 0:
            continue
        p = v["sides"]["partner"]
        side = {d} | ({p} if p is not None and p >= 0 else set())
        won = {q: len(v["zones"]["won"][str(q)]) for q in range(4)}
        mine = sum(won[q] for q in side)
        assert v["vars"]["decl"] == mine
        assert v["vars"]["part"] == (mine if len(side) == 2 else -1)
        assert v["vars"]["other"] == sum(won.values()) - mine
        assert v["counters"]["taken"] == [won[q] for q in range(4)]   # the view keeps each seat's part
        checked += 1
    assert checked >= 6


def test_by_team_needs_teams_and_by_side_needs_sides(tmp_path):
    """A team counter without the teams it is read by is an error at the counter's by:."""
    def no_teams(d):
        del d["match"]["teams"]
    with pytest.raises(RulesetError, match="by: team needs match: teams"):
        _load(tmp_path, WHIST, no_teams)

    def side(d):
        d["counters"]["tricks"]["by"] = "side"
    with pytest.raises(RulesetError, match="by: side needs sides:"):
        _load(tmp_path, WHIST, side)

    def bad(d):
        d["counters"]["tricks"]["by"] = "pair"
    with pytest.raises(RulesetError):
        _load(tmp_path, WHIST, bad)
