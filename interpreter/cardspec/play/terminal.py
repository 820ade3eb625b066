"""Playing a match from the terminal: bots, an optional human seat, and a log a card player can read."""
from __future__ import annotations

import json
import random

import click

from ..players import RandomBot, make_bot
from ..cards import CardError, normalize_code
from ..errors import IllegalAction
from ..rules import loglines
from ..engine.display import contract as contract_of


def _seat(s) -> str:
    return f"seat {s}"


class _Fields(dict):
    """Event fields for a ruleset's ``log:`` template; a missing field reads as '?'.

    Values read as a card player would: true/false as yes/no, lists of cards
    as codes separated by spaces.
    """

    def __init__(self, ev):
        super().__init__({k: _plain(v) for k, v in ev.items()})

    def __missing__(self, key):
        return "?"


def _plain(v):
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return " ".join(v)
    return v


SUMMARY_EVENTS = ("deal_start", "deal_score", "game_over")


def _ranking_line(ev) -> str:
    """``Ranking (best first): 1, 0 = 3 (tied), 2`` — sides with equal totals joined by ``=``."""
    scores = ev.get("scores") or {}
    groups = []
    for k in ev["ranking"]:
        total = scores.get(str(k), scores.get(k))
        if groups and total is not None and groups[-1][0] == total:
            groups[-1][1].append(k)
        else:
            groups.append((total, [k]))
    parts = [" = ".join(str(x) for x in g) + (" (tied)" if len(g) > 1 else "") for _t, g in groups]
    stake = ev.get("stake")
    worth = f"; the win is worth {stake} games" if isinstance(stake, int) and stake != 1 else ""
    return "Ranking (best first): " + ", ".join(parts) + worth


def format_events(game, events, seat=None, quiet: bool = False, tally=None) -> list:
    """Readable lines for a list of events (as returned by ``State.log``/``log_all``).

    Each deal ends with a summary: bids and tricks taken per seat (when the deal had them), the deal's
    points and the running totals. ``quiet``: only those summaries and the result. ``tally`` (a dict,
    optional) carries the deal's bids and tricks across calls when events arrive in pieces.
    """
    lines = []
    tally = {} if tally is None else tally
    for ev in events:
        t = ev.get("type")
        if t == "deal_start":
            tally.clear()
        elif t == "bid":   # a seat's last bid; a pass, a hold or a call (double) does not replace one
            bids = tally.setdefault("bids", {})
            if ev["bid"] in ("pass", "hold") or ev.get("call"):
                bids.setdefault(ev["seat"], "pass")
            else:
                bids[ev["seat"]] = ev["bid"]
        elif t == "trick" and not ev.get("carried"):
            took = tally.setdefault("tricks", {})
            taker = ev.get("taker", ev["winner"])   # the seat that took the cards (tricks: take:)
            took[taker] = took.get(taker, 0) + 1
        if quiet and t not in SUMMARY_EVENTS:
            continue
        if t == "deal_start":
            lines.append(f"Deal {ev['deal']} (dealer: seat {ev['dealer']})")
        elif t == "deal":
            zone = getattr(game, "zone", {}).get(ev["zone"])
            name = zone.label if zone is not None and zone.label else _words(ev["zone"])
            if "face_up" in ev:
                up = " ".join(ev["face_up"])
                if len(ev["face_up"]) == ev["count"]:   # all of them: "face up: 16 cards: …" says it once
                    lines.append(f"  {name}: {_n(ev['count'], 'card')}"
                                 f"{'' if 'face up' in name else ', all face up'}: {up}")
                else:
                    lines.append(f"  {name}: {_n(ev['count'], 'card')}, face up: {up}")
            elif "count" in ev and ev["count"]:
                # what every seat sees of a shared zone: its dealt cards (face up) or a pile's top card
                shown = (": " + " ".join(ev["cards"])) if ev.get("cards") else \
                    (f", top: {ev['top']}" if ev.get("top") else "")
                lines.append(f"  {name}: {_n(ev['count'], 'card')}{shown}")
            elif "each" in ev:
                lines.append(f"  dealt {ev['each']} cards to each {name}")
        elif t == "window":   # a decision out of the turn of play opens (its actions follow in the log)
            lines.append(f"  ({ev['name'].replace('_', ' ')}: a decision out of turn)")
        elif t == "pass":
            what = " ".join(ev["cards"]) if "cards" in ev else _n(ev['count'], 'card')
            lines.append(f"  seat {ev['seat']} passes {what} to seat {ev['to']}" if "to" in ev
                         else f"  seat {ev['seat']} puts {what} into the {ev['into'].replace('_', ' ')}")
        elif t == "bid":
            word = {"pass": "passes", "hold": "holds"}.get(ev["bid"])
            lines.append(f"  seat {ev['seat']} {word}" if word else f"  seat {ev['seat']}: {ev['bid']}"
                         if ev.get("call") else f"  seat {ev['seat']} bids {ev['bid']}")   # a call: "seat 3: double"
        elif t == "auction_end":
            lines.append(f"  seat {ev['declarer']} declares: {ev['bid']}")
        elif t == "all_pass":
            then = {"redeal": "the same dealer deals again", "throw_in": "the deal is thrown in"}.get(
                ev["then"], f"{ev['then']} is played")
            lines.append(f"  everyone passed: {then}")
        elif t == "partner":
            who = "the declarer himself (alone)" if ev.get("seat") == ev.get("declarer") else "the partner"
            lines.append(f"  seat {ev['seat']} plays the called card {ev['card']}: {who}")
        elif t == "dealer":
            lines.append(f"  seat {ev['seat']} deals")
        elif t == "sits_out":
            lines.append(f"  seat {ev['seat']} sits out this deal")
        elif t == "trump":
            lines.append(f"  trump: {ev['suit'] or 'none'}")
        elif t == "trick":
            cards = " ".join(f"{s}:{c}" for s, c in ev["cards"])
            cancelled = f"  cancelled: {' '.join(ev['cancelled'])}" if ev.get("cancelled") else ""
            if ev.get("carried"):
                who = "no card wins; carried to the next trick"
            elif ev.get("taker", ev["winner"]) != ev["winner"] or ev.get("next_leader", ev["winner"]) != ev["winner"]:
                # the seat that takes the cards, and the next leader when another seat (tricks: take:)
                taker, nxt = ev.get("taker", ev["winner"]), ev.get("next_leader", ev["winner"])
                who = f"seat {taker} takes the trick" + (f", seat {nxt} leads next" if nxt != taker else "")
            else:
                who = f"seat {ev['winner']} wins"
            lines.append(f"  trick {ev['number']:>2}: {cards}{cancelled} -> {who}")
        elif t == "deal_score":
            bids, took = tally.get("bids") or {}, tally.get("tricks") or {}
            if bids:
                lines.append("  bid/took    " + "; ".join(f"seat {k}: bid {bids[k]}, took {took.get(k, 0)}"
                                                          for k in sorted(bids)))
            elif took:
                lines.append("  tricks      " + ", ".join(f"{k}: {took.get(k, 0)}" for k in range(game.n)))
            tally.clear()
            pts = _per_side(game, ev["points"])
            lines.append(f"  deal score  {pts}")
            if "totals" in ev:
                lines.append("  totals      " + _per_side(game, ev["totals"]))
        elif t == "game_over":
            why = f" ({ev.get('reason') or 'the match ended'})"
            sc = ev["scores"]
            teams = getattr(game, "teams", None)
            totals = ", ".join(f"{_side(game, int(k))}: {v}" for k, v in sc.items()) \
                if teams and len(sc) == len(teams) else ", ".join(f"{k}: {v}" for k, v in sc.items())
            lines.append(f"Game over{why}. Totals: " + totals)
            if "net" in ev:   # match: ranking: none — each seat against the house, no winner
                c = game.score_counter   # its label in words (Chips -> chips), else its name
                unit = (c.label or c.name).lower() if c is not None else "points"
                lines.append("Against the house: " + ", ".join(f"{_side(game, int(k))} {v:+d} {unit}"
                                                               for k, v in ev["net"].items()))
                continue
            lines.append(_ranking_line(ev))
            if len(ev.get("winner") or []) > 1 and len(ev["winner"]) == len(ev["ranking"]):
                lines.append("Result: a draw")
            elif ev.get("winner"):
                lines.append("Winner: " + ", ".join(_side(game, x) for x in ev["winner"]))
            if ev.get("loser") and len(ev["loser"]) < len(ev["ranking"]):
                lines.append("Loser: " + ", ".join(_side(game, x) for x in ev["loser"]))
        elif t == "widow_taken":
            up = f"; face up: {' '.join(ev['face_up'])}" if ev.get("face_up") else ""   # public cards, named
            lines.append(f"  seat {ev['seat']} takes the widow ({_n(ev['cards'], 'card')}{up})")
        elif t == "choose":   # a decision inside a trick (tricks: choose:), e.g. naming a suit
            lines.append(f"  seat {ev['seat']}: {ev.get('word', 'chooses')} {_plain(ev.get('choice'))}")
        elif t == "action":
            lines.append(f"  seat {ev['seat']}: {ev['action']}")
        elif t == "reveal":
            who = f"seat {ev['seat']} shows" if "seat" in ev else "revealed:"
            lines.append(f"  {who} {' '.join(ev['cards'])}")
        elif t == "reshuffle":
            lines.append(f"  the discards ({ev['cards']} cards) are shuffled into a new stock")
        elif t == "turn_cap":
            lines.append(f"  turn cap: stop after {ev['turns']} turns")
        elif t in (game.data.get("log") or {}):   # the ruleset's own line for its events ({field} parts)
            lines.append("  " + loglines.render(str(game.data["log"][t]), _Fields(ev)))
        elif t in ("play", "shuffle", "deal_end", "pass_chosen", "turn"):
            continue
        else:
            fields = ", ".join(f"{k}={v}" for k, v in ev.items() if k != "type")
            lines.append(f"  {t}: {fields}")
    return lines


def _per_side(game, values) -> str:
    """``0: 3, 1: 5, …`` per seat; in a game with ``match: teams`` whose partners hold equal values (a
    partnership's total), one entry per team: ``team 0 (seats 0+2): 345, team 1 (seats 1+3): 855``."""
    teams = getattr(game, "teams", None)
    get = lambda s: values.get(str(s), values.get(s))   # noqa: E731 - keys are seats as text or ints
    if teams and all(len({get(s) for s in t}) == 1 for t in teams) and \
            {str(s) for t in teams for s in t} == {str(k) for k in values}:
        return ", ".join(f"{_side(game, k)}: {get(t[0])}" for k, t in enumerate(teams))
    return ", ".join(f"{k}: {v}" for k, v in values.items())


def _side(game, k) -> str:
    """``seat 3``, or ``team 1 (seats 1+3)`` in a partnership game."""
    teams = getattr(game, "teams", None)
    if teams and 0 <= k < len(teams):
        return f"team {k} (seats {'+'.join(str(x) for x in teams[k])})"
    return f"seat {k}"


def _join(actions) -> str:
    """Actions for a person, always separated the same way: ``QS | 2C``, ``meld 7H 8H 9H | draw``."""
    return " | ".join(actions)


def _words(name) -> str:
    """A zone or counter name as words: ``face_up`` -> ``face up``."""
    return str(name).replace("_", " ")


def _is_card(word) -> bool:
    try:
        normalize_code(word)
        return True
    except CardError:
        return False


def describe_legal(legal, limit=30, more: str = "'?' lists them") -> str:
    """The legal actions for a person (str). Up to ``limit`` are listed (``QS | 2C``); a longer list is
    summarised: actions that are a word and the same number (>1) of cards each become
    ``pass 3 cards, e.g. `pass 2C 3C 4C```, the rest are listed up to ``limit``, then a count."""
    if len(legal) <= limit:
        return "legal: " + _join(legal)
    groups = {}
    for a in legal:
        verb, *rest = a.split()
        groups.setdefault(verb, []).append(rest)
    parts, listed = [], []
    for verb, rests in groups.items():
        sizes = {len(r) for r in rests}
        if len(rests) > 1 and len(sizes) == 1 and min(sizes) > 1 and all(_is_card(w) for r in rests for w in r):
            parts.append(f"{verb} {_n(min(sizes), 'card')}, e.g. `{verb} {' '.join(rests[0])}`")
        else:
            listed += [" ".join([verb] + r) for r in rests]
    if listed:
        shown = listed if len(listed) <= limit else listed[:limit] + [f"… ({len(listed)} in all; {more})"]
        parts.insert(0, "legal: " + _join(shown))
    return "; or ".join(parts)


def _n(k, word) -> str:
    """``1 card``, ``3 cards``."""
    return f"{k} {word}" + ("" if k == 1 else "s")


def _show_view(game, view):
    hand = view["zones"].get("hand", {}).get(str(view["seat"]))
    if isinstance(hand, list):
        by_suit = {}
        names = game.deck.special_names   # special cards (docs/cards.md): grouped with the jokers, named below
        for c in hand:
            by_suit.setdefault(c[-1] if c != "JK" and c not in names else "*", []).append(c)
        click.echo("  your hand: " + "  ".join(" ".join(v) for v in by_suit.values()))
        held = [c for c in dict.fromkeys(hand) if c in names]
        if held:
            click.echo("  (" + ", ".join(f"{c} = {names[c]}" for c in held) + ")")
    if view.get("trick"):
        click.echo("  on the table: " + " ".join(f"{s}:{c}" for s, c in view["trick"]))
    if view.get("trump") is not None or view.get("bids_made") is not None:
        click.echo(f"  trump: {view.get('trump') or 'none'}")
    if view.get("bids_made"):
        click.echo("  bids: " + ", ".join(f"seat {k}: {b}" for k, b in view["bids_made"].items()))
    if view.get("passing"):
        click.echo(f"  you pass: {' '.join(view['passing'])}")
    for line in display_lines(view, contract=contract_of(game, view)):
        click.echo("  " + line)
    if view.get("secret_rule"):   # cardspec._secret: choosing a secret rule
        for line in secret_rule_lines(view):
            click.echo("  " + line)


#: How a person types a rule of their own (a secret-rule step; docs/dsl.md is the language).
WRITE_HELP = ("or write your own: write EXPRESSION [hint: TEXT] — a yes/no expression of card (the card to "
              "judge), last (the line's last card) and line, with suits, ranks and colours: "
              "write card.rank > last.rank hint: Upwards (docs/dsl.md)")


def secret_rule_lines(view) -> list:
    """Lines offering a secret rule to its chooser: each library rule as ``rule NAME: its words (hint)``,
    then how to write one (``WRITE_HELP``)."""
    out = ["choose the secret rule: a card may follow the last card of the line when …"]
    for r in (view.get("secret_rule") or {}).get("library", []):
        hint = f" (hint: {r['hint']})" if r.get("hint") else ""
        out.append(f"  rule {r['name']}: {r.get('words') or r['rule']}{hint}")
    out.append(WRITE_HELP)
    return out


def display_lines(view, counters: bool = True, contract: dict | None = None) -> list:
    """Lines for what a view shows a person, in the ruleset's words (``view["display"]``,
    engine/display.py): zones by kind (shared cards, a pile's top card, melds numbered as lay-offs name
    them, face-up cards, other seats' open cards), then each labelled counter (per seat or per team)
    and each labelled var. Never an unlabelled counter or var (docs/rulesets.md, "What a view shows")."""
    d = view.get("display") or {}
    me = view.get("seat")
    out = []
    for z in d.get("zones", []):
        label, owner = z["label"], z.get("owner")
        if z["kind"] == "melds":
            if z["melds"]:
                who = f" ({z['owner_label']})" if owner is not None else ""
                out.append(f"{label}{who}: " + "  ".join(f"{m['number']}) {' '.join(m['cards'])}" for m in z["melds"]))
        elif z["kind"] == "pile":
            out.append(f"{label}: top {z['top'] or '(empty)'} ({_n(z['count'], 'card')})")
        elif z["kind"] == "hidden":
            if z.get("face_up"):
                out.append(f"{label} face up: {' '.join(z['face_up'])} ({_n(z['count'], 'card')})")
            elif owner is None and z["count"]:   # a face-down pile: its size
                out.append(f"{label}: {_n(z['count'], 'card')} face down")
        elif z["cards"] and owner is None:
            out.append(f"{label}: {' '.join(z['cards'])}")
        elif z["cards"] and owner != me:
            out.append(f"{label} of {z['owner_label']}: {' '.join(z['cards'])}")
    for c in d.get("counters", []) if counters else []:   # (a front end with a score table: counters=False)
        vals = [f"{v['who']}: {v.get('text', v['value'])}" for v in c["values"] if v["value"] is not None]
        if vals:
            out.append(f"{c['label']}: " + ", ".join(vals))
    if d.get("vars"):
        out.append("; ".join(f"{v['label']}: {v['text']}" for v in d["vars"]))
    if d.get("sits_out_text"):   # a seat that sits this deal out (docs/rulesets.md)
        out.append(d["sits_out_text"])
    if contract:        # the standing high bid, then the contract (engine.display.contract)
        out.append(contract["text"][0].upper() + contract["text"][1:])
    return out


def ask_human(state, seat) -> str:
    """Ask a person for an action until a legal one is typed; 'q' quits, '?' lists the legal actions."""
    view = state.view(seat)
    _show_view(state.game, view)
    legal = view.get("legal_actions", [])
    click.echo("  " + describe_legal(legal))
    left = view.get("pass_left") or 0
    if left > 1 and legal:   # a pass listed one card at a time may be typed whole (issue 21)
        first = legal[0].split()[0]
        example = " ".join(a.split()[-1] for a in legal[:left])
        click.echo(f"  (or the {left} cards in one line: `{first} {example}`)")
    while True:
        try:
            text = click.prompt(f"seat {seat}", prompt_suffix="> ", default="", show_default=False)
        except (click.exceptions.Abort, EOFError):
            click.echo("")
            click.echo("input ended: the game was abandoned before its end", err=True)
            raise SystemExit(1)
        text = text.strip()
        if text in ("q", "quit", "exit"):
            click.echo("you quit: the game was abandoned before its end", err=True)
            raise SystemExit(1)
        if text in ("?", "help", ""):
            click.echo("  " + describe_legal(legal, limit=100))
            continue
        try:
            return state.parse_action(text)
        except IllegalAction as e:
            click.echo(f"  {e}. Try again.")   # the reason and the legal actions (IllegalAction.__str__)


def make_bots(game, seed, specs: str | None = None) -> dict:
    """seat -> the bot ``cardspec play`` (and ``cardspec tui``) uses there, seeded from ``seed``.

    ``specs``: the opponents asked for (``--bots``), one spec for every seat or a comma-separated spec per
    seat (the last repeats), as ``cardspec simulate`` reads them: ``random``, ``policy:NAME`` (the
    ruleset's ``bots:`` policy), ``ismcts:500``, ``ismcts:0.5s``, ``meld``, ``induction``. Without them:
    the ruleset's default bot (``bots: default:``: a meld or induction bot), else a random bot.
    Raises ``ValueError`` for an unknown bot or policy (the message lists the known ones)."""
    if specs:
        parts = [p.strip() for p in str(specs).split(",") if p.strip()]
        if not parts:
            raise ValueError("--bots names no bot")
        return {i: make_bot(parts[min(i, len(parts) - 1)], random.Random(f"{seed}-bot-{i}").randrange(2 ** 32), game)
                for i in range(game.n)}
    bot_rng = random.Random(f"{seed}-bots")
    from ..players.meld import from_ruleset   # a ruleset may name its default bot (bots: default: {bot: meld})
    default = from_ruleset(game)
    from ..players.induction import from_ruleset as _induction   # or an induction bot (bots: default: {bot: induction})
    return {i: default or _induction(game, f"{seed}-induction-{i}") or RandomBot(bot_rng.random())
            for i in range(game.n)}


def person_opponents(game) -> str | None:
    """The opponents a person sits down with when none are named (``cardspec tui``, ``cardspec play
    --human``): the first of ``players.offered_opponents`` — the ruleset's own bot (None: ``make_bots``
    builds it from the ruleset's ``bots: default:``), else its first policy, else a searching bot — as a
    ``make_bots`` spec (issue 35: "a sensible default that plays the game (not random)")."""
    from ..players import offered_opponents
    own = (game.data.get("bots") or {}).get("default")
    if isinstance(own, dict) and "bot" in own:
        return None
    return offered_opponents(game.data)[0]["spec"]


def play_match(game, seed=0, dealer=None, human=None, as_json=False, out=click.echo, quiet=False, bots=None):
    """Play one match; bots act from their view only. Returns the final state.

    ``quiet``: print only each deal's summary and the result (not with ``human``); ``bots``: the
    opponents' specs (``make_bots``)."""
    state = game.new_state(seed=seed, dealer=dealer)
    if human is not None and not bots:   # a person plays against opponents that play the game
        bots = person_opponents(game)
    bots = make_bots(game, seed, bots)
    shown = 0
    tally = {}     # the current deal's bids and tricks, for its summary, across the human's log pieces
    while not state.terminal:
        seat = state.to_act
        if human is not None and seat == human:
            if not as_json:
                for line in format_events(game, state.log(human)[shown:], human, tally=tally):
                    out(line)
                shown = len(state.log(human))
            action = ask_human(state, seat)
        else:
            view = state.view(seat, log=bots[seat].wants_log)
            action = bots[seat].act(view, view["legal_actions"])
        state.apply(action)
    if as_json:
        result = {"events": state.log_all() if human is None else state.log(human), "terminal": state.terminal,
                  "to_act": state.to_act, "legal_actions": [], "scores": state.scores()}
        out(json.dumps(result, indent=1))
    else:
        events = state.log_all() if human is None else state.log(human)[shown:]
        for line in format_events(game, events, human, quiet=quiet and human is None, tally=tally):
            out(line)
    return state
