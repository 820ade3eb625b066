"""``cardspec explain RULESET``: the rules of a compiled ruleset in plain English.

Generated from the ``Game`` (options resolved, ``by_option`` chosen, ``extends:`` merged): the deck,
the zones, what the deal gives each player count (measured by dealing, so widow sizes that depend on
the player count are exact), the steps of a deal in order, the scoring, the match and the options with
their current values. Each step kind and each effect kind has one describer in ``STEP_DESCRIBERS`` /
``EFFECT_DESCRIBERS``; tests/test_explain.py fails when a registered kind has none. Expressions are shown
as the author wrote them (the expression language reads close to English), with the definitions they
use listed once under "Definitions".
"""
from __future__ import annotations

import re
import textwrap

from ..errors import CardspecError
from .explain_more import _card_order, _options_set, _variant

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
VISIBILITY = {"owner": "seen by its owner only", "all": "seen by everyone", "none": "seen by nobody",
              "public": "seen by everyone"}


def expr(x) -> str:
    """An expression (or a constant) as a reader sees it: the author's text on one line, in backticks."""
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, (int, float)):
        return str(x)
    if x is None:
        return "nothing"
    if isinstance(x, str):
        return "`" + " ".join(x.split()) + "`"
    return "`" + " ".join(str(x).split()) + "`"


def count_of(n, noun: str) -> str:
    """``n`` (a number or an expression) and ``noun``, singular for exactly 1: "1 card", "3 cards",
    "`pass_size` cards"."""
    plain = isinstance(n, int) or (isinstance(n, str) and n.strip().isdigit())
    one = plain and int(n) == 1
    return f"{str(n).strip() if plain else expr(n)} {noun if one else noun + 's'}"


def cond(x, reason=None) -> str:
    """A condition as a reader sees it: ``EXPR (refused otherwise: reason)`` — a ruleset's ``reason`` is
    what a refusal says (the stock is empty), not what the condition means — or for parts with their own
    reasons (``{rule, reason}`` or a list of them) each part with its reason, joined by "and"."""
    items = x if isinstance(x, list) else [x]
    parts = []
    for it in items:
        rule, why = (it.get("rule"), it.get("reason", reason)) if isinstance(it, dict) else (it, reason)
        why = " ".join(str(why).split()) if why else ""
        parts.append(expr(rule) + (f" (refused otherwise: {why})" if why else ""))
    return ", and ".join(parts)


# ---- steps -----------------------------------------------------------------------------------------
def _shuffle(spec, ctx):
    return ["Gather every card into the stock and shuffle it."]


def _deal(spec, ctx):
    to = spec.get("to")
    src = spec.get("from", "stock")
    zone = ctx.zones.get(to, {})
    if zone.get("owner") == "seat":
        start = spec.get("start")
        who = f", starting with {expr(start)}" if start is not None else ", starting at the dealer's left"
        return [f"Deal {count_of(spec.get('each'), 'card')} to each player's {to} from the {src}{who}."]
    if spec.get("rest"):
        out = f"Deal every remaining card of the {src} to the {to}"
    else:
        out = f"Deal {count_of(spec.get('count', 0), 'card')} of the {src} to the {to}"
    if spec.get("face_up") not in (None, 0):
        out += f", {expr(spec['face_up'])} of them face up"
    return [out + "."]


def _pass(spec, ctx):
    count = spec.get("count", 3)
    frm = spec.get("from", "hand")
    to = spec.get("to", "right_of(seat)")
    into = spec.get("into")
    if into and into in ctx.zones and (ctx.zones[into] or {}).get("owner") != "seat":
        return [f"Every player puts {count_of(count, 'card')} from their {frm} face down into the {into.replace('_', ' ')}, "
                "all at once, without seeing the others' choices."]
    line = (f"Every player passes {count_of(count, 'card')} from their {frm} face down to the player "
            f"{expr(to)} (for the passer `seat`), all at once")
    if spec.get("one_at_a_time"):
        line += ", choosing them one at a time"
    if spec.get("into"):
        line += f"; they arrive in the receiver's {spec['into']}"
    return [line + ". A count of 0 skips the pass."]


def _tricks(spec, ctx):
    out = []
    out.append(f"Play tricks from the hand{'' if spec.get('from', 'hand') == 'hand' else ' zone ' + spec['from']}. "
               f"The first trick is led by {expr(spec.get('first_leader', 'left_of(dealer)'))}; "
               "each later trick by the winner of the one before.")
    if spec.get("played_by") is not None:
        out.append(f"The card of player p's turn is chosen by {expr(spec['played_by'])} (p's cards, played in p's "
                   "name; that player sees them while choosing).")
    follow = spec.get("follow", "suit")
    out.append("Players must follow the led suit if they can." if follow == "suit" else
               "Any card may be played to a trick (no obligation to follow suit).")
    if spec.get("lead") is not None:
        out.append(f"A card may be led only when {cond(spec['lead'], spec.get('lead_reason'))}.")
    if spec.get("play") is not None:
        out.append(f"A card may be played only when {cond(spec['play'], spec.get('play_reason'))}.")
    if spec.get("cancel") is not None:
        out.append(f"Two played cards a and b cancel each other (neither can win) when {expr(spec['cancel'])}.")
    wins = spec.get("wins")
    key = spec.get("key")
    if wins is None and key is None:
        out.append("The highest trump wins the trick, else the highest card of the led suit.")
    else:
        out.append(f"A card can win when {expr(wins) if wins is not None else 'it is a trump or of the led suit'}; "
                   f"of those, the one with the highest {expr(key) if key is not None else 'rank (trumps first)'} "
                   "wins.")
    out += _card_order(key, ctx, wins)
    if spec.get("if_none_wins") is not None:
        out.append(f"When no card can win: {expr(spec['if_none_wins'])} (`leader`: the leader takes the trick; "
                   "`carry`: it goes to the winner of the next trick).")
    out.append(f"The winner takes the cards into their {spec.get('to', 'won')}.")
    if spec.get("until") is not None:
        out.append(f"The play stops after a trick when {expr(spec['until'])} (the deal's result is decided).")
    if spec.get("count") is not None:
        out.append(f"The deal has {expr(spec['count'])} tricks.")
    else:
        out.append("Tricks go on until the leader's hand is empty.")
    if spec.get("after_play"):
        out.append("After each card is played:")
        out += ["  " + x for x in describe_effects(spec["after_play"], ctx)]
    if spec.get("after_trick"):
        out.append("After each trick:")
        out += ["  " + x for x in describe_effects(spec["after_trick"], ctx)]
    for w in spec.get("windows") or [] if isinstance(spec.get("windows"), list) else ():
        if not isinstance(w, dict):
            continue
        moment = "each card (not a trick's last)" if w.get("after") == "card" else "each trick"
        when = f" when {expr(w['when'])}" if w.get("when") is not None else ""
        turns = w.get("turns") or {}
        out.append(f"A decision out of turn{' (' + str(w['name']) + ')' if w.get('name') else ''}: after {moment}"
                   f"{when}, turns begin with {expr(turns.get('first', 'left_of(dealer)'))}"
                   + (f" until {expr(turns['until'])}" if turns.get("until") is not None else "")
                   + "; then the play goes on where it stopped.")
        for ph in turns.get("turn") or []:
            if isinstance(ph, dict) and ph.get("one") is not None:
                one = ph["one"] if isinstance(ph["one"], list) else [ph["one"]]
                out.append("  - exactly one of: " + ", ".join(map(str, one)))
    return out


def _score(spec, ctx):
    out = [f"Each player's score for this step is {expr(spec.get('value'))} (for the player `seat`)."]
    if spec.get("counter"):
        out.append(f"It becomes their {spec['counter']}.")
    if spec.get("add_to"):
        out.append(f"It is added to their {spec['add_to']}.")
    return out


def _do(spec, ctx):
    return ["Then:"] + describe_effects(spec if isinstance(spec, list) else [spec], ctx)


def _bid(spec, ctx):
    order = spec.get("order")
    who = f"in the order {expr(order)}" if order is not None else "from the dealer's left, the dealer last"
    out = [f"Each player bids once, {who}: a number from {expr(spec.get('min', 0))} to {expr(spec.get('max'))}, "
           f"kept in their {spec.get('counter')}."]
    if spec.get("legal") is not None:
        out.append(f"A bid is allowed only when {cond(spec['legal'], spec.get('reason'))}.")
    if spec.get("after_bid"):
        out.append("After each bid:")
        out += ["  " + x for x in describe_effects(spec["after_bid"], ctx)]
    return out


def _trump(spec, ctx):
    return [f"The trump suit of the deal is {expr(spec)} (no_suit: no trumps)."]


def _sits_out(spec, ctx):
    return [f"The player {expr(spec)} sits out the rest of the deal (none: everyone plays): dealt no cards, "
            "passed over by every turn to play, bid or lead."]


def _redeal(spec, ctx):
    cond, reason = (spec.get("if"), spec.get("reason")) if isinstance(spec, dict) else (spec, None)
    why = f" ({reason})" if reason else ""
    return [f"If {expr(cond)}{why}, the deal is void: the same dealer deals again, and the deal does not count."]


def _secret_rule(spec, ctx):
    out = [f"{expr(spec.get('seat', 'dealer'))} chooses a secret rule, kept in {spec.get('var')} "
           "(written in the expression language, or drawn from the ruleset's library); the others must "
           "find it out."]
    lib = [r for r in spec.get("library") or [] if isinstance(r, dict) and "rule" in r]
    if lib:
        from ..lang.words import in_words
        from ..errors import CardspecError as _Bad
        out.append(f"The library's {count_of(len(lib), 'rule')}, each in words (a card may follow the last "
                   "card of the line when …):")
        for r in lib:
            try:
                said = in_words(str(r["rule"]))
            except _Bad:
                said = expr(r["rule"])
            out.append(f"- {r.get('name')}: {said}")
    return out


def _turns(spec, ctx):
    out = [f"Players take turns, starting with {expr(spec.get('first', 'left_of(dealer)'))}"
           f"{'' if spec.get('next') is None else ', the next seat being ' + expr(spec['next'])}."]
    if spec.get("skip") is not None:
        out.append(f"A player is passed over when {expr(spec['skip'])}.")
    phases = spec.get("turn") or []
    if phases:
        out.append("A turn is made of:")
        for ph in phases:
            out += ["  " + x for x in _phase(ph, ctx)]
    acts = dict(ctx.actions)
    acts.update(spec.get("actions") or {})
    used = {a for ph in phases if isinstance(ph, dict) for k in ("one", "any", "optional")
            for a in (ph.get(k) or []) if isinstance(a, str)}
    for name in sorted(used):
        a = acts.get(name)
        if not isinstance(a, dict):
            continue
        line = f"  {name}: {a.get('help', '').strip() or 'an action'}"
        if a.get("legal") is not None:
            line += f" Allowed when {cond(a['legal'], a.get('reason'))}."
        out.append(line)
    if spec.get("until") is not None:
        out.append(f"The turns end when {expr(spec['until'])}"
                   f"{' (' + spec['until_reason'] + ')' if spec.get('until_reason') else ''}.")
    if spec.get("max_turns") is not None:
        out.append(f"At most {expr(spec['max_turns'])} turns; then the {spec.get('at_max', 'match')} ends.")
    return out


def _phase(ph, ctx) -> list:
    """One phase of a turn: its actions (one / any / optional), effects (do), condition and actor."""
    if not isinstance(ph, dict):
        return [f"- {ph}"]
    head = []
    if ph.get("if") is not None:
        head.append(f"when {expr(ph['if'])}")
    if ph.get("who") is not None:
        head.append(f"played by {expr(ph['who'])}")
    pre = f"({', '.join(head)}) " if head else ""
    out = []
    words = {"one": "exactly one of", "any": "any number of (then done)", "optional": "optionally one of"}
    for k, word in words.items():
        if ph.get(k):
            names = ", ".join(str(a) for a in ([ph[k]] if isinstance(ph[k], str) else ph[k]))
            out.append(f"- {pre}{word}: {names}")
    if ph.get("do"):
        out.append(f"- {pre}then:")
        out += ["  " + x for x in describe_effects(ph["do"], ctx)]
    return out or [f"- {pre}(nothing)"]


def _auction(spec, ctx):
    shape = spec.get("bids") or {}
    parts = []
    if shape.get("number") is not None:
        n = shape["number"]
        parts.append(f"a number from {expr(n.get('min'))} to {expr(n.get('max'))}" if isinstance(n, dict)
                     else f"a number ({expr(n)})")
    if shape.get("rank") is not None:
        parts.append(f"a rank ({expr(shape['rank'])})")
    if shape.get("suit") is not None:
        suits = shape["suit"]
        parts.append(f"a suit ({' '.join(map(str, suits)) if isinstance(suits, list) else expr(suits)}"
                     + (", NT: no trumps)" if isinstance(suits, list) and any(str(x).upper() == "NT" for x in suits)
                        else ")"))
    what = " with ".join(parts) if parts else "no shaped bid"
    if spec.get("contracts"):
        what += f", or one of the contracts {expr(spec['contracts'])}"
    first = expr(spec.get("first", "next_player(dealer)"))
    if spec.get("say_hold"):
        out = [f"Auction by pairs: a bid is {what}, in the order the bidding climbs. {first} holds first; each "
               "other player in play order after it in turn says bids to the holder, who answers hold (he "
               "takes that number) or pass. A pass leaves the auction; the survivor holds against the next "
               "player, and the survivor of the last pair declares at the last number said or held. When "
               f"nobody bids, {first} may take the lowest bid or pass."]
        then = {"redeal": "the same dealer deals again (the deal does not count)",
                "throw_in": "the deal is thrown in (it counts) and the next one begins"}
        ap = str(spec.get("all_pass", "redeal"))
        out.append(f"If everyone passes: {then.get(ap, f'the contract {ap} is played with no declarer')}.")
        if spec.get("after_bid"):
            out.append("After each bid, hold or pass:")
            out += ["  " + x for x in describe_effects(spec["after_bid"], ctx)]
        return out
    hard = str(spec.get("passing", "soft")) == "hard"
    out = [f"Auction, from {first} in play order: a bid is {what}; listed in the order the bidding climbs, "
           f"each bid must beat the standing one ({expr(spec.get('beats', 'level > bid_level'))})."]
    if spec.get("legal") is not None:
        out.append(f"A bid is allowed only when {cond(spec['legal'], spec.get('reason'))}.")
    if spec.get("may_pass") is not None:
        out.append(f"A player may pass only when {expr(spec['may_pass'])}.")
    if spec.get("once"):
        out.append("Each player speaks once.")
    out.append("A player who passes is out of the auction; it ends when only the high bidder is left." if hard else
               "A player who passed may bid again later; the auction ends when all the others pass in a row "
               "after a bid.")
    if spec.get("ends") is not None:
        out.append(f"It ends at once after a bid for which {expr(spec['ends'])}.")
    then = {"redeal": "the same dealer deals again (the deal does not count)",
            "throw_in": "the deal is thrown in (it counts) and the next one begins"}
    ap = str(spec.get("all_pass", "redeal"))
    out.append(f"If everyone passes: {then.get(ap, f'the contract {ap} is played with no declarer')}.")
    for name, call in (spec.get("calls") or {}).items() if isinstance(spec.get("calls"), dict) else ():
        call = call or {}
        when = f" when {cond(call['legal'], call.get('reason'))}" if call.get("legal") is not None else ""
        out.append(f"A player may call {name}{when}: it is not a bid, the standing bid stays; the others must "
                   "pass in a row after it to end the auction.")
        if call.get("effects"):
            out += ["  " + x for x in describe_effects(call["effects"], ctx)]
    if str(spec.get("declarer", "high_bidder")) == "first_to_name_suit":
        out.append("The declarer is the first player of the high bidder's team to name the winning bid's suit "
                   "(no trumps counting as a suit) during the auction; the bid stays readable as bid_number, "
                   "bid_suit, bid_rank, bid_contract.")
    else:
        out.append("The high bidder is the declarer; the bid stays readable as bid_number, bid_suit, bid_rank, "
                   "bid_contract.")
    if spec.get("after_bid"):
        out.append("After each bid or pass:")
        out += ["  " + x for x in describe_effects(spec["after_bid"], ctx)]
    return out


#: Step kind (its YAML keyword) -> describer(spec, ctx) -> lines. tests/test_explain.py checks that every
#: kind registered in ``engine.steps.STEP_TYPES`` is here.
STEP_DESCRIBERS = {"shuffle": _shuffle, "deal": _deal, "pass": _pass, "tricks": _tricks, "score": _score,
                   "do": _do, "bid": _bid, "trump": _trump, "secret_rule": _secret_rule, "turns": _turns,
                   "auction": _auction, "sits_out": _sits_out, "redeal": _redeal}


# ---- effects ---------------------------------------------------------------------------------------
def _e_set(v, ctx):
    return [f"set {k} to {expr(x)}" for k, x in v.items()] if isinstance(v, dict) else [f"set {expr(v)}"]


def _e_add(v, ctx):
    if isinstance(v, dict) and "to" in v:
        return [f"add {expr(v.get('value', 1))} to {expr(v['to'])}"]
    if isinstance(v, dict) and "counter" in v:
        who = f" of {expr(v['seat'])}" if v.get("seat") is not None else " of every player"
        return [f"add {expr(v.get('value', 1))} to the {v['counter']}{who}"]
    return [f"add {expr(x)} to {k}" for k, x in v.items()] if isinstance(v, dict) else [f"add {expr(v)}"]


def _e_move(v, ctx):
    what = f"{expr(v['cards'])} from " if v.get("cards") is not None else "every card of "
    n = f"{count_of(v['count'], 'card')} from the top of " if v.get("count") is not None else ""
    line = f"move {n or what}{expr(v.get('from'))} to {expr(v.get('to'))}"
    if v.get("refill"):
        line += f" (when short, {expr(v['refill'])} is shuffled in first)"
    if v.get("random_place"):
        line += ", each card at a random place"
    return [line]


def _e_emit(v, ctx):
    return [f"announce {v.get('type', 'an event')}" if isinstance(v, dict) else "announce an event"]


def _e_transfer(v, ctx):
    amount = expr(v["value"]) if v.get("value") is not None else "all the"
    return [f"move {amount} chips from {expr(v.get('from'))} to {expr(v.get('to'))} "
            "(at most what it holds)"]


def _e_shuffle(v, ctx):
    return [f"shuffle {expr(v)}"]


def _e_reveal(v, ctx):
    cards = v.get("cards") if isinstance(v, dict) else v
    return [f"show {expr(cards)} to everyone"]


def _e_for_each(v, ctx):
    head = f"for each {v.get('as', 'each')} in {expr(v.get('in', 'seats'))}"
    if v.get("where") is not None:
        head += f" where {expr(v['where'])}"
    return [head + ":"] + ["  " + x for x in describe_effects(v.get("do") or [], ctx)]


def _e_next_seat(v, ctx):
    return [f"the next turn is {expr(v)}'s"]


def _e_end(v, ctx):
    if isinstance(v, dict):
        why = f" ({v['reason']})" if v.get("reason") else ""
        return [f"end the {v.get('level', 'turn')}{why}"]
    return [f"end the {v}"]


def _e_sides_played(v, ctx):
    return ["if it is the called card, its player is known to all as the partner (sides:)"]


def _e_repetition(v, ctx):
    times = v.get("times", 3) if isinstance(v, dict) else v
    end = v.get("end", "match") if isinstance(v, dict) else "match"
    return [f"when the same position occurs for the {times}th time, the {end} ends"]


#: Effect kind -> describer(value, ctx) -> lines; tests/test_explain.py checks every ``EFFECT_KINDS``.
def _e_play(v, ctx):
    card = v.get("card") if isinstance(v, dict) else v
    return [f"lay `{expr(card)}` face up on the table, the last card of the plays in sequence"]


def _e_plays_to(v, ctx):
    name = v.get("to") if isinstance(v, dict) else v
    zone = ctx.zones.get(str(name), {})
    if zone.get("owner") == "seat":
        return [f"the cards played leave the table: each goes to its own player's {name}"]
    return [f"the cards played leave the table, in order, for the {name}"]


def _e_meld(v, ctx):
    if not isinstance(v, dict):
        return [f"meld {expr(v)}"]
    return [f"lay {expr(v.get('cards'))} from {expr(v.get('from'))} as a new meld in {expr(v.get('to'))}"]


def _e_lay_off(v, ctx):
    if not isinstance(v, dict):
        return [f"lay off {expr(v)}"]
    return [f"lay {expr(v.get('cards'))} from {expr(v.get('from'))} off on meld {expr(v.get('index'))} of "
            f"{expr(v.get('to'))}"]


EFFECT_DESCRIBERS = {"set": _e_set, "meld": _e_meld, "lay_off": _e_lay_off, "add": _e_add, "move": _e_move, "emit": _e_emit, "transfer": _e_transfer,
                     "shuffle": _e_shuffle, "reveal": _e_reveal, "for_each": _e_for_each,
                     "next_seat": _e_next_seat, "end": _e_end, "repetition": _e_repetition,
                     "_sides_played": _e_sides_played, "play": _e_play, "plays_to": _e_plays_to}


def describe_effects(effects, ctx) -> list:
    """Lines ``- …`` for a list of effects (each with its ``if:``)."""
    out = []
    for eff in effects or []:
        if not isinstance(eff, dict):
            out.append(f"- {eff}")
            continue
        cond = f"if {expr(eff['if'])}: " if eff.get("if") is not None else ""
        kinds = [k for k in eff if k != "if"]
        for k in kinds:
            fn = EFFECT_DESCRIBERS.get(k)
            lines = fn(eff[k], ctx) if fn else [f"{k}: {expr(eff[k])}"]
            out.append(f"- {cond}{lines[0]}")
            out += ["  " + x for x in lines[1:]]
    return out


# ---- the whole text --------------------------------------------------------------------------------
class _Ctx:
    def __init__(self, game):
        data = game.data
        self.zones = {k: v for k, v in (data.get("zones") or {}).items() if isinstance(v, dict)}
        self.actions = {k: v for k, v in (data.get("actions") or {}).items() if isinstance(v, dict)}
        self.defines = dict(data.get("define") or {})


def step_kind(spec) -> str:
    """The kind of a step item of ``deal:`` (its keyword), e.g. ``tricks``."""
    if isinstance(spec, str):
        return spec
    for k in spec:
        if k not in ("id", "if", "name", "before_deal"):
            return k
    return "?"


def _deck(game) -> list:
    """The compiled deck (options applied): size, ranks, suits, copies, jokers, points."""
    d = game.deck
    out = []
    parts = [f"ranks {' '.join(d.ranks)}", f"in {', '.join(SUIT_NAMES.get(s, s) for s in d.suits)}"]
    if d.copies > 1:
        parts.append(f"{d.copies} copies of each card (identical cards are alike for every rule)")
    if d.jokers:
        parts.append(f"{d.jokers * d.copies} jokers")
    for sp in d.specials:   # special cards (docs/cards.md)
        k = sp.count * d.copies
        parts.append(f"{k} {sp.name}{'' if k == 1 or sp.name.endswith('s') else 's'} ({sp.code})")
    if d.ace == "low":
        parts.append("aces low")
    out.append(f"{len(d.cards)} cards: " + ", ".join(parts) + ".")
    if d.extra_suits:   # effective suits no card is printed with (docs/tricks.md)
        out.append(f"Suits no card is printed with: {', '.join(d.extra_suits)} (a card joins one by the deck's "
                   "suit_of, and a trump may name one).")
    pts = d.points
    if pts:
        out.append("Card points: " + ", ".join(f"{k} {v}" for k, v in pts.items()) + ".")
    return out


#: Decisions taken (each the first legal action) to reach a deal that comes after a decision (a secret rule
#: chosen, suits owned, a bet): the deal table then says what the deal gives after them.
DEAL_LOOKAHEAD = 8


def _dealt_parts(g, st) -> tuple[list, int | None]:
    """``(parts, cards in the stock or None)`` of the deal table for state ``st``: the cards in each zone."""
    parts, stock = [], None
    for zi, zn in enumerate(g.zones):
        cards = st.z[zi]
        if zn.per_seat:
            sizes = [len(c) for c in cards]
            dealt = sorted({x for x in sizes if x})
            if dealt:
                # one size, or a range (a later seat dealt fewer); seats dealt none (sitting out) said apart
                each = str(dealt[0]) if len(dealt) == 1 else f"{dealt[0]} to {dealt[-1]}"
                line = f"{each} {'card' if each == '1' else 'cards'} in each {zn.name}"
                idle = sizes.count(0)
                if idle:
                    line += f", but {count_of(idle, 'player')} {'is' if idle == 1 else 'are'} dealt none"
                parts.append(line)
        elif cards and zn.name != "stock":
            face = st.face_up[zi] if zi < len(st.face_up) else 0
            parts.append(f"{len(cards)} in the {zn.name}" + (f" ({face} face up)" if face else ""))
        elif cards:
            stock = len(cards)
    return parts, stock


def _deal_sizes(game_for, counts) -> list:
    """One line per player count: cards in each zone after the first deal (measured by dealing). When the
    first decision comes before any card is dealt (a secret rule, suits owned, a bet), the line says so and
    what the deal gives after up to ``DEAL_LOOKAHEAD`` decisions, each the first legal action."""
    out = []
    for n in counts:
        try:
            g = game_for(n)
            st = g.new_state(seed=0)
        except CardspecError as e:
            out.append(f"- {count_of(n, 'player')}: cannot be dealt ({e})")
            continue
        parts, stock = _dealt_parts(g, st)
        head = f"- {count_of(n, 'player')}: "
        if not parts:
            taken = []
            try:
                while not parts and len(taken) < DEAL_LOOKAHEAD and not st.terminal:
                    first = st.legal_actions()[0]
                    taken.append(f"seat {st.to_act}: {first}")
                    st.apply(first)
                    parts, stock = _dealt_parts(g, st)
            except CardspecError:
                parts = []
            if parts:
                head += (f"no card dealt before the first decision; after {count_of(len(taken), 'decision')} "
                         f"(`{taken[0]}`{', …' if len(taken) > 1 else ''}): ")
            else:
                out.append(head + (f"no card dealt in the first {count_of(len(taken), 'decision')}" if taken
                                   else "no card dealt") + (f" ({count_of(stock, 'card')} in the stock)"
                                                             if stock is not None else ""))
                continue
        if stock is not None:
            parts.append(f"{stock} left in the stock")
        out.append(head + ", ".join(parts))
    return out


def _deals_line(deals, games, counts) -> str:
    """``Deals: …`` with the number of deals worked out for each player count explained (an expression
    reading options and ``players`` is a number to a reader); 0 is a match played to its end condition."""
    if isinstance(deals, int):
        values = {n: deals for n in counts}
    else:
        values = {}
        for n in counts:
            try:
                g = games[n]
                values[n] = int(g.match_deals(g.new_state(seed=0)))
            except Exception:   # noqa: BLE001 - a count that cannot be dealt, an expression reading play
                return f"Deals: {expr(deals)}."
    if set(values.values()) == {0}:
        return "Deals: as many as it takes (no fixed number)."
    if len(set(values.values())) == 1:
        return f"Deals: {next(iter(values.values()))}."
    return "Deals: " + ", ".join(f"{v} with {count_of(n, 'player')}" if v else
                                 f"as many as it takes with {count_of(n, 'player')}"
                                 for n, v in values.items()) + "."


def _teams_line(teams) -> str:
    """``Teams: seats 0 and 2 against seats 1 and 3.``"""
    if not (isinstance(teams, list) and all(isinstance(t, list) for t in teams)):
        return f"Teams: {expr(teams)}."

    def one(t):
        seats = [str(x) for x in t]
        if len(seats) == 1:
            return f"seat {seats[0]}"
        return "seats " + ", ".join(seats[:-1]) + " and " + seats[-1]
    return "Teams: " + " against ".join(one(t) for t in teams) + "."


def explain(ruleset, players: int | None = None, options: dict | None = None, width: int = 100) -> str:
    """The rules of ``ruleset`` (name, path or ``Ruleset``) in English, for ``players`` (default: every
    supported count in the deal table, the smallest elsewhere) and ``options``.

    Raises ``RulesetError`` (unreadable ruleset, bad options or player count).
    """
    from ..engine import Game
    from ..rules import read_ruleset
    rs = ruleset if not isinstance(ruleset, str) else read_ruleset(ruleset)
    game = Game(rs, players, options)
    ctx = _Ctx(game)
    data = game.data
    lo, hi = rs.players
    lines = [f"{rs.title} ({rs.name})", "=" * len(f"{rs.title} ({rs.name})")]
    if data.get("description"):
        lines.append(" ".join(str(data["description"]).split()))
    lines.append(f"Players: {lo}" + (f" to {hi}" if hi != lo else "") + (f"; explained for {players}." if players
                                                                         else "."))
    if data.get("source"):
        lines.append(f"Source: {data['source']}")
    lines += _options_set(rs, options, bool(data.get("description")))
    lines += _variant(rs)
    lines += ["", "Cards", "-----"] + _deck(game)
    if ctx.zones:
        lines += ["", "Zones", "-----"]
        for name, z in ctx.zones.items():
            vis = VISIBILITY.get(str(z.get("visibility", "owner" if z.get("owner") == "seat" else "all")),
                                 str(z.get("visibility")))
            owner = "each player's" if z.get("owner") == "seat" else "shared"
            if z.get("public_when") is not None:
                vis += (f"; seen by everyone while {expr(z['public_when'])} (p: its owner)" if z.get("owner") == "seat"
                        else f"; seen by everyone while {expr(z['public_when'])}")
            help_ = f" {z['help']}" if z.get("help") else ""
            lines.append(f"- {name} ({owner}, {vis}).{help_}")
    counts = [players] if players else list(range(lo, min(hi, lo + 15) + 1))
    lines += ["", "The deal, by number of players", "------------------------------"]
    games = {}

    def game_for(n):
        if n not in games:
            games[n] = game if n == game.n else Game(rs, n, options)
        return games[n]
    lines += _deal_sizes(game_for, counts)
    lines += ["", "A deal, step by step", "--------------------"]
    for i, spec in enumerate(data.get("deal") or [], 1):
        kind = step_kind(spec)
        body = spec if isinstance(spec, str) else spec.get(kind)
        fn = STEP_DESCRIBERS.get(kind)
        if fn is None:
            raise CardspecError(f"explain: no describer for the step kind '{kind}'")
        sid = f" [{spec['id']}]" if isinstance(spec, dict) and spec.get("id") else ""
        cond = f" (only when {expr(spec['if'])})" if isinstance(spec, dict) and spec.get("if") is not None else ""
        step_lines = fn(body if body is not None else {}, ctx)
        lines.append(f"{i}. {step_lines[0]}{cond}{sid}" if step_lines else f"{i}. ({kind}){sid}")
        lines += ["   " + x for x in step_lines[1:]]
    match = data.get("match") or {}
    lines += ["", "The match", "---------"]
    if match.get("deals") is not None:
        lines.append(_deals_line(match["deals"], games, counts))
    if match.get("end") is not None and match.get("end_at_once") is True:
        lines.append(f"It ends the moment {expr(match['end'])}"
                     f"{' (' + match['end_reason'] + ')' if match.get('end_reason') else ''}, even in the middle of a "
                     "deal: nothing after that moment is counted.")
    elif match.get("end") is not None:
        lines.append(f"It also ends after a deal in which {expr(match['end'])}"
                     f"{' (' + match['end_reason'] + ')' if match.get('end_reason') else ''}.")
    if match.get("stake") is not None:
        lines.append(f"The win is worth {expr(match['stake'])} games.")
    if match.get("rotate") in ("left", "right"):
        lines.append(f"The deal passes to the {match['rotate']} after each deal; the first dealer is seat "
                     f"{match.get('first_dealer', 0)}.")
    elif match.get("rotate") == "none":
        lines.append(f"The same player deals every deal (seat {match.get('first_dealer', 0)} first) unless the "
                     "rules below pass the deal on.")
    if match.get("next_player") is not None:
        lines.append(f"Play order: after each player comes {expr(match['next_player'])} (seat: that player).")
    if match.get("rounds") is not None:
        lines.append(f"The match is {expr(match['rounds'])} rounds; the same dealer deals until "
                     f"{expr(match.get('round_end', 'true'))}.")
    if match.get("next_dealer") is not None:
        lines.append(f"The next dealer is {expr(match['next_dealer'])}.")
    if data.get("sides"):
        sd = data["sides"]
        lines.append(f"Sides: the declarer {expr(sd.get('declarer', 'declarer'))} and the holder of the called card "
                     f"{expr(sd.get('called'))}, a secret partner until that card is played (alone when the "
                     "declarer holds it or nobody does).")
    if match.get("teams"):
        lines.append(_teams_line(match["teams"]))
    if match.get("score"):
        lines.append(f"The match score is the {match['score']} counter.")
    rank = match.get("ranking", "highest")
    if rank == "none":
        lines.append("Each player plays against the house: no ranking, no winner; the result is each seat's net "
                     "(the match score's change from its start).")
    else:
        loser = match.get("loser")
        if match.get("winner") is not None:
            lines.append(f"The match is won by {expr(match['winner'])} (read when it is over); when that names nobody, the "
                         f"{'lowest' if rank == 'lowest' else 'highest'} total wins.")
        else:
            lines.append(f"The {'lowest' if rank == 'lowest' else 'highest'} total wins"
                         + (f"; the {loser} total loses." if loser in ("highest", "lowest") else "."))
        if loser is not None and loser not in ("highest", "lowest"):
            lines.append(f"The match is lost by {expr(loser)} (every player it names).")
    defs = data.get("define") or {}
    if defs:
        lines += ["", "Definitions (names used above)", "------------------------------"]
        for k, v in defs.items():
            lines.append(f"- {k} = {expr(v)}")
    if rs.options:
        lines += ["", "Options (value in this explanation; --option NAME=VALUE changes it)",
                  "--------------------------------------------------------------------"]
        for k, spec in rs.options.items():
            val = game.options.get(k)
            val = ("true" if val else "false") if isinstance(val, bool) else val
            help_ = " ".join(str(spec.get("help", "")).split())
            lines.append(f"- {k} = {val}" + (f": {help_}" if help_ else ""))
    out = []
    for ln in lines:
        if len(ln) <= width:
            out.append(ln)
            continue
        indent = len(ln) - len(ln.lstrip(" "))
        lead = ln[indent:indent + 3] if ln[indent:indent + 2] in ("- ",) else ""
        numbered = re.match(r"\d+\. ", ln[indent:])   # a step "4. …" (a text opening with "6–11" is no step)
        sub = " " * (indent + len(lead) + (3 if numbered else 0))
        out += textwrap.wrap(ln, width, subsequent_indent=sub, break_long_words=False, break_on_hyphens=False)
    return "\n".join(out) + "\n"
