"""The generated fast paths of the ``tricks`` step: functions assembled from the statements the step
generates (its legal cards, one card played, the trick's resolution), each a way to run the same rules
with less work (DESIGN.md, "Speed").

- the random playouts: ``_playout`` (one play per loop) and ``_playout_quiet`` (no event log; after the
  trick in progress each trick one unrolled block, ``_trick_rounds``);
- hands kept sorted: the cards that follow suit found by bisection (``keeps_sorted``), or hands kept
  in display order (``display_sorted``), so the public listing sorts nothing (``_display_function``);
- ``legal_texts`` (the listing and its texts in one call, ``_make_listing``) and the statements the
  State inlines in its own generated methods: ``text_fused`` (the text API) and ``id_fused`` with
  ``move_ids`` (the action-id API).

Each gives the same moves, in the same order, as the plain legal function and play.
"""
from __future__ import annotations

import bisect
import math
import re

from .legality import _FAST_FOLLOW, _FOLLOW_LED, _fast_follow
from .resolution import _wins_then_key
from ...slots import LEADER, LED_SUIT, TO_ACT, TRICK_NUMBER, TRICKS_TOTAL, TRUMP, WINNER
from ....lang import INT


class FastPaths:
    """The part of the ``Tricks`` step that assembles its generated statements into the fast paths."""

    def _generate_fast_paths(self, comp, game, head, pending, legal, play_card, lead, play, after_play,
                             after_trick, wins_src, key_src, led_code, cancel, res):
        """Make the playouts, the sorted-hand listings and ``legal_sorted`` from the step's statements:
        ``head`` (locals), ``pending`` (a pending choice), ``legal`` (the legal cards ``c1``), ``play_card``
        (one card played, the trick resolved when complete: ``res``), ``lead``/``play``/``after_play``/
        ``after_trick`` (their statements), ``wins_src``/``key_src``, ``led_code`` (``led_suit:``, or
        None) and ``cancel`` (``cancel:``'s code, or None)."""
        exempt, dedupe, H = self.exempt, self.dedupe, self.hand
        # A random pick of the playouts: floor(), which is int() for a non-negative float (the same index),
        # at a smaller cost than int()'s conversion.
        comp.ns["_floor"] = math.floor
        # Reading the trick (trick, trick_seats, led_card) needs the list of plays, which the unrolled
        # quiet loop does not keep; so do the other additions of docs/tricks.md (a choice, a led suit
        # set again): those rulesets play out through the general loop.
        srcs = lead + play + after_play + after_trick + [wins_src, key_src] + \
            ([exempt.src] if exempt is not None else []) + ([led_code.src] if led_code is not None else [])
        reads_trick = any("s.plays" in x or _calls_trick_reader(x, game) for x in srcs)
        self.simple = not (reads_trick or self.relead or exempt is not None)
        loop_legal = legal
        runs = _suit_runs(game.deck)
        if not self.simple or self.choose is not None or game.eff_of is not None:
            runs = None   # (suits that depend on the deal: no fixed runs of faces per suit)
        hand_ref = re.compile(rf"\bz\[{H}\]")
        # Hands sorted by face: a suit's faces are one run of ints, so the cards that follow suit
        # are one slice, found by bisection (no per-card filter). When no effect of this step puts
        # cards into a hand, the hands are sorted once, when the step is entered (and by anything
        # that writes hands mid-step: `sort_hands`), and stay sorted (plays only remove cards); the
        # public API's list in display order (high rank first) is then that slice reversed, and
        # only a lead or a void sorts its cards. The playout loop sorts the hands itself.
        sk, suit_of = game.deck.sort_key, game.deck.suit
        reverses = all(sk[f] > sk[f + 1] for f in range(len(sk) - 1) if suit_of[f] == suit_of[f + 1])
        bisectable = (self.follow == "suit" and runs is not None
                      and not any(hand_ref.search(ln) for ln in after_play + after_trick))
        self.keeps_sorted = bisectable and not dedupe and reverses
        # Key and text look-ups through a dict's __getitem__ (a builtin method: a cheaper call per card than
        # a tuple's slot wrapper).
        self._sort_key = dict(enumerate(game.deck.sort_key)).__getitem__
        if bisectable:
            comp.ns["_bisect"] = bisect.bisect_left
            comp.ns["_RUN_LO"], comp.ns["_RUN_HI"] = runs
            comp.ns["_SK"] = self._sort_key
            follow = ["    lo = _bisect(p_hand, _RUN_LO[led])",
                      "    hi = _bisect(p_hand, _RUN_HI[led], lo)",
                      "    c1 = p_hand[lo:hi] if hi > lo else p_hand"]
            i = legal.index("    c1 = [c for c in p_hand if SUIT[c] == led] or p_hand")
            loop_legal = legal[:i] + follow + legal[i + 1:]
            head_loop = head + ["for h in hands:", "    h.sort()"]
            if self.keeps_sorted:
                display = legal[:i] + follow[:2] + ["    c1 = p_hand[lo:hi][::-1] if hi > lo else p_hand"] \
                    + legal[i + 1:]
                self._legal_display = comp.function("", (), statements=head + display + [
                    "return c1 if plays and hi > lo else sorted(c1, key=_SK)"])
                self._make_listing(comp, _drop_unused(head + display + [
                    "_r = c1 if plays and hi > lo else sorted(c1, key=_SK)"]))
                self.legal_sorted = self._legal_display      # an instance attribute: one call less per action
                # The legal cards in face order (the sorted hand's slice, or the hand itself: the caller
                # must not change it), for the ids' hot path: their ids are sorted as ints, no key.
                self._legal_faces = comp.function("", (), statements=_drop_unused(
                    head + _fast_follow(loop_legal) + ["return c1"]))
                self._fused_lines["faces"] = _drop_unused(head + _fast_follow(loop_legal))
        else:
            head_loop = head
        loop = head_loop + ["while True:"] + ["    " + ln for ln in
                                           [f"p_seat = v[{TO_ACT}]"] + _fast_follow(loop_legal)
                                           + ["p_card = c1[_floor(p_random() * len(c1))]"]
                                           + play_card + ["if done:", "    return"]]
        self._playout = comp.function("", (("random", INT),), statements=loop)
        # With no event log to write (`record=False`: simulations, searches): no checks per play, and
        # after the trick in progress (if any) each trick is one unrolled block of n plays.
        quiet = _without_events(loop)
        rounds = self._trick_rounds(lead, play, after_play, after_trick, wins_src, key_src, cancel, res,
                                    bisectable)
        if rounds is not None:
            i = quiet.index("while True:")
            quiet = quiet[:i] + ["while plays:"] + quiet[i + 1:] + ["while True:"] + ["    " + ln for ln in rounds]
        self._playout_quiet = comp.function("", (("random", INT),), statements=quiet)
        # Hands kept in display order (Deck.sort_key) when the hands are not kept in face order: the same
        # invariant as keeps_sorted (sorted when the step is entered and by `sort_hands`; plays only remove
        # cards; no effect of the step writes a hand), so the legal cards, filtered from the hand in its
        # order, are already in display order and the public listing sorts nothing.
        choose_lines = self.choose["lines"] if self.choose is not None else []
        self.display_sorted = (not self.keeps_sorted and not dedupe and not any(
            hand_ref.search(ln) for ln in after_play + after_trick + choose_lines))
        if not self.keeps_sorted:
            self.legal_sorted = self._display_function(comp, game, head + pending, legal, exempt)

    def _display_function(self, comp, game, head, legal, exempt):
        """The generated ``legal_sorted`` of a step whose hands are not kept in face order.

        The legal cards in display order (``Deck.sort_key``), built as the legal function builds
        them, with the follow test read from a per-suit table (one look-up per card, no compare);
        when ``exempt`` reads only the card and no face is held twice, the exempt cards of another
        suit are added to the cards of the led suit by membership (a few faces) instead of a second
        pass over the hand. The order of the list made does not matter: it is sorted, and no two
        faces share a sort key when no face is held twice.
        """
        n_faces, nsuits = game.deck.n_faces, game.deck.n_suits
        suit = comp.ns["SUIT"]
        m = re.fullmatch(r"(_T\d+)\[p_card\]", exempt.src) if exempt is not None else None
        lines = _fast_follow(legal)
        if m is not None and not self.dedupe:
            table = comp.ns[m.group(1)]
            out = f"_EXEMPT_OUT_{id(self)}"
            comp.ns[out] = tuple(tuple(f for f in range(n_faces) if table[f] and suit[f] != x)
                                           for x in range(nsuits)) + (
                tuple(f for f in range(n_faces) if table[f] and suit[f] >= 0),)
            i = lines.index(_FAST_FOLLOW[_FOLLOW_LED][-1])
            j = lines.index("    if not c1 or led < 0:")
            add = ["            if c in p_hand:", "                c1.append(c)"]
            if self.display_sorted:   # an exempt card held joins the led suit's cards: in its display place
                add = ["            if c in p_hand:", "                c1.append(c)", "                c1.sort(key=_SK)"]
            lines[i:j + 2] = [_FAST_FOLLOW[_FOLLOW_LED][-1],
                              "    if c1 and led >= 0:",
                              f"        for c in {out}[led]:"] + add + [
                              "    else:",
                              "        c1 = p_hand"]
        comp.ns["_SK"] = self._sort_key
        if self.display_sorted:   # the hand is in display order, and so is every list filtered from it
            ret = "c1[:] if c1 is p_hand else c1"
        elif self.dedupe:
            ret = "sorted(set(c1), key=_SK)"
        else:
            ret = "sorted(c1, key=_SK)"
        self._make_listing(comp, _drop_unused(head + lines + ["_r = " + ret]))
        return comp.function("", (), statements=_drop_unused(head + lines + ["return " + ret]))

    def _make_listing(self, comp, lines):
        """``legal_texts`` (base.Step): the statements of the display-ordered legal list, ending
        ``_r = LIST``, and the cards' codes, in one generated call; a pending ``choose:`` choice's
        moves and texts (``_texts_any``) when the step has one."""
        if self.choose is not None:
            fn = f"_choices_{id(self)}"
            pend = f"    return {fn}(s, p_seat, plays[-1][1])"
            if pend not in lines:
                return
            i = lines.index(pend)
            comp.ns[f"_choice_texts_{id(self)}"] = self._texts_any
            # (state.text_state_class: a pending choice is listed by State's own method)
            self._fused_lines["listing"] = lines[:i] + ["    return _State_legal_actions(s)"] + lines[i + 1:]
            lines = lines[:i] + [f"    _r = {fn}(s, p_seat, plays[-1][1])",
                                 f"    return _choice_texts_{id(self)}(s, _r), _r"] + lines[i + 1:]
        else:
            self._fused_lines["listing"] = lines   # (state.text_state_class: the text API's listing)
        comp.ns["_CODE_OF"] = dict(enumerate(self.game.deck.code)).__getitem__
        self.legal_texts = comp.function("", (), statements=lines + ["return list(map(_CODE_OF, _r)), _r"])

    def _trick_rounds(self, lead, play, after_play, after_trick, wins_src, key_src, cancel, res, bisectable):
        """Statements playing one whole trick at random, unrolled: the lead, then n - 1 followers.

        Every seat plays once per trick in seat order from the leader, so the checks the one-play
        body makes each time (lead or follow? trick complete?) are settled by position; each play's
        seat and card are locals ``p_seat_i``/``p_card_i`` the resolution reads directly. Ends with
        ``return`` when the step is over. Only for the quiet playout: no event lines. None when a
        deck has several copies of a card (the legal list is then deduplicated).
        """
        if self.dedupe or not self.simple or self.takes_apart or self.sitting:
            return None
        n, H, W = self.game.n, self.hand, self.won
        local = re.compile(r"\bs\.([vz])\[")
        lead, play, after_play, after_trick = ([local.sub(r"\1[", ln) for ln in _without_events(lines)]
                                               for lines in (lead, play, after_play, after_trick))
        # `to_act` is written per follower only when something may read it: the slot itself, or any
        # function handed the state (a definition or helper reads slots the lines do not show).
        reads_to_act = any(f"v[{TO_ACT}]" in ln or re.search(r"\(s[,)]", ln)
                           for ln in lead + play + after_play + after_trick + [wins_src, key_src])

        def rename(lines, i):
            return [re.sub(r"\bp_seat\b", f"p_seat_{i}", re.sub(r"\bp_card\b", f"p_card_{i}", ln))
                    for ln in lines]

        def restricted(lines):
            return ["c0 = c1"] + lines + ["if not c1:", "    c1 = c0"] if lines else []

        pick = ["p_card = c1[_floor(p_random() * len(c1))]", "p_hand.remove(p_card)"]
        out = rename([f"p_seat = v[{TO_ACT}]", "p_hand = hands[p_seat]", "c1 = p_hand"]
                     + restricted(lead) + restricted(play) + pick
                     + [f"v[{LEADER}] = p_seat", f"led = v[{LED_SUIT}] = SUIT[p_card]"], 0)
        if bisectable:
            # The hand is sorted: the led suit's cards are p_hand[lo:hi] (a void: the whole hand). A card
            # is drawn from that range by index (the same card the list form draws from the same number)
            # and popped; a list is made only when the play restriction narrows it.
            out += ["_lo = _RUN_LO[led]", "_hi = _RUN_HI[led]"]
            draw = ["p_card = p_hand.pop(lo + _floor(p_random() * (hi - lo)))"]
            narrowed = [re.sub(r"^(\s*c1 = )(.*)$", lambda m: m.group(1) + re.sub(r"\bc1\b", "p_hand[lo:hi]",
                                                                                  m.group(2)), ln) for ln in play]
            follow = ["lo = _bisect(p_hand, _lo)", "hi = _bisect(p_hand, _hi, lo)",
                      "if hi == lo:", "    lo = 0", "    hi = len(p_hand)"]
            if play:   # at most one `c1 = …` runs on any path of a filter (dsl filter_lines)
                follow += ["c1 = None"] + narrowed + ["if c1:"] + ["    " + ln for ln in pick] \
                    + ["else:"] + ["    " + ln for ln in draw]
            else:
                follow += draw
        elif self.follow == "suit":
            follow = ["c1 = [c for c in p_hand if SUIT[c] == led] or p_hand"] + restricted(play) + pick
        else:
            follow = ["c1 = p_hand"] + restricted(play) + pick
        out += rename(after_play, 0)
        for i in range(1, n):
            out += rename([f"p_seat = {self.next_ref}[p_seat_{i - 1}]"]
                          + ([f"v[{TO_ACT}] = p_seat"] if reads_to_act else [])
                          + ["p_hand = hands[p_seat]"] + follow + after_play, i)
        out.append(f"v[{TO_ACT}] = p_seat_{n - 1}")
        cards = "".join(f"p_card_{i}, " for i in range(n))
        if cancel is not None:    # the general resolution, over the trick as a list
            return out + ["plays = [" + ", ".join(f"(p_seat_{i}, p_card_{i})" for i in range(n)) + "]"] \
                + [ln for ln in _without_events(res) if ln != "plays = s.plays = []"] \
                + ["plays = s.plays", "if done:", "    return"]
        wins_src, key_src = (re.sub(r"\b_led\b", "led", local.sub(r"\1[", x)) for x in (wins_src, key_src))
        if "_trump" in wins_src + key_src:
            out.append(f"_trump = v[{TRUMP}]")
        # The led card's suit is the led suit: when `wins` holds for any card of the led suit (the
        # usual `card.suit == led_suit or …`), the lead can win, so some card always wins the trick.
        lead_wins = rename([wins_src], 0)[0].replace("(SUIT[p_card_0] == led)", "True")
        lead_always = lead_wins == "True" or lead_wins.startswith("(True or ")
        out += ["p_winner = -1", "best_key = 0"] if not lead_always else []
        for i in range(n):
            if i == 0 and lead_always:
                out += rename([f"best_key = {key_src}", "p_winner = p_seat"], 0)
                continue
            out += rename(_wins_then_key(wins_src, key_src, [
                ("if kv > best_key:" if lead_always else "if p_winner < 0 or kv > best_key:") if i else "if True:",
                "    p_winner = p_seat", "    best_key = kv"]), i)
        out += ["p_leader = p_seat_0", f"done = v[{TRICK_NUMBER}] >= v[{TRICKS_TOTAL}] or not hands[p_leader]"]
        if not lead_always:
            out += ["if p_winner < 0:", "    p_winner = p_seat_0"]
            if self.carry:
                out += ["    if not done:",
                        f"        s.carried.extend(({cards}))",
                        "        p_winner = -1"]
        take = [f"dst = z[{W}][p_winner]", f"dst.extend(({cards}))"]
        if self.carry:   # cards of earlier tricks nobody won go with this one
            take += ["if s.carried:", "    dst.extend(s.carried)", "    s.carried = []"]
        if any(re.search(r"\bp_(taker|next_leader)\b", ln) for ln in after_trick):
            take += ["p_taker = p_next_leader = p_winner"]   # (only the winner's own seat here)
        take += [f"v[{WINNER}] = p_winner"] + after_trick
        if lead_always or not self.carry:
            out += take
        else:
            out += ["if p_winner >= 0:"] + ["    " + ln for ln in take] + [
                    "else:", f"    v[{WINNER}] = p_winner = p_seat_0"]
        out += [local.sub(r"\1[", ln) for ln in self._until_lines]
        out += [f"v[{LED_SUIT}] = -1",
                "if done:",
                "    return",
                f"v[{TRICK_NUMBER}] += 1",
                f"v[{LEADER}] = p_winner",
                f"v[{TO_ACT}] = p_winner"]
        return out

    def move_ids(self, codec):
        """Cards played: one table look-up per card (with ``choose:``: None, ids from the texts)."""
        if self.choose is not None:
            return None
        tab = [codec._index.get(c, -1) for c in self.game.deck.code]
        inv = {i: f for f, i in enumerate(tab) if i >= 0}
        if self.keeps_sorted:
            # Card ids are in display order (card_codes): the display-ordered list of the sorted hands
            # (_legal_display: a slice reversed, only a lead sorts) maps to ascending ids with no sort.
            key = self.game.deck.sort_key
            cards = sorted(inv.values(), key=key.__getitem__)
            if all(tab[a] < tab[b] for a, b in zip(cards, cards[1:])):
                # ids in display order: the face-ordered legal list (no reversed slice, no sort by
                # display key) gives the ids sorted as ints.
                return (lambda s, moves: [tab[m] for m in moves]), inv, tab, self._legal_faces
        return (lambda s, moves: [tab[m] for m in moves]), inv, tab, self._legal

    def text_fused(self):
        """``(listing lines, play lines)`` for ``state.fused_state_class``'s text API: the statements of
        ``legal_texts`` (ending ``_r = LIST``, the legal cards in display order) and of one card played, as
        ``_play_card`` plays it; None with ``auto:``. With ``choose:``, a pending choice is listed and
        made by ``State``'s own methods (the listing returns ``_State_legal_actions(s)``; the play lines
        are for a card only, and ``text_state_class`` sends a choice's move, ``>= CHOICE``, on)."""
        lines = getattr(self, "_fused_lines", None)
        if lines is None or "listing" not in lines or self.auto \
                or self.apply is not (self._play_card if self.choose is None else self._move):
            return None
        return lines["listing"], lines["play"]

    def id_fused(self, codec):
        """``(keys lines, play lines, names)`` for ``fused_state_class``: the legal cards of the id hot
        path's keys function (``_legal_faces`` or ``_legal``) and one card played, as ``_play_card`` plays
        it; None with ``choose:`` or ``auto:`` (a play is not one call of ``_play_card``)."""
        f = self.id_fast
        if f is None or self.choose is not None or self.auto or self.apply is not self._play_card:
            return None
        lines = self._fused_lines
        if f[4] is getattr(self, "_legal_faces", None):
            keys = lines["faces"]
        elif f[4] is self._legal:
            keys = _drop_unused(lines["legal"])
        else:
            return None
        return keys, lines["play"], {}


def _calls_trick_reader(src: str, game) -> bool:
    """Whether generated ``src`` calls a definition that reads the trick (``trick``, ``trick_seats``…)."""
    readers = getattr(game.env, "trick_readers", ())
    return any(re.search(rf"\b{re.escape(f)}\(", src) for f in readers)


def _suit_runs(deck):
    """``(lo, hi)`` tuples: the faces of (effective) suit ``s`` are ``lo[s] <= face < hi[s]`` (index -1: no suit).

    None when some suit's faces are not one run of ints (then the playout filters by suit).
    """
    n_suits = deck.n_suits
    lo, hi = [0] * (n_suits + 1), [0] * (n_suits + 1)
    for s in list(range(n_suits)) + [-1]:
        faces = [f for f in range(deck.n_faces) if deck.eff_suit[f] == s]
        if faces:
            if faces[-1] - faces[0] + 1 != len(faces):
                return None
            lo[s], hi[s] = faces[0], faces[-1] + 1
    return tuple(lo), tuple(hi)


#: Assignments of the generated functions' preamble and trick resolution whose value has no effect
#: (a slot, a state attribute, a length, a constant): dropped by ``_drop_unused`` when nothing reads them.
_PURE_ASSIGN = re.compile(r"^\s*(events|hands|z|k|_trump|cancelled) = (s\.\w+|z\[\d+\]|v\[\d+\]|len\(plays\)|None)$")


def _drop_unused(lines: list) -> list:
    """``lines`` (a generated function's statements) without the ``_PURE_ASSIGN`` assignments of a
    local that no other line names: the same function, fewer bytecodes per call."""
    out = list(lines)
    changed = True
    while changed:   # (dropping `hands = z[0]` may leave `z` unread)
        changed = False
        for i, ln in enumerate(out):
            m = _PURE_ASSIGN.match(ln)
            if m is None:
                continue
            name = re.compile(rf"\b{m.group(1)}\b")
            if not any(name.search(other) for j, other in enumerate(out) if j != i):
                del out[i]
                changed = True
                break
    return out


def _without_events(lines: list) -> list:
    """``lines`` (generated statements) without the blocks under ``if events is not None:``."""
    out, skip = [], None
    for ln in lines:
        indent = len(ln) - len(ln.lstrip())
        if skip is not None:
            if ln.strip() and indent > skip:
                continue
            skip = None
        if ln.strip() == "if events is not None:":
            skip = indent
            continue
        out.append(ln)
    return out
