"""Playtesting at scale: many whole matches between bots, aggregated as they finish.

``simulate(ruleset, n, …)`` plays matches ``0..n-1``. Match ``i`` is seeded from
``(seed, i)`` alone (its shuffles: ``"{seed}/{i}"``; seat ``k``'s bot:
``"{seed}/{i}/bot{k}"``; random seats: ``"{seed}/{i}/random"``), matches are
grouped in fixed chunks that do not depend on the worker count, each chunk is
reduced to an ``Aggregate`` of exact integer sums and counts, and chunks are
merged in index order: the result is identical for any ``workers`` and any
executor (local processes, threads, a Dask or Ray cluster: see ``make_executor``
and docs/simulate.md). Memory holds one aggregate per side, not one entry per
match.

Random seats are played through the engine's internal loop
(``State.random_move`` / ``State.apply_move``, and ``Game.new_state(record=False)``
when every seat is random): a random bot ignores the view anyway, so building
views for it would only cost time. Every other bot goes through
``cardspec.bots.take_turn``: it sees ``state.view(seat)`` and the legal actions only.

A *side* is a seat, or a team when the ruleset declares ``match.teams``; it is
what ``State.game_scores()`` is keyed by. A side *wins* a match when it is in the
``game_over`` event's ``winner`` list (ties: every tied side wins; a match in
which every side ties is a draw, counted apart) and *loses*
when it is in its ``loser`` list, or else when its score is the worst. In a game against the house
(``match: ranking: none``: no ranking, no winner) a side *wins* when its net result (the
``game_over`` event's ``net``) is above 0 and *loses* when below; the table calls them "ahead" and
"behind", and there are no draws.
"""
from __future__ import annotations

import asyncio
import math
import os
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from ..errors import CardspecError

Z95 = 1.959963984540054


class SimulationError(CardspecError):
    """Bad simulation input (unknown bot, bad counts)."""

    code = "simulate/bad_input"


def wilson(k: int, n: int, z: float = Z95) -> tuple:
    """Wilson score interval ``(low, high)`` for ``k`` successes in ``n`` trials (95 % by default).

    ``(0.0, 1.0)`` when ``n`` is 0.
    """
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


class _Moments:
    """Count, sum, sum of squares (exact for ints), min, max."""

    __slots__ = ("n", "s", "ss", "lo", "hi")

    def __init__(self):
        self.n, self.s, self.ss, self.lo, self.hi = 0, 0, 0, None, None

    def add(self, x):
        self.n += 1
        self.s += x
        self.ss += x * x
        self.lo = x if self.lo is None or x < self.lo else self.lo
        self.hi = x if self.hi is None or x > self.hi else self.hi

    def merge(self, o):
        self.n += o.n
        self.s += o.s
        self.ss += o.ss
        for x in (o.lo, o.hi):
            if x is not None:
                self.lo = x if self.lo is None or x < self.lo else self.lo
                self.hi = x if self.hi is None or x > self.hi else self.hi

    def summary(self) -> dict:
        n = self.n
        if not n:
            return {"mean": None, "sd": None, "mean_ci": None, "min": None, "max": None}
        mean = self.s / n
        var = max(0.0, (self.ss - self.s * self.s / n) / (n - 1)) if n > 1 else 0.0
        sd = math.sqrt(var)
        half = Z95 * sd / math.sqrt(n)
        return {"mean": mean, "sd": sd, "mean_ci": [mean - half, mean + half], "min": self.lo, "max": self.hi}


def _ratio(a) -> dict:
    """Ratio of totals Σx/Σy over matches with a 95 % CI (delta method: the matches are the independent units).

    ``a`` is ``[n, Σx, Σy, Σx², Σy², Σxy]``; returns ``{"value", "ci", "matches", "total", "per"}``
    (value and ci None when Σy is 0).
    """
    n, sx, sy, sxx, syy, sxy = a
    if not sy:
        return {"value": None, "ci": None, "matches": n, "total": sx, "per": sy}
    r = sx / sy
    # sample variance of the residuals x - r·y, over (n · mean(y)²)
    var_d = (sxx - 2 * r * sxy + r * r * syy) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(max(var_d, 0.0) / n) / abs(sy / n)
    return {"value": r, "ci": [r - half, r + half], "matches": n, "total": sx, "per": sy}


class Aggregate:
    """Streaming totals over matches: per side wins, losses, score moments and distribution; lengths.

    ``add(result)`` takes one match's ``MatchResult``; ``merge(other)`` adds another aggregate
    (exact for integer scores, so merge order and chunking do not change the result).
    """

    def __init__(self, sides, house: bool = False):
        self.sides = list(sides)
        self.house = house           # match: ranking: none — wins/losses are ahead of/behind the house
        k = len(self.sides)
        self.n = 0
        self.wins = [0] * k
        self.draws = 0
        self.losses = [0] * k
        self.scores = [_Moments() for _ in range(k)]
        self.dist = [Counter() for _ in range(k)]
        self.actions = _Moments()
        self.deals = _Moments()
        self.first_n = [0] * k       # matches in which this side acted first
        self.first_wins = [0] * k    # … and won
        self.ratios = {}             # match.report name -> per side [n, Σx, Σy, Σx², Σy², Σxy] (exact ints)

    def add(self, r):
        self.n += 1
        # Every side tied (all are winners): a draw, counted as neither a win nor a loss.
        draw = len(self.sides) > 1 and not self.house and all(side in r.winners for side in self.sides)
        self.draws += draw
        for i, side in enumerate(self.sides):
            x = r.scores.get(side, 0)
            self.scores[i].add(x)
            self.dist[i][x] += 1
            if side in r.winners and not draw:
                self.wins[i] += 1
            if side in r.losers and not draw:
                self.losses[i] += 1
        for name, by_side in r.reports.items():
            acc = self.ratios.setdefault(name, [[0] * 6 for _ in self.sides])
            for i, side in enumerate(self.sides):
                x, y = by_side.get(side, (0, 0))
                a = acc[i]
                a[0] += 1; a[1] += x; a[2] += y; a[3] += x * x; a[4] += y * y; a[5] += x * y   # noqa: E702
        self.actions.add(r.actions)
        self.deals.add(r.deals)
        if r.first in self.sides:
            j = self.sides.index(r.first)
            self.first_n[j] += 1
            self.first_wins[j] += r.first in r.winners and not draw

    def merge(self, o: "Aggregate"):
        self.n += o.n
        for i in range(len(self.sides)):
            self.wins[i] += o.wins[i]
            self.losses[i] += o.losses[i]
            self.scores[i].merge(o.scores[i])
            self.dist[i].update(o.dist[i])
            self.first_n[i] += o.first_n[i]
            self.first_wins[i] += o.first_wins[i]
        for name, acc in o.ratios.items():
            mine = self.ratios.setdefault(name, [[0] * 6 for _ in self.sides])
            for a, b in zip(mine, acc):
                for j in range(6):
                    a[j] += b[j]
        self.actions.merge(o.actions)
        self.deals.merge(o.deals)
        self.draws += o.draws

    def summary(self, labels=None, bots=None) -> dict:
        """JSON-ready results (shape in docs/bots.md)."""
        n = self.n
        out_sides = []
        for i, side in enumerate(self.sides):
            sc = self.scores[i].summary()
            sc["distribution"] = {str(k): v for k, v in sorted(self.dist[i].items())}
            out_sides.append({
                "side": side,
                "label": labels[i] if labels else f"seat {side}",
                "bot": bots[i] if bots else None,
                "wins": self.wins[i], "win_rate": self.wins[i] / n if n else None,
                "win_ci": list(wilson(self.wins[i], n)),
                "losses": self.losses[i], "loss_rate": self.losses[i] / n if n else None,
                "loss_ci": list(wilson(self.losses[i], n)),
                "score": sc,
                "reports": {name: _ratio(acc[i]) for name, acc in self.ratios.items()},
            })
        fw, fn = sum(self.first_wins), sum(self.first_n)
        share = sum(self.wins) / (n * len(self.sides)) if n and self.sides else None
        first = {"matches": fn, "wins": fw, "win_rate": fw / fn if fn else None, "win_ci": list(wilson(fw, fn)),
                 "mean_win_rate": share,
                 "advantage": (fw / fn - share) if fn and share is not None else None,
                 "by_side": {str(s): self.first_n[i] for i, s in enumerate(self.sides)}}
        return {"matches": n, "against_house": self.house, "draws": self.draws, "draw_rate": self.draws / n if n else None,
                "draw_ci": list(wilson(self.draws, n)), "sides": out_sides, "length": {"actions": self.actions.summary(),
                                                             "deals": self.deals.summary()},
                "first_seat": first}


class MatchResult:
    """One match: ``scores`` {side: points}, ``winners``/``losers`` (sides), ``actions``, ``deals``, ``first``."""

    __slots__ = ("scores", "winners", "losers", "actions", "deals", "first", "reports")

    def __init__(self, scores, winners, losers, actions, deals, first, reports=None):
        self.scores, self.winners, self.losers = scores, winners, losers
        self.actions, self.deals, self.first = actions, deals, first
        self.reports = reports or {}   # match.report name -> {side: (numerator, denominator)}


# ---- playing ------------------------------------------------------------------
_GAMES = {}


def _game(ruleset, players, options, key=None):
    """The compiled ``Game``, cached per process (a worker compiles each ruleset once).

    ``ruleset`` is a name, a path or a ``Ruleset`` already read (what a remote worker gets, so it needs
    no file of the client's); ``key`` then names it in the cache (its content hash).
    """
    key = (key or ruleset, players, tuple(sorted((options or {}).items())))
    g = _GAMES.get(key)
    if g is None:
        from ..engine import Game
        g = _GAMES[key] = Game(ruleset, players, options)
    return g


def sides_of(game) -> list:
    """The sides results are kept for: team indexes when the ruleset has teams, else seats."""
    if game.teams:
        return list(range(len(game.teams)))
    return list(range(game.n))


def _side_of(game, seat):
    if game.teams:
        for i, t in enumerate(game.teams):
            if seat in t:
                return i
    return seat


def play_one(game, bot_specs, seed, index, policy=None) -> MatchResult:
    """Play match ``index`` of a simulation seeded ``seed``; ``bot_specs`` has one spec per seat."""
    import random
    from ..engine.slots import DEAL_NUMBER, TO_ACT
    from ..players import make_bot, take_turn
    n = game.n
    fast = [spec == "random" for spec in bot_specs]
    bots = [None if fast[k] else make_bot(bot_specs[k], seed=f"{seed}/{index}/bot{k}", game=game, policy=policy)
            for k in range(n)]
    record = any(b is not None and b.wants_log for b in bots)
    state = game.new_state(seed=f"{seed}/{index}", record=record)
    rng = random.Random(f"{seed}/{index}/random")
    first = state.to_act
    actions = 0
    v = state.v
    if all(fast):
        while not state.terminal:
            state.apply_move(state.random_move(rng))
            actions += 1
    else:
        while not state.terminal:
            seat = v[TO_ACT]
            if fast[seat]:
                state.apply_move(state.random_move(rng))
            else:
                take_turn(state, bots[seat], seat)
            actions += 1
    scores = state.game_scores()
    res = state.result or {}
    winners = tuple(res.get("winner") or ())
    losers = res.get("loser")
    if "net" in res:   # match: ranking: none — a side "wins" when it ends ahead of the house, "loses" behind it
        winners = tuple(int(k) for k, x in res["net"].items() if x > 0)
        losers = [int(k) for k, x in res["net"].items() if x < 0]
    if losers is None and scores:
        worst = (max if game.ranking == "lowest" else min)(scores.values())
        losers = [k for k, x in scores.items() if x == worst]
    reports = {}
    for name, (num, per, _pct) in game.report.items():
        r = reports[name] = {}
        for k in range(n):
            x, y = r.get(_side_of(game, k), (0, 0))
            r[_side_of(game, k)] = (x + state.c[num][k], y + state.c[per][k])
    return MatchResult(scores, winners, tuple(losers or ()), actions, v[DEAL_NUMBER],
                       _side_of(game, first) if first is not None else None, reports)


def _run_chunk(args):
    """Play matches ``start..stop-1`` and return their ``Aggregate`` (runs in a worker; pure in its args)."""
    ruleset, key, players, options, bot_specs, policy, seed, start, stop = args
    game = _game(ruleset, players, options, key)
    agg = Aggregate(sides_of(game), house=game.ranking == "none")
    for i in range(start, stop):
        agg.add(play_one(game, bot_specs, seed, i, policy))
    return agg


def bot_specs_for(players: int, bots: str | None, policy: str | None) -> list:
    """One bot spec per seat from ``--bots`` (comma list; the last repeats) and ``--policy``."""
    if bots:
        specs = [b.strip() for b in bots.split(",") if b.strip()]
    else:
        specs = ["policy"] if policy else ["random"]
    if not specs:
        raise SimulationError("--bots lists no bot")
    specs = (specs + [specs[-1]] * players)[:players]
    return specs


def chunk_size(n: int) -> int:
    """Matches per chunk: a function of ``n`` only (never of the worker count)."""
    return max(1, min(100, n // 200 or 1))


def simulate(ruleset, n: int, players: int | None = None, bots: str | None = None, policy: str | None = None,
             workers: int = 1, seed=0, options: dict | None = None, progress=None, executor=None) -> dict:
    """Play ``n`` matches and return the summary dict (see docs/bots.md for its shape).

    Parameters:
        ruleset: built-in name or path. players: seats (default: the ruleset's ``players: default``, else its minimum).
        bots: ``"ismcts:300,random"`` — one spec per seat, the last repeats (default: all random).
        policy: the ruleset policy used by ``policy`` seats. workers: processes (1: this process) when no
            ``executor`` is given; with one, how many chunks are kept in flight per worker slot.
        seed: int or str. options: ruleset option overrides.
        progress: optional callable ``progress(done_matches)`` called as chunks finish.
        executor: any ``concurrent.futures``-style executor (``submit(fn, arg)`` returning a future with
            ``result()``): a ``ThreadPoolExecutor``, a Dask ``Client.get_executor()``, the Ray adapter of
            ``make_executor``. The chunks and their merge order do not depend on it, so the result is the
            same as a local run with the same seed.

    Raises ``SimulationError`` (bad counts or bots) and ``RulesetError``.
    """
    if n < 1:
        raise SimulationError("-n must be at least 1")
    if workers < 1:
        raise SimulationError("--workers must be at least 1")
    options = dict(options or {})
    game = _game(ruleset, players, options)
    players = game.n
    specs = bot_specs_for(players, bots, policy)
    from ..players import make_bot
    for k, spec in enumerate(specs):          # fail early, in this process, on a bad spec
        try:
            make_bot(spec, seed=0, game=game, policy=policy)
        except (ValueError, TypeError) as e:
            raise SimulationError(f"seat {k}: {e}") from None
    size = chunk_size(n)
    # A worker elsewhere gets the ruleset as read here (a pickled Ruleset with its extends: chain merged),
    # keyed by its content, so it needs neither our files nor our working folder.
    shipped, key = ruleset, None
    if executor is not None:
        shipped = game.ruleset
        key = _content_key(shipped)
    jobs = [(shipped, key, players, options, specs, policy, seed, a, min(n, a + size)) for a in range(0, n, size)]
    total = Aggregate(sides_of(game), house=game.ranking == "none")
    done = 0

    def finished(job, agg):
        nonlocal done
        total.merge(agg)                     # always in index order
        done += job[8] - job[7]
        if progress:
            progress(done)

    if executor is None and (workers == 1 or len(jobs) == 1):
        for job in jobs:
            finished(job, _run_chunk(job))
    elif executor is None:
        with ProcessPoolExecutor(max_workers=workers) as ex:
            _run_jobs(ex, jobs, workers * 3, finished)
    else:
        _run_jobs(executor, jobs, max(workers, getattr(executor, "slots", 1)) * 3, finished)
    labels = [("team " if game.teams else "seat ") + str(s) for s in total.sides]
    side_bots = ["/".join(sorted({specs[k] for k in range(players) if _side_of(game, k) == s})) for s in total.sides]
    out = {"ruleset": game.name, "players": players, "options": {k: v for k, v in game.options.items()},
           "seed": seed, "bots": specs, "policy": policy,
           "report_percent": {name: p for name, (_x, _y, p) in game.report.items()},
           # what the match total counts, in the ruleset's words (its counter's label: Chips, Score)
           "score_label": (game.score_counter.label if game.score_counter is not None else "") or "Score"}
    out.update(total.summary(labels, side_bots))
    return out


def _run_jobs(ex, jobs, window: int, finished):
    """Submit ``jobs`` to ``ex`` keeping at most ``window`` in flight; hand results to ``finished`` in order."""
    pending = []
    it = iter(jobs)
    for job in it:
        pending.append((job, ex.submit(_run_chunk, job)))
        if len(pending) >= window:
            break
    while pending:
        job, fut = pending.pop(0)
        finished(job, fut.result())
        nxt = next(it, None)
        if nxt is not None:
            pending.append((nxt, ex.submit(_run_chunk, nxt)))


def _content_key(ruleset) -> str:
    import hashlib
    import pickle
    return "sha256:" + hashlib.sha256(pickle.dumps(ruleset, protocol=4)).hexdigest()


# ---- executors ------------------------------------------------------------------
class _RayExecutor:
    """A ``concurrent.futures``-style face for Ray: ``submit(fn, arg)`` runs ``fn`` as a Ray task."""

    def __init__(self, ray):
        self._ray = ray
        self._remote = {}
        self.slots = max(1, int(ray.cluster_resources().get("CPU", 1)))

    def submit(self, fn, *args):
        r = self._remote.get(fn)
        if r is None:
            r = self._remote[fn] = self._ray.remote(fn)
        return r.remote(*args).future()

    def shutdown(self):
        self._ray.shutdown()


class _DaskExecutor:
    """A Dask ``Client``'s executor with the client (and a local cluster it started) closed on shutdown."""

    def __init__(self, client, cluster=None):
        self._client, self._cluster = client, cluster
        self._ex = client.get_executor(pure=False)
        self.slots = max(1, sum(client.nthreads().values()))

    def submit(self, fn, *args):
        return self._ex.submit(fn, *args)

    def shutdown(self):
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_executor(spec: str, workers: int = 2, timeout: float = 10.0):
    """An executor for ``simulate(executor=…)`` from a ``--executor`` spec; the caller calls ``shutdown()``.

    Specs: ``processes`` (this machine, ``workers`` processes), ``threads`` (one process; for tests),
    ``dask`` (a ``LocalCluster`` of ``workers`` single-threaded processes), ``dask://HOST:PORT`` (a running
    Dask scheduler), ``ray`` (a local Ray instance, or the cluster ``RAY_ADDRESS`` names), ``ray://HOST:PORT``
    (a Ray cluster through Ray Client). Dask and Ray are optional extras: ``pip install 'cardspec[dask]'``
    or ``'cardspec[ray]'``. ``timeout``: seconds to wait for a Dask scheduler. Raises ``SimulationError`` for an unknown spec, a missing extra or a cluster
    that cannot be reached.
    """
    from concurrent.futures import ThreadPoolExecutor
    if workers < 1:
        raise SimulationError("--workers must be at least 1")
    if spec == "processes":
        return ProcessPoolExecutor(max_workers=workers)
    if spec == "threads":
        return ThreadPoolExecutor(max_workers=workers)
    if spec == "dask" or spec.startswith("dask://"):
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise SimulationError("--executor dask needs Dask: pip install 'cardspec[dask]'") from None
        try:
            if spec == "dask":
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
                return _DaskExecutor(Client(cluster), cluster)
            return _DaskExecutor(Client("tcp://" + spec[len("dask://"):], timeout=timeout))
        except (OSError, TimeoutError, asyncio.TimeoutError) as e:   # (two types before Python 3.11)
            raise SimulationError(f"cannot reach the Dask scheduler at {spec}: {e}") from None
    if spec == "ray" or spec.startswith("ray://"):
        try:
            import ray
        except ImportError:
            raise SimulationError("--executor ray needs Ray: pip install 'cardspec[ray]'") from None
        try:
            if spec == "ray":
                ray.init(ignore_reinit_error=True, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=spec, ignore_reinit_error=True, log_to_driver=False)
        except (ConnectionError, OSError, RuntimeError) as e:
            raise SimulationError(f"cannot start or reach Ray at {spec}: {e}") from None
        return _RayExecutor(ray)
    raise SimulationError(f"unknown --executor {spec!r}: use processes, threads, dask, dask://HOST:PORT, "
                          "ray or ray://HOST:PORT")


# ---- output ---------------------------------------------------------------------
def _pct(x):
    return "-" if x is None else f"{100 * x:5.1f}%"


def _ci(ci):
    return f"[{100 * ci[0]:4.1f}, {100 * ci[1]:4.1f}]"


def format_table(res: dict) -> str:
    """A plain-text report: one row per side, then length and first-seat lines."""
    house = res.get("against_house")
    head = ["side", "bot", "ahead" if house else "win", "95% CI", "behind" if house else "loss", "95% CI",
            "score mean", "95% CI", "sd", "min", "max"]
    rows = []
    for s in res["sides"]:
        sc = s["score"]
        rows.append([s["label"], s["bot"] or "", _pct(s["win_rate"]), _ci(s["win_ci"]), _pct(s["loss_rate"]),
                     _ci(s["loss_ci"]), f"{sc['mean']:.3f}", f"[{sc['mean_ci'][0]:.2f}, {sc['mean_ci'][1]:.2f}]",
                     f"{sc['sd']:.3f}", str(sc["min"]), str(sc["max"])])
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    lines = [f"{res['ruleset']}: {res['matches']} matches, {res['players']} players, seed {res['seed']}"]
    lines.append("  ".join(h.ljust(w) if i < 2 else h.rjust(w) for i, (h, w) in enumerate(zip(head, widths))))
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    if house:
        lines.append("against the house (match: ranking: none): no ranking, no winner; ahead/behind = the score "
                     "counter ended above/below its start")
    if res.get("draws"):
        lines.append(f"draws (every side tied; counted as neither win nor loss): {_pct(res['draw_rate'])} "
                     f"{_ci(res['draw_ci'])}")
    a, d = res["length"]["actions"], res["length"]["deals"]
    lines.append(f"length: {a['mean']:.2f} actions (sd {a['sd']:.2f}, {a['min']}-{a['max']}), "
                 f"{d['mean']:.2f} deals (sd {d['sd']:.2f}, {d['min']}-{d['max']})")
    f = res["first_seat"]
    if f["matches"] and not house:
        lines.append(f"first seat to act: wins {_pct(f['win_rate'])} {_ci(f['win_ci'])} vs "
                     f"{_pct(f['mean_win_rate'])} for an average side (advantage {100 * f['advantage']:+.1f} points)")
    pct = res.get("report_percent", {})
    for s in res["sides"]:
        for name, rp in (s.get("reports") or {}).items():
            if rp["value"] is not None:
                f, u = (100, " %") if pct.get(name) else (1, "")
                lines.append(f"{s['label']} {name}: {f * rp['value']:+.4f}{u} (95% CI [{f * rp['ci'][0]:+.4f}{u}, "
                             f"{f * rp['ci'][1]:+.4f}{u}]; {rp['total']} / {rp['per']} over {rp['matches']} matches)")
    for s in res["sides"]:
        dist = s["score"]["distribution"]
        if len(dist) <= 12:
            lines.append(f"{s['label']} scores: " + ", ".join(f"{k}: {v}" for k, v in dist.items()))
    return "\n".join(lines)


CSV_FIELDS = ["side", "label", "bot", "matches", "wins", "win_rate", "win_lo", "win_hi", "losses", "loss_rate",
              "loss_lo", "loss_hi", "score_mean", "score_sd", "score_mean_lo", "score_mean_hi", "score_min",
              "score_max"]


def format_csv(res: dict) -> str:
    """One CSV row per side (``CSV_FIELDS``)."""
    import csv
    import io
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for s in res["sides"]:
        sc = s["score"]
        w.writerow([s["side"], s["label"], s["bot"], res["matches"], s["wins"], s["win_rate"], *s["win_ci"],
                    s["losses"], s["loss_rate"], *s["loss_ci"], sc["mean"], sc["sd"], *sc["mean_ci"],
                    sc["min"], sc["max"]])
    return buf.getvalue()


def plot(res: dict, path: str):
    """Write a PNG of each side's score distribution (matplotlib, imported here).

    Raises ``SimulationError`` when matplotlib is not installed (``pip install 'cardspec[plot]'``).
    """
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SimulationError("--plot needs matplotlib: pip install 'cardspec[plot]'") from None
    sides = res["sides"]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    k = len(sides)
    width = 0.8 / max(k, 1)
    values = {float(x) for s in sides for x in s["score"]["distribution"]}
    many = len(values) > 30      # many distinct scores: step histograms over shared bins, not bars
    if many:
        lo, hi = min(values), max(values)
        bins = [lo + (hi - lo) * j / 40 for j in range(41)] if hi > lo else [lo - 0.5, lo + 0.5]
    for i, s in enumerate(sides):
        dist = s["score"]["distribution"]
        label = f"{s['label']} ({s['bot']}) mean {s['score']['mean']:.2f}"
        if many:
            ax.hist([float(x) for x in dist], bins=bins, weights=[c / res["matches"] for c in dist.values()],
                    histtype="step", linewidth=1.5, label=label)
        else:
            xs = [float(x) + (i - (k - 1) / 2) * width for x in dist]
            ax.bar(xs, [c / res["matches"] for c in dist.values()], width=width, label=label)
    what = res.get("score_label") or "Score"   # the score counter's label: chips are labelled as chips
    ax.set_xlabel(f"{what} at the end of the match")
    ax.set_ylabel("share of matches")
    ax.set_title(f"{res['ruleset']}: {what.lower()} per side at the end, {res['matches']} matches")
    ax.legend()
    fig.tight_layout()
    try:
        fig.savefig(path, format="png", dpi=100)
    except OSError as e:
        raise SimulationError(f"cannot write {path}: {e}") from None
    finally:
        plt.close(fig)


def progress_enabled() -> bool:
    """True when both stdout and stderr are terminals (the bar is drawn on stderr)."""
    try:
        return sys.stdout.isatty() and sys.stderr.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):
        return False
