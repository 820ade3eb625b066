"""Pass 3 of compiling (``engine/compile``): the deck and the tables every expression reads of a card.

Reads: ``data`` (``deck:``; copies and jokers may be expressions of options and players), ``comp``,
``env``, ``ns``. Adds: ``deck`` (a ``cards.Deck``). Fills ``ns`` with the card tables the generated code
indexes (``SUIT``, ``RANK``, ``STRENGTH``, ``POINTS``, ``COLOR``, ``CODE``, ``SORT_KEY``, …: one entry per
card face and a last one for -1, "no card") and ``env`` with the deck's names (its suits, colours,
ranks that are not digits, ``deck``).
"""
from __future__ import annotations

from ...cards import COLORS, RANK_VALUES, SUIT_NAMES, CardError, Deck, Special
from ...errors import RulesetError
from ...lang import CARD, COLOR, INT, SUIT, Binding, list_of, rank_strength_helper
from .caps import MAX_DECK_CARDS, deck_caps

ADDS = ("deck",)


def run(g):
    comp, rs = g.comp, g.ruleset
    dspec = g.data.get("deck") or {}
    copies = comp.constant(dspec.get("copies", 1), ("deck", "copies"))
    jokers = comp.constant(dspec.get("jokers", 0), ("deck", "jokers"))
    copies, jokers = deck_caps(comp, dspec, copies, jokers)
    specials = _specials(comp, dspec)
    try:
        g.deck = Deck(ranks=[str(r) for r in dspec.get("ranks", [])], suits=[str(s) for s in dspec.get("suits", [])],
                      copies=max(int(copies), 1), jokers=int(jokers), ace=str(dspec.get("ace", "high")),
                      points=dspec.get("points") or {}, specials=specials,
                      extra_suits=_extra_suits(comp, dspec))
    except CardError as e:
        key = getattr(e, "key", None)
        path = ("deck", "points", key) if key is not None else ("deck", "specials") if "special" in str(e) else ("deck",)
        raise RulesetError(rs.positions.problem(path, str(e), "e.g. hearts: 1, QS: 13, K: 10, joker: 30",
                                                key=key is not None)) from None
    if len(g.deck.cards) > MAX_DECK_CARDS:   # (specials counted: the caps pass saw ranks, suits and jokers)
        raise RulesetError(rs.positions.problem(("deck", "specials"), f"the deck has {len(g.deck.cards):,} cards; at "
                                                f"most {MAX_DECK_CARDS:,}", "docs/rulesets.md, Caps"))
    g.env.deck = d = g.deck
    # Expression tables carry one more entry, last, for -1 ("no card": `top` of an empty pile,
    # `holder` of a card nobody holds): no suit, rank 0, no points, no colour, code "none".
    g.ns.update(SUIT=d.suit + (-1,), PSUIT=d.suit + (-1,), RANK=d.rank + (0,), STRENGTH=d.strength + (0,),
                _rank_strength=rank_strength_helper(d.rank_strength), POINTS=d.points_of + (0,),
                COLOR=d.color + (COLORS["none"],), CODE=d.code + ("none",),
                SORT_KEY=d.sort_key, SUIT_COLOR=tuple(COLORS["red" if s in "HD" else "black"] for s in d.suits)
                + (COLORS["none"],) * len(d.extra_suits),
                DECK=d.cards)
    _card_names(g)
    return g


def _extra_suits(comp, dspec) -> list:
    """``deck: extra_suits:`` (docs/tricks.md, "A suit no card is printed with"): names of effective suits."""
    out = []
    for i, name in enumerate(dspec.get("extra_suits") or []):
        name = str(name)
        if not name.isidentifier() or name.lower() in SUIT_NAMES.values() or name in out or name == "no_suit":
            comp.problem(("deck", "extra_suits", i), f"'{name}' cannot name an extra suit (a word, not a printed "
                         "suit's name, each once)", "e.g. extra_suits: [trumps]")
            continue
        out.append(name)
    return out


def _specials(comp, dspec) -> list:
    """``deck: specials:`` (docs/cards.md) as ``Special`` cards; a malformed entry is a problem at its line."""
    out = []
    for i, sp in enumerate(dspec.get("specials") or []):
        path = ("deck", "specials", i)
        if not isinstance(sp, dict):
            continue   # the schema reports it
        suit = sp.get("suit")
        letter = None
        if suit is not None:
            low = str(suit).lower()
            letter = next((l for l, n in SUIT_NAMES.items() if low in (l.lower(), n, n[:-1])), str(suit))
        try:
            out.append(Special(code=str(sp.get("code", "")), name=str(sp.get("name", sp.get("code", ""))),
                               count=int(comp.constant(sp.get("count", 1), path + ("count",))),
                               rank=int(sp.get("rank", 0)), suit=letter, strength=int(sp.get("strength", 0)),
                               points=None if sp.get("points") is None else int(sp["points"]),
                               color=sp.get("color")))
        except CardError as e:
            raise RulesetError(comp.pos.problem(path, str(e), "e.g. {code: WZ, name: Wizard, count: 4, "
                                                              "strength: 15}")) from None
    return out


def _card_names(g):
    """The deck's names: its suits, colours, ranks that are not digits, ``deck``. Each is the engine's
    (``env.engine``); an option of the same name hides it in the ruleset's expressions (``env.names``)."""
    d, env = g.deck, g.env
    names = {}
    for i, s in enumerate(d.suits):
        names[SUIT_NAMES[s]] = Binding(str(i), SUIT, const=True)
    for color, v in COLORS.items():
        if color != "none":
            names[color] = Binding(str(v), COLOR, const=True)
    for r in d.ranks:
        value = 1 if (r == "A" and d.ace == "low") else RANK_VALUES[r]
        if not r.isdigit():
            names[r] = Binding(str(value), INT, const=True)
    names["deck"] = Binding("DECK", list_of(CARD), const=True)
    env.engine.update(names)
    for name, b in names.items():
        if name not in g.options:
            env.names[name] = b
    # An extra suit's name is the ruleset's own (declared by it): `if grand then trumps else trump`.
    for i, name in enumerate(d.extra_suits):
        env.names[name] = Binding(str(len(d.suits) + i), SUIT, const=True)
    # A special card's code is the ruleset's own name for it (engine/compile/names.py checks it against
    # every other declared name): `card == WZ`, `NR in trick`.
    for face in d.special_faces:
        env.names[d.code[face]] = Binding(str(face), CARD, const=True)
