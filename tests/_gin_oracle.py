"""An independent Gin Rummy oracle, written from docs/rules/gin-rummy.md (not from the engine's code).

Cards are codes (``"7H"``, ``"TC"``). Melds (gin-rummy.md, "Play"): a set is 3 or 4 cards of one rank, a
run 3 or more cards of one suit in consecutive order A 2 … 10 J Q K (ace low only). Deadwood values
(gin-rummy.md, "Cards"): A 1, 2–10 their number, J Q K 10. The least deadwood is found by brute force:
every subset of the hand that is a meld, then every choice of disjoint melds.
"""
from __future__ import annotations

import itertools
from functools import lru_cache

ORDER = "A23456789TJQK"


def place(code: str) -> int:
    return ORDER.index(code[:-1]) + 1


def value(code: str) -> int:
    return min(place(code), 10)


def is_meld(cards) -> bool:
    if len(cards) < 3:
        return False
    if len({c[:-1] for c in cards}) == 1:
        return len(cards) <= 4
    if len({c[-1] for c in cards}) != 1:
        return False
    places = sorted(place(c) for c in cards)
    return all(b == a + 1 for a, b in zip(places, places[1:]))


@lru_cache(maxsize=None)
def _packings(cards: tuple) -> tuple:
    """Every way to choose disjoint melds from ``cards`` (sorted tuple): the leftover tuples."""
    melds = [m for k in range(3, len(cards) + 1) for m in itertools.combinations(cards, k) if is_meld(m)]
    out = set()

    def go(i, used, chosen):
        out.add(tuple(c for c in cards if c not in used))
        for j in range(i, len(melds)):
            if not used & set(melds[j]):
                go(j + 1, used | set(melds[j]), chosen + (melds[j],))

    go(0, frozenset(), ())
    return tuple(out)


def least_deadwood(cards) -> int:
    return min(sum(value(c) for c in rest) for rest in _packings(tuple(sorted(cards))))


def lay_off(rest, table_melds) -> set:
    """The cards of ``rest`` that can be laid off on ``table_melds`` (gin-rummy.md, "Play": a fourth card
    to a set of three, a card extending a run at either end, a laid-off card itself extended)."""
    runs = []
    sets = []
    for m in table_melds:
        if len({c[:-1] for c in m}) == 1:
            sets.append([m[0][:-1], len(m)])
        else:
            ps = [place(c) for c in m]
            runs.append([m[0][-1], min(ps), max(ps)])
    laid = set()
    changed = True
    while changed:
        changed = False
        for c in rest:
            if c in laid:
                continue
            for r in runs:
                if c[-1] == r[0] and place(c) in (r[1] - 1, r[2] + 1):
                    r[1], r[2] = min(r[1], place(c)), max(r[2], place(c))
                    laid.add(c)
                    changed = True
                    break
    for c in rest:
        if c not in laid:
            for st in sets:
                if c[:-1] == st[0] and st[1] < 4:
                    st[1] += 1
                    laid.add(c)
                    break
    return laid


def least_with_lay_offs(cards, table_melds) -> int:
    best = None
    for rest in _packings(tuple(sorted(cards))):
        laid = lay_off(rest, table_melds)
        v = sum(value(c) for c in rest if c not in laid)
        best = v if best is None else min(best, v)
    return best


def hand_score(k: int, d: int, gin_bonus=25, undercut_bonus=25) -> tuple:
    """(who scores: "knocker" or "defender", points, how) for knocker count ``k`` and defender count ``d``
    (gin-rummy.md, "Scoring")."""
    if k == 0:
        return "knocker", gin_bonus + d, "gin"
    if k < d:
        return "knocker", d - k, "knock"
    return "defender", k - d + undercut_bonus, "undercut"


def tallies(scores, hands_won, target=100, game_bonus=100, box_bonus=25, shutout="game_bonus_200") -> list:
    """The final tally of each of two players (gin-rummy.md, "Match end")."""
    out = []
    for p in (0, 1):
        q = 1 - p
        base = scores[p]
        bonus = 0
        if scores[p] >= target:
            if scores[q] == 0 and shutout == "double_hands":
                base = 2 * scores[p]
            bonus = 2 * game_bonus if scores[q] == 0 and shutout == "game_bonus_200" else game_bonus
        out.append(base + box_bonus * hands_won[p] + bonus)
    return out
