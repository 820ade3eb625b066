"""Policies written in the ruleset: bots that follow rules in the expression language.

A ruleset's top-level ``bots:`` maps a policy name to an ordered list of
rules (docs/turns.md, "Policies")::

    bots:
      basic:
        help: Raise the full initial bet on spread 7 or more.
        rules:
          - {action: "bet {min_bet}"}
          - {if: spread >= 7, action: "raise {initial}"}
          - {action: call}

For each decision the first rule whose ``if:`` holds and whose action text
(with every ``{EXPR}`` replaced by its value) is one of the legal actions is
taken; when none fits, the first legal action. Expressions see the ruleset's
names, ``seat`` (the seat deciding) and ``turn_seat``; they are compiled once
per game like every other expression.

``PolicyBot(game, name)`` has the ``cardspec.bots.Bot`` interface: ``act(view,
legal)`` rebuilds a state from the view alone (``shadow_state``: zones the seat
cannot see are empty, face-up cards are kept), so a policy cannot read hidden
cards. ``Policy.move(state)`` evaluates the same rules on a real state and
returns an internal move: the fast path for simulations whose policies read
only public facts (the house-edge benchmark in benchmarks/).
"""
from __future__ import annotations

import random
import re

from .base import Bot
from ..cards import SUIT_NAMES
from ..lang import CARD, INT, SUIT
from ..errors import RulesetError
from ..engine.slots import DEALER, DEAL_NUMBER, LEADER, LED_SUIT, SYSTEM_VARS, TO_ACT, TRUMP

_PIECE = re.compile(r"\{([^{}]*)\}")


class Policy:
    """One compiled policy: ``rules`` as ``(condition or None, [str | (fn, type)])``."""

    def __init__(self, game, name: str):
        spec = (game.data.get("bots") or {}).get(name)
        if spec is None:
            known = ", ".join(game.data.get("bots") or {}) or "none"
            raise ValueError(f"{game.name} has no policy '{name}' (policies: {known})")
        self.game, self.name = game, name
        self._parsed = {}
        rules = spec.get("rules") if isinstance(spec, dict) else spec
        self.help = spec.get("help", "") if isinstance(spec, dict) else ""
        comp = game.comp
        before = len(comp.problems)
        ctx = (("seat", INT),)
        self.rules = []
        if not isinstance(rules, list) or not rules:
            comp.problem(("bots", name), "a policy is a list of rules {if: EXPR, action: TEXT}")
            rules = []
        for i, rule in enumerate(rules):
            path = ("bots", name, "rules", i) if isinstance(spec, dict) else ("bots", name, i)
            if isinstance(rule, str):
                rule = {"action": rule}
            if not isinstance(rule, dict) or "action" not in rule:
                comp.problem(path, "a rule is {if: EXPR, action: TEXT} (TEXT may hold {EXPR} parts)")
                continue
            cond = comp.expr(rule["if"], path + ("if",), ctx, ("bool",)) if "if" in rule else None
            parts = []
            text = str(rule["action"])
            pos = 0
            for m in _PIECE.finditer(text):
                if m.start() > pos:
                    parts.append(text[pos:m.start()])
                fn, t = comp.typed_expr(m.group(1), path + ("action",), ctx)
                parts.append((fn, t))
                pos = m.end()
            if pos < len(text):
                parts.append(text[pos:])
            self.rules.append((cond, parts))
        if len(comp.problems) > before:
            new = comp.problems[before:]
            del comp.problems[before:]
            raise RulesetError(new)

    def _text(self, s, seat, parts):
        out = []
        deck = self.game.deck
        for p in parts:
            if isinstance(p, str):
                out.append(p)
                continue
            fn, t = p
            x = fn(s, seat)
            if t == SUIT:
                out.append(SUIT_NAMES.get(deck.suit_label(x), deck.suit_label(x)) if x >= 0 else "none")
            elif t == CARD:
                out.append(deck.code[x])
            else:
                out.append(str(x))
        return " ".join("".join(out).split())

    def candidates(self, s, seat):
        """The texts of the rules that apply, in order (a generator)."""
        for cond, parts in self.rules:
            if cond is None or cond(s, seat):
                yield self._text(s, seat, parts)

    def choose(self, s, seat, legal) -> str:
        """The first applicable rule's text that is in ``legal`` — as written, or read by the step as one of
        them (``bid 1 spades`` is ``bid 1 S``, as ``move`` reads it); else ``legal[0]``."""
        allowed = set(legal)
        step = None if s.terminal else self.game.steps[s.pc]
        for text in self.candidates(s, seat):
            if text in allowed:
                return text
            try:
                canonical = step.text(s, step.parse(s, text)) if step is not None else None
            except (ValueError, KeyError, IndexError, TypeError):
                continue
            if canonical in allowed:
                return canonical
        return legal[0]

    def move(self, state):
        """The internal move the policy picks on a real ``state`` (no views, no text listing)."""
        step = state.game.steps[state.pc]
        seat = state.v[TO_ACT]
        parsed = self._parsed
        for text in self.candidates(state, seat):
            key = (state.pc, text)
            m = parsed.get(key)
            if m is None:
                try:
                    m = parsed[key] = step.parse(state, text)   # a text's move depends on the step only
                except ValueError:
                    continue
            if step.is_legal(state, m):
                return m
        return step.legal_sorted(state)[0]


def policy(game, name: str) -> Policy:
    """The compiled policy ``name`` of ``game`` (cached on the game). Raises ``ValueError`` / ``RulesetError``."""
    cache = game.__dict__.setdefault("_policies", {})
    if name not in cache:
        cache[name] = Policy(game, name)
    return cache[name]


def shadow_state(game, view: dict):
    """A ``State`` holding only what ``view`` shows (hidden zones empty), for evaluating expressions."""
    from ..engine import State
    s = State.__new__(State)
    for slot in State.__slots__:
        setattr(s, slot, None)
    deck = game.deck
    n = game.n
    s.game, s.n = game, n

    def faces(x):
        if isinstance(x, list):
            return [deck.face(c) for c in x]
        if isinstance(x, dict) and x.get("face_up"):
            return [deck.face(c) for c in x["face_up"]]
        return []

    zones = view.get("zones") or {}
    s.z = []
    for zn in game.zones:
        data = zones.get(zn.name)
        if zn.per_seat:
            data = data if isinstance(data, dict) else {}
            s.z.append([faces(data.get(str(i))) for i in range(n)])
        else:
            s.z.append(faces(data))
    counters = view.get("counters") or {}
    s.c = [list(counters.get(c.name, [c.initial] * n)) for c in game.counters]
    v = [0] * game.n_v
    system = view.get("system")
    if isinstance(system, dict):
        for i, (name, _, _) in enumerate(SYSTEM_VARS):
            v[i] = system.get(name, v[i])
    else:
        v[LED_SUIT] = v[TRUMP] = -1
    v[DEALER] = view.get("dealer", v[DEALER])
    v[DEAL_NUMBER] = view.get("deal", v[DEAL_NUMBER])
    v[TO_ACT] = view.get("to_act") if view.get("to_act") is not None else -1
    if view.get("leader") is not None:
        v[LEADER] = view["leader"]
    for key, slot in (("led_suit", LED_SUIT), ("trump", TRUMP)):
        if view.get(key):
            v[slot] = deck.suit_index(view[key])
    vars_ = view.get("vars") or {}
    for var in game.vars:
        if var.name in vars_:
            x = vars_[var.name]
            v[var.index] = (deck.face(x) if x is not None else -1) if var.type == "card" else x
        else:   # a secret of another seat (vars: visibility / seen_by): its default
            v[var.index] = var.default
    s.v = v
    turn = view.get("turn")
    s.ts = [turn.get("phase", 0), turn.get("actions_in_phase", 0), -1, 0, 0, turn.get("seat", -1), v[TO_ACT]] \
        if isinstance(turn, dict) else [0, 0, -1, 0, 0, v[TO_ACT], v[TO_ACT]]
    s.plays = [(st, deck.face(c)) for st, c in view.get("trick") or []]
    s.face_up = [0] * len(game.zones)
    s.rng = random.Random(0)
    s.pc = view.get("step_index") or 0
    s.terminal = bool(view.get("terminal"))
    s.entered = True
    s.history, s.queue, s.carried = [], [], []
    s.nxt = None
    s.nxt = game.order_table(s)
    s.partial, s._chpos = (), None   # no small choice made (a search moves by whole actions)
    if game.eff_of is not None:   # suits that depend on the deal (deck suit_of reading the trump): its tables
        s.eff = game.eff_of(s)
    return s


class PolicyBot(Bot):
    """A bot following the ruleset policy ``name``; it decides from the seat's view only.

    ``act(view, legal) -> str``: one of ``legal``. Raises ``ValueError`` for an unknown policy.
    """

    name = "policy"

    def __init__(self, game, name: str, seed=None):
        self.game = game
        self.policy = policy(game, name)

    def act(self, view, legal):
        s = shadow_state(self.game, view)
        seat = view.get("seat")
        return self.policy.choose(s, seat if seat is not None else s.v[TO_ACT], legal)


def make(arg: str, seed=None, game=None, policy=None) -> PolicyBot:
    """``make_bot``'s ``policy:NAME`` (or ``policy`` with ``policy=NAME``): the ruleset's policy NAME.

    Raises ``ValueError`` without a name, for an unknown policy or one that does not compile.
    """
    name = arg or policy
    if not name:
        raise ValueError("the policy bot needs a policy name (policy:NAME or --policy NAME)")
    rs_name = getattr(game, "name", "this ruleset")
    try:
        return PolicyBot(game, name, seed=seed)
    except ValueError as e:
        raise ValueError(str(e)) from None
    except RulesetError as e:
        raise ValueError(f"{rs_name}: policy '{name}' does not compile: {e}") from None
