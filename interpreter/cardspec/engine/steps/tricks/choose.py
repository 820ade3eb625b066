"""``choose:``: a decision inside a trick that is not a card (docs/tricks.md, "A choice inside a trick").

After a card is played, if ``when`` holds, its player chooses one value of ``from`` (suits, numbers or
text; default the deck's suits): the action ``WORD VALUE`` (``name hearts``). The choice may set the
trick's led suit (``led_suit:``) and run ``effects:``; the trick then goes on. Internally a choice is
the move ``CHOICE + i`` (the i-th value of ``from``), above every card's face, so one list of moves
holds cards and choices.
"""
from __future__ import annotations

import re

from ...effects import effects_source
from ...slots import LED_SUIT, TO_ACT
from ....cards import CardError, SUIT_NAMES
from ....lang import BOOL, INT, STR, SUIT, elem

AFTER_PLAY_CTX = (("seat", INT), ("card", "card"))
#: Internal moves from CHOICE on are choices (``choose:``), CHOICE + i the i-th of ``from``; cards are faces.
CHOICE = 1 << 16

_SUIT_WORD = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}


def choose_setup(game, comp, body, path):
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
    if "led_suit" not in body and not body.get("effects"):
        _changes_nothing(game, comp, path, word)
    return {"when": when, "values": comp.function(values.src, AFTER_PLAY_CTX), "type": t, "word": word,
            "lines": lines, "src": values.src, "size": values.size}


def _changes_nothing(game, comp, path, word):
    """A warning at ``choose:`` with neither ``led_suit:`` nor ``effects:``: the choice is made and logged,
    and nothing reads it (issue 32 item 5: a led joker named a suit that nobody had to follow;
    the trick's led suit was then the second card's, the rule for a led card of no suit)."""
    w = comp.pos.problem(path, f"choose: the choice ({word} …) changes nothing: it has no led_suit: and no "
                               "effects:, so the trick goes on as if nothing were chosen",
                         "for a suit the others must follow: led_suit: choice (docs/tricks.md, \"A choice "
                         "inside a trick\"); else effects: that keep the choice, e.g. [{set: {VAR: choice}}]",
                         key=True)
    w.severity, w.code = "warning", "choose/changes-nothing"
    game.warnings.append(w)


class Choosing:
    """The part of the ``Tricks`` step that lists, reads, writes and makes a pending ``choose:`` choice
    (``self.choose``: ``choose_setup``'s parts, or None), and the step's action space."""

    def _choices(self, s, seat, card):
        """The pending choice's moves: CHOICE + index into ``from``."""
        return [CHOICE + i for i in range(len(self.choose["values"](s, seat, card)))]

    def _choice_value(self, s, move):
        seat, card = s.plays[-1]
        return self.choose["values"](s, seat, card)[move - CHOICE]

    def _choice_text(self, s, value):
        if self.choose["type"] == SUIT:
            return SUIT_NAMES.get(s.game.deck.suit_label(value), s.game.deck.suit_label(value)) if value >= 0 else "none"
        return str(value)

    def _make_choice(self, s, move):
        value = self._choice_value(s, move)
        s.emit({"type": "choose", "seat": s.v[TO_ACT], "word": self.choose["word"],
                "choice": self._choice_text(s, value)})
        return self._choose_fn(s, value)

    def pending(self, s) -> bool:
        """Whether the seat to act must make the ``choose:`` choice (it played the last card)."""
        return self.choose is not None and bool(s.plays) and s.plays[-1][0] == s.v[TO_ACT]

    def _texts_any(self, s, moves):   # `texts` of a step with choose: (moves are all choices or all cards)
        if moves and moves[0] >= CHOICE:
            return [self.text(s, m) for m in moves]
        return list(map(self._code_of, moves))

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

    # ---- the action space -----------------------------------------------------
    def choice_names(self, game):
        """The deck's cards, then ``WORD VALUE`` per value a ``choose:`` can offer (suits: every suit and
        ``none``; numbers and texts: the values of a constant ``from:`` list)."""
        out = self.card_codes(game)
        if self.choose is not None:
            word = self.choose["word"]
            if self.choose["type"] == SUIT:
                vals = [SUIT_NAMES.get(x, x) for x in game.deck.suits] + ["none"]
            else:
                from ...choices import ActionSpaceError, literal_list
                items = literal_list(self.choose["src"])
                if items is None:
                    raise ActionSpaceError(f"step '{self.name}': choose: from: is not a constant list; the "
                                           "action space needs every value at load time")
                vals = [str(v) for v in items]
            out += [f"{word} {v}" for v in vals]
        return out
