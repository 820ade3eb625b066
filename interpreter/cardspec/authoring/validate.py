"""``cardspec validate``: every problem of a ruleset, each with file:line:col.

What play will meet is checked before anyone plays (issue 16, "Validate what play will meet"):

1. the ruleset is read (YAML, ``extends:``, schema — schema problems are kept, not raised);
2. it is compiled for every supported player count (expressions, names, types, zones, counters,
   steps);
3. for every count, every deal of the match schedule is dealt (up to ``MAX_DEALS_CHECKED``: deal k
   with its dealer, as the match would reach it), so a deck that cannot be dealt in deal 27, or a
   bid range that is empty in deal 12, is reported at its step;
4. unless ``play=False`` (``cardspec validate --quick``): the ruleset is compiled and dealt again
   with each option at its extremes (an int's ``min`` and ``max``, the other value of a bool, every
   value of a choice) at the smallest and largest player counts, and ``GAMES_PER_COUNT`` random games
   per player count are played through the public API (bounded by ``MAX_ACTIONS`` actions and
   ``PLAY_SECONDS`` of CPU time per ruleset), so a ruleset that crashes or gets stuck in ordinary play is refused
   with the step where it happened.

All of it runs within ``VALIDATE_SECONDS`` of CPU time per ruleset: past it validation stops with a
problem (code ``ruleset/over_budget``) at the step it was in, never a hang.

Problems that several player counts share are reported once; a problem at a place the schema already
complained about is not repeated. After the schema refused something, only the smallest player count is
compiled; after a count that fails to compile, only the largest is tried besides (the counts between
would mostly repeat the same problems). With problems found by 1–3 the slower checks of 4 are skipped.
"""
from __future__ import annotations

import dataclasses
import random
import time

from ..errors import BUG_HINT, Problem, RulesetError, _detail

MAX_PLAYERS = 64
#: Deals of the schedule dealt per player count (a longer match repeats its shapes or ends by score).
MAX_DEALS_CHECKED = 60
#: Random games per player count, the actions per game, and the CPU seconds for all of a ruleset's games
#: (a game stopped by these bounds is no problem: a long game is not a stuck one).
GAMES_PER_COUNT = 2
MAX_ACTIONS = 3000
PLAY_SECONDS = 1.0
#: Option values tried besides the defaults (each at the smallest and largest player count).
MAX_OPTION_VARIANTS = 16
#: CPU seconds for all the checks of one ruleset (every built-in takes well under 2 s): past them
#: validation stops with a problem (code ``ruleset/over_budget``) at the step it was in, never a hang.
VALIDATE_SECONDS = 10.0


class OverBudget(BaseException):
    """Raised in the validating thread when its checks ran past ``VALIDATE_SECONDS`` of CPU time
    (``_cpu_limit``). A ``BaseException``: no ``except Exception`` of the engine turns it into a fault."""


class _cpu_limit:
    """``with _cpu_limit(seconds):`` raises ``OverBudget`` in the calling thread (at its next bytecode) once
    it has spent ``seconds`` of its own CPU time in the block. A watcher thread reads the thread's CPU
    clock every 0.05 s (where the platform has none, wall time, three times the budget). Works in any
    thread, unlike a signal; a limit that fires just as the block ends is taken in ``__exit__``, never raised
    later. (It is not withdrawn with ``PyThreadState_SetAsyncExc(ident, NULL)``: CPython 3.11 then keeps the
    interpreter's pending-exception flag set, and a later ``sys.setprofile`` hook on that thread spun for
    ever — tests/test_bounds.py's over-budget case followed by a profiled test hung a worker.)"""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.fired = False

    def __enter__(self):
        import threading
        self.ident = threading.get_ident()
        self.lock = threading.Lock()
        self.done = threading.Event()
        try:
            clock = time.pthread_getcpuclockid(self.ident)
            start = time.clock_gettime(clock)

            def used():
                return time.clock_gettime(clock) - start
            limit = self.seconds
        except (AttributeError, OSError):
            start = time.monotonic()

            def used():
                return time.monotonic() - start
            limit = 3 * self.seconds

        def watch():
            nonlocal limit
            while not self.done.wait(0.05):
                try:
                    over = used() > limit
                except OSError:   # the thread has ended
                    return
                if over:   # raised again every second until the block ends: code that swallowed it is left
                    with self.lock:
                        if not self.done.is_set():
                            self.fired = True
                            _async_raise(self.ident, OverBudget)
                    limit += 1.0
        self.watcher = threading.Thread(target=watch, name="cardspec-validate-limit", daemon=True)
        self.watcher.start()
        return self

    def __exit__(self, *exc):
        with self.lock:
            self.done.set()
        self.watcher.join()
        if self.fired:   # raised already, or still pending: a pending one is taken here, never later
            try:
                for _ in range(8):   # calls and a loop: the interpreter checks for a pending exception
                    _noop()
            except OverBudget:
                pass
        return False


def _noop():
    pass


def _async_raise(ident: int, exc):
    import ctypes
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(exc) if exc else None)


def validate_ruleset(name_or_path: str, options: dict | None = None, play: bool = True):
    """Check one ruleset (a file path or a built-in name); ``play=False`` skips the option extremes and
    the random games (module doc, item 4).

    Returns ``(problems, status)``: a list of ``Problem`` sorted by file
    position, and 0 (valid), 1 (invalid) or 2 (unusable input: missing file,
    a folder, not text). Never raises: an unexpected exception (a bug in
    cardspec) becomes one problem with code ``internal/error`` and a bug-report
    hint, status 1.
    """
    where = {}   # what the checks are doing (``_validate`` keeps it up to date): for an over-budget problem
    try:
        with _cpu_limit(VALIDATE_SECONDS):
            return _validate(name_or_path, options, play, where)
    except OverBudget as e:
        return [_over_budget(name_or_path, where, e)], 1
    except Exception as e:  # noqa: BLE001 - no Python exception reaches a user
        return [internal_problem(str(name_or_path), e)], 1


def _over_budget(name_or_path, where: dict, e: BaseException) -> Problem:
    """The problem for checks stopped by ``VALIDATE_SECONDS``: at the step that was running (the innermost
    ``Step`` in the traceback), else at the top of the file, saying what was being checked."""
    from ..engine.steps.base import Step
    step = None
    tb = e.__traceback__
    while tb is not None:
        me = tb.tb_frame.f_locals.get("self")
        if isinstance(me, Step) and hasattr(me, "name") and hasattr(me, "path"):   # not one still being built
            step = me
        tb = tb.tb_next
    rs = where.get("ruleset")
    doing = where.get("doing", "reading the ruleset")
    message = (f"validation stopped after {VALIDATE_SECONDS:g} s of CPU time, {doing}" + (
        f", in step '{step.name}'" if step is not None else "") + ": a loop of the rules that does not end, or "
        "rules too costly to check")
    hint = "cardspec validate --quick skips the option extremes and random games"
    if rs is not None:
        p = rs.problem(tuple(step.path) if step is not None else (), message, hint)
    else:
        p = Problem(str(name_or_path), 1, 1, message, hint)
    return dataclasses.replace(p, code="ruleset/over_budget")


def internal_problem(file: str, e: BaseException, line: int = 0, col: int = 0, during: str = "") -> Problem:
    """A ``Problem`` (code ``internal/error``) for an unexpected exception ``e``: its type and text, and
    the bug-report hint of ``cardspec.cli.BUG_HINT``."""
    detail = _detail(e)
    return Problem(file, line, col, f"internal error{during}: unexpected {type(e).__name__}"
                   + (f": {detail}" if detail else ""), BUG_HINT, code="internal/error")


def _validate(name_or_path: str, options: dict | None = None, play: bool = True, where: dict | None = None):
    from ..engine import Game
    from ..rules import read_ruleset

    try:
        rs = read_ruleset(name_or_path, strict=False)
    except RulesetError as e:
        return e.problems, (2 if getattr(e, "code", "") == "ruleset/not_found" else 1)
    except RecursionError:
        return [Problem(str(name_or_path), 1, 1, "the ruleset is nested too deeply to read")], 1
    where = where if where is not None else {}
    where["ruleset"] = rs
    problems = list(rs.problems)
    schema_failed = bool(problems)
    lo, hi = rs.players
    counts = range(lo, hi + 1)
    if lo < 1 or hi < lo or hi > MAX_PLAYERS:
        if hi < lo or not schema_failed:   # the schema reports min < 1 and max > 64 itself
            problems.append(rs.problem(("players",), f"players: min {lo} is above max {hi}" if hi < lo else
                                       f"players: min {lo}, max {hi} is not a usable range",
                                       f"1 <= min <= max <= {MAX_PLAYERS}"))
        # Still compile once, so that problems elsewhere are reported too.
        n = min(max(lo, 1), MAX_PLAYERS)
        rs = dataclasses.replace(rs, data={**rs.data, "players": {"min": n, "max": n}})
        counts = [n]
    # An option default of the wrong type (``default: three`` for an int) is reported by the reader;
    # dealing with it would only add a Python-worded consequence of the same mistake.
    bad_default = any(p.message.startswith("bad default: ") for p in rs.problems)
    deal_failed = set()
    games = {}
    counts = list(counts)
    if schema_failed:   # more player counts would mostly repeat consequences of what the schema refused
        counts = counts[:1]
    failed = False
    for n in counts:
        if failed and n != counts[-1]:   # after a count that fails, only the largest may add its own
            continue
        where["doing"] = f"compiling for {n} players"
        try:
            game = Game(rs, n, options)
        except RulesetError as e:
            failed = True
            problems.extend(e.problems)
            if any(p.code.startswith("option/") for p in e.problems):
                break
            continue
        except (Exception, RecursionError) as e:  # noqa: BLE001
            if schema_failed:   # a consequence of a value the schema rejected
                break
            if bad_default:
                break
            problems.append(internal_problem(rs.file, e, during=f" compiling for {n} players"))
            break
        if bad_default or schema_failed:   # dealing would only meet consequences of what was refused
            continue
        games[n] = game
        where["doing"] = f"compiling the policies (bots:) for {n} players"
        _policies(game, problems)
        where["doing"] = f"dealing every deal of the schedule for {n} players"
        _deal_every_shape(game, problems, deal_failed)
    if play and not problems and games:
        _option_extremes(rs, options, sorted({min(games), max(games)}), problems, deal_failed, where)
        if not problems:
            where["doing"] = "playing random games"
            _random_games(games, problems)
    if not problems and games:
        unread = _unread_option_names(rs, options, games)
        problems.extend(_unread_options(rs, unread))
        where["doing"] = "comparing the games each option's values make"
        problems.extend(_alike_values(rs, options, games, unread, where.setdefault("fingerprints", {})))
    seen_warnings = set()
    for game in games.values():   # what compiling found that runs but may not be meant (Game.warnings)
        for w in game.warnings:
            if (w.file, w.line, w.col, w.message) not in seen_warnings:
                seen_warnings.add((w.file, w.line, w.col, w.message))
                problems.append(w)
    errors = [p for p in problems if p.severity == "error"]
    return _dedupe(problems, schema_failed and len(rs.problems)), (1 if errors else 0)


def _unread_option_names(rs, options, games: dict) -> list:
    """The declared options that nothing reads (no expression, ``by_option`` or step field;
    ``Game.options_read``) for any player count, nor with any other option at another of its values
    (``_option_values``, compiled for the smallest count): ``--option NAME=…`` would be accepted and
    change nothing (issue 20 item 4: an inherited option the variant hard-codes away)."""
    from ..engine import Game
    read = set()
    for game in games.values():
        read |= game.options_read
    unread = [name for name in rs.options if name not in read]
    if unread:   # an option read only when another option has another value (inside a by_option case)
        from ..rules import by_option_nodes
        base = dict(options or {})
        choosers = {node["by_option"] for _, node in by_option_nodes(rs.data)}   # only they change what compiles
        for name, v in [(k, v) for k, v in _option_values(rs, base) if k in choosers][:MAX_OPTION_VARIANTS]:
            if all(u in read for u in unread):
                break
            try:
                read |= Game(rs, min(games), {**base, name: v}).options_read
            except Exception:  # noqa: BLE001 - the option extremes report what fails to compile
                continue
    return [name for name in unread if name not in read]


def _unread_options(rs, unread: list) -> list:
    """A warning at each option of ``unread`` (``_unread_option_names``)."""
    return [dataclasses.replace(rs.positions.problem(("options", name), f"option '{name}' is read by no expression, "
                                           f"by_option or step: setting it changes nothing",
                                           f"read it where its rule is decided (an expression naming "
                                           f"{name}, or `by_option: {name}`), or leave the option out", key=True),
                                severity="warning", code="option/unread")
            for name in unread]


def _alike_values(rs, options, games: dict, unread, prints: dict) -> list:
    """A warning at each option (a choice, or a bool) with two values that make the same game: the same
    generated code, tables and resolved ruleset (``Game.fingerprint``) at every player count, and with
    each other option at another of its values (``_option_values``, at the smallest count) -- so no rule
    tells those values apart and choosing one over the other changes nothing (issue 32 item 5: a built-in's
    ``discards_to: allies`` was read only as "not first_trick", as ``nobody`` is). The kind of miss the
    unread-option check cannot see: the option is read, but some value by nothing (a comparison with
    another value only, a ``by_option`` case the value shares, a definition nothing calls).

    Options the caller fixed, options already unread and options a step field names (the engine reads
    their value itself) are left out. ``prints``: fingerprints known, ``(option items, players)`` → digest
    (the option extremes' games); compiled here when missing."""
    from ..engine import Game
    base = dict(options or {})
    counts = sorted(games)
    named = set().union(*(g._options_named for g in games.values()))
    for n, g in games.items():
        prints.setdefault((tuple(sorted(base.items())), n), g.fingerprint)

    def fingerprint(values: dict, n: int):
        key = (tuple(sorted({**base, **values}.items())), n)
        if key not in prints:
            try:
                prints[key] = Game(rs, n, {**base, **values}).fingerprint
            except Exception:  # noqa: BLE001 - the option extremes report what fails to compile
                prints[key] = None
        return prints[key]

    others = _option_values(rs, base)[:MAX_OPTION_VARIANTS]
    out = []
    for name, spec in rs.options.items():
        if name in base or name in unread or name in named:
            continue
        if isinstance(spec.get("values"), list):
            values = list(dict.fromkeys(v for v in spec["values"] if isinstance(v, (int, str, bool))))
        elif spec.get("type") == "bool":
            values = [bool(spec.get("default")), not spec.get("default")]
        else:
            continue
        default = spec.get("default")
        groups = [values] if len(values) > 1 else []
        # Each setting splits the groups of values whose games were alike so far by the game each makes;
        # a value that fails to compile (None) stays apart.
        settings = [({}, n) for n in counts] + [({k: v}, counts[0]) for k, v in others if k != name]
        for extra, n in settings:
            if not groups:
                break
            split = []
            for group in groups:
                by_print = {}
                for v in group:
                    fp = fingerprint({**extra, **({} if v == default else {name: v})}, n)
                    by_print.setdefault(fp if fp is not None else ("failed", v), []).append(v)
                split += [g for g in by_print.values() if len(g) > 1]
            groups = split
        for group in groups:
            shown = [("true" if v else "false") if isinstance(v, bool) else str(v) for v in group]
            alike = ", ".join(shown[:-1]) + " and " + shown[-1]
            out.append(dataclasses.replace(rs.positions.problem(
                ("options", name),
                f"option '{name}': {alike} make the same game: no rule tells "
                f"{'them' if len(group) > 2 else 'the two'} apart, so choosing one over the other changes nothing",
                f"read each value where its rule is decided ({name} == \"{shown[-1]}\", or a by_option: {name} "
                f"case of its own), or leave out the values that do nothing", key=True),
                severity="warning", code="option/values-alike"))
    return out


def _policies(game, problems: list):
    """Compile every policy of ``bots:`` (docs/turns.md, "Policies"): a bot compiles its policy only when it
    first plays, so a broken ``{EXPR}`` in an action text would otherwise pass validate and fail in
    ``simulate --policy``."""
    from ..players.policy import policy
    for name, spec in (game.data.get("bots") or {}).items():
        if isinstance(spec, dict) and "bot" in spec:
            continue   # a built-in bot with the ruleset's settings (players/meld.py, players/induction.py)
        try:
            policy(game, str(name))
        except RulesetError as e:
            problems.extend(e.problems)


def _add(problems: list, e: RulesetError, seen: set, prefix: str = ""):
    """Add ``e``'s problems (``prefix`` before each message), once per step (``seen``: their positions)."""
    for p in e.problems:
        key = (p.file, p.line, p.col)
        if key in seen:
            continue
        seen.add(key)
        problems.append(dataclasses.replace(p, message=prefix + p.message) if prefix else p)


def _deal_every_shape(game, problems: list, seen: set, prefix: str = ""):
    """Deal 1, and every later deal of the schedule up to ``MAX_DEALS_CHECKED``, to its first decision.

    Deal k starts as the match would start it (deal number k, its dealer after k - 1 rotations; vars
    and counters as ``State`` resets them), from the cards of deal 1: a shuffle gathers them. What
    differs from a real match is only what earlier play left (scores, vars kept across deals); the
    random games of ``_random_games`` meet those."""
    from ..engine import State
    from ..engine.slots import DEAL_NUMBER, DEALER
    try:
        first = State(game, seed=0, record=False)
    except RulesetError as e:
        _add(problems, e, seen, prefix)
        return
    except Exception as e:  # noqa: BLE001 - State turns the rules' faults into RulesetError: this is a bug
        problems.append(internal_problem(game.ruleset.file, e, during=f" dealing for {game.n} players"))
        return
    if first.terminal:
        return
    try:
        deals = game.match_deals(first)
    except Exception:  # noqa: BLE001 - a match length that fails to compute is met by the random games
        return
    last = min(deals if deals > 0 else game.max_deals, game.max_deals, MAX_DEALS_CHECKED)
    step = {"left": 1, "right": -1, "none": 0}.get(game.rotate, 1)
    for k in range(2, last + 1):
        s = first.clone()
        s.v[DEAL_NUMBER] = k
        s.v[DEALER] = (game.first_dealer + (k - 1) * step) % game.n
        try:
            s._start_deal()
            s._advance()
        except RulesetError as e:
            _add(problems, e, seen, prefix)
        except Exception as e:  # noqa: BLE001
            problems.append(internal_problem(game.ruleset.file, e, during=f" dealing deal {k} for {game.n} players"))
            return


def _option_extremes(rs, options, counts, problems: list, seen: set, where: dict):
    """Compile and deal (every deal shape) with each option at its extremes (module doc, item 4)."""
    from ..engine import Game
    base = dict(options or {})
    for name, v in _option_values(rs, base)[:MAX_OPTION_VARIANTS]:
        shown = ("true" if v else "false") if isinstance(v, bool) else v
        prefix = f"with --option {name}={shown}: "
        for n in counts:
            where["doing"] = f"with --option {name}={shown} for {n} players"
            try:
                game = Game(rs, n, {**base, name: v})
            except RulesetError as e:
                if any(p.code.startswith("option/") for p in e.problems):
                    break
                _add(problems, e, seen, prefix)
                break
            except Exception as e:  # noqa: BLE001
                problems.append(internal_problem(rs.file, e, during=f" compiling with --option {name}={shown}"))
                break
            where.setdefault("fingerprints", {})[(tuple(sorted({**base, name: v}.items())), n)] = game.fingerprint
            _deal_every_shape(game, problems, seen, prefix)


def _option_values(rs, base: dict) -> list:
    """``(name, value)`` for each option not in ``base`` at each value besides its default: an int's
    ``min`` and ``max``, the other value of a bool, every value of a ``values:`` list."""
    variants = []
    for name, spec in rs.options.items():
        if name in base:
            continue
        t = spec.get("type", "int")
        if isinstance(spec.get("values"), list):   # each allowed value (an int's too)
            values = list(spec["values"])
        elif t == "int":
            values = [spec[k] for k in ("min", "max") if isinstance(spec.get(k), int)]
        elif t == "bool":
            values = [not spec.get("default")]
        else:
            values = []
        for v in dict.fromkeys(x for x in values if isinstance(x, (int, str, bool))):
            if v != spec.get("default"):
                variants.append((name, v))
    return variants


def _random_games(games: dict, problems: list):
    """``GAMES_PER_COUNT`` random games per player count through the public API: a random legal move
    (``State.random_move``), its text form, ``apply(text)``; views now and then; scores at the end.
    A fault is reported at its step with the seed (module doc, item 4)."""
    from ..errors import CardspecError
    counts = sorted(games)
    budget = PLAY_SECONDS / (len(counts) * GAMES_PER_COUNT)
    seen = set()
    for g in range(GAMES_PER_COUNT):
        for n in counts:
            game = games[n]
            seed = 1000 * g + n
            try:
                _play(game, seed, budget)
            except RulesetError as e:
                _add(problems, e, seen, f"in a random game (seed {seed}) ")
                return
            except CardspecError as e:   # an action's own text refused: a fault of cardspec
                problems.append(internal_problem(game.ruleset.file, e, during=f" in a random game (seed {seed}, "
                                                                           f"{n} players)"))
                return
            except Exception as e:  # noqa: BLE001
                problems.append(internal_problem(game.ruleset.file, e, during=f" in a random game (seed {seed}, "
                                                                           f"{n} players)"))
                return


def _play(game, seed: int, seconds: float):
    rng = random.Random(seed)
    s = game.new_state(seed=seed)
    end = time.process_time() + seconds
    for i in range(MAX_ACTIONS):
        if s.terminal or time.process_time() > end:
            break
        step = s.current_step()
        s.apply(step.text(s, s.random_move(rng)))
        if i % 64 == 0:
            s.view(i % s.n, legal=False)
    s.view(None, legal=False)
    s.scores()


def _dedupe(problems, n_schema) -> list:
    """Drop repeats (same place and message) and compile problems where the schema already complained."""
    out, seen, schema_at = [], set(), set()
    for i, p in enumerate(problems):
        key = (p.file, p.line, p.col, p.message)
        if key in seen:
            continue
        if n_schema and i >= n_schema and (p.file, p.line, p.col) in schema_at:
            continue
        seen.add(key)
        if n_schema and i < n_schema:
            schema_at.add((p.file, p.line, p.col))
        out.append(p)
    return sorted(out, key=lambda p: (p.file, p.line, p.col))
