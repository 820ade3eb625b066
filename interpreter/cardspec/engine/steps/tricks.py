"""The ``tricks`` step: leading, following, winning, cancelling (one mechanism for the trick family).

YAML (every key optional)::

    tricks:
      first_leader: left_of(dealer)          # seat leading the first trick
      from: hand                             # per-seat zone played from
      to: won                                # per-seat zone the winner takes the cards into
      follow: suit                           # suit: follow the led suit if able | none
      exempt: EXPR                           # cards the duty to follow never bars (seat, card, hand)
      led_suit: EXPR                         # the suit to follow, given the led card (seat, card);
                                             #   default card.suit (the effective suit: deck suit_of)
      lead: EXPR                             # extra condition on a led card   (card, seat, hand)
      play: EXPR                             # extra condition on any card     (card, seat, hand)
      lead_reason: TEXT                      # why a lead that `lead` refuses is illegal (error messages;
                                             #   lead/play may also be {rule: EXPR, reason: TEXT} or a list
                                             #   of those, all holding: the failing part's reason is given;
      play_reason: TEXT                      #   default: the condition as written), same for `play`
      wins: card.suit == led_suit or (trump != no_suit and card.suit == trump)   # which cards can win (card, seat)
      key: card.rank + (if trump != no_suit and card.suit == trump then 1000 else 0)  # the highest key wins
                                             # (defaults shown: with no trump, a joker — no suit — is no trump)
      cancel: EXPR                           # a and b cancel each other: neither can win (a, b)
      if_none_wins: leader                   # leader | carry (to the next trick's winner)
      count: EXPR                            # tricks in the deal (default: until hands are empty)
      until: EXPR                            # checked after each trick: the play stops early (decided)
      auto: false                            # play a seat's only legal card by itself
      take: winner                           # who takes the trick's cards: a seat expression (winner, leader)
                                             #   or {wins: EXPR, key: EXPR}: the player of the best card by
                                             #   that order (card, seat; wins defaults to the step's default)
      next_leader: winner                    # who leads the next trick: the same two forms
      after_play: [effects]                  # (seat, card)
      after_trick: [effects]                 # (winner, leader, taker, next_leader)
      choose:                                # a decision inside the trick that is not a card
        when: EXPR                           #   after a card is played (seat, card): its player chooses
        word: name                           #   the action's text: "name hearts"
        from: EXPR                           #   the choices (seat, card): suits, numbers or text; default
                                             #   the deck's suits
        led_suit: EXPR                       #   the trick's led suit becomes this (seat, card, choice)
        effects: [effects]                   #   (seat, card, choice)

Expressions may read the trick in progress: ``trick``, ``trick_seats``, ``led_card`` (docs/tricks.md).

``wins``/``key`` (and ``cancel``) decide the trick's **winner**; by default the winner takes the
trick's cards and leads the next trick. ``take:`` and ``next_leader:`` say otherwise, each on its own
(docs/rulesets.md, "Who takes the trick, who leads next"): Four Jacks' lowest card takes the trick while
the highest card of the led suit leads the next one (shared/rules/four-jacks.md, "Play"). The ``trick``
event names the ``taker`` and the ``next_leader`` (docs/events.md).

If ``lead`` or ``play`` would leave a seat with no legal card, the condition is
lifted for that play (the usual "unless you hold nothing else").

The legal-play function is generated as one Python function from these
expressions, so a play costs a few list operations (DESIGN.md, "Speed").
"""
from __future__ import annotations

import bisect
import math
import re

from ..compiler import Compiler, inline_calls
from ..effects import compile_effects, effects_source
from .base import DealError, Step, step_type, zone_of
from ...lang import BOOL, CARD, INT, list_of
from ..slots import LEADER, LED_SUIT, SITS_OUT, TO_ACT, TRICK_NUMBER, TRICKS_TOTAL, TRUMP, WINNER
from ...cards import CardError, SUIT_NAMES
from ...lang import STR, SUIT, elem

PLAY_CTX = (("seat", INT), ("card", "card"), ("hand", list_of(CARD)))
WIN_CTX = (("card", "card"), ("seat", INT))
PAIR_CTX = (("a", "card"), ("b", "card"))
TRICK_CTX = (("winner", INT), ("leader", INT))
AFTER_TRICK_CTX = TRICK_CTX + (("taker", INT), ("next_leader", INT))
DEFAULT_WINS = "card.suit == led_suit or (trump != no_suit and card.suit == trump)"
AFTER_PLAY_CTX = (("seat", INT), ("card", "card"))
#: Internal moves from CHOICE on are choices (``choose:``), CHOICE + i the i-th of ``from``; cards are faces.
CHOICE = 1 << 16


@step_type("tricks")
class Tricks(Step):
    decision = True
    reads_order = True

    def __init__(self, game, comp: Compiler, body, path):
        super().__init__(game, comp, body, path)
        body = body or {}
        self.first_leader = comp.expr(body.get("first_leader", "left_of(dealer)"), path + ("first_leader",), (), (INT,))
        self.hand = zone_of(game, comp, body.get("from", "hand"), path + ("from",), per_seat=True)
        self.won = zone_of(game, comp, body.get("to", "won"), path + ("to",), per_seat=True)
        self.follow = body.get("follow", "suit")
        if self.follow not in ("suit", "none"):
            comp.problem(path + ("follow",), f"follow is 'suit' or 'none', not '{self.follow}'")
        self.count = comp.expr(body["count"], path + ("count",), (), (INT,)) if "count" in body else None
        # Play order (match: next_player): the State's table, else the constant "to the left".
        # A seat that sits out (steps/sitout.py): the table skips it and a trick has one card fewer, so
        # the trick is resolved by a loop over its plays instead of n unrolled ones.
        self.sitting = sitting = game.may_sit_out
        self.next_ref = "s.nxt" if game.next_expr is not None or sitting else "_NEXT_SEAT"
        # until: checked after each trick (after after_trick): the deal's play stops early (a result decided)
        until = comp.code(body["until"], path + ("until",), (), (BOOL,)) if "until" in body else None
        until_lines = [f"if not done and ({until.src}):", "    done = True"] if until is not None else []
        self._until_lines = until_lines
        self.auto = bool(body.get("auto", False))
        mode = str(body.get("if_none_wins", "leader"))
        if game.option_named(mode) is not None:  # an option whose value is the mode
            mode = str(game.option_named(mode))
        if mode not in ("leader", "carry"):
            comp.problem(path + ("if_none_wins",), f"if_none_wins is 'leader' or 'carry' (or an option naming one), "
                                                   f"not '{mode}'")
        self.carry = mode == "carry"
        # The step runs on generated code: blocks of Python statements built from the
        # ruleset's expressions, assembled into three functions (legal cards, play one
        # card, and a random playout loop that inlines both).
        # lead/play: an expression, {rule: EXPR, reason: TEXT}, or a list of them (all must hold). Each part
        # narrows the cards in turn; error messages name the reason of the part that refused a card (its
        # own reason:, else {key}_reason:, else the part as the ruleset wrote it).
        parts = {}
        for key in ("lead", "play"):
            why = body.get(f"{key}_reason")
            default = " ".join(str(why).split()) if why is not None else None
            parts[key] = [(text, r or "the rule " + key + ": " + " ".join(str(text).split()), p)
                          for text, r, p in comp.condition_parts(body.get(key, True), path + (key,), default)]
        part_lines = {key: [comp.filter_lines(text, p, PLAY_CTX, "card", "c1") for text, _, p in parts[key]]
                      for key in ("lead", "play")}
        lead = [ln for lines in part_lines["lead"] for ln in lines]
        play = [ln for lines in part_lines["play"] for ln in lines]
        self.dedupe = dedupe = game.deck.copies > 1 or game.deck.jokers > 1
        H, W, n = self.hand, self.won, game.n
        # Effective suits (deck suit_of) and cards of no suit (a joker): docs/tricks.md.
        eff = game.deck.eff_suit
        self.nosuit = any(x < 0 for x in eff)
        self.exempt = exempt = comp.code(body["exempt"], path + ("exempt",), PLAY_CTX, (BOOL,)) \
            if "exempt" in body else None
        if exempt is not None and exempt.src == "False":
            self.exempt = exempt = None
        # Per face: whether `exempt` may hold for it (the determinizer infers no void from such a card):
        # its table when it reads only the card, else every card.
        self.maybe_exempt = ()
        if exempt is not None:
            m = re.fullmatch(r"(_T\d+)\[p_card\]", exempt.src)
            self.maybe_exempt = tuple(bool(x) for x in comp.ns[m.group(1)][:-1]) if m else \
                (True,) * game.deck.n_faces
        led_code = comp.code(body["led_suit"], path + ("led_suit",), AFTER_PLAY_CTX, (SUIT,)) \
            if "led_suit" in body else None
        self.choose = self._choose_setup(game, comp, body.get("choose"), path + ("choose",)) \
            if body.get("choose") is not None else None
        # The led suit is set again while it is no_suit (a joker led, nothing named): only when it can be.
        self.relead = self.nosuit or led_code is not None or self.choose is not None
        led_src = led_code.src if led_code is not None else "SUIT[p_card]"
        legal = [f"p_hand = hands[p_seat]", "if plays:", f"    led = v[{LED_SUIT}]"]
        if self.follow == "suit" and (exempt is not None or self.relead):
            legal += ["    c1 = [c for c in p_hand if SUIT[c] == led]"]
            if exempt is not None:
                legal += ["    if c1:",
                          f"        c1 = [p_card for p_card in p_hand if SUIT[p_card] == led or ({exempt.src})]"]
            legal += ["    if not c1 or led < 0:", "        c1 = p_hand"]
        elif self.follow == "suit":
            legal += ["    c1 = [c for c in p_hand if SUIT[c] == led] or p_hand"]
        else:
            legal += ["    c1 = p_hand"]
        legal += ["else:", "    c1 = p_hand"]
        if lead:
            legal += ["    c0 = c1"] + ["    " + ln for ln in lead] + ["    if not c1:", "        c1 = c0"]
        if play:
            legal += ["c0 = c1"] + play + ["if not c1:", "    c1 = c0"]
        wins = comp.code(body.get("wins", DEFAULT_WINS),
                         path + ("wins",),
                         WIN_CTX, (BOOL,))
        key = comp.code(body.get("key", "card.rank + (if trump != no_suit and card.suit == trump then 1000 else 0)"),
                        path + ("key",), WIN_CTX, (INT,))
        cancel = comp.code(body["cancel"], path + ("cancel",), PAIR_CTX, (BOOL,)) if "cancel" in body else None
        self.has_cancel = "cancel" in body
        after_play = effects_source(game, comp, body.get("after_play"), path + ("after_play",), AFTER_PLAY_CTX)
        after_trick = effects_source(game, comp, body.get("after_trick"), path + ("after_trick",), AFTER_TRICK_CTX)
        # Play p_card for p_seat; sets `done` when the deal's tricks are over.
        if self.relead:
            lead_lines = ["if not plays:", f"    v[{LEADER}] = p_seat",
                          f"if v[{LED_SUIT}] < 0:", f"    v[{LED_SUIT}] = {led_src}"]
        else:
            lead_lines = ["if not plays:", f"    v[{LEADER}] = p_seat", f"    v[{LED_SUIT}] = SUIT[p_card]"]
        play_card = ["p_hand.remove(p_card)"] + lead_lines + [
            "plays.append((p_seat, p_card))",
            "if events is not None:",
            "    events.append({'type': 'play', 'seat': p_seat, 'card': CODE[p_card]})",
        ] + after_play
        cont = [
            f"if len(plays) < {n}:" if not sitting else f"if len(plays) < {n} - (v[{SITS_OUT}] >= 0):",
            f"    v[{TO_ACT}] = {self.next_ref}[p_seat]",
            "    done = False",
            "else:",
        ]
        comp.ns["_NEXT_SEAT"] = tuple((i + 1) % n for i in range(n))
        # A random pick of the playouts: floor(), which is int() for a non-negative float (the same index),
        # at a smaller cost than int()'s conversion.
        comp.ns["_floor"] = math.floor
        comp.ns["_SUIT_LETTER"] = tuple(game.deck.suits) + (None,)
        # The led suit and trump are read into locals once per trick (the resolution reads them per card).
        res = ["k = len(plays)", f"_led = v[{LED_SUIT}]", f"_trump = v[{TRUMP}]"]
        if cancel is not None:
            res += ["cancelled = [False] * k",
                    "for i in range(k):",
                    "    p_a = plays[i][1]",
                    "    for j in range(i + 1, k):",
                    "        p_b = plays[j][1]",
                    f"        if {cancel.src}:",
                    "            cancelled[i] = cancelled[j] = True"]
        else:
            res += ["cancelled = None"]
        wins_src = wins.src if wins else "False"
        key_src = key.src if key else "0"
        # A definition of the card called by wins:/key: (key: power(card)) is inlined: no call per card. Not
        # one whose values are kept by argument (game._memoized: it reads only the card and costs >= 500).
        defs = {k: v for k, v in getattr(game.env, "def_src", {}).items()
                if not hasattr(comp.ns.get(k), "__wrapped__")}
        wins_src, key_src = inline_calls(wins_src, defs, "p_card"), inline_calls(key_src, defs, "p_card")
        slot_local = lambda src: re.sub(rf"\bs\.v\[{LED_SUIT}\]", "_led", re.sub(rf"\bs\.v\[{TRUMP}\]", "_trump", src))
        wins_src, key_src = slot_local(wins_src), slot_local(key_src)
        res += ["best = -1", "best_key = 0"]
        if cancel is not None or sitting:
            res += ["for i in range(k):"] + (["    if cancelled[i]:", "        continue"] if cancel is not None else []) + [
                    "    p_seat, p_card = plays[i]",
                    f"    if {wins_src}:",
                    f"        kv = {key_src}",
                    "        if best < 0 or kv > best_key:",
                    "            best = i",
                    "            best_key = kv"]
        else:
            # A trick is resolved with exactly n plays: the loop is unrolled at load time.
            for i in range(n):
                res += [f"p_seat, p_card = plays[{i}]"] + _wins_then_key(wins_src, key_src, [
                        "if best < 0 or kv > best_key:" if i else "if True:",
                        f"    best = {i}",
                        "    best_key = kv"])
        res += [f"p_leader = v[{LEADER}]",
                f"done = v[{TRICK_NUMBER}] >= v[{TRICKS_TOTAL}] or not hands[p_leader]",
                "carried = False",
                "if best >= 0:",
                "    p_winner = plays[best][0]",
                "else:",
                "    p_winner = p_leader",
                f"    carried = {self.carry} and not done",
                ]
        # Who takes the cards and who leads next (default: the winner), read before the trick is cleared.
        self.takes_apart = "take" in body or "next_leader" in body
        for name, local_name in (("take", "p_taker"), ("next_leader", "p_next_leader")):
            lines = self._seat_choice(comp, body.get(name), path + (name,), local_name, cancel is not None)
            res += [slot_local(ln) for ln in lines]
        res += [
                "if carried:",
                "    s.carried.extend([c for _, c in plays])",
                "else:",
                f"    dst = s.z[{W}][p_taker]",
                f"    dst.extend(({''.join(f'plays[{i}][1], ' for i in range(n))}))" if not sitting else
                "    dst.extend([c for _, c in plays])",
                "    if s.carried:",
                "        dst.extend(s.carried)",
                "        s.carried = []",
                "if events is not None:",   # the `trick` event (DESIGN.md), built inline: n plays exactly
                f"    ev = {{'type': 'trick', 'number': v[{TRICK_NUMBER}], 'leader': p_leader, "
                "'winner': None if carried else p_winner, 'taker': None if carried else p_taker, "
                "'next_leader': p_next_leader, 'cards': "
                + ("[" + ", ".join(f"[plays[{i}][0], CODE[plays[{i}][1]]]" for i in range(n)) + "]" if not sitting
                   else "[[_s, CODE[_c]] for _s, _c in plays]") + ", 'cancelled': "
                + ("[CODE[plays[i][1]] for i in range(k) if cancelled[i]]" if cancel is not None else "[]")
                # the led suit when it need not be the led card's suit (led_suit:, choose:, a joker led)
                + (f", 'led_suit': _SUIT_LETTER[v[{LED_SUIT}]]" if self.relead else "") + "}",
                "    if carried:",
                "        ev['carried'] = True",
                "    events.append(ev)",
                f"v[{WINNER}] = p_winner",
                "if not carried:"] + ["    " + ln for ln in after_trick] + ["    pass"] + until_lines + [
                "plays = s.plays = []",
                f"v[{LED_SUIT}] = -1",
                "if not done:",
                f"    v[{TRICK_NUMBER}] += 1",
                f"    v[{LEADER}] = p_next_leader",
                f"    v[{TO_ACT}] = p_next_leader"]
        cont += ["    " + ln for ln in res]
        if self.choose is not None:
            play_card += [f"if {self.choose['when'].src}:", f"    v[{TO_ACT}] = p_seat", "    done = False",
                          "else:"] + ["    " + ln for ln in cont]
        else:
            play_card += cont
        head = ["v = s.v", "z = s.z", f"hands = z[{H}]", f"p_seat = v[{TO_ACT}]", "plays = s.plays",
                "events = s.events"]
        local = re.compile(r"\bs\.([vz])\[")
        legal = [local.sub(r"\1[", ln) for ln in legal]
        play_card = [local.sub(r"\1[", ln) for ln in play_card]
        if dedupe:
            ret = ["return list(set(c1))"]
        else:
            ret = ["return c1 if c1 is not p_hand else list(c1)"]
        pending = []
        if self.choose is not None:   # the seat that played last acts again: a choice is pending
            fn = f"_choices_{id(self)}"
            pending = ["if plays and plays[-1][0] == p_seat:", f"    return {fn}(s, p_seat, plays[-1][1])"]
            comp.ns[fn] = self._choices
        n_faces, suit = game.deck.n_faces, comp.ns["SUIT"]
        # Per led suit (index -1: cards of no suit), whether a face follows it: a set's __contains__ (a builtin
        # method: filter() calls it per card with less work than a comprehension's test).
        comp.ns["_IN_SUIT"] = tuple(frozenset(f for f in range(n_faces) if suit[f] == x).__contains__
                                    for x in range(len(game.deck.suits))) \
            + (frozenset(f for f in range(n_faces) if suit[f] < 0).__contains__,)
        self._legal = comp.function("", (), statements=head + pending + _fast_follow(legal) + ret)
        # The lead / play conditions alone, part by part, narrowing a given list (no lifting): why_illegal
        # uses them to name the part that refused a card.
        self._only = {key: [(comp.function("", (("cards", list_of(CARD)),), statements=head + [
            "p_hand = hands[p_seat]", "c1 = p_cards"] + [local.sub(r"\1[", ln) for ln in lines] + ["return c1"]),
            why) for lines, (_, why, _) in zip(part_lines[key], parts[key]) if lines]
            for key in ("lead", "play")}
        self._play_card = comp.function("", (("card", CARD),), statements=_drop_unused(
            head + ["p_hand = hands[p_seat]"] + play_card + ["return done"]))
        # The statements of the legal cards (``c1``) and of one play (``p_card``; sets ``done``), for the
        # state's generated id methods (``id_fused``): the same code as _legal / _play_card.
        self._fused_lines = {"legal": head + pending + _fast_follow(legal),
                             "play": _drop_unused(head + ["p_hand = hands[p_seat]"] + play_card)}
        if self.choose is not None:   # one function plays a card or makes the pending choice (State.apply)
            fn = f"_make_choice_{id(self)}"
            comp.ns[fn] = self._make_choice
            self._move = comp.function("", (("card", CARD),), statements=[
                f"if p_card >= {CHOICE}:", f"    return {fn}(s, p_card)"] + head + ["p_hand = hands[p_seat]"]
                + play_card + ["return done"])
        if self.choose is not None:
            ch = self.choose
            self._choose_fn = comp.function("", (("choice", ch["type"]),), statements=head + [
                "p_card = plays[-1][1]"] + ch["lines"] + cont + ["return done"])
        # Reading the trick (trick, trick_seats, led_card) needs the list of plays, which the unrolled
        # quiet loop does not keep; so do the other additions of docs/tricks.md (a choice, a led suit
        # set again): those rulesets play out through the general loop.
        srcs = lead + play + after_play + after_trick + [wins_src, key_src] + \
            ([exempt.src] if exempt is not None else []) + ([led_src] if led_code is not None else [])
        reads_trick = any("s.plays" in x or _calls_trick_reader(x, game) for x in srcs)
        self.simple = not (reads_trick or self.relead or exempt is not None)
        loop_legal = legal
        runs = _suit_runs(game.deck)
        if not self.simple or self.choose is not None:
            runs = None
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
        if not self.auto:
            self.apply = self._move if self.choose is not None else self._play_card
        # Hands kept in display order (Deck.sort_key) when the hands are not kept in face order: the same
        # invariant as keeps_sorted (sorted when the step is entered and by `sort_hands`; plays only remove
        # cards; no effect of the step writes a hand), so the legal cards, filtered from the hand in its
        # order, are already in display order and the public listing sorts nothing.
        choose_lines = self.choose["lines"] if self.choose is not None else []
        self.display_sorted = (not self.keeps_sorted and not dedupe and not any(
            hand_ref.search(ln) for ln in after_play + after_trick + choose_lines))
        if not self.keeps_sorted:
            self.legal_sorted = self._display_function(comp, game, head + pending, legal, exempt)
        if self.choose is not None:
            self.texts = self._texts_any                 # `apply` returns whether the step is over: so does this
        self._code_of = dict(enumerate(game.deck.code)).__getitem__

    def _display_function(self, comp, game, head, legal, exempt):
        """The generated ``legal_sorted`` of a step whose hands are not kept in face order.

        The legal cards in display order (``Deck.sort_key``), built as the legal function builds
        them, with the follow test read from a per-suit table (one look-up per card, no compare);
        when ``exempt`` reads only the card and no face is held twice, the exempt cards of another
        suit are added to the cards of the led suit by membership (a few faces) instead of a second
        pass over the hand. The order of the list made does not matter: it is sorted, and no two
        faces share a sort key when no face is held twice.
        """
        n_faces, nsuits = game.deck.n_faces, len(game.deck.suits)
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

    def _seat_choice(self, comp, spec, path, target: str, cancel: bool) -> list:
        """Statements setting the local ``target`` to the seat ``spec`` names, after the winner is known.

        ``spec``: None or ``winner`` (the winner, ``p_winner``); a seat expression of ``winner`` and
        ``leader``; or ``{wins: EXPR, key: EXPR}``: the player of the card with the highest ``key`` among
        those for which ``wins`` holds (default: the step's default ``wins``), cancelled cards skipped,
        the winner when no card qualifies. Records a problem for anything else.
        """
        if spec is None or str(spec).strip() == "winner":
            return [f"{target} = p_winner"]
        if isinstance(spec, dict):
            extra = [k for k in spec if k not in ("wins", "key")]
            if extra or "key" not in spec:
                comp.problem(path, f"{path[-1]}: is a seat expression or {{wins: EXPR, key: EXPR}} (key required)"
                             + (f"; unknown key {', '.join(map(str, extra))}" if extra else ""),
                             "e.g. take: {key: 100 - card.rank} (the lowest card takes the trick)")
                return [f"{target} = p_winner"]
            wins = comp.code(spec.get("wins", DEFAULT_WINS), path + ("wins",), WIN_CTX, (BOOL,))
            key = comp.code(spec["key"], path + ("key",), WIN_CTX, (INT,))
            if wins is None or key is None:
                return [f"{target} = p_winner"]
            return (["_b = -1", "_bk = 0", "for _i in range(k):"]
                    + (["    if cancelled[_i]:", "        continue"] if cancel else [])
                    + ["    p_seat, p_card = plays[_i]", f"    if {wins.src}:", f"        _kv = {key.src}",
                       "        if _b < 0 or _kv > _bk:", "            _b = _i", "            _bk = _kv",
                       f"{target} = plays[_b][0] if _b >= 0 else p_winner"])
        code = comp.code(spec, path, TRICK_CTX, (INT,))
        if code is None:
            return [f"{target} = p_winner"]
        return [f"{target} = ({code.src}) % {self.game.n}"]

    # ---- flow ---------------------------------------------------------------
    def enter(self, s):
        hands = s.z[self.hand]
        leader = self.first_leader(s) % s.n
        out = s.v[SITS_OUT] if self.sitting else -1
        if out >= 0:   # a seat that sits out does not lead: the next in play order does
            leader = s.game.seated(s, leader)
        total = self.count(s) if self.count is not None else len(hands[leader])
        if total <= 0 or not hands[leader]:
            return False
        short = min(len(h) for i, h in enumerate(hands) if i != out)
        if short < total:   # every seat plays a card to each trick: a short hand would leave a seat stuck
            seat = next(i for i, h in enumerate(hands) if len(h) == short and i != out)
            raise DealError(self, f"seat {seat} holds {short} card(s) for {total} trick(s): every seat plays a "
                                  f"card to each trick")
        v = s.v
        v[TRICKS_TOTAL] = total
        v[TRICK_NUMBER] = 1   # the trick in progress, from the moment its lead is to be chosen
        v[LEADER] = leader
        v[TO_ACT] = leader
        v[LED_SUIT] = -1
        s.plays = []
        if self.keeps_sorted or self.display_sorted:
            self.sort_hands(s)
        if self.auto:
            return self._auto(s)
        return True

    def _auto(self, s):
        """Play forced cards by themselves; False when the step ended that way."""
        while True:
            legal = self._legal(s)
            if len(legal) != 1:
                return True
            if self._move(s, legal[0]):
                return False

    def _move(self, s, move):
        """Play a card or make a choice (``choose:``); True when the step is over."""
        if move >= CHOICE:
            return self._make_choice(s, move)
        return self._play_card(s, move)

    # ---- choose: a decision inside the trick that is not a card ----------------------------------
    def _choose_setup(self, game, comp, body, path):
        """Compile ``choose:`` (docs/tricks.md); returns its parts, or None after recording a problem."""
        if not isinstance(body, dict) or "when" not in body:
            comp.problem(path, "choose needs when: (after which card its player chooses)",
                         "e.g. choose: {when: card == JK and count(trick) == 1, led_suit: choice}")
            return None
        when = comp.code(body["when"], path + ("when",), AFTER_PLAY_CTX, (BOOL,))
        values = comp.code(body.get("from", "[" + ", ".join(SUIT_NAMES[x] for x in game.deck.suits) + "]"),
                           path + ("from",), AFTER_PLAY_CTX)
        if values is not None and elem(values.type) not in (SUIT, INT, STR):
            comp.problem(path + ("from",), f"from gives {values.type}; the choices are a list of suits, "
                                           "numbers or text", "e.g. [spades, hearts] or [1, 2, 3]")
            values = None
        if when is None or values is None:
            return None
        t = elem(values.type)
        ctx = AFTER_PLAY_CTX + (("choice", t),)
        lines = []
        if "led_suit" in body:
            led = comp.code(body["led_suit"], path + ("led_suit",), ctx, (SUIT,))
            if led is not None:
                lines.append(f"v[{LED_SUIT}] = {led.src}")
        lines += [re.sub(r"\bs\.([vz])\[", r"\1[", ln) for ln in
                  effects_source(game, comp, body.get("effects"), path + ("effects",), ctx)]
        word = str(body.get("word", "name")).strip() or "name"
        return {"when": when, "values": comp.function(values.src, AFTER_PLAY_CTX), "type": t, "word": word,
                "lines": lines, "src": values.src, "size": values.size}

    def _choices(self, s, seat, card):
        """The pending choice's moves: CHOICE + index into ``from``."""
        return [CHOICE + i for i in range(len(self.choose["values"](s, seat, card)))]

    def _choice_value(self, s, move):
        seat, card = s.plays[-1]
        return self.choose["values"](s, seat, card)[move - CHOICE]

    def _choice_text(self, s, value):
        if self.choose["type"] == SUIT:
            return SUIT_NAMES.get(s.game.deck.suits[value], s.game.deck.suits[value]) if value >= 0 else "none"
        return str(value)

    def _make_choice(self, s, move):
        value = self._choice_value(s, move)
        s.emit({"type": "choose", "seat": s.v[TO_ACT], "word": self.choose["word"],
                "choice": self._choice_text(s, value)})
        return self._choose_fn(s, value)

    def pending(self, s) -> bool:
        """Whether the seat to act must make the ``choose:`` choice (it played the last card)."""
        return self.choose is not None and bool(s.plays) and s.plays[-1][0] == s.v[TO_ACT]

    def legal(self, s):
        return self._legal(s)

    def sort_hands(self, s):
        """Put every hand of this step in face order, or in display order (``Deck.sort_key``) for a step
        whose hands are kept in display order (``display_sorted``); hand order means nothing to the rules.

        Code that writes hands while the step is in progress (a determinization) calls this.
        """
        if self.display_sorted:
            key = self._sort_key
            for h in s.z[self.hand]:
                h.sort(key=key)
            return
        for h in s.z[self.hand]:
            h.sort()

    def legal_sorted(self, s):
        # (With keeps_sorted the instance attribute set at load, the generated _legal_display, answers.)
        if self.choose is not None and self.pending(s):
            return self._legal(s)
        key = self._sort_key
        if self.dedupe:
            return sorted(set(self._legal(s)), key=key)
        # A sorted copy: listing the actions must not change the state (not even the hand's order,
        # which a later random playout draws by).
        return sorted(self._legal(s), key=key)

    def texts(self, s, moves):
        return list(map(self._code_of, moves))

    def _texts_any(self, s, moves):   # `texts` of a step with choose: (moves are all choices or all cards)
        if moves and moves[0] >= CHOICE:
            return [self.text(s, m) for m in moves]
        return list(map(self._code_of, moves))

    def is_legal(self, s, card):
        return card in self._legal(s)

    def random_move(self, s, rng):
        legal = self._legal(s)
        return legal[int(rng.random() * len(legal))]

    def playout(self, s, rng):
        """Play random legal cards until the step ends (the fast random-playout loop)."""
        if self.auto or self.choose is not None:
            legal, play, random = self._legal, self._move, rng.random
            while True:
                l = legal(s)
                if play(s, l[int(random() * len(l))]) or (self.auto and not self._auto(s)):
                    return
        (self._playout_quiet if s.events is None else self._playout)(s, rng.random)

    def apply(self, s, card):
        if self._move(s, card):
            return True
        if self.auto:
            return not self._auto(s)
        return False

    # ---- text ----------------------------------------------------------------
    def choice_names(self, game):
        """The deck's cards, then ``WORD VALUE`` per value a ``choose:`` can offer (suits: every suit and
        ``none``; numbers and texts: the values of a constant ``from:`` list)."""
        out = self.card_codes(game)
        if self.choose is not None:
            word = self.choose["word"]
            if self.choose["type"] == SUIT:
                vals = [SUIT_NAMES.get(x, x) for x in game.deck.suits] + ["none"]
            else:
                from ..choices import ActionSpaceError, literal_list
                items = literal_list(self.choose["src"])
                if items is None:
                    raise ActionSpaceError(f"step '{self.name}': choose: from: is not a constant list; the "
                                           "action space needs every value at load time")
                vals = [str(v) for v in items]
            out += [f"{word} {v}" for v in vals]
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

    def text(self, s, card):
        if card >= CHOICE:
            return f"{self.choose['word']} {self._choice_text(s, self._choice_value(s, card))}"
        return s.game.deck.code[card]

    def parse(self, s, text):
        t = text.strip()
        if self.choose is not None:
            low = " ".join(t.lower().split())
            word = self.choose["word"].lower() + " "
            if low.startswith(word) or self.pending(s):
                return self._parse_choice(s, low[len(word):] if low.startswith(word) else low, t)
        if t.lower().startswith("play "):
            t = t[5:]
        return s.game.deck.face(t)

    def _parse_choice(self, s, t, text):
        """The move of a choice written ``hearts``, ``H``, ``♥``, ``3`` (``t``: lower case, the ``word``
        removed; ``text``: as typed, for messages)."""
        if not self.pending(s):
            raise CardError(f"'{text}': there is nothing to choose now")
        seat, card = s.plays[-1]
        values = list(self.choose["values"](s, seat, card))
        if self.choose["type"] == SUIT:
            want = s.game.deck.suit_index(_SUIT_WORD.get(t, t))
        elif self.choose["type"] == INT:
            want = int(t) if t.lstrip("-").isdigit() else None
        else:
            want = next((v for v in values if str(v).lower() == t), None)
        if want in values and (want != -1 or self.choose["type"] != SUIT):
            return CHOICE + values.index(want)
        shown = ", ".join(self._choice_text(s, v) for v in values)
        raise CardError(f"'{text}' is not one of the choices ({shown}): choose first")

    def why_illegal(self, s, card):
        if self.choose is not None and self.pending(s):
            if card < CHOICE:
                return f"not now: choose first ({self.choose['word']} …)"
            return "not one of the choices"
        if card >= CHOICE:
            return "there is nothing to choose now"
        hand = s.z[self.hand][s.v[TO_ACT]]
        if card not in hand:
            return "not in your hand"
        if s.plays and self.follow == "suit" and s.v[LED_SUIT] >= 0:
            led = s.v[LED_SUIT]
            suit = s.game.deck.eff_suit
            free = self._legal(s)
            if suit[card] != led and card not in free and any(suit[c] == led for c in hand):
                return f"not legal: you must follow suit ({s.game.deck.suits[led]})"
            cards = [c for c in hand if suit[c] == led]
            cards = [c for c in hand if suit[c] == led or c in free] if cards else list(hand)
        else:
            cards = list(hand)
        # Which restriction refused it: the lead's (when leading), else the play's; each is lifted
        # when it would leave no card, as in the generated legal function.
        for key in ("play",) if s.plays else ("lead", "play"):
            allowed, why = cards, None
            for only, reason in self._only.get(key, ()):
                narrowed = only(s, allowed)
                if why is None and card in allowed and card not in narrowed:
                    why = reason      # the first part that refused the card
                allowed = narrowed
            if allowed and card not in allowed:
                return f"not legal: {why}"
            cards = allowed or cards
        return "not legal now"


#: The follow test of the generated legal functions, and the same test made by ``filter`` with
#: ``_IN_SUIT[led]`` (per suit, index -1: the faces of no suit, a set's ``__contains__``): the same cards
#: in the same order, with no comprehension's frame and no compare per card.
_FOLLOW_LED = "    c1 = [c for c in p_hand if SUIT[c] == led]"
_FAST_FOLLOW = {
    _FOLLOW_LED: ["    c1 = list(filter(_IN_SUIT[led], p_hand))"],
    "    c1 = [c for c in p_hand if SUIT[c] == led] or p_hand":
        ["    c1 = list(filter(_IN_SUIT[led], p_hand)) or p_hand"],
}


def _fast_follow(lines: list) -> list:
    """``lines`` with the follow test read from ``_IN_SUIT`` (``_FAST_FOLLOW``)."""
    return [x for ln in lines for x in _FAST_FOLLOW.get(ln, [ln])]
_SUIT_WORD = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}


def _wins_then_key(wins_src: str, key_src: str, body: list) -> list:
    """Statements: when ``wins_src`` holds, ``kv = key_src`` then ``body`` (indented).

    When ``wins`` only compares the key with a number (``wins: power(card) > 0``, ``key: power(card)``)
    the key is computed once, before the test, instead of twice: the same values, one evaluation less
    per card (expressions have no effects)."""
    inner = _unparen(key_src)
    if inner and len(inner) > 12:
        w = _unparen(wins_src)
        for k in {key_src, inner, f"({inner})"}:
            m = re.fullmatch(r"\(*" + re.escape(k) + r"\)* (>|>=|<|<=|==|!=) (-?\d+)", w)
            if m:
                return [f"kv = {key_src}", f"if kv {m.group(1)} {m.group(2)}:"] + ["    " + ln for ln in body]
    return [f"if {wins_src}:", f"    kv = {key_src}"] + ["    " + ln for ln in body]


def _unparen(src: str) -> str:
    """``src`` without the parentheses that enclose all of it (``((a) + b)`` → ``(a) + b``)."""
    while src.startswith("(") and src.endswith(")"):
        depth = 0
        for i, ch in enumerate(src):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0 and i < len(src) - 1:
                return src
        src = src[1:-1]
    return src


def _calls_trick_reader(src: str, game) -> bool:
    """Whether generated ``src`` calls a definition that reads the trick (``trick``, ``trick_seats``…)."""
    readers = getattr(game.env, "trick_readers", ())
    return any(re.search(rf"\b{re.escape(f)}\(", src) for f in readers)


def _suit_runs(deck):
    """``(lo, hi)`` tuples: the faces of (effective) suit ``s`` are ``lo[s] <= face < hi[s]`` (index -1: no suit).

    None when some suit's faces are not one run of ints (then the playout filters by suit).
    """
    n_suits = len(deck.suits)
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
