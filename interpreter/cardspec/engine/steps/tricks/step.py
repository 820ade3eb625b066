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
      windows:                               # decisions out of the turn of play (tricks/windows.py):
        - after: trick                       #   after a trick (before the next lead) | card
          when: EXPR                         #   opens when this holds
          turns: {first, until, turn, ...}   #   a turns step run there; then the play goes on
      played_by: EXPR                        # the seat that chooses the card of p's turn (default p):
                                             #   a declarer playing the dummy's hand (p: the seat whose
                                             #   turn it is; its cards are played, in its name)
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
(docs/rulesets.md, "Who takes the trick, who leads next"): e.g. the lowest card takes the trick while
the highest card of the led suit leads the next one. The ``trick``
event names the ``taker`` and the ``next_leader`` (docs/events.md).

If ``lead`` or ``play`` would leave a seat with no legal card, the condition is
lifted for that play (the usual "unless you hold nothing else").

The legal-play function is generated as one Python function from these
expressions, so a play costs a few list operations (DESIGN.md, "Speed").

This module holds the step, the assembly of its generated functions and its flow (entering the step,
playing, the text of a card); ``legality``, ``resolution``, ``choose`` and ``fast`` hold the rest
(``cardspec.engine.steps.tricks``).
"""
from __future__ import annotations

import re

from .choose import AFTER_PLAY_CTX, CHOICE, Choosing, choose_setup
from .fast import FastPaths, _drop_unused
from .legality import (Legality, _fast_follow, exempt_code, in_suit_table, lead_play_parts, legal_lines,
                       only_functions)
from .resolution import AFTER_TRICK_CTX, trick_lines, winner_code
from .windows import Windows, windows_setup
from ..base import DealError, Step, step_type, zone_of
from ...compiler import Compiler
from ...effects import effects_source
from ...slots import LEADER, LED_SUIT, SITS_OUT, TO_ACT, TRICK_NUMBER, TRICKS_TOTAL
from ....lang import BOOL, CARD, INT, SUIT, EngineText


@step_type("tricks")
class Tricks(Windows, Legality, Choosing, FastPaths, Step):
    decision = True
    reads_order = True

    def __init__(self, game, comp: Compiler, body, path):
        super().__init__(game, comp, body, path)
        body = body or {}
        self.first_leader = comp.expr(body.get("first_leader", EngineText("left_of(dealer)")), path + ("first_leader",), (), (INT,))
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
        # played_by: another seat chooses the card of p's turn (p's cards, played in p's name). The seat
        # whose turn it is follows from the trick (the leader, then the next after the last card played),
        # and v[TO_ACT] holds the seat that decides.
        self.played_by = comp.expr(body["played_by"], path + ("played_by",), (("p", INT),), (INT,)) \
            if "played_by" in body else None
        if self.played_by is not None and body.get("choose") is not None:
            comp.problem(path + ("played_by",), "played_by cannot be used with choose: (the chooser of a "
                         "pending choice is the seat whose card was played)")
        # The step runs on generated code: blocks of Python statements built from the
        # ruleset's expressions, assembled into three functions (legal cards, play one
        # card, and a random playout loop that inlines both).
        parts, part_lines, lead, play = lead_play_parts(comp, body, path)
        self.dedupe = dedupe = game.deck.has_repeats
        H, n = self.hand, game.n
        # Effective suits (deck suit_of) and cards of no suit (a joker): docs/tricks.md.
        eff = game.deck.eff_suit
        # (suits that depend on the deal, deck suit_of reading the trump or a var: any card may be of no suit)
        self.nosuit = any(x < 0 for x in eff) or game.eff_of is not None
        exempt, self.maybe_exempt, self.exempt_split = exempt_code(game, comp, body, path)
        self.exempt = exempt
        led_code = comp.code(body["led_suit"], path + ("led_suit",), AFTER_PLAY_CTX, (SUIT,)) \
            if "led_suit" in body else None
        self.choose = choose_setup(game, comp, body.get("choose"), path + ("choose",)) \
            if body.get("choose") is not None else None
        # The led suit is set again while it is no_suit (a joker led, nothing named): only when it can be.
        self.relead = self.nosuit or led_code is not None or self.choose is not None
        led_src = led_code.src if led_code is not None else "SUIT[p_card]"
        legal = legal_lines(self.follow, exempt, self.relead, lead, play, self.exempt_split)
        wins, key, cancel = winner_code(comp, body, path)
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
        comp.ns["_NEXT_SEAT"] = self._next_left = tuple((i + 1) % n for i in range(n))
        # Who takes the cards and who leads next (default: the winner): resolution.seat_choice.
        self.takes_apart = "take" in body or "next_leader" in body
        res, wins_src, key_src = trick_lines(self, comp, body, path, wins, key, cancel, after_trick)
        cont += ["    " + ln for ln in res]
        if self.choose is not None:
            play_card += [f"if {self.choose['when'].src}:", f"    v[{TO_ACT}] = p_seat", "    done = False",
                          "else:"] + ["    " + ln for ln in cont]
        else:
            play_card += cont
        seat_line = f"p_seat = v[{TO_ACT}]"
        if self.played_by is not None:   # the seat whose turn it is, and v[TO_ACT] the seat choosing for it
            pb = f"_PLAYED_BY_{id(self)}"
            comp.ns[pb] = self.played_by
            seat_line = f"p_seat = {self.next_ref}[s.plays[-1][0]] if s.plays else v[{LEADER}]"
            to_act = re.compile(rf"^(\s*)v\[{TO_ACT}\] = (.+)$")
            play_card = [to_act.sub(rf"\1v[{TO_ACT}] = {pb}(s, \2) % {n}", ln) for ln in play_card]
        head = ["v = s.v", "z = s.z", f"hands = z[{H}]", seat_line, "plays = s.plays",
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
        comp.ns["_IN_SUIT"] = in_suit_table(game, comp.ns["SUIT"])
        self._legal = comp.function("", (), statements=head + pending + _fast_follow(legal) + ret)
        self._only = only_functions(comp, head, local, part_lines, parts)
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
        self._generate_fast_paths(comp, game, head, pending, legal, play_card, lead, play, after_play, after_trick,
                                  wins_src, key_src, led_code, cancel, res)
        # Windows: decisions out of the turn of play (tricks/windows.py); the step's decision methods ask
        # the open window first (instance attributes only then: no cost for a step without windows).
        self.windows = windows_setup(game, comp, body.get("windows"), path + ("windows",))
        self._until_fn = comp.expr(body["until"], path + ("until",), (), (BOOL,)) \
            if self.windows and "until" in body else None
        if self.windows and self.auto:
            comp.problem(path + ("windows",), "windows cannot be used with auto: (a forced card would pass a window by)")
        if not self.auto and not self.windows:
            self.apply = self._move if self.choose is not None else self._play_card
        if self.choose is not None:
            self.texts = self._texts_any                 # `apply` returns whether the step is over: so does this
        self._code_of = dict(enumerate(game.deck.code)).__getitem__
        if self.windows:
            self._cards_sorted = self.legal_sorted   # (the generated display-ordered listing, if any)
            self._card_texts = self.texts
            self.apply = self._w_apply
            self.legal = self._w_legal
            self.legal_sorted = self._w_legal_sorted
            self.texts = self._w_texts
            self.legal_texts = None

    # ---- flow ---------------------------------------------------------------
    def enter(self, s):
        s.win = None
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
        v[TO_ACT] = leader if self.played_by is None else self.played_by(s, leader) % s.n
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

    def legal(self, s):
        return self._legal(s)

    def position(self, s) -> int:
        """The seat whose turn it is in the trick (whose cards are played): ``v[TO_ACT]`` unless another
        seat plays for it (``played_by:``) or a window's seat is to act (``windows:``)."""
        if self.played_by is None and not self.windows:
            return s.v[TO_ACT]
        if not s.plays:
            return s.v[LEADER]
        return (s.nxt if self.next_ref == "s.nxt" else self._next_left)[s.plays[-1][0]]

    def played_for(self, s):
        if self.played_by is None:
            return None
        seat = self.position(s)
        return None if seat == s.v[TO_ACT] else (self.hand, seat)

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

    def is_legal(self, s, card):
        if self.windows and s.win is not None:
            return self._window(s).is_legal(s, card)
        return card in self._legal(s)

    def random_move(self, s, rng):
        legal = self.legal(s) if self.windows else self._legal(s)
        return legal[int(rng.random() * len(legal))]

    def playout(self, s, rng):
        """Play random legal cards until the step ends (the fast random-playout loop)."""
        if self.windows:   # windows open between plays: the step's own legal/apply (tricks/windows.py)
            legal, play, random = self.legal, self.apply, rng.random
            while True:
                l = legal(s)
                if play(s, l[int(random() * len(l))]):
                    return
        if self.auto or self.choose is not None or self.played_by is not None:
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
    def text(self, s, card):
        if self.windows and s.win is not None:
            return self._window(s).text(s, card)
        if card >= CHOICE:
            return f"{self.choose['word']} {self._choice_text(s, self._choice_value(s, card))}"
        return s.game.deck.code[card]

    def parse(self, s, text):
        if self.windows and s.win is not None:
            return self._window(s).parse(s, text)
        t = text.strip()
        if self.choose is not None:
            low = " ".join(t.lower().split())
            word = self.choose["word"].lower() + " "
            if low.startswith(word) or self.pending(s):
                return self._parse_choice(s, low[len(word):] if low.startswith(word) else low, t)
        if t.lower().startswith("play "):
            t = t[5:]
        return s.game.deck.face(t)

    def why_illegal(self, s, card):
        if self.windows and s.win is not None:
            return self._window(s).why_illegal(s, card)
        return Legality.why_illegal(self, s, card)

    def choice_names(self, game):
        """The cards (and ``choose:`` words), then the actions of the step's windows."""
        out = Choosing.choice_names(self, game)
        for w in self.windows:
            out += [x for x in w.step.choice_names(game) if x not in out]
        return out

    def move_ids(self, codec):
        return None if self.windows else FastPaths.move_ids(self, codec)

    def add_view(self, s, seat, out):
        if self.windows and s.win is not None:
            w = self.windows[s.win]
            out["window"] = {"name": w.name, "after": w.after}
            w.step.add_view(s, seat, out)

    def restore(self, s, view):
        """Rebuild the step's own position from a view (determinization): an open window."""
        if self.windows:
            self.restore_window(s, view)

