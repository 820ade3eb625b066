"""``cardspec diff A B``: what differs between two rulesets, and what the difference does in play.

Both rulesets are read with their ``extends:`` chains merged and their options at their defaults
(or ``--option`` values), so a variant is compared with what it really plays. The difference is
given three ways:

1. **by part** — players, deck, zones, counters, vars, options, definitions, steps (by ``id``),
   match — each changed item with the file:line where each side writes it;
2. **in prose** — for every player count both allow, what the first deal gives (measured by dealing:
   "8 players: 13 cards in each hand → 12 cards in each hand, 8 in the widow (4 face up)"), and each
   changed step as ``cardspec explain`` words it;
3. **in play** (``--simulate N``) — the statistics of ``cardspec simulate`` for both (win rate per
   side, score mean, game length, first-seat advantage) with 95 % confidence intervals, and whether
   each difference is larger than its noise.

Metadata (name, title, description, source) is not compared.
"""
from __future__ import annotations

from ..errors import CardspecError
from .compare import SECTIONS, _NONE, _changes, _same, _short, _steps_by_id, _where, compare  # noqa: F401

METADATA = {"name", "title", "description", "source", "extends"}


class DiffError(CardspecError):
    """The two rulesets cannot be compared (e.g. no player count in common for --simulate)."""

    code = "diff/invalid"


def _counts(a, b) -> list:
    lo = max(a.players[0], b.players[0])
    hi = min(a.players[1], b.players[1])
    return list(range(lo, hi + 1))


def prose(a, b, options_a=None, options_b=None) -> list:
    """Sentences: the first deal per common player count where it differs, and each changed step in words."""
    from ..engine import Game
    from .explain import STEP_DESCRIBERS, _Ctx, _deal_sizes, step_kind
    out = []
    for n in _counts(a, b)[:16]:
        la = _deal_sizes(lambda k: Game(a, k, options_a), [n])[0]
        lb = _deal_sizes(lambda k: Game(b, k, options_b), [n])[0]
        if la != lb:
            out.append(f"With {n} players: {la.split(': ', 1)[1]} → {lb.split(': ', 1)[1]}.")
    ga = gb = None
    try:
        ga = Game(a, a.players[0], options_a)
        gb = Game(b, b.players[0], options_b)
    except CardspecError:
        pass
    if ga is not None and gb is not None:
        sa, sb = _steps_by_id(ga.data), _steps_by_id(gb.data)
        for k in list(sa) + [k for k in sb if k not in sa]:
            xa, xb = sa.get(k, (None, None))[1], sb.get(k, (None, None))[1]
            if _same(xa, xb):
                continue

            def words(game, spec):
                kind = step_kind(spec)
                body = spec if isinstance(spec, str) else spec.get(kind)
                return [" ".join(x.split()) for x in STEP_DESCRIBERS[kind](body if body is not None else {},
                                                                           _Ctx(game))]
            if xa is None:
                out.append(f"Step {k} is new: " + " ".join(words(gb, xb)))
            elif xb is None:
                out.append(f"Step {k} is gone (it was: " + " ".join(words(ga, xa)) + ")")
            else:
                wa, wb = words(ga, xa), words(gb, xb)
                gone = [x for x in wa if x not in wb]
                new = [x for x in wb if x not in wa]
                if gone or new:
                    out.append(f"Step {k}:")
                    out += [f"  was: {x}" for x in gone] + [f"  now: {x}" for x in new]
    if a.players != b.players:
        fmt = lambda p: f"{p[0]}" if p[0] == p[1] else f"{p[0]} to {p[1]}"   # noqa: E731
        out.insert(0, f"Players: {fmt(a.players)} → {fmt(b.players)}.")
    return out


def _stats(res) -> dict:
    sides = res["sides"]
    return {"sides": {s["label"]: (s["win_rate"], s["win_ci"], s["score"]["mean"], s["score"]["mean_ci"])
                      for s in sides},
            "actions": (res["length"]["actions"]["mean"], res["length"]["actions"]["mean_ci"]),
            "deals": (res["length"]["deals"]["mean"], res["length"]["deals"]["mean_ci"]),
            "first": (res["first_seat"].get("advantage"), res["first_seat"].get("win_ci"))}


def simulate_both(a_name, b_name, n: int, players: int | None, options_a=None, options_b=None, seed=0,
                  workers: int = 1, bots: str | None = None) -> list:
    """Lines comparing ``simulate`` of both at one player count (default: the smallest both allow)."""
    from ..rules import read_ruleset
    from ..play.simulate import simulate
    a, b = read_ruleset(a_name), read_ruleset(b_name)
    counts = _counts(a, b)
    if players is None:
        if not counts:
            raise DiffError(f"--simulate: {a.name} ({a.players[0]}-{a.players[1]} players) and {b.name} "
                            f"({b.players[0]}-{b.players[1]}) have no player count in common")
        players = counts[0]
    ra = simulate(a_name, n, players=players, bots=bots, seed=seed, options=options_a, workers=workers)
    rb = simulate(b_name, n, players=players, bots=bots, seed=seed, options=options_b, workers=workers)
    sa, sb = _stats(ra), _stats(rb)
    pct = lambda x: "-" if x is None else f"{100 * x:.1f}%"   # noqa: E731
    ci = lambda c: "" if not c else f" [{100 * c[0]:.1f}, {100 * c[1]:.1f}]"   # noqa: E731
    out = [f"Simulated {n} matches each, {players} players, bots {bots or 'random'}, seed {seed} "
           f"(95 % intervals; 'differs' when they do not overlap):"]

    def flag(ca, cb):
        if not ca or not cb:
            return ""
        return "  differs" if ca[1] < cb[0] or cb[1] < ca[0] else ""
    for label in sa["sides"]:
        if label not in sb["sides"]:
            continue
        wa, wca, ma, mca = sa["sides"][label]
        wb, wcb, mb, mcb = sb["sides"][label]
        out.append(f"  {label}: win {pct(wa)}{ci(wca)} → {pct(wb)}{ci(wcb)}{flag(wca, wcb)}; "
                   f"score mean {ma:.2f} [{mca[0]:.2f}, {mca[1]:.2f}] → {mb:.2f} [{mcb[0]:.2f}, {mcb[1]:.2f}]"
                   f"{flag(mca, mcb)}")
    for what in ("actions", "deals"):
        (xa, ca), (xb, cb) = sa[what], sb[what]
        out.append(f"  length in {what}: {xa:.1f} [{ca[0]:.1f}, {ca[1]:.1f}] → {xb:.1f} [{cb[0]:.1f}, {cb[1]:.1f}]"
                   f"{flag(ca, cb)}")
    fa, fb = sa["first"][0], sb["first"][0]
    if fa is not None and fb is not None:
        out.append(f"  first seat to act: advantage {100 * fa:+.1f} → {100 * fb:+.1f} points of win rate")
    return out


def diff_text(a_name, b_name, options_a=None, options_b=None) -> str:
    """The whole report of ``cardspec diff`` (without --simulate). Raises ``RulesetError``."""
    from ..rules import read_ruleset
    a, b = read_ruleset(a_name), read_ruleset(b_name)
    rows = compare(a, b, options_a, options_b)
    lines = [f"{a.name} → {b.name}"]
    if not rows:
        lines.append("No difference in play (metadata aside).")
        return "\n".join(lines) + "\n"
    lines.append("")
    lines.append("Differences by part (after extends: and options):")
    for sec, item, ta, tb, wa, wb in rows:
        name = f"{sec}.{item}" if item else sec
        if ta is None:
            lines.append(f"  + {name}: {tb}   ({wb})")
        elif tb is None:
            lines.append(f"  - {name}: {ta}   ({wa})")
        else:
            lines.append(f"  ~ {name}: {ta} → {tb}   ({wa} → {wb})")
    words = prose(a, b, options_a, options_b)
    if words:
        lines += ["", "What it means:"] + [f"  {w}" for w in words]
    return "\n".join(lines) + "\n"


__all__ = ["compare", "prose", "simulate_both", "diff_text", "DiffError"]
