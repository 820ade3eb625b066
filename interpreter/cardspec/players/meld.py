"""A simple rummy-family bot: meld and lay off whenever it can, take the discard pile when its top
card fits the hand, and discard the card that fits the hand least.

It reads only a seat's view and the legal actions' text forms (``cardspec.bots.Bot``), so it works
for any ruleset whose turn is draw-or-take, then melds and lay-offs ending with ``done``, then a
discard — the shapes it recognises:

* a legal ``done`` → a phase of melds and lay-offs: play the action holding the most cards (fewest
  cards worth keeping among equals), unless every card of it is worth keeping; else ``done``;
* every legal action names exactly one card → a discard: the card with the fewest partners in the
  hand (same rank, same suit one or two places away), the highest card among equals, never a card
  worth keeping while another is left;
* no legal action names a card → draw or take: take (the action whose text is ``take``) when the
  discard pile's top card has two partners in the hand, else the first other action (draw).

The ruleset names it as the default bot and says which cards are worth keeping (wild cards)::

    bots:
      default: {bot: meld, keep: [JK, "2"], pile: discard, take: take}

Speed: one decision costs a pass over the legal actions and the hand (no search).
"""
from __future__ import annotations

import re

from .base import Bot

_CARD = re.compile(r"^(?:10|[2-9TJQKA])[SHDC]$|^JK$", re.I)
_RANK = {"A": 14, "K": 13, "Q": 12, "J": 11, "T": 10, "10": 10}


def _rank(code):
    r = code[:-1].upper()
    return _RANK.get(r) or (int(r) if r.isdigit() else 0)


def _cards(text):
    return [w.upper() for w in text.split() if _CARD.match(w)]


class MeldBot(Bot):
    """Greedy melding bot (module doc). ``keep``: card codes or rank letters worth keeping."""

    name = "meld"

    def __init__(self, keep=("JK",), pile="discard", take="take", seed=None):
        self.keep = {str(k).upper() for k in keep}
        self.pile = pile
        self.take = take

    def _kept(self, code):
        return code == "JK" and "JK" in self.keep or code in self.keep or code[:-1] in self.keep

    def _partners(self, code, hand):
        """How many cards of ``hand`` would sit in a meld with ``code`` (same rank; same suit near)."""
        if code == "JK":
            return 0
        r, s = _rank(code), code[-1]
        score = 0
        for h in hand:
            if h == "JK" or self._kept(h):
                continue
            hr, hs = _rank(h), h[-1]
            if hr == r:
                score += 2
            elif hs == s:
                d = min(abs(hr - r), abs((1 if hr == 14 else hr) - (1 if r == 14 else r)))
                score += 2 if d == 1 else 1 if d == 2 else 0
        return score

    def act(self, view, legal):
        seat = view.get("seat")
        zones = view.get("zones") or {}
        hand = zones.get("hand", {}).get(str(seat), [])
        hand = hand if isinstance(hand, list) else []
        if "done" in legal:
            best, key = "done", None
            for a in legal:
                cs = _cards(a)
                if not cs or all(self._kept(c) for c in cs):
                    continue
                k = (len(cs), -sum(self._kept(c) for c in cs))
                if key is None or k > key:
                    best, key = a, k
            return best
        carded = [_cards(a) for a in legal]
        if all(len(cs) == 1 for cs in carded):
            def worth(i):
                c = carded[i][0]
                rest = list(hand)
                if c in rest:
                    rest.remove(c)
                return (1000 if self._kept(c) else 0) + 10 * self._partners(c, rest) - _rank(c)
            return legal[min(range(len(legal)), key=worth)]
        if all(not cs for cs in carded):
            pile = zones.get(self.pile)
            top = pile[-1] if isinstance(pile, list) and pile else (
                pile.get("top") if isinstance(pile, dict) else None)   # visibility: top
            if self.take in legal and top is not None and (self._kept(top) or self._partners(top, hand) >= 3):
                return self.take
            others = [a for a in legal if a != self.take]
            return others[0] if others else legal[0]
        return legal[0]


def from_ruleset(game, seed=None):
    """The ruleset's default bot when it is a meld bot (``bots: default: {bot: meld, …}``), else None."""
    spec = ((game.data.get("bots") or {}) if game is not None else {}).get("default")
    if isinstance(spec, str):
        spec = {"bot": spec}
    if not isinstance(spec, dict) or spec.get("bot") != "meld":
        return None
    return MeldBot(keep=spec.get("keep", ("JK",)), pile=spec.get("pile", "discard"), take=spec.get("take", "take"),
                   seed=seed)


def make(arg: str, seed=None, game=None, policy=None) -> MeldBot:
    """``make_bot``'s ``meld``: the ruleset's own meld bot settings (``bots: default: {bot: meld}``), if any."""
    return from_ruleset(game, seed) or MeldBot(seed=seed)
