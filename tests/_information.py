"""Information sets, checked by re-dealing what a seat cannot see (issue 32).

A seat must learn only what the rules let it see. Issue 32: Napoleon's declarer's ``discard AD JD 5D 3C``
(face-down discards) and Sheepshead's picker's ``bury 8H KD`` were written into every seat's
``state.log(seat)``, so every seat learnt face-down cards; the older invariant tests re-dealt only
hands and missed it. This module checks the property itself, for any ruleset, through the public API
only (``cardspec.load``, ``Game.new_state``, ``State.choose/apply/legal_choices/view/log``, ``Game.deck``).

The property. Take an observer ``o`` (a seat, or ``None`` for a spectator) at a decision ``t`` of a
game, and ``U`` the card codes ``o`` has not been able to see up to ``t``. Re-deal the game with the
codes of ``U`` renamed by a permutation ``sigma`` of ``U`` (every card ``o`` has seen stays where it
was) and replay the same choices: every other seat's action with its card codes renamed by ``sigma``,
``o``'s own actions unchanged. Then what ``o`` is shown — its view (``state.view(o)``), its legal
choices when it is to act, its log (``state.log(o)``) — must be the same as in the original game, at
``t`` and at the decisions before it: a difference tells ``o`` something about a card it cannot see.

Re-deals outside ``o``'s information set are discarded and counted, not judged: ``o`` can tell them
apart by the rules, so no difference there is a leak.

- ``illegal``: a renamed action of another seat is not legal in the re-deal;
- ``flow``: another seat is to act, or the deal ends elsewhere (in Hearts the holder of the two of
  clubs leads; who acts is public) — also a difference only in the view's flow keys (``FLOW_KEYS``);
- ``published``: the first difference is in a value the ruleset itself computes and shows every seat
  (``Disclosure``: public counters and scores, vars, sides, its own ``emit:`` events, ``deal_score``,
  ``game_over``). Goninkan announces the holders of the trump ace and the joker; Burraco's deal score
  counts the cards left in the hands. The test lists each ruleset allowed to do so, with its rule.

What counts as seen by ``o`` up to ``t`` (the complement of ``U``):

- every card code in ``o``'s view at a decision up to ``t`` (its own zones, face-up zones and piles'
  tops, the trick, card vars it is shown, whatever a step adds to the view) — never its legal actions,
  nor the display text built from the view;
- the cards named by the events of ``o``'s log that the rules define as showings (``SHOWING_EVENTS``):
  a card played to a trick (``play``, ``trick``, ``partner``), a ruleset's ``reveal:``, the face-up
  cards and tops of a ``deal`` event, and the events the ruleset ``emit:``s. Some cards are visible
  only between two decisions: the last card of a trick is gathered as it is played;
- at the end point of a deal the match goes on after, the cards of the action that ended the deal
  (Burraco's last discard): the next deal is on the table, no view shows where they went.

Every other event (``action``, ``pass``, ``bid``, …) and the legal actions must name only cards ``o``
saw in a view: a turns step's ``action`` text naming a face-down discard is issue 32's leak.

The re-deal. The test hands ``Game.new_state`` its own RNG (``rng=``): the shuffle step asks an RNG
that has a ``deal_order(cards)`` method for the stock's order (engine/steps/deal.py, as the OpenSpiel
adapter's chance nodes do), and ``DealRNG`` answers with its own seeded shuffle, ``sigma`` applied to
every shuffle of the first deal. Both games draw the same random numbers in the same order (an
effect's shuffle of a zone too), so they differ only by the renamed cards, and the next deal is dealt
alike. ``deck_order=`` would fix only the first shuffle of the match, and some rulesets shuffle twice
in their first deal (a cut for the dealer in Briscola Chiamata, a draw in Goninkan) before dealing
the hands. Each game is first replayed unchanged, which must show every observer the same things
(the method's own check). ``sigma`` keeps each card's effective suit (``deck: suit_of:``, so a seat
that followed suit still does) and its number of copies.

Limits: only the first deal of a match, up to 300 decisions (Svoyi Koziri, a game of open hands, may
play thousands); with two packs a code is seen when either copy was; at a decision made of small
choices (``legal_choices``) only the first choices are compared, not every action.
"""
from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field

import cardspec

#: A card code (contract: rank then suit, ``JK`` for a joker, or a special card's code of two to four
#: capitals and digits, ``deck: specials:``) as it appears in views, events and actions. A word of that shape
#: that is no card of the deck is never renamed, so taking it for one costs nothing.
CARD_CODE = re.compile(r"^(?:[2-9TJQKA][SHDC]|JK|[A-Z][A-Z0-9]{1,3})$")

#: Keys of a view whose card codes are not what the observer sees of the table: its legal actions (a
#: leak there is what is checked, not a source of knowledge) and the display text built from the view.
VIEW_SKIP = frozenset({"legal_actions", "legal_more", "display", "log", "choosing", "card_names"})

#: Engine events that show cards to whoever gets them, by the rules: a card played to a trick, the
#: trick's cards, the called card of ``sides:`` as it is played, a ruleset's ``reveal:``, and the
#: public part of a ``deal`` to a shared zone (fields listed; ``None``: every field).
SHOWING_EVENTS = {"play": None, "trick": None, "partner": None, "reveal": None,
                  "deal": ("face_up", "cards", "top")}


_CODE_IN_TEXT = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][SHDC]|JK|[A-Z][A-Z0-9]{1,3})(?![A-Za-z0-9])")


def view_codes(view: dict) -> set:
    """The card codes a view shows (every key but ``VIEW_SKIP``'s), found in its JSON text: what the
    observer sees of the table."""
    return set(_CODE_IN_TEXT.findall(json.dumps({k: v for k, v in view.items() if k not in VIEW_SKIP})))


def codes_in(x, out: set, skip=frozenset()) -> set:
    """Add to ``out`` every card code found in ``x`` (JSON-like: dicts, lists, strings; a string may be
    an action text such as ``discard AD JD``), leaving out dict keys in ``skip``."""
    if isinstance(x, str):
        for tok in x.split():
            if CARD_CODE.match(tok):
                out.add(tok)
    elif isinstance(x, dict):
        for k, v in x.items():
            if k not in skip:
                codes_in(v, out, skip)
    elif isinstance(x, (list, tuple)):
        for v in x:
            codes_in(v, out, skip)
    return out


def emitted_types(ruleset_data) -> frozenset:
    """The event types a ruleset writes itself with ``emit: {type: …}`` (its own public statements)."""
    out = set()

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "emit" and isinstance(v, dict) and "type" in v:
                    out.add(str(v["type"]))
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(ruleset_data)
    return frozenset(out)


def shown_codes(event: dict, emitted: frozenset) -> set:
    """Card codes an event shows by the rules (``SHOWING_EVENTS``, the ruleset's own events); empty
    for any other event."""
    t = event.get("type")
    if t in emitted:
        return codes_in(event, set(), frozenset({"type"}))
    if t not in SHOWING_EVENTS:
        return set()
    fields = SHOWING_EVENTS[t]
    if fields is None:
        return codes_in(event, set(), frozenset({"type"}))
    return codes_in([event.get(f) for f in fields], set())


class DealRNG(random.Random):
    """The state's RNG, which also chooses the order of every deal's shuffle (``deal_order``).

    Each shuffle is a ``random.shuffle`` of the cards with this generator's own draws; while
    ``rename`` is set (face -> face), the first ``limit`` shuffles come out renamed. The draws are the
    same whether or not cards are renamed, so two games differ only by the renamed cards.
    ``shuffles`` counts the shuffles made."""

    rename = None
    limit = 0
    shuffles = 0

    def deal_order(self, cards) -> list:
        order = list(cards)
        self.shuffle(order)
        self.shuffles += 1
        if self.rename is not None and self.shuffles <= self.limit:
            order = [self.rename.get(c, c) for c in order]
        return order


def new_state(game, seed, rename=None, limit=0):
    """A new match of ``game`` whose RNG (``DealRNG``) is seeded with ``seed``; the first ``limit``
    shuffles renamed by ``rename`` (face -> face)."""
    rng = DealRNG(seed)
    rng.rename, rng.limit = rename, limit
    return game.new_state(rng=rng), rng


def play_action(state, chooser: random.Random) -> str:
    """Make a random decision for the seat to act, one small choice at a time (``legal_choices`` /
    ``choose``: a step with ten thousands of actions, Eleusis' plays, is not listed whole); returns the
    action's text as the history keeps it (what ``apply`` reads back)."""
    before = len(state.history)
    while len(state.history) == before:
        state.choose(chooser.choice(state.legal_choices()))
    return state.history[-1]


def deal_ended(state, since: int) -> bool:
    """Whether a ``deal_end`` event was written after the first ``since`` events (a public event)."""
    return any(ev.get("type") == "deal_end" for ev in state.log(None, since=since))


def seen_by(state, o):
    """What observer ``o`` is shown at a decision: ``(view, legal)``, ``legal`` being its legal small
    choices when it is to act (every legal action, for a step whose actions are one choice), else None."""
    legal = state.legal_choices() if o is not None and state.to_act == o else None
    return state.view(o, legal=False), legal


@dataclass
class FirstDeal:
    """The first deal of one seeded random game, as every observer saw it.

    ``actions[i]`` = (seat, text) applied at decision ``i``; decision ``end`` = ``len(actions)`` is the
    point after the deal (the first decision of the next deal, or the end of the match). For each
    observer (seat or ``None``): ``shown[o][i]`` = ``seen_by`` at decision ``i``; ``log_len[o][i]``
    how many events its log held then; ``log[o]`` its log at the end point; ``first_seen[o][code]`` the
    first decision by which ``o`` had seen the card (see the module's docstring).
    """
    game: object
    seed: object
    actions: list = field(default_factory=list)
    shown: dict = field(default_factory=dict)
    log_len: dict = field(default_factory=dict)
    log: dict = field(default_factory=dict)
    first_seen: dict = field(default_factory=dict)
    shuffles: int = 0
    terminal: bool = False
    capped: bool = False   # stopped at max_decisions, before the deal ended

    @property
    def end(self) -> int:
        return len(self.actions)

    def unseen(self, o, t: int) -> set:
        """Codes ``o`` had not seen by decision ``t``."""
        fs = self.first_seen[o]
        deck = self.game.deck
        return {c for c in {deck.code[f] for f in deck.cards} if fs.get(c, self.end + 1) > t}


def observers(game) -> list:
    return list(range(game.n)) + [None]


def play_first_deal(game, seed, emitted: frozenset, obs=None, max_decisions: int = 300) -> FirstDeal:
    """Play a random game (choices drawn from ``seed``) to the end of its first deal, or
    ``max_decisions`` decisions (Svoyi Koziri's first deal may last thousands; every card is seen long
    before), recording what each observer of ``obs`` (default: every seat and the spectator) sees."""
    chooser = random.Random(f"choices-{seed}")
    s, rng = new_state(game, seed)
    rec = FirstDeal(game, seed)
    obs = observers(game) if obs is None else obs
    for o in obs:
        rec.shown[o], rec.log_len[o], rec.first_seen[o], rec.log[o] = [], [], {}, []
    counts = {o: 0 for o in obs}
    mark, i = 0, 0
    while True:
        ended = s.terminal or deal_ended(s, mark)
        for o in obs:
            fs = rec.first_seen[o]
            new = s.log(o, since=counts[o])
            counts[o] = s.event_count
            shown = seen_by(s, o)
            rec.shown[o].append(shown)
            # At the end point (not the match's end) the view shows the next deal's cards: not seen
            # in this deal. The events up to deal_end are this deal's.
            if s.terminal or not ended:
                for c in view_codes(shown[0]):
                    fs.setdefault(c, i)
            this_deal = True
            for ev in new:
                if this_deal:
                    for c in shown_codes(ev, emitted):
                        fs.setdefault(c, i)
                if ev.get("type") == "deal_end":
                    this_deal = False
            if ended and not s.terminal and rec.actions:
                # The action that ended the deal: where its cards went, no view shows (the next deal
                # is on the table); they are taken as seen at the end point.
                for c in codes_in(rec.actions[-1][1], set()):
                    fs.setdefault(c, i)
            rec.log[o] += new
            rec.log_len[o].append(len(rec.log[o]))
        if ended:
            break
        if i >= max_decisions:
            rec.capped = True
            break
        seat = s.to_act
        mark = s.event_count
        rec.actions.append((seat, play_action(s, chooser)))
        i += 1
    rec.terminal = s.terminal
    # The shuffles of the first deal: those before its deal_end (the next deal's are not renamed).
    rec.shuffles = 0
    for ev in s.log(None):
        if ev.get("type") == "deal_end":
            break
        rec.shuffles += ev.get("type") == "shuffle"
    return rec


# ---- re-deals ------------------------------------------------------------------------------------

def rename_groups(game, codes) -> list:
    """``codes`` split into groups whose cards may be renamed into each other: the same effective suit
    (``deck: suit_of:``; a joker alone) and as many copies in the deck, so that a renamed deal is a
    deal of the same deck and a seat that followed suit still does."""
    deck = game.deck
    copies = {}
    for f in deck.cards:
        copies[deck.code[f]] = copies.get(deck.code[f], 0) + 1
    groups = {}
    for c in sorted(codes):
        f = deck.face(c)
        groups.setdefault((copies[c], deck.eff_suit[f]), []).append(c)
    return [g for g in groups.values() if len(g) >= 2]


def draw_sigma(groups, rng: random.Random, attempt: int):
    """A permutation of the codes of ``groups`` (code -> code, only the codes it moves), never the
    identity: each third attempt shuffles every group, the others swap one to three pairs (a small
    change is more often a deal in the observer's information set). None when nothing can move."""
    if not groups:
        return None
    sigma = {}
    if attempt % 3 == 0:
        for g in groups:
            img = list(g)
            while img == g:
                rng.shuffle(img)
            sigma.update((a, b) for a, b in zip(g, img) if a != b)
    else:
        for _ in range(rng.randint(1, 3)):
            g = rng.choice(groups)
            a, b = rng.sample(g, 2)
            sa, sb = sigma.get(a, a), sigma.get(b, b)
            sigma[a], sigma[b] = sb, sa
        sigma = {a: b for a, b in sigma.items() if a != b}
        if not sigma:
            return draw_sigma(groups, rng, 0)
    return sigma


def rename_text(text: str, sigma: dict) -> str:
    """An action's text with its card codes renamed (other words kept)."""
    return " ".join(sigma.get(tok, tok) if CARD_CODE.match(tok) else tok for tok in text.split(" "))


def _diff(a, b, path="", out=None, limit=6):
    """Paths where two JSON-like values differ (at most ``limit``)."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if a.get(k, "<absent>") != b.get(k, "<absent>"):
                _diff(a.get(k, "<absent>"), b.get(k, "<absent>"), f"{path}.{k}", out, limit)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                _diff(x, y, f"{path}[{i}]", out, limit)
    else:
        out.append(f"{path or '.'}: {_short(a)} != {_short(b)}")
    return out


def _short(x, n=160) -> str:
    r = repr(x)
    return r if len(r) <= n else r[:n - 1] + "…"


@dataclass(frozen=True)
class Disclosure:
    """What a ruleset itself makes public, beyond the cards it shows (read from its declarations).

    ``emitted``: the event types it writes with ``emit:``; ``owner_counters``: the counters each seat
    sees only its own value of (``visibility: owner``). A difference between two deals in a value the
    ruleset computes and shows — a public counter (scores), a var, a side, its own events, the
    ``deal_score`` and ``game_over`` events — is the ruleset telling every seat something, by its
    rules: Goninkan announces the holders of the trump ace and the joker (goninkan.md, "Known to all
    at once"); Burraco's deal score counts the cards left in the hands. Such a re-deal is one the
    observer can tell apart by the rules: outside its information set, counted as ``published``.
    What is judged is every other channel: zones, the trick, the engine's own events (``action``,
    ``pass``, ``play``, ``bid``, …) and the legal actions."""
    emitted: frozenset
    owner_counters: frozenset

    @classmethod
    def of(cls, ruleset) -> "Disclosure":
        data = ruleset.data
        counters = data.get("counters") or {}
        owner = frozenset(name for name, spec in counters.items()
                          if isinstance(spec, dict) and str(spec.get("visibility", "all")) == "owner")
        return cls(emitted_types(data), owner)

    @property
    def published_events(self) -> frozenset:
        return self.emitted | {"deal_score", "game_over"}


#: View keys that say where the game is (who acts, which step, the deal, the dealer, the trick's leader,
#: trumps, the system values): public by the rules; a difference there is the game's flow.
FLOW_KEYS = frozenset({"to_act", "step", "step_index", "terminal", "deal", "dealer", "leader", "led_suit",
                       "trump", "system", "players", "seat"})
#: View keys of values the ruleset computes and shows (``Disclosure``); ``display`` is built from the
#: rest of the view (a difference there comes with one in what it shows).
PUBLISHED_KEYS = frozenset({"counters", "vars", "scores", "sides", "display"})


def classify_view(a: dict, b: dict, o, disclosure: Disclosure) -> str | None:
    """How two views of ``o`` differ: None (equal), ``"leak"`` (in a zone, the trick or anything a
    step adds: what must not depend on unseen cards), else ``"flow"`` or ``"published"``."""
    if a == b:
        return None
    kinds = set()
    for k in set(a) | set(b):
        if a.get(k) == b.get(k):
            continue
        if k in FLOW_KEYS:
            kinds.add("flow")
        elif k == "counters":
            for name in set(a.get(k) or {}) | set(b.get(k) or {}):
                x, y = (a.get(k) or {}).get(name), (b.get(k) or {}).get(name)
                if x == y:
                    continue
                if name in disclosure.owner_counters and (x is None or y is None or len(x) != len(y) or any(
                        i != o and u != w for i, (u, w) in enumerate(zip(x, y)))):
                    kinds.add("leak")   # another seat's value of a counter each seat sees only its own of
                else:
                    kinds.add("published")
        elif k in PUBLISHED_KEYS:
            kinds.add("published")
        else:
            kinds.add("leak")
    return "leak" if "leak" in kinds else "flow" if "flow" in kinds else "published"


def replay(rec: FirstDeal, o, t: int, sigma: dict, compare_at, disclosure: Disclosure) -> tuple:
    """Replay ``rec`` re-dealt with ``sigma`` up to decision ``t``, the actions of every seat but ``o``
    renamed; compare what ``o`` is shown (view, legal choices, log) at each decision of
    ``compare_at`` and at ``t``. Returns ``(status, detail)``: ``("same", None)``, ``("leak", text)``
    or, for a re-deal outside ``o``'s information set, ``("illegal"|"flow"|"published", text)``."""
    game = rec.game
    deck = game.deck
    faces = {deck.face(a): deck.face(b) for a, b in sigma.items()}
    s, _ = new_state(game, rec.seed, faces, rec.shuffles)
    who = "the spectator" if o is None else f"seat {o}"
    mark, logged, before = 0, 0, 0
    seat = text = None
    for i in range(t + 1):
        # The flow first: who is to act (and whether the deal is over) is public, and the rules may
        # make it depend on hidden cards (in Hearts the holder of the two of clubs leads); a re-deal
        # that changes it is one the observer can rule out by the rules: outside its information set.
        if i < rec.end:
            if s.terminal or (i > 0 and deal_ended(s, mark)):
                return "flow", f"decision {i}: the re-dealt deal is over"
            seat, text = rec.actions[i]
            if s.to_act != seat:
                return "flow", f"decision {i}: seat {s.to_act} is to act, not seat {seat}"
        elif not rec.capped and not (s.terminal or deal_ended(s, mark)):
            return "flow", "the re-dealt deal did not end with the same actions"
        if i in compare_at or i == t:
            # The log since the last comparison: its first difference is the first thing o could tell.
            got = s.log(o, since=logged)
            want = rec.log[o][before:rec.log_len[o][i]]
            logged, before = s.event_count, rec.log_len[o][i]
            if want != got:
                k = next((j for j, (x, y) in enumerate(zip(want, got)) if x != y), min(len(want), len(got)))
                x = want[k] if k < len(want) else None
                y = got[k] if k < len(got) else None
                kind = "published" if {(x or {}).get("type"), (y or {}).get("type")} & \
                    disclosure.published_events else "leak"
                return kind, (f"{who}'s log differs by decision {i}: {_short(x, 300)} became "
                              f"{_short(y, 300)}")
            view, legal = seen_by(s, o)
            want_view, want_legal = rec.shown[o][i]
            if legal != want_legal:
                return "leak", (f"{who}'s legal actions at decision {i} differ: "
                                + "; ".join(_diff(want_legal, legal)))
            kind = classify_view(want_view, view, o, disclosure)
            if kind is not None:
                return kind, f"{who}'s view at decision {i} differs: " + "; ".join(_diff(want_view, view))
        if i == t:
            break
        if seat != o:
            text = rename_text(text, sigma)
        mark = s.event_count
        try:
            s.apply(text)
        except cardspec.IllegalAction as e:
            return "illegal", f"decision {i}: seat {seat} cannot play '{text}' ({_short(str(e), 200)})"
    return "same", None


@dataclass
class Report:
    """What ``check_first_deal`` did for one game."""
    name: str
    players: int
    seed: object
    decisions: int = 0
    same: int = 0          # re-deals compared and found the same for the observer
    outside: dict = field(default_factory=dict)   # reason -> re-deals discarded (outside the information set)
    examples: dict = field(default_factory=dict)  # reason -> one example
    empty: int = 0         # observers who never had two unseen cards to rename
    leaks: list = field(default_factory=list)     # descriptions of differences

    @property
    def discarded(self) -> int:
        return sum(self.outside.values())


def check_first_deal(game, seed, disclosure: Disclosure, *, observers_per_game=None, points=2, want=1,
                     tries=8, compare=2) -> Report:
    """Play one seeded game's first deal and check the information-set property for each observer
    (every seat and the spectator, or ``observers_per_game`` of them, the spectator always, drawn from
    the seed) at ``points`` random decisions and at the end of the deal: up to ``tries`` re-deals each
    until ``want`` are compared, each compared at ``compare`` more random earlier decisions too.
    Returns a ``Report``."""
    rng = random.Random(f"sigma-{seed}")
    obs = observers(game)
    if observers_per_game is not None and observers_per_game < len(obs):
        obs = sorted(rng.sample(obs[:-1], observers_per_game - 1)) + [None]
    rec = play_first_deal(game, seed, disclosure.emitted, obs)
    rep = Report(game.name, game.n, seed, decisions=rec.end)
    # The method itself: the same deal replayed (no card renamed) must show every observer the same
    # things (the RNG draws the same numbers, the log is not rewritten later, the actions read back).
    for o in obs:
        status, detail = replay(rec, o, rec.end, {}, set(rng.sample(range(rec.end), min(compare, rec.end))),
                                disclosure)
        assert status == "same", f"{game.name}/{game.n} seed {seed}: the unchanged replay differs: {detail}"
    for o in obs:
        # The decisions where o still has two unseen cards to rename: from the first on, up to the
        # last (what o has seen only grows), and the end of the deal when some stay unseen.
        last = rec.end
        while last >= 0 and not rename_groups(game, rec.unseen(o, last)):
            last -= 1
        if last < 0:
            rep.empty += 1   # o sees every card from the start (a game of perfect information)
            continue
        ts = sorted(rng.sample(range(last + 1), min(points, last + 1)))
        if last == rec.end:
            ts = sorted(set(ts) | {rec.end})
        for t in ts:
            groups = rename_groups(game, rec.unseen(o, t))
            done = 0
            for attempt in range(tries):
                sigma = draw_sigma(groups, rng, attempt)
                status, detail = replay(rec, o, t, sigma, set(rng.sample(range(t), min(compare, t))), disclosure)
                if status == "same":
                    rep.same += 1
                    done += 1
                elif status == "leak":
                    rep.leaks.append(f"{game.name}/{game.n} seed {seed}: {detail} (renamed {sigma})")
                    done += 1
                else:
                    rep.outside[status] = rep.outside.get(status, 0) + 1
                    rep.examples.setdefault(status, detail)
                if done >= want:
                    break
    return rep
