"""Eleusis with prophets: how often the induction bot finds the secret rule.

Plays whole matches of rulesets/eleusis-prophets.yaml with the ruleset's default bot
(``cardspec.players.induction.InductionBot``) at every seat: each dealer draws a library
rule at random, the children induce it from the judged cards. A round counts as
*found* when, at its end, at least one child's set of library rules consistent
with everything it saw is exactly the dealer's rule (the bot then declares itself
a prophet, so it is also the count of rounds with a prophet who was right). Also
reported: rounds with at least one prophet, prophets overthrown, and the share of
rounds found per rule. The bots act through ``InductionBot.choose`` on
``State.view(seat, log=True, legal=False)`` and ``State.apply_move`` (a play of up
to four ordered cards has ~20,000 legal actions; listing them is what
``cardspec play`` pays, not this benchmark). The rounds are those of the rule
(../shared/rules/eleusis-prophets.md): one per dealer.

    python benchmarks/induction_rate.py                       # 50 matches x 5 players = 250 rounds
    python benchmarks/induction_rate.py --matches 10 --players 4 --seed 7
"""
from __future__ import annotations

import argparse
import collections
import sys
import time


def rate(matches=50, players=5, seed=1, per_rule=None, stats=None):
    """Play ``matches`` matches; returns ``(rounds found, rounds)``. ``per_rule`` / ``stats``: dicts to fill
    (``stats['alike']``: rounds not found where the remaining candidates judge every card alike)."""
    from cardspec.engine import Game
    from cardspec.players.induction import from_ruleset
    g = Game("eleusis-prophets", players)
    found = rounds = 0
    for m in range(matches):
        s = g.new_state(seed=f"{seed}-{m}", record=True)
        bots = {i: from_ruleset(g, f"{seed}-{m}-{i}") for i in range(players)}
        deal = 1
        while not s.terminal:
            v = s.view(s.to_act, log=True, legal=False)
            s.apply_move(s._parse(bots[s.to_act].choose(v)))
            now = s.v[2]   # DEAL_NUMBER
            if now != deal or s.terminal:
                alike = []
                ok, name = _judge_round(s, bots, deal, alike)
                if stats is not None and not ok and alike:
                    stats["alike"] += 1
                found += ok
                rounds += 1
                deal = now
                if per_rule is not None:
                    per_rule.setdefault(name, [0, 0])
                    per_rule[name][0] += ok
                    per_rule[name][1] += 1
        if stats is not None:
            for e in s.log_all():
                if e["type"] in ("prophet", "prophet_overthrown", "disqualified"):
                    stats[e["type"]] += 1
            stats["rounds_with_prophet"] += len({e["deal"] for e in _with_deal(s.log_all()) if e["type"] == "prophet"})
    return found, rounds


def _with_deal(events):
    deal = 0
    for e in events:
        if e["type"] == "deal_start":
            deal = e["deal"]
        yield dict(e, deal=deal)


def _judge_round(s, bots, deal, alike=None):
    events = s.log_all()
    end = max(i for i, e in enumerate(events) if e["type"] == "rule_revealed")
    name = events[end]["name"]
    dealer = [e["dealer"] for e in events if e["type"] == "deal_start"][deal - 1]
    for seat, bot in bots.items():
        if seat == dealer:
            continue
        log = s.log(seat)
        cut = max(i for i, e in enumerate(log) if e["type"] == "rule_revealed")
        cands = bot.candidates(log[:cut + 1])
        if [n for n, _ in cands] == [name]:
            return 1, name
        if alike is not None and bot.settled(cands, bot.line(log[:cut + 1])):
            alike.append(name)   # only rules that judge alike remain (e.g. red only / same colour on a red line)
    return 0, name


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=50)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--seed", default="1")
    a = ap.parse_args(argv)
    t = time.time()
    per_rule, stats = {}, collections.Counter()
    found, rounds = rate(a.matches, a.players, a.seed, per_rule, stats)
    secs = time.time() - t
    print(f"rounds: {rounds}  found: {found}  rate: {found / rounds:.1%}  "
          f"({a.matches} matches x {a.players} players, seed {a.seed}, {secs:.0f} s)")
    print(f"not found, but only rules that judge alike were left: {stats['alike']} "
          f"(found or alike: {(found + stats['alike']) / rounds:.1%})")
    print(f"rounds with a prophet: {stats['rounds_with_prophet']}  prophets: {stats['prophet']}  "
          f"overthrown: {stats['prophet_overthrown']}  disqualifications: {stats['disqualified']}")
    for name, (k, n) in sorted(per_rule.items(), key=lambda kv: kv[1][0] / kv[1][1]):
        print(f"  {name:24} {k:3}/{n:<3} {k / n:.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
