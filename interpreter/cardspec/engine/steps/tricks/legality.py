"""Which cards a seat may play: the lead and the follow (``follow:``, ``exempt:``, ``led_suit:``, ``lead:``,
``play:``), as the statements of the generated legal function, and why a card is not legal.

The legal cards are the hand; when following (``follow: suit``), the cards of the led suit if the seat
holds any (plus the cards ``exempt`` frees, and the whole hand while the led suit is ``no_suit``); then
``lead`` (when leading) and ``play`` narrow them part by part, each lifted when it would leave no card
(the usual "unless you hold nothing else"). ``Legality.why_illegal`` retraces the same steps to name
the rule that refused a card.
"""
from __future__ import annotations

import re

from .choose import CHOICE
from ...compiler import Compiler
from ...slots import LED_SUIT, TO_ACT
from ....lang import BOOL, CARD, INT, list_of

PLAY_CTX = (("seat", INT), ("card", "card"), ("hand", list_of(CARD)))


def lead_play_parts(comp: Compiler, body, path):
    """``(parts, part_lines, lead, play)`` of ``lead:`` and ``play:``: per key, the parts ``(text, reason,
    path)``, the statements narrowing ``c1`` part by part, and those statements joined."""
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
    return parts, part_lines, lead, play


def exempt_code(game, comp: Compiler, body, path):
    """``(exempt, maybe_exempt, split)``: the compiled ``exempt:`` (None without one, or when it is never
    true); per face, whether it may hold for that card; and ``(free, dep)`` when it is an ``or`` of terms
    that do not read the card (``free``: tested once, every card is exempt when it holds) and terms that
    do (``dep``), else None (``Compiler.or_split``)."""
    exempt = comp.code(body["exempt"], path + ("exempt",), PLAY_CTX, (BOOL,)) \
        if "exempt" in body else None
    if exempt is not None and exempt.src == "False":
        exempt = None

    # Per face: whether `exempt` may hold for it (the determinizer infers no void from such a card):
    # its table when it reads only the card, else every card.
    maybe_exempt = ()
    if exempt is not None:
        m = re.fullmatch(r"(_T\d+)\[p_card\]", exempt.src)
        maybe_exempt = tuple(bool(x) for x in comp.ns[m.group(1)][:-1]) if m else \
            (True,) * game.deck.n_faces
    split = comp.or_split(body["exempt"], PLAY_CTX, "card") if exempt is not None else None
    return exempt, maybe_exempt, split


def legal_lines(follow, exempt, relead: bool, lead: list, play: list, split=None) -> list:
    """The statements setting ``c1`` to the legal cards of ``p_seat`` (hand ``p_hand``): the follow test
    (``follow``, ``exempt``'s code; ``relead``: the led suit may be ``no_suit``), then ``lead``'s and
    ``play``'s statements, each lifted when it would leave no card. ``split``: ``exempt_code``'s: the
    terms that do not read the card are tested once (when they hold, the whole hand), not per card."""
    legal = [f"p_hand = hands[p_seat]", "if plays:", f"    led = v[{LED_SUIT}]"]
    if follow == "suit" and (exempt is not None or relead):
        legal += ["    c1 = [c for c in p_hand if SUIT[c] == led]"]
        if exempt is not None and split is not None:
            legal += ["    if c1:", f"        if {split[0]}:", "            c1 = p_hand", "        else:",
                      f"            c1 = [p_card for p_card in p_hand if SUIT[p_card] == led or ({split[1]})]"]
        elif exempt is not None:
            legal += ["    if c1:",
                      f"        c1 = [p_card for p_card in p_hand if SUIT[p_card] == led or ({exempt.src})]"]
        legal += ["    if not c1 or led < 0:", "        c1 = p_hand"]
    elif follow == "suit":
        legal += ["    c1 = [c for c in p_hand if SUIT[c] == led] or p_hand"]
    else:
        legal += ["    c1 = p_hand"]
    legal += ["else:", "    c1 = p_hand"]
    if lead:
        legal += ["    c0 = c1"] + ["    " + ln for ln in lead] + ["    if not c1:", "        c1 = c0"]
    if play:
        legal += ["c0 = c1"] + play + ["if not c1:", "    c1 = c0"]
    return legal


def in_suit_table(game, suit) -> tuple:
    """``_IN_SUIT`` of the generated legal functions (``_FAST_FOLLOW``), from the faces' suits ``suit``."""
    n_faces = game.deck.n_faces
    # Per led suit (index -1: cards of no suit), whether a face follows it: a set's __contains__ (a builtin
    # method: filter() calls it per card with less work than a comprehension's test).
    return tuple(frozenset(f for f in range(n_faces) if suit[f] == x).__contains__
                 for x in range(game.deck.n_suits)) \
        + (frozenset(f for f in range(n_faces) if suit[f] < 0).__contains__,)


def only_functions(comp: Compiler, head: list, local, part_lines: dict, parts: dict) -> dict:
    """``{"lead": [(function, reason)], "play": …}``: the lead / play conditions alone, part by part,
    narrowing a given list (no lifting): ``why_illegal`` uses them to name the part that refused a card."""
    return {key: [(comp.function("", (("cards", list_of(CARD)),), statements=head + [
        "p_hand = hands[p_seat]", "c1 = p_cards"] + [local.sub(r"\1[", ln) for ln in lines] + ["return c1"]),
        why) for lines, (_, why, _) in zip(part_lines[key], parts[key]) if lines]
        for key in ("lead", "play")}


class Legality:
    """The part of the ``Tricks`` step that says why a card is not legal (``Step.why_illegal``)."""

    def why_illegal(self, s, card):
        if self.choose is not None and self.pending(s):
            if card < CHOICE:
                return f"not now: choose first ({self.choose['word']} …)"
            return "not one of the choices"
        if card >= CHOICE:
            return "there is nothing to choose now"
        seat = self.position(s)
        hand = s.z[self.hand][seat]
        if card not in hand:   # (played_by: the card of another seat's turn, from that seat's hand)
            return "not in your hand" if seat == s.v[TO_ACT] else f"not in the hand of seat {seat}, whose turn it is"
        if s.plays and self.follow == "suit" and s.v[LED_SUIT] >= 0:
            led = s.v[LED_SUIT]
            suit = s.eff[0] if s.eff is not None else s.game.deck.eff_suit
            free = self._legal(s)
            if suit[card] != led and card not in free and any(suit[c] == led for c in hand):
                return f"not legal: you must follow suit ({s.game.deck.suit_label(led)})"
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
