"""Seeded mutations of the built-in rulesets, and the check each mutant must pass (issue 16, Deliver 4).

A mutant is a built-in ruleset file (its own YAML tree, ``extends:`` kept) with one to three random
changes: a number made extreme, a name in an expression swapped for another the built-ins use, an
operator swapped, an index added (``[seat + 1]``), an expression cut short, a key or item deleted or
duplicated, a value of another type, a subtree transplanted from another built-in. The same
(seed, index) always gives the same mutant, so a failure is reproduced from the numbers printed.

``check(text, folder, seed)`` says what became of one mutant:

- ``rejected``: ``cardspec validate`` reported problems, none of them internal;
- ``clean``: it validated, and bounded random games at its smallest and largest player counts
  (through the public API: ``random_move``, the action's text, ``apply``, ``view``) raised nothing;
- ``refused``: it validated, then a game raised a ``RulesetError`` with its position (a fault that
  depends on the play, which the validator's own smoke test did not meet);
- ``failed``: an internal error at validate (a problem coded ``internal/…`` or an exception out of
  ``validate_ruleset``), any other exception at play, or a call that took longer than its limit.

Used by tests/test_fuzz_mutants.py (a few thousand per CI run) and benchmarks/fuzz_mutants.py (the
long opt-in run, docs/fuzz.md).
"""
from __future__ import annotations

import copy
import random
import re
import signal
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import yaml

from cardspec.rules.yaml_pos import Replace, load_yaml
from cardspec.errors import CardspecError, RulesetError
from cardspec.rules import builtin_names, rulesets_dir

NUMBERS = [0, -1, 1, 2, 3, 13, 52, 63, 64, 65, 100, 1000, 10**6, 10**12, -(10**9), 2**63]
ODD_VALUES = [0, -1, "x", "", [], {}, {"a": 1}, None, True, False, [1, 2], "seat + 1", "QS", "count(deck)"]
INDEXES = ["[seat + 1]", "[-1]", "[players]", "[holder(hand, QS)]", "[dealer - 1]", "[0]"]
OPERATORS = ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", " and ", " or "]
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"(?<![A-Za-z0-9_])\d+(?![A-Za-z0-9_])")
_OP = re.compile(r"==|!=|<=|>=|[+\-*/%<>]| and | or ")


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(Replace, lambda d, v: d.represent_sequence("!replace", list(v)))


@dataclass
class Source:
    name: str
    data: dict


def sources() -> list:
    """Every built-in ruleset's own YAML tree (before ``extends:`` is merged), by name."""
    out = []
    for name in builtin_names():
        path = rulesets_dir() / f"{name}.yaml"
        data, _ = load_yaml(path.read_text(encoding="utf-8"), str(path))
        out.append(Source(name, data))
    return out


class Pool:
    """What mutations draw from: every subtree, expression string and name of the built-ins."""

    def __init__(self, srcs):
        self.subtrees, self.strings, self.pairs = [], [], []
        names = set()
        for s in srcs:
            for path, node in _walk(s.data):
                if isinstance(node, str):
                    self.strings.append(node)
                    names.update(_IDENT.findall(node))
                elif isinstance(node, (dict, list)) and path:
                    self.subtrees.append(node)
                if isinstance(node, dict):
                    self.pairs.extend(node.items())
                    names.update(k for k in node if isinstance(k, str))
        self.names = sorted(names)


def _walk(node, path=()):
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _walk(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(v, path + (i,))


def _get(root, path):
    for k in path:
        root = root[k]
    return root


def _set(root, path, value):
    _get(root, path[:-1])[path[-1]] = value


def _mutate_text(text: str, rng: random.Random, pool: Pool) -> str:
    k = rng.randrange(6)
    if k == 0:
        m = list(_IDENT.finditer(text))
        if m:
            x = rng.choice(m)
            return text[:x.start()] + rng.choice(pool.names) + text[x.end():]
    if k == 1:
        m = list(_NUMBER.finditer(text))
        if m:
            x = rng.choice(m)
            return text[:x.start()] + str(rng.choice(NUMBERS)) + text[x.end():]
    if k == 2:
        m = list(_OP.finditer(text))
        if m:
            x = rng.choice(m)
            return text[:x.start()] + rng.choice(OPERATORS) + text[x.end():]
    if k == 3:
        m = list(_IDENT.finditer(text))
        if m:
            x = rng.choice(m)
            return text[:x.end()] + rng.choice(INDEXES) + text[x.end():]
    if k == 4 and text:
        return text[:rng.randrange(len(text))]
    return rng.choice(pool.strings)


def mutate(data: dict, rng: random.Random, pool: Pool) -> dict:
    """A copy of ``data`` with 1 to 3 random changes."""
    data = copy.deepcopy(data)
    for _ in range(rng.choice((1, 1, 2, 3))):
        nodes = list(_walk(data))[1:]
        if not nodes:
            break
        path, node = rng.choice(nodes)
        parent = _get(data, path[:-1])
        op = rng.randrange(10)
        if op <= 2 and isinstance(node, str):
            _set(data, path, _mutate_text(node, rng, pool))
        elif op <= 2 and isinstance(node, bool):
            _set(data, path, not node)
        elif op <= 2 and isinstance(node, int):
            _set(data, path, rng.choice(NUMBERS + [node + 1, node - 1, -node]))
        elif op == 3:
            if isinstance(parent, dict):
                del parent[path[-1]]
            else:
                parent.pop(path[-1])
        elif op == 4 and isinstance(parent, list):
            parent.insert(path[-1], copy.deepcopy(node))
        elif op == 5:
            _set(data, path, copy.deepcopy(rng.choice(ODD_VALUES)))
        elif op == 6:
            _set(data, path, copy.deepcopy(rng.choice(pool.subtrees)))
        elif op == 7 and isinstance(node, dict):
            k, v = rng.choice(pool.pairs)
            node[k] = copy.deepcopy(v)
        elif op == 8 and isinstance(node, str):
            _set(data, path, rng.choice(pool.strings))
        elif isinstance(node, (str, int)) and not isinstance(node, bool):
            _set(data, path, _mutate_text(str(node), rng, pool))
        else:
            _set(data, path, copy.deepcopy(rng.choice(ODD_VALUES + pool.subtrees[:50])))
    return data


def mutant_text(data: dict) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True)


def nth_mutant(srcs, pool, seed: int, i: int):
    """``(base name, YAML text)`` of mutant ``i`` of run ``seed`` (the same numbers give the same text)."""
    rng = random.Random(f"{seed}:{i}")
    src = srcs[rng.randrange(len(srcs))]
    return src.name, mutant_text(mutate(src.data, rng, pool))


# ---- the check -----------------------------------------------------------------------------------

class Hang(BaseException):
    """A call took longer than its limit (raised from a signal handler; a ``BaseException``, so that no
    ``except Exception`` of cardspec turns it into an error of its own)."""


class _limit:
    """``with _limit(seconds):`` raises ``Hang`` in the main thread when the block has used ``seconds``
    of CPU time (``ITIMER_VIRTUAL``: the figure does not depend on how busy the machine is)."""

    def __init__(self, seconds: float):
        self.seconds = seconds

    def __enter__(self):
        def on_alarm(signum, frame):
            raise Hang(f"still running after {self.seconds} s of CPU time")
        self.old = signal.signal(signal.SIGVTALRM, on_alarm)
        signal.setitimer(signal.ITIMER_VIRTUAL, self.seconds)

    def __exit__(self, *exc):
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, self.old)
        return False


@dataclass
class Outcome:
    kind: str          # rejected | clean | refused | failed
    detail: str = ""
    seconds: float = 0.0


def play_bounded(game, seed: int, max_actions: int, seconds: float):
    """A random game of ``game`` through the public API, at most ``max_actions`` actions or ``seconds``
    (stopping there is no fault). Raises what the game raises."""
    rng = random.Random(seed)
    s = game.new_state(seed=seed)
    end = time.process_time() + seconds
    for i in range(max_actions):
        if s.terminal or time.process_time() > end:
            break
        step = s.current_step()
        move = s.random_move(rng)
        text = step.text(s, move)
        s.apply(text)
        if i % 50 == 0:
            s.view(i % s.n, legal=False)
    s.scores()
    s.view(None, legal=False)
    return s


def check(text: str, folder: Path, seed: int, name: str = "mutant", play_games: int = 1,
          max_actions: int = 400, play_seconds: float = 0.3, limit: float = 10.0) -> Outcome:
    """Validate the mutant ``text`` (written to ``folder``) and, when it validates, play it (module doc)."""
    from cardspec.engine import Game
    from cardspec.rules import read_ruleset
    from cardspec.authoring.validate import VALIDATE_SECONDS, validate_ruleset
    path = folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    t0 = time.perf_counter()
    try:   # validate stops itself at VALIDATE_SECONDS (a ruleset/over_budget problem): the harness's own
        # limit for it leaves room for that, so a stop by validate is never counted as a hang
        with _limit(max(limit, VALIDATE_SECONDS + 5.0)):
            problems, status = validate_ruleset(str(path))
    except Hang as e:
        return Outcome("failed", f"validate: {e}", time.perf_counter() - t0)
    except Exception as e:  # noqa: BLE001
        return Outcome("failed", "validate raised:\n" + traceback.format_exc(limit=-6), time.perf_counter() - t0)
    internal = [p for p in problems if p.code.startswith("internal/")]
    if internal:
        return Outcome("failed", "validate: " + internal[0].format(caret=False), time.perf_counter() - t0)
    if status != 0:
        return Outcome("rejected", problems[0].format(caret=False) if problems else "", time.perf_counter() - t0)
    try:
        with _limit(limit):
            rs = read_ruleset(str(path))
            lo, hi = rs.players
            for n in sorted({lo, hi}):
                game = Game(rs, n)
                for g in range(play_games):
                    play_bounded(game, seed * 7919 + g + 1000, max_actions, play_seconds)
    except Hang as e:
        return Outcome("failed", f"play: {e}", time.perf_counter() - t0)
    except RulesetError as e:
        return Outcome("refused", str(e).splitlines()[0], time.perf_counter() - t0)
    except CardspecError as e:
        return Outcome("failed", f"play raised {type(e).__name__}: {e}", time.perf_counter() - t0)
    except Exception as e:  # noqa: BLE001
        return Outcome("failed", "play raised:\n" + traceback.format_exc(limit=-6), time.perf_counter() - t0)
    return Outcome("clean", "", time.perf_counter() - t0)
