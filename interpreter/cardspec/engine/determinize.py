"""Determinization: a full ``State`` built from one seat's view plus guesses for what it hides.

Used only by bot harnesses (ISMCTS) with the bot's *own* view: nothing here
reads a real State. Two layers:

- ``state_from_view(game, view, hidden)`` is the general engine function
  (``Game.state_from_view``): every zone the view shows as ``{"count": n}``
  must be filled by ``hidden[(zone_name, owner)]`` (``owner`` a seat, or None
  for a shared zone; a shared zone's face-up cards come from the view), and
  every pass chosen but not yet delivered by ``hidden[("@flight", seat)]``.
  Cards are codes (``"QS"``) or faces (ints).
- ``Determinizer(game, view)`` reads the view and its ``log`` once (the view
  must come from ``state.view(seat, log=True)``), works out the public facts,
  and ``sample(rng)`` returns random States consistent with them:

  * the cards the seat sees (its hand, face-up cards, cards on the table),
    and the counts of every hidden zone;
  * cards played to earlier tricks of this deal sit in the trick winner's
    won zone (they were played face up);
  * cards this seat passed sit in the receiver's hand until played;
  * a seat that did not follow the led suit holds no card of that suit
    (only when the tricks step has ``follow: suit``);
  * a ``visibility: top`` zone (a discard pile) shows its top card and its
    size; below the top it holds the cards the public log showed going in
    (a ``deal`` event's ``top``, the card dealt face up onto it)
    and not coming out (``_PileLog``: the ``action`` events of a ``turns``
    step read through each action's unconditional ``move``/``meld``/
    ``lay_off`` effects), in their order, and a pile taken into a hidden
    zone (a hand) pins its known cards there until the log shows them leave.
    When the log cannot be followed (an effect it does not show touches the
    pile, a reshuffle) or disagrees with the view, only the top and the size
    are used.

The engine stays game-agnostic: all of this reads the ruleset's own steps
(``tricks``'s ``from``/``to``/``follow``, ``pass``'s ``into``).
"""
from __future__ import annotations

import random
from collections import Counter

from .slots import SYSTEM_VARS
from ..errors import CardspecError

_SYSTEM_INDEX = {name: i for i, (name, _, _) in enumerate(SYSTEM_VARS)}
FLIGHT = "@flight"
#: Decision steps whose whole position is in the view (zones, counters, vars, system values, the trick,
#: the pass in flight). Others (e.g. ``turns``, with per-turn counters the view does not carry) raise.
SUPPORTED = frozenset({"tricks", "pass", "turns", "auction", "bid"})


class DeterminizeError(CardspecError):
    """The view cannot be turned into a State (bad ``hidden`` cards, or an unsupported position)."""

    code = "bot/determinize"


def _face(deck, c):
    return c if isinstance(c, int) else deck.face(c)


def _template(game, view, seed=None):
    """The State a view pins down, with every hidden slot left empty.

    Returns ``(state, slots, tops)`` with ``slots`` a list of ``(key, zone_index | None, owner, count)``:
    ``key`` is ``(zone_name, owner)`` or ``("@flight", seat)``; ``tops`` the indexes of shared zones
    whose last card is the top the view shows (a slot's cards go under it).
    """
    if view.get("terminal"):
        raise DeterminizeError("the match is over: nothing to determinize")
    if "step_index" not in view or "system" not in view:
        raise DeterminizeError("this view has no step_index/system: make it with State.view(seat)")
    deck = game.deck
    face = deck.face
    n = game.n
    s = game.new_state(seed=seed, record=False)     # every field exists with a sane default
    s._stack_order = None
    s._deal_override = None
    s.history = []
    s.events = None
    s.result = None
    slots = []
    tops = set()
    zones = view["zones"]
    s.z = [[[] for _ in range(n)] if zn.per_seat else [] for zn in game.zones]
    s.face_up = [0] * len(game.zones)
    for zn in game.zones:
        entry = zones.get(zn.name)
        if entry is None:
            raise DeterminizeError(f"the view has no zone '{zn.name}'")
        if zn.per_seat:
            for owner in range(n):
                e = entry[str(owner)]
                if isinstance(e, list) and zn.melds:
                    s.z[zn.index][owner] = [tuple(face(c) for c in m) for m in e]
                elif isinstance(e, list):
                    s.z[zn.index][owner] = [face(c) for c in e]
                elif e["count"]:
                    slots.append(((zn.name, owner), zn.index, owner, e["count"]))
        else:
            if isinstance(entry, list) and zn.melds:
                s.z[zn.index] = [tuple(face(c) for c in m) for m in entry]
            elif isinstance(entry, list):
                s.z[zn.index] = [face(c) for c in entry]
            else:
                up = [face(c) for c in entry.get("face_up", ())]
                s.face_up[zn.index] = len(up)
                hidden = entry["count"] - len(up)
                if entry.get("top") is not None and hidden > 0:   # visibility: top (a discard pile)
                    up = up + [face(entry["top"])]
                    hidden -= 1
                    tops.add(zn.index)
                s.z[zn.index] = up
                if hidden:
                    slots.append(((zn.name, None), zn.index, None, hidden))
    s.c = [list(view["counters"][c.name]) for c in game.counters]
    if any(x is None for c in s.c for x in c):
        raise DeterminizeError("the view hides some counters' values: cannot rebuild the position")
    v = [0] * game.n_v if hasattr(game, "n_v") else list(s.v)
    for name, value in view["system"].items():
        v[_SYSTEM_INDEX[name]] = value
    for var in game.vars:
        if var.name not in view["vars"]:
            if not (var.hidden or var.seen_by is not None):
                raise DeterminizeError(f"the view has no var '{var.name}': make it with State.view(seat)")
            v[var.index] = var.default
            continue
        value = view["vars"][var.name]
        v[var.index] = (face(value) if value is not None else -1) if var.type == "card" else value
    s.v = v
    s.nxt = None
    s.partial, s._chpos = (), None   # the seat's small choices so far are not rebuilt: whole actions
    s.nxt = game.order_table(s)   # play order from the view's counters and values (seats may have moved)
    s.pc = view["step_index"]
    s.entered = True
    s.terminal = False
    s.plays = [(int(st), face(c)) for st, c in view["trick"]]
    s.carried = []
    s.flight = None
    s.queue = []
    step = game.steps[s.pc]
    if getattr(step, "kind", None) not in SUPPORTED:
        raise DeterminizeError(f"cannot rebuild a position inside a '{getattr(step, 'kind', '?')}' step from a view "
                               f"(supported: {', '.join(sorted(SUPPORTED))})")
    if getattr(step, "kind", None) == "turns":
        # The turn's counters (_turns.py): phase, actions in it, the next-seat override, turns taken.
        from .steps.turns import counters_from_view
        if view.get("turn") is None:
            raise DeterminizeError("this view of a turns step has no 'turn' (make it with State.view(seat))")
        s.ts = counters_from_view(view)
    restore = getattr(step, "restore", None)
    if restore is not None:   # a step that keeps its own position (the auction's bids so far)
        restore(s, view)
    if getattr(step, "kind", None) == "pass":
        # Seats choose one at a time from the dealer's left: those before the seat to act have chosen.
        to_act, dealer = v[_SYSTEM_INDEX["to_act"]], v[_SYSTEM_INDEX["dealer"]]
        s.queue = [(to_act + i) % n for i in range((dealer - to_act) % n + 1)]
        s.flight = [None] * n
        k = step.count(s)
        me = view.get("seat")
        for i in range((to_act - dealer - 1) % n):
            seat = (dealer + 1 + i) % n
            if seat == me and view.get("passing") is not None:
                s.flight[seat] = [face(c) for c in view["passing"]]
            else:
                slots.append(((FLIGHT, seat), None, seat, k))
        # The seat to act may have picked some cards already (``one_at_a_time``): its own view shows
        # them; for another seat they are the cards no zone, trick or finished pass accounts for.
        if to_act == me:
            if view.get("passing"):
                s.flight[me] = [face(c) for c in view["passing"]]
        else:
            shown = sum(len(h) for zi, zn in enumerate(game.zones)
                        for h in (s.z[zi] if zn.per_seat else [s.z[zi]]))
            shown += sum(c for _, _, _, c in slots) + len(s.plays)
            shown += sum(len(f) for f in s.flight if f is not None)
            if len(game.deck.cards) > shown:
                slots.append(((FLIGHT, to_act), None, to_act, len(game.deck.cards) - shown))
    log = view.get("log")
    if log:
        for ev in _current_deal(log):
            if ev.get("type") == "trick":
                if ev.get("carried"):
                    s.carried.extend(face(c) for _, c in ev["cards"])
                else:
                    s.carried = []
    return s, slots, tops


def _current_deal(log):
    start = 0
    for i, ev in enumerate(log):
        if ev.get("type") == "deal_start":
            start = i
    return log[start:]


def _hidden_vars(game, view) -> list:
    """The vars ``view`` does not show (secrets of other seats), to be guessed from the dealt cards."""
    return [var for var in game.vars if var.name not in view["vars"]]


def _fill(s, slots, cards_by_slot, rng_seed=None, tops=(), guess=()):
    for (key, zi, owner, count), cards in zip(slots, cards_by_slot):
        if key[0] == FLIGHT:
            s.flight[owner] = list(cards)
        elif owner is None and zi in tops:   # under the top card the view shows
            z = s.z[zi]
            z[len(z) - 1:len(z) - 1] = cards
        elif owner is None:
            s.z[zi].extend(cards)
        else:
            s.z[zi][owner].extend(cards)
    if rng_seed is not None:
        s.rng = random.Random(rng_seed)
    for var in guess:   # secrets: the ruleset's guess (vars: guess:) from the dealt cards, else the default
        s.v[var.index] = var.guess(s) if var.guess is not None else var.default
    if s.game.eff_of is not None:   # suits that depend on the deal: those of the values just set
        s.eff = s.game.eff_of(s)
    if not s.terminal and s.entered:   # a step that keeps its hands in order (the tricks step) re-sorts them
        sort_hands = getattr(s.game.steps[s.pc], "sort_hands", None)
        if sort_hands is not None:
            sort_hands(s)
    return s


def state_from_view(game, view: dict, hidden: dict | None = None, seed=None):
    """A State consistent with ``view`` whose hidden cards are ``hidden`` (see the module doc).

    Parameters:
        game: the ``Game`` the view comes from.
        view: ``state.view(seat)`` (``log=True`` also restores cards carried between tricks).
        hidden: ``{(zone_name, owner_or_None): [cards]}`` and ``{("@flight", seat): [cards]}``;
            each list must have exactly the count the view shows.
        seed: seed of the new State's RNG (its later shuffles).

    Raises ``DeterminizeError`` when a hidden slot is missing or has the wrong number of cards,
    or a card code is unknown.
    """
    hidden = hidden or {}
    try:
        s, slots, tops = _template(game, view, seed)
        filled = []
        for key, zi, owner, count in slots:
            cards = hidden.get(key)
            if cards is None or len(cards) != count:
                raise DeterminizeError(f"hidden{list(key)} needs {count} card(s), got "
                                       f"{'none' if cards is None else len(cards)}")
            filled.append([_face(game.deck, c) for c in cards])
    except (KeyError, ValueError, IndexError) as e:
        if isinstance(e, DeterminizeError):
            raise
        raise DeterminizeError(f"not a view of this game: {e}") from None
    return _fill(s, slots, filled, tops=tops, guess=_hidden_vars(game, view))


class Determinizer:
    """Samples States consistent with one seat's view and the public facts in its log.

    Parameters:
        game: the ``Game``.
        view: ``state.view(seat, log=True)`` of the seat that determinizes (``view["seat"]``).

    Attributes: ``voids`` (``{seat: set of suit indexes}`` shown void this deal), ``pinned``
    (``{slot key: [faces]}`` cards known to be in a hidden slot), ``pool`` (the unknown cards).
    Raises ``DeterminizeError`` when the view does not add up (e.g. an unsupported mechanism moved
    cards where the log does not say).
    """

    def __init__(self, game, view: dict):
        self.game = game
        deck = game.deck
        face = deck.face
        suit = deck.suit
        self.template, slots, self.tops = _template(game, view)
        self.guess = _hidden_vars(game, view)
        me = view.get("seat")
        tricks = self._tricks_step(game, view["step_index"])
        passes = [st for st in game.steps if getattr(st, "kind", None) == "pass"]
        pass_into = passes[0].dest if len(passes) == 1 else None
        hand_zone = tricks.hand if tricks is not None else None
        won_zone = tricks.won if tricks is not None else None
        follow = tricks is not None and tricks.follow == "suit"
        # Voids by the effective suit (deck suit_of); a card the duty to follow never bars (tricks
        # exempt:) shows nothing; the led suit is the trick event's when it names one (docs/tricks.md).
        suit = deck.eff_suit
        if game.eff_of is not None:   # suits that depend on the deal: those of the values the view shows
            suit = game.eff_of(_template(game, view)[0])[0]
        free = tricks.maybe_exempt if tricks is not None else ()
        # Public facts of this deal, from the log.
        voids = {}
        pinned = {}   # (zone_index, owner) -> Counter of faces

        def pin(zi, owner, faces):
            pinned.setdefault((zi, owner), Counter()).update(faces)

        def unpin(owner, f):
            if hand_zone is not None:
                cnt = pinned.get((hand_zone, owner))
                if cnt and cnt[f] > 0:
                    cnt[f] -= 1

        def trick_plays(plays, led_letter=False):
            if not plays:
                return
            if led_letter is not False:   # the trick's led suit as recorded (None: none yet)
                led = deck.suit_index(led_letter) if led_letter else -1
            else:
                led = suit[face(plays[0][1])]
            for st, c in plays:
                f = face(c)
                if led < 0 and led_letter is False:
                    led = suit[f]        # a card of no suit led: the next card sets the led suit
                elif follow and suit[f] != led and led >= 0 and not (free and free[f]):
                    voids.setdefault(int(st), set()).add(led)
                unpin(int(st), f)

        carried = []
        for ev in _current_deal(view.get("log") or []):
            t = ev.get("type")
            if t == "pass" and "cards" in ev and ev.get("seat") == me and pass_into is not None:
                pin(pass_into, ev.get("to"), [face(c) for c in ev["cards"]])   # (into a shared zone: no owner)
            elif t == "trick":
                trick_plays(ev["cards"], ev.get("led_suit", False))
                faces = [face(c) for _, c in ev["cards"]]
                if ev.get("carried"):
                    carried.extend(faces)
                    continue
                taker = ev.get("taker", ev.get("winner"))   # the seat that took the cards (tricks: take:)
                if won_zone is not None and taker is not None:
                    pin(won_zone, taker, faces + carried)
                carried = []
        trick_plays(view.get("trick") or [], view.get("led_suit") if tricks is not None and tricks.relead else False)
        piles = _PileLog(game, view, [zn.index for zn in game.zones
                                      if zn.visibility == "top" and not zn.per_seat and not zn.melds])
        for (zi, owner), faces in piles.pins.items():
            pin(zi, owner, faces)
        self.voids = voids
        # Slots: capacity left after the pinned cards; the pool is what nobody is known to hold.
        pool = Counter(deck.cards)
        t = self.template
        for zi, zn in enumerate(game.zones):
            for h in (t.z[zi] if zn.per_seat else [t.z[zi]]):
                pool.subtract([c for m in h for c in m] if zn.melds else h)
        pool.subtract(f for _, f in t.plays)
        pool.subtract(t.carried)
        if t.flight is not None and game.steps[t.pc].kind == "pass":   # (a bid step keeps (seat, bid) there)
            for fl in t.flight:
                if fl is not None:
                    pool.subtract(fl)
        self.slots = []
        self.known = []
        self.pinned = {}
        self.orders = {}   # slot index -> the pile below its top, bottom first (faces, None: unknown)
        for key, zi, owner, count in slots:
            known = []
            cnt = pinned.get((zi, owner)) if zi is not None else None
            if cnt:
                known = sorted(cnt.elements())
                if len(known) > count or any(pool[f] < k for f, k in Counter(known).items()):
                    known = []   # something moved the cards where the log does not say: assume nothing
            pool.subtract(known)
            if known:
                self.pinned[key] = known
                if (zi, owner) in piles.order:   # a pile: the known cards in their places
                    self.orders[len(self.slots)] = piles.order[(zi, owner)]
            void = voids.get(owner, set()) if (zi == hand_zone and owner is not None and key[0] != FLIGHT) else set()
            self.slots.append((key, zi, owner, count))
            self.known.append((known, count - len(known), frozenset(void)))
        if any(k < 0 for k in pool.values()):
            raise DeterminizeError("the view shows more copies of a card than the deck has")
        self.pool = sorted(pool.elements())
        need = sum(free for _, free, _ in self.known)
        if need != len(self.pool):
            raise DeterminizeError(f"hidden zones hold {need} cards but {len(self.pool)} are unaccounted for")
        self.constrained = any(v for _, _, v in self.known)
        self._suit = suit

    @staticmethod
    def _tricks_step(game, pc):
        steps = game.steps
        for i in range(pc, -1, -1):
            if getattr(steps[i], "kind", None) == "tricks":
                return steps[i]
        for st in steps:
            if getattr(st, "kind", None) == "tricks":
                return st
        return None

    def assign(self, rng: random.Random) -> list:
        """Random hidden cards for every slot: a list (in ``self.slots`` order) of face lists."""
        pool = list(self.pool)
        rng.shuffle(pool)
        if not self.constrained:
            out, i = [], 0
            for known, free, _ in self.known:
                out.append(known + pool[i:i + free])
                i += free
            return out
        for _ in range(20):
            got = self._greedy(pool, rng)
            if got is not None:
                return got
            rng.shuffle(pool)
        got = self._matching(pool, rng)
        if got is None:
            raise DeterminizeError("no deal of the hidden cards agrees with the shown voids")
        return got

    def _greedy(self, pool, rng):
        suit = self._suit
        caps = [free for _, free, _ in self.known]
        voids = [v for _, _, v in self.known]
        allowed = [[j for j in range(len(caps)) if caps[j] and suit[c] not in voids[j]] for c in pool]
        order = sorted(range(len(pool)), key=lambda i: len(allowed[i]))
        out = [list(k) for k, _, _ in self.known]
        for i in order:
            opts = [j for j in allowed[i] if caps[j] > 0]
            if not opts:
                return None
            r = rng.random() * sum(caps[j] for j in opts)
            for j in opts:
                r -= caps[j]
                if r < 0:
                    break
            caps[j] -= 1
            out[j].append(pool[i])
        return out

    def _matching(self, pool, rng):
        """Exact fallback: bipartite matching of cards to slot places (Kuhn's augmenting paths)."""
        suit = self._suit
        units = [j for j, (_, free, _) in enumerate(self.known) for _ in range(free)]
        rng.shuffle(units)
        voids = [v for _, _, v in self.known]
        match = [-1] * len(units)

        def try_card(i, seen):
            for u, j in enumerate(units):
                if u in seen or suit[pool[i]] in voids[j]:
                    continue
                seen.add(u)
                if match[u] < 0 or try_card(match[u], seen):
                    match[u] = i
                    return True
            return False

        for i in range(len(pool)):
            if not try_card(i, set()):
                return None
        out = [list(k) for k, _, _ in self.known]
        for u, i in enumerate(match):
            out[units[u]].append(pool[i])
        return out

    def sample(self, rng: random.Random):
        """A random State consistent with the view and the public facts (its own RNG seeded from ``rng``)."""
        out = self.assign(rng)
        for j, order in self.orders.items():
            free = iter(out[j][len(self.known[j][0]):])
            out[j] = [f if f is not None else next(free) for f in order]
        return _fill(self.template.clone(), self.slots, out, rng.random(), self.tops, self.guess)


class _PileLog:
    """What the public log of the current deal shows about ``visibility: top`` zones (discard piles).

    Follows each pile through the deal: ``shuffle`` empties every zone, ``deal`` puts unknown cards
    in (its ``top`` known: the pile's top once dealt), and every ``action`` event of a ``turns`` step is read back (``step.parse``) and run through
    the action's unconditional ``move``/``meld``/``lay_off`` effects whose zones are plain
    (``discard``, ``hand[seat]``): a named card (``cards: card``) going onto a pile is known there; a
    pile moved whole (or its top ``count`` cards) into a seat's hidden zone pins its known cards there,
    until an action of that seat names them leaving. Anything it cannot follow — an effect that
    names the pile but is conditional or not one of those, a pile touched by an automatic phase or
    step, a ``reshuffle`` — makes that pile unknown (only the view's top and size are then used).

    Attributes: ``pins`` (``{(zone_index, owner): [faces]}`` known hidden cards, the pile's own slot
    with ``owner`` None) and ``order`` (``{(zone_index, None): [face or None, …]}``: the pile below its
    top, bottom first, None for a card the log did not show).
    """

    def __init__(self, game, view, tops):
        self.pins = {}
        self.order = {}
        if not tops:
            return
        self.game = game
        self.zone = {zn.name: zn for zn in game.zones}
        self.top_names = {game.zones[zi].name for zi in tops}
        turns = [st for st in game.steps if getattr(st, "kind", None) == "turns"]
        self.untracked = set()
        for st in game.steps:   # automatic effects the log does not show: their piles cannot be followed
            texts = [st.body] if getattr(st, "kind", None) == "do" else \
                [ph for ph in (st.body.get("turn") or []) if isinstance(ph, dict) and "do" in ph] \
                if getattr(st, "kind", None) == "turns" else []
            for txt in texts:
                self.untracked |= self._mentions(txt)
        self.ops = {}
        for st in turns:
            specs = dict(game.data.get("actions") or {})
            specs.update(st.body.get("actions") or {})
            for a in st.actions:
                self.ops[(id(st), a.index)] = self._analyse((specs.get(a.name) or {}).get("effects"))
        piles = {zi: None for zi in tops}     # zone index -> list of faces/None, or None (unknown)
        pins = {}                             # (zone index, owner) -> list of faces
        face = game.deck.face
        cur = game.steps[view["step_index"]]
        order = ([cur] if cur in turns else []) + [st for st in turns if st is not cur]
        for ev in _current_deal(view.get("log") or []):
            t = ev.get("type")
            if t == "shuffle":
                piles = {zi: [] for zi in tops}
                pins = {}
            elif t == "reshuffle":
                piles = {zi: None for zi in tops}
            elif t == "deal" and ev.get("zone") in self.zone:
                zi = self.zone[ev["zone"]].index
                if zi in piles and piles[zi] is not None:
                    if "count" not in ev:
                        piles[zi] = None
                    else:
                        up = [face(c) for c in ev.get("face_up") or ()]
                        piles[zi].extend(up + [None] * (ev["count"] - len(up)))
                        if ev.get("top") is not None and piles[zi]:   # the dealt top, public until covered
                            piles[zi][-1] = face(ev["top"])
            elif t == "action" and "seat" in ev:
                self._action(order, ev, piles, pins)
        for zi in tops:
            name = game.zones[zi].name
            pile = piles.get(zi)
            entry = view["zones"][name]
            if pile is None or name in self.untracked or not isinstance(entry, dict) or not pile or \
                    len(pile) != entry["count"] or \
                    (pile[-1] is not None and entry.get("top") is not None and pile[-1] != face(entry["top"])):
                continue
            below = pile[:-1]
            if any(f is not None for f in below):
                self.pins[(zi, None)] = [f for f in below if f is not None]
                self.order[(zi, None)] = below
        for key, faces in pins.items():
            if faces:
                self.pins.setdefault(key, []).extend(faces)

    # ---- reading the actions' effects -------------------------------------------------------------
    def _mentions(self, spec) -> set:
        """The pile names written anywhere in ``spec`` (YAML data)."""
        import re
        words = set(re.findall(r"[A-Za-z_]\w*", str(spec)))
        return words & self.top_names

    def _where(self, text):
        """``(zone_index, "seat" | None)`` for a plain zone text (``discard``, ``hand[seat]``), else None."""
        import re
        text = str(text).strip()
        zn = self.zone.get(text)
        if zn is not None and not zn.per_seat:
            return zn.index, None
        m = re.fullmatch(r"(\w+)\s*\[\s*seat\s*\]", text)
        if m and m.group(1) in self.zone and self.zone[m.group(1)].per_seat:
            return self.zone[m.group(1)].index, "seat"
        return None

    def _analyse(self, effects):
        """The action's effects as ops ``(src, dst, cards_param, count)``, or ``("lost", names)`` for an
        effect naming piles in a way this reader does not follow."""
        if effects is None:
            return []
        if isinstance(effects, dict):
            effects = [effects]
        ops = []
        for fx in effects:
            if not isinstance(fx, dict):
                continue
            kinds = [k for k in ("move", "meld", "lay_off") if k in fx]
            body = fx.get(kinds[0]) if len(kinds) == 1 else None
            named = self._mentions(fx)
            if body is None or not isinstance(body, dict) or "if" in fx or \
                    any(k in body for k in ("refill", "random_place")):
                if named:
                    ops.append(("lost", named))
                continue
            src, dst = self._where(body.get("from")), self._where(body.get("to"))
            cards = body.get("cards")
            count = body.get("count")
            if (src is None and self._mentions(body.get("from"))) or (dst is None and self._mentions(body.get("to"))) \
                    or (cards is not None and not str(cards).isidentifier()) \
                    or (count is not None and not isinstance(count, int)):
                if named:
                    ops.append(("lost", named))
                continue
            ops.append((src, dst, None if cards is None else str(cards), count))
        return ops

    def _action(self, steps, ev, piles, pins):
        for st in steps:
            try:
                move = st.parse(self._dummy(st), ev["action"])
            except Exception:   # noqa: BLE001 - not this step's action (or secret: no values)
                continue
            break
        else:
            return
        if move[0] < 0:   # done / skip
            return
        a = st.actions[move[0]]
        args = {P.name: v for P, v in zip(a.params, move[1])}
        seat = ev["seat"]
        for op in self.ops.get((id(st), a.index), ()):
            if op[0] == "lost":
                for name in op[1]:
                    piles[self.zone[name].index] = None
                continue
            src, dst, cards, count = op
            src = None if src is None else (src[0], seat if src[1] == "seat" else None)
            dst = None if dst is None else (dst[0], seat if dst[1] == "seat" else None)
            named = None
            if cards is not None:
                v = args.get(cards)
                if v is None:
                    continue
                named = list(v) if isinstance(v, (list, tuple)) else [v]
            moved = None   # faces/None of the cards moved, None: how many is not known
            if src is not None and src[1] is None and src[0] in piles:
                pile = piles[src[0]]
                if pile is None:
                    moved = None
                elif named is not None:
                    moved = named
                    for f in named:
                        if f in pile:
                            pile.remove(f)
                        elif None in pile:
                            pile.remove(None)
                        else:
                            piles[src[0]] = None
                            break
                elif count is not None:
                    moved = pile[len(pile) - count:] if count else []
                    del pile[len(pile) - len(moved):]
                else:
                    moved = list(pile)
                    pile.clear()
            else:
                if src is not None and src in pins:
                    held = pins[src]
                    if named is not None:
                        for f in named:
                            if f in held:
                                held.remove(f)
                    elif count is None:
                        moved = pins.pop(src)
                    else:
                        pins.pop(src)   # some of its cards left: which ones is not known
                if named is not None:
                    moved = named
                elif moved is None and count is not None:
                    moved = [None] * count
            if dst is None:
                continue
            if dst[1] is None and dst[0] in piles:
                if piles[dst[0]] is not None:
                    if moved is None:
                        piles[dst[0]] = None
                    else:
                        piles[dst[0]].extend(moved)
            elif dst[1] is not None and moved:
                pins.setdefault(dst, []).extend(f for f in moved if f is not None)

    def _dummy(self, st):
        """A stand-in state for ``step.parse`` (it reads only the game's deck)."""
        class _S:
            game = self.game
        return _S()
