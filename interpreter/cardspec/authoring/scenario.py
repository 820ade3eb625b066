"""Scenarios (DESIGN.md, "Scenarios", a contract): fix a position, replay actions, check results.

    ruleset: NAME                      # built-in name, or a path relative to the scenario file
    players: 7
    options: {}
    seed: 1
    dealer: 0
    deck: [8S, 9S, JS]                 # the first deal's shuffled order, top first
    deal: {hands: {0: [AH, 2C]}, widow: [9D, 4S]}   # or the first deal's result
    actions: ["1: AH", JH]
    expect: {events: [...], legal_actions: [...], hands: {...}, scores: {...}, error: "..."}

``replay(path)`` returns a ``Replay`` with the final state, the failures of
``expect`` (empty when all hold) and the JSON-ready result. An action refused when
``expect:`` has no ``error:`` is the one failure: the other expectations are not checked
(``Replay.unchecked``), since the state they describe was never reached.
"""
from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field

from ..cards import CardError, normalize_code
from ..engine import Game, State
from ..engine.fixed_deal import DealMismatch
from ..errors import CardspecError, IllegalAction, Problem, RulesetError, ScenarioError
from ..rules import read_scenario_yaml
from ..rules.loader import read_named_ruleset

KEYS = {"ruleset", "players", "options", "seed", "dealer", "deck", "deal", "actions", "expect"}
EXPECT_KEYS = {"events", "legal_actions", "hands", "scores", "error", "terminal", "to_act"}


@dataclass
class Replay:
    state: State | None
    failures: list = field(default_factory=list)
    error: str | None = None
    expect: dict = field(default_factory=dict)
    error_at: str | None = None   # ``error`` as ``file:line:col: error: …`` (the action's place in the scenario)
    unchecked: list = field(default_factory=list)   # expect: keys not checked (the actions stopped early)

    @property
    def ok(self) -> bool:
        return not self.failures

    def result(self) -> dict:
        """``{"events", "terminal", "to_act", "legal_actions", "scores"}`` (plus ``error`` when one occurred,
        ``failures`` when an expectation failed and ``not_checked``: the expect: keys left unchecked)."""
        s = self.state
        out = {"events": s.log_all() if s else [], "terminal": bool(s and s.terminal),
               "to_act": s.to_act if s else None, "legal_actions": list(s.legal_actions()) if s else [],
               "scores": s.scores() if s else {}}
        if self.error:
            out["error"] = self.error
        if self.failures:
            out["failures"] = list(self.failures)
        if self.unchecked:
            out["not_checked"] = list(self.unchecked)
        return out


def _bad(pos, path, msg, hint=""):
    return ScenarioError(pos.problem(path, msg, hint).format())


def build_state(data: dict, pos, file: str, options_override=None, override_origins=None) -> State:
    """The scenario's starting state (ruleset, players, options, seed, dealer, deck or deal).

    A bad option is reported where it was written: the scenario's ``options:`` key (file:line:col),
    or ``override_origins[name]`` (e.g. ``"command line"``) for ``options_override``."""
    extra = [k for k in data if k not in KEYS]
    if extra:
        k = str(extra[0])
        close = difflib.get_close_matches(k, sorted(KEYS), n=1)
        hint = (f"did you mean '{close[0]}'? " if close else "") + "keys: " + ", ".join(sorted(KEYS))
        raise ScenarioError(pos.problem((k,), f"unknown scenario key '{k}'", hint, key=True).format())
    if "ruleset" not in data:
        raise _bad(pos, (), "a scenario needs 'ruleset:'")
    name = str(data["ruleset"])
    try:
        rs = read_named_ruleset(name, str(file), pos, "ruleset")
    except RulesetError as e:   # a misspelt name: the scenario's `ruleset:` is at fault, not a ruleset file
        if getattr(e, "code", None) != "ruleset/not_found":
            raise
        raise _bad(pos, ("ruleset",), e.first.message, e.first.hint) from None
    options = dict(data.get("options") or {})
    origins = {k: (lambda m, h, k=k: pos.problem(("options", k), m, h, key=True)) for k in options}
    options.update(options_override or {})
    for k in options_override or {}:
        origins[k] = (override_origins or {}).get(k, "options override")
    rs.option_values(options, origins)
    try:
        game = Game(rs, data.get("players"), options)
    except RulesetError as e:   # reported at the scenario's players:, which chose the count
        if getattr(e, "code", None) != "players/out_of_range" or "players" not in data:
            raise
        raise _bad(pos, ("players",), e.first.message) from None
    deck = data.get("deck")
    if deck is not None and not isinstance(deck, list):
        raise _bad(pos, ("deck",), "deck: a list of cards, top first, e.g. [8S, 9S, JS]")
    i = 0
    try:
        deck_order = None
        if deck:
            deck_order = []
            for i, c in enumerate(deck):
                deck_order.append(normalize_code(str(c)))
                game.deck.face(deck_order[-1])
            want = Counter(game.deck.cards)
            got = Counter(game.deck.face(c) for c in deck_order)
            over = [game.deck.code[f] for f in got if got[f] > want[f]]
            if over:
                raise _bad(pos, ("deck",), f"deck: more copies of {over[0]} than the deck holds")
    except CardError as e:
        raise _bad(pos, ("deck", i), str(e)) from None
    override = None
    if data.get("deal") is not None:
        override = _deal_override(game, data["deal"], pos)
    dealer = data.get("dealer")
    if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int) or
                               not 0 <= dealer < game.n):
        raise _bad(pos, ("dealer",), f"dealer: {dealer!r} is not a seat; with {game.n} players "
                                     f"the dealer is seat 0 to {game.n - 1}")
    return State(game, data.get("seed"), dealer, deck_order, True, override)


def _deal_override(game, deal, pos):
    """``{(zone index, seat or None): [faces]}`` from a scenario's ``deal:``. Raises ``ScenarioError`` at
    the offending key or card (file:line:col): an unknown zone or seat, a bad card code, or a card named
    more often than the deck holds (at the naming that is one too many)."""
    if not isinstance(deal, dict):
        raise _bad(pos, ("deal",), "deal: maps zones to cards (hands: {seat: [cards]}, widow: [cards])")
    out = {}
    left = Counter(game.deck.cards)   # copies not yet named

    def faces(path, cards):
        if not isinstance(cards, list):
            raise _bad(pos, path, f"{path[-1]}: a list of cards, e.g. [AH, 2C]")
        got = []
        for i, c in enumerate(cards):
            try:
                f = game.deck.face(str(c))
            except CardError as e:
                raise _bad(pos, path + (i,), str(e)) from None
            if left[f] <= 0:
                raise _bad(pos, path + (i,), f"deal: {game.deck.code[f]} is named more often than the deck holds")
            left[f] -= 1
            got.append(f)
        return got

    for zname, value in deal.items():
        zn = "hand" if zname == "hands" else zname
        z = game.zone.get(zn)
        if z is None:
            names = ["hands" if n == "hand" else n for n in game.zone]
            close = difflib.get_close_matches(str(zname), names, n=1)
            hint = (f"did you mean '{close[0]}'? " if close else "") + "zones: " + ", ".join(names)
            raise ScenarioError(pos.problem(("deal", zname), f"unknown zone '{zname}'", hint, key=True).format())
        if z.per_seat:
            if not isinstance(value, dict):
                raise _bad(pos, ("deal", zname), f"{zname}: maps seats to card lists")
            for seat, cards in value.items():
                try:
                    si = int(seat)
                except (TypeError, ValueError):
                    si = -1
                if not 0 <= si < game.n:
                    raise ScenarioError(pos.problem(("deal", zname, str(seat)), f"no seat {seat} with {game.n} "
                                                    f"players (seats 0 to {game.n - 1})", key=True).format())
                out[(z.index, si)] = faces(("deal", zname, str(seat)), cards or [])
        else:
            out[(z.index, None)] = faces(("deal", zname), value or [])
    return out


def _norm(x):
    if isinstance(x, str):
        try:
            return normalize_code(x)
        except CardError:
            return x
    if isinstance(x, list):
        return [_norm(i) for i in x]
    if isinstance(x, dict):
        return {str(k): _norm(v) for k, v in x.items()}
    return x


def _match(expected, actual) -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(str(k) in actual and _match(v, actual[str(k)])
                                                for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(actual, list) and len(expected) == len(actual) and \
            all(_match(a, b) for a, b in zip(expected, actual))
    return _norm(expected) == _norm(actual) or (str(expected) == str(actual) and expected is not None)


def replay(path: str, options_override=None, override_origins=None) -> Replay:
    """Replay a scenario file. Bad files raise ``RulesetError`` / ``ScenarioError``."""
    data, pos = read_scenario_yaml(path)
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: a scenario is a mapping (ruleset:, players:, actions:, …)")
    return replay_data(data, pos, path, options_override, override_origins)


def replay_data(data, pos, path, options_override=None, override_origins=None) -> Replay:
    expect = data.get("expect") or {}
    bad = set(expect) - EXPECT_KEYS
    if bad:
        k = sorted(bad)[0]
        raise _bad(pos, ("expect", k), f"unknown expect key '{k}'", "keys: " + ", ".join(sorted(EXPECT_KEYS)))
    rep = Replay(None)
    rep.expect = expect
    try:
        try:
            s = build_state(data, pos, path, options_override, override_origins)
        except DealMismatch as e:
            raise ScenarioError(pos.problem(("deal",), str(e), key=True).format()) from None
    except (RulesetError, ScenarioError) as e:
        if "error" in expect and str(expect["error"]) in str(e):
            return rep
        raise
    rep.state = s
    for i, raw in enumerate(data.get("actions") or []):
        text = str(raw)
        seat = None
        head, sep, tail = text.partition(":")
        if sep and head.strip().lstrip("-").isdigit():
            seat, text = int(head.strip()), tail.strip()
        try:
            if seat is not None and not s.terminal and seat != s.to_act:
                raise IllegalAction(seat, text, s.legal_actions(), f"not your turn (seat {s.to_act} is to act)")
            s.apply(text)
        except DealMismatch as e:   # the deal lands after the choices made before it (before_deal steps)
            raise ScenarioError(pos.problem(("deal",), str(e), key=True).format()) from None
        except IllegalAction as e:
            rep.error = f"action {i + 1} ('{raw}'): {e}"
            rep.error_at = pos.problem(("actions", i), rep.error).format(caret=False)
            break
    if "error" in expect:
        if rep.error is None:
            rep.failures.append(f"expected an error containing '{expect['error']}', but every action was legal")
        elif str(expect["error"]) not in rep.error:
            rep.failures.append(f"expected an error containing '{expect['error']}', got: {rep.error}")
    elif rep.error is not None:
        # The replay stopped at the refused action: the other expectations describe a state it never
        # reached, so they are not checked (listed in ``unchecked``) rather than reported as failures.
        rep.failures.append(rep.error)
        rep.unchecked = sorted(k for k in expect if k != "error")
        return rep
    _check(s, expect, rep)
    return rep


def _check(s: State, expect: dict, rep: Replay):
    if "events" in expect:
        events = s.log_all()
        i = 0
        for want in expect["events"] or []:
            while i < len(events) and not _match(want, events[i]):
                i += 1
            if i >= len(events):
                got = [e for e in events if e.get("type") == (want or {}).get("type")]
                rep.failures.append(f"no event matching {want} (in order); events of that type: {got[:5]}")
                break
            i += 1
    if "legal_actions" in expect:
        want = set()
        for a in expect["legal_actions"] or []:
            try:
                want.add(s.parse_action(str(a)))
            except (IllegalAction, CardspecError):
                want.add(str(a))
        got = set(s.legal_actions())
        if want != got:
            rep.failures.append(f"legal actions: expected {sorted(want)}, got {sorted(got)}")
    if "hands" in expect:
        hz = s.game.zone.get("hand")
        for seat, cards in (expect["hands"] or {}).items():
            want = Counter(normalize_code(str(c)) for c in cards or [])
            got = Counter(s.game.deck.code[c] for c in s.z[hz.index][int(seat)])
            if want != got:
                rep.failures.append(f"hand of seat {seat}: expected {sorted(want.elements())}, "
                                    f"got {sorted(got.elements())}")
    if "scores" in expect:
        got = s.scores()
        for k, v in (expect["scores"] or {}).items():
            if got.get(str(k)) != v:
                rep.failures.append(f"score of {k}: expected {v}, got {got.get(str(k))}")
    if "terminal" in expect and bool(expect["terminal"]) != s.terminal:
        rep.failures.append(f"terminal: expected {expect['terminal']}, got {s.terminal}")
    if "to_act" in expect and expect["to_act"] != s.to_act:
        rep.failures.append(f"to_act: expected {expect['to_act']}, got {s.to_act}")
