"""``cardspec tui``: a terminal card table on Textual (the optional extra ``cardspec[tui]``).

Built only on what any front end has: the seat's view (``State.view(seat)``, its ``display`` part in
the ruleset's words), the legal actions' text forms and the seat's log (``State.log(seat)``). Nothing
here knows a game: cards are codes, actions are text.

- the hand, sorted and grouped by suit, suits coloured (``--ascii``: letters S H D C, no colour needed);
  the cards that some legal action uses are highlighted; the hand wraps onto more rows when it does not
  fit the width;
- a card click (or ←/→ and Enter/Space) plays it when the legal action is that card alone (a card to a
  trick); any other action with cards (a pass, a meld, a lay-off, a discard) is a compound choice: the
  card is selected, the buttons under the hand offer the legal actions that are exactly the selected
  cards, labelled with what they do ("pass 3 cards: 2♣ 3♣ 4♣"), Esc undoes the selection, the button
  confirms. A pass listed one card at a time (``pass_left`` > 1) is confirmed whole;
- the actions that use no card (draw, done, bid 3, raise 10 …) are buttons too, wrapped onto rows and
  scrolled; ↓ moves from the hand to the buttons, ↑ back, ←/→ along them, Enter presses (every action is
  reachable by keyboard alone: ``KEYS``);
- a command line (``:``) takes any action as text (``bid 3``, ``lay off 2 4H``); a refused one shows the
  engine's reason on the status line (wrapped, never cut) and changes nothing;
- the status line says whose turn it is (waiting for which seat), the score table shows the labelled
  counters (per seat or per team), the table the trick, trumps, zones, labelled vars and the contract,
  then what happened since the person's last move (a settled hand stays in sight until the next
  action); the event log the play log a card player reads (``play.format_events``), wrapped; card codes
  in the table and the log are drawn as the hand draws them (``10♥``);
- the other seats are bots (``play.make_bots``; by default the game's own bot or first policy, else a
  searching bot: ``play.terminal.person_opponents``) that act one per ``delay`` seconds.

``cardspec play --human`` stays the fallback without Textual.
"""
from __future__ import annotations

import re
from collections import Counter

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Footer, Input, RichLog, Static

from ..cards import CardError, normalize_code
from ..errors import CardspecError, IllegalAction
from .terminal import WRITE_HELP, describe_legal, display_lines, format_events, make_bots, person_opponents
from ..engine.display import contract as contract_of

__all__ = ["CardTableApp", "KEYS", "card_text", "hand_groups", "playable_cards", "symbolize", "pack_rows"]

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_STYLE = {"S": "bold", "H": "bold red", "D": "bold red", "C": "bold"}
SUIT_ORDER = ["S", "H", "C", "D"]     # alternating colours
#: at most this many action buttons are drawn (the command line takes any other action as text)
MAX_BUTTONS = 60
#: lines of "since your last move" drawn on the table (the log has them all)
SINCE_LINES = 8

#: The keys of the table (docs/tui.md); ``?`` shows them on the screen.
KEYS = (
    ("← →", "move along the hand (or along the buttons)"),
    ("↓ ↑", "from the hand to the action buttons and back"),
    ("Enter / Space", "play the card, select it (a compound choice), or press the button"),
    ("Esc", "undo the selection (and leave the command line)"),
    (":", "type an action as text (bid 3, lay off 2 4H, write card.rank > last.rank)"),
    ("Tab", "the next widget"),
    ("?", "these keys"),
    ("q", "quit"),
)

_CODE = re.compile(r"(?<![A-Za-z0-9_])(10|[2-9TJQKA])([SHDC])(?![A-Za-z0-9_])")


def _suit(code: str) -> str:
    return "*" if code == "JK" else code[-1]


def card_text(code: str, ascii_only: bool = False, names: dict | None = None) -> Text:
    """A card as Rich text: ``10♥`` in red (``TH`` with ``ascii_only``, no colour); a special card of the
    deck (``names``: the view's ``card_names``, code → name; docs/cards.md) by its name."""
    if names and code in names:
        return Text(code if ascii_only else names[code], style="" if ascii_only else "bold magenta")
    if code == "JK":
        return Text("JK", style="" if ascii_only else "bold magenta")
    rank, suit = code[:-1], code[-1]
    if ascii_only:
        return Text(rank + suit)
    return Text(("10" if rank == "T" else rank) + SUIT_SYMBOL.get(suit, suit), style=SUIT_STYLE.get(suit, "bold"))


def symbolize(line: str, ascii_only: bool = False) -> Text:
    """A line of text (a display line, a log line, an action) with every card code in it drawn as the hand
    draws cards (``8S JK 2D`` → ``8♠ JK 2♦``, coloured); unchanged with ``ascii_only``. Card codes are
    upper-case words (``AS``, ``TH``), so words of a sentence are never taken for one."""
    if ascii_only:
        return Text(line)
    out, at = Text(), 0
    for m in _CODE.finditer(line):
        out.append(line[at:m.start()])
        out.append_text(card_text(("T" if m.group(1) == "10" else m.group(1)) + m.group(2)))
        at = m.end()
    out.append(line[at:])
    return out


def hand_groups(hand: list) -> list:
    """The hand's cards grouped by suit, in alternating colours (the view's order within a suit)."""
    groups = {}
    for c in hand:
        groups.setdefault(_suit(c), []).append(c)
    order = [s for s in SUIT_ORDER if s in groups] + [s for s in groups if s not in SUIT_ORDER]
    return [groups[s] for s in order]


def pack_rows(widths: list, room: int) -> list:
    """Items of the given widths (cells) packed left to right into rows of at most ``room`` cells: a list
    of rows, each a list of item indexes (an item wider than ``room`` has a row of its own)."""
    rows, row, used = [], [], 0
    for i, w in enumerate(widths):
        if row and used + w > room:
            rows.append(row)
            row, used = [], 0
        row.append(i)
        used += w
    if row:
        rows.append(row)
    return rows


def _is_card(word: str, names=()) -> bool:
    if word in names:
        return True
    try:
        normalize_code(word)
        return True
    except CardError:
        return False


def _cards_of(action: str, names=()) -> list:
    return [w for w in action.split() if _is_card(w, names)]


def playable_cards(legal: list, hand: list) -> set:
    """Codes of the hand's cards that some legal action uses (highlighted)."""
    held = set(hand)
    return {w for a in legal for w in a.split() if w in held}


def whole_passes(left: int, legal: list, selected: list) -> list:
    """A pass listed one card at a time (``pass 2C`` for each card, ``left`` > 1 still to choose) offered
    whole: the one action ``pass 2C 3C 4C`` when ``selected`` holds ``left`` distinct cards each of which
    may be passed (the engine reads it as the ``left`` passes), else nothing."""
    if left < 2 or not legal or not all(a.startswith("pass ") and len(a.split()) == 2 for a in legal):
        return []
    passable = {a.split()[1] for a in legal}
    if len(selected) == left and len(set(selected)) == left and set(selected) <= passable:
        return ["pass " + " ".join(selected)]
    return []


def action_label(action: str, names=(), view: dict | None = None) -> str:
    """What a button says it will do: a word and N cards (N > 1) as ``pass 3 cards: 2C 3C 4C``; a library
    rule of a secret-rule step (``rule NAME``) by its words (the view's ``secret_rule``); any other action
    as its text (card codes are drawn as symbols by ``symbolize``)."""
    words = action.split()
    if view and view.get("secret_rule") and len(words) == 2 and words[0] == "rule":
        for r in view["secret_rule"].get("library", []):
            if r.get("name") == words[1] and r.get("words"):
                return r["words"]
    cards = [w for w in words[1:] if _is_card(w, names)]
    if len(words) > 2 and len(cards) > 1 and not _is_card(words[0], names):
        rest = [w for w in words[1:] if not _is_card(w, names)]
        head = " ".join([words[0]] + rest)
        return f"{head} {len(cards)} cards: {' '.join(cards)}"
    return action



def since_lines(lines: list, limit: int) -> list:
    """The lines of "Since your last move" (``format_events`` lines) cut to about ``limit``: the first move
    (the person's action and its result) and the latest moves, whole — a move's result, indented under it,
    is never shown without the move it belongs to (a result such as "a tie, nothing moves" under another
    seat's move) — with one line ``  … (N moves)`` for those left out, which the log pane still shows."""
    if len(lines) <= limit:
        return list(lines)
    depths = [len(ln) - len(ln.lstrip(" ")) for ln in lines]
    base = min(depths[1:])   # the moves' own indent; a heading above it (a new deal) is a move of its own
    moves = []   # a move: a line and the more-indented lines under it
    for ln, depth in zip(lines, depths):
        if moves and depth > base:
            moves[-1][1].append(ln)
        else:
            moves.append((depth, [ln]))
    first, rest = moves[0][1], moves[1:]
    tail, room = [], max(limit - len(first) - 1, 1)
    while rest and (not tail or len(rest[-1][1]) <= room):
        block = rest.pop()[1]
        tail[:0] = block
        room -= len(block)
    if not rest:
        return first + tail
    return first + [f"  … ({len(rest)} {'move' if len(rest) == 1 else 'moves'}: see the log)"] + tail

class Rows(VerticalScroll, inherit_bindings=False):
    """Rows of buttons that scroll when they do not fit (the hand, the actions); its arrow keys are the
    table's (``KEYS``), so it takes none of its own and is never focused itself."""

    can_focus = False


class CardButton(Button):
    """One card of the hand (a button: mouse or keyboard)."""

    def __init__(self, code: str, index: int, ascii_only: bool, classes: str = "", names: dict | None = None):
        super().__init__(card_text(code, ascii_only, names), classes=("card " + classes).strip(), compact=True)
        self.code = code
        self.index = index


class ActionButton(Button):
    """A legal action as a button, labelled with what it does (``action_label``); ``action_text`` is what
    it sends."""

    def __init__(self, action: str, index: int, ascii_only: bool = False, names: dict | None = None,
                 view: dict | None = None, room: int = 0):
        label = action_label(action, names or (), view)
        if room and len(label) > room:   # wider than the screen (a rule in words): cut with an ellipsis
            label = label[:room - 1] + "…"
        super().__init__(symbolize(label, ascii_only), classes="action", compact=True)
        self.action_text = action
        self.index = index


class CardTableApp(App):
    """One seat of a match played in the terminal; the other seats are bots.

    ``game``: a loaded ``Game``; ``seat``: the person's seat; ``seed``: the deal and bot seed;
    ``delay``: seconds between bot actions (0 in tests); ``ascii_only``: suit letters, no colour;
    ``bots``: the opponents (``make_bots`` specs; default ``person_opponents(game)``)."""

    CSS = """
    Screen { layout: vertical; }
    #status { height: auto; max-height: 4; background: $boost; padding: 0 1; }
    #status.mine { background: $success 40%; }
    #status.over { background: $warning 40%; }
    #middle { height: 1fr; min-height: 6; }
    #left { width: 2fr; }
    #table { height: auto; padding: 0 1; }
    #scores { height: auto; padding: 0 1; }
    #since { height: auto; padding: 0 1; color: $text-muted; }
    #log { width: 1fr; border-left: solid $primary; }
    #hand { height: auto; max-height: 4; border-top: solid $primary; }
    #actions { height: auto; max-height: 4; }
    .row { height: 1; width: 100%; }
    .card { min-width: 4; width: auto; margin: 0 1 0 0; }
    .card.legal { background: $success 30%; }
    .card.selected { background: $accent; }
    .card.idle { opacity: 60%; }
    .action { width: auto; min-width: 4; margin: 0 1 0 0; }
    #command { height: 1; border: none; padding: 0 1; background: $boost; }
    """
    BINDINGS = [
        Binding("left", "move(-1)", "back", show=True),
        Binding("right", "move(1)", "next", show=True),
        Binding("down", "row(1)", "buttons", show=True),
        Binding("up", "row(-1)", "hand", show=True),
        Binding("enter", "choose", "play/select", show=True, priority=False),
        Binding("space", "choose", "play/select", show=False),
        Binding("escape", "clear", "undo"),
        Binding("colon", "command", "type"),
        Binding("question_mark", "keys", "keys"),
        Binding("q", "quit", "quit"),
    ]

    AUTO_FOCUS = None   # the hand takes the focus (``_restore_focus``), not the command line

    def __init__(self, game, seat: int = 0, seed=0, delay: float = 0.4, ascii_only: bool = False,
                 bots: str | None = None):
        super().__init__()
        self.game = game
        self.seat = seat
        self.seed = seed
        self.delay = delay
        self.ascii_only = ascii_only
        self.state = game.new_state(seed=seed)
        self.bots = make_bots(game, seed, bots if bots else person_opponents(game))
        self.shown = 0            # events of the seat's log already in the event log
        self.tally = {}           # format_events' running deal summary
        self.selected = []        # indexes into the hand
        self.cursor = 0
        self.message = ""         # the last refusal or note, on the status line
        self.view = None
        self.card_names = dict(game.deck.special_names)   # special cards by name (docs/cards.md)
        self.hand = []
        self.legal = []
        self._bot_timer = None
        self.played = []          # the person's actions, in order
        self.since = 0            # the seat's log length before the person's last action

    # ---------- layout ----------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="middle"):
            with VerticalScroll(id="left"):
                yield Static(id="scores")
                yield Static(id="table")
                yield Static(id="since")
            yield RichLog(id="log", wrap=True, markup=False, min_width=10)
        yield Rows(id="hand")
        yield Rows(id="actions")
        yield Input(placeholder="':' type an action (bid 3, lay off 2 4H) and Enter; '?' keys", id="command",
                    compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"cardspec: {self.game.data.get('title') or self.game.name} (seat {self.seat})"
        self.refresh_table()
        self._schedule_bots()

    def on_resize(self, event) -> None:
        if self.view is not None:
            place = self._focus_place()
            self._draw_hand()
            self._draw_actions()
            self._restore_focus(place)

    # ---------- game flow ----------
    def _schedule_bots(self) -> None:
        if self.state.terminal or self.state.to_act == self.seat:
            return
        if self._bot_timer is None:
            if self.delay > 0:
                self._bot_timer = self.set_timer(self.delay, self._bot_step)
            else:
                self._bot_timer = True
                self.call_later(self._bot_step)

    def _bot_step(self) -> None:
        self._bot_timer = None
        s = self.state
        if s.terminal or s.to_act == self.seat:
            return
        seat = s.to_act
        bot = self.bots[seat]
        view = s.view(seat, log=bot.wants_log)
        s.apply(bot.act(view, view["legal_actions"]))
        self.refresh_table()
        self._schedule_bots()

    def play(self, text: str) -> bool:
        """Apply ``text`` for the person's seat; a refusal shows its reason and changes nothing."""
        s = self.state
        if s.terminal:
            self.message = "the match is over"
        elif s.to_act != self.seat:
            self.message = f"not your turn: waiting for seat {s.to_act}"
        else:
            before = len(s.log(self.seat))
            try:
                s.apply(s.parse_action(text))
            except IllegalAction as e:
                self.message = f"'{text}' is {e.reason}"
                self.refresh_table()
                return False
            except CardspecError as e:
                self.message = str(e)
                self.refresh_table()
                return False
            self.message = f"you: {text}"
            if not isinstance(self.focused, Input):
                self.set_focus(None)   # after an action the focus goes back to the hand
            self.played.append(text)
            self.selected = []
            self.since = before
        self.refresh_table()
        self._schedule_bots()
        return True

    # ---------- drawing ----------
    def _focus_place(self):
        """Where the focus is, as (kind, index): kind "hand", "actions" or "command" (None: nowhere)."""
        f = self.focused
        if isinstance(f, CardButton):
            return ("hand", f.index)
        if isinstance(f, ActionButton):
            return ("actions", f.index)
        if isinstance(f, Input):
            return ("command", 0)
        return None

    def _restore_focus(self, place) -> None:
        """Put the focus back where it was once the redrawn buttons are mounted (a redraw replaces them):
        the same card or button, the nearest one when it is gone, else the hand."""
        def restore():
            if place and place[0] == "command":
                return
            if place and place[0] == "actions" and list(self.query(ActionButton)):
                self._focus_widget(ActionButton, place[1])
            elif self.hand:
                self._focus_widget(CardButton, place[1] if place and place[0] == "hand" else self.cursor)
            elif list(self.query(ActionButton)):
                self._focus_widget(ActionButton, 0)
        self.call_after_refresh(restore)

    def refresh_table(self) -> None:
        place = self._focus_place()
        s = self.state
        self.view = v = s.view(self.seat)
        hand = v["zones"].get("hand", {})
        hand = hand.get(str(self.seat)) if isinstance(hand, dict) else None
        self.hand = [c for g in hand_groups(hand) for c in g] if isinstance(hand, list) else []
        self.legal = v.get("legal_actions", []) if s.to_act == self.seat and not s.terminal else []
        self.selected = [i for i in self.selected if i < len(self.hand)]
        self.cursor = min(self.cursor, max(len(self.hand) - 1, 0))
        self._draw_status(v)
        self._draw_scores(v)
        self._draw_table(v)
        self._draw_since()
        self._draw_log()
        self._draw_hand()
        self._draw_actions()
        self._restore_focus(place)

    def _draw_status(self, v) -> None:
        st = self.query_one("#status", Static)
        st.remove_class("mine", "over")
        if v["terminal"]:
            st.add_class("over")
            text = "Game over. " + ", ".join(f"{k}: {x}" for k, x in (v.get("scores") or {}).items())
        elif v["to_act"] == self.seat:
            st.add_class("mine")
            if v.get("secret_rule"):
                text = "Your turn — choose the secret rule: each button below says one in words (↓ ↑ ← → move, " \
                       "Enter picks the one in focus), or press ':' to write your own"
            elif self._whole_pass():
                text = f"Your turn — select {v['pass_left']} cards to pass (Enter on each), then confirm them " \
                       "with their button (↓, Enter); Esc undoes"
            else:
                text = "Your turn — " + describe_legal(self.legal, limit=8, more="the buttons below, or ':' to type one")
        else:
            text = f"Waiting for seat {v['to_act']} (bot)…"
        if self.message:   # first: a refusal's reason is never the part cut off
            text = f"[{self.message}]  " + text
        st.update(symbolize(text, self.ascii_only))

    def _draw_scores(self, v) -> None:
        counters = v["display"]["counters"]
        box = self.query_one("#scores", Static)
        if not counters:
            box.update("")
            return
        rows, mine = {}, set()
        for c in counters:
            for val in c["values"]:
                rows.setdefault(val["who"], {})[c["label"]] = val.get("text", val["value"])
                if self.seat in val["seats"]:
                    mine.add(val["who"])
        t = Table(title="Scores", show_edge=False, pad_edge=False)
        t.add_column("")
        labels = [c["label"] for c in counters]
        for lab in labels:
            t.add_column(lab, justify="right")
        for who, vals in rows.items():
            me = who in mine
            t.add_row(Text(who + (" (you)" if me else ""), style="bold" if me else ""),
                      *["" if vals.get(lab) is None else str(vals[lab]) for lab in labels])
        box.update(t)

    def _draw_table(self, v) -> None:
        out = Text()
        if v.get("trick"):
            out.append("On the table: ")
            for s, c in v["trick"]:
                out.append(f"seat {s} ")
                out.append_text(card_text(c, self.ascii_only, v.get("card_names")))
                out.append("  ")
            out.append("\n")
        if v.get("trump") is not None:
            t = v["trump"]
            out.append("Trump: ")
            out.append_text(card_text("2" + t, self.ascii_only)[-1:] if t in SUIT_SYMBOL else Text(str(t)))
            out.append("\n")
        for line in display_lines(v, counters=False, contract=contract_of(self.game, v)):   # counters: the score table
            out.append_text(symbolize(line, self.ascii_only))
            out.append("\n")
        if v.get("secret_rule") and v.get("to_act") == self.seat:   # choosing a secret rule: its buttons say
            out.append("Choose the secret rule by its words (a card may follow the last card when …), ", style="bold")
            out.append("press ':' to " + WRITE_HELP.removeprefix("or ") + "\n")
        self.query_one("#table", Static).update(out)

    def _draw_since(self) -> None:
        """What happened since the person's last move (their action, its result, the bots' moves), kept in
        sight until the next one — a hand that settles and clears its cards is still readable here."""
        box = self.query_one("#since", Static)
        if not self.played:
            box.update("")
            return
        lines = format_events(self.game, self.state.log(self.seat)[self.since:], self.seat, tally={})
        lines = [ln for ln in lines if ln.strip()]
        if not lines:
            box.update("")
            return
        out = Text("Since your last move:\n", style="bold")
        lines = since_lines(lines, SINCE_LINES)
        for ln in lines:
            out.append_text(symbolize(ln, self.ascii_only))
            out.append("\n")
        box.update(out)

    def _draw_log(self) -> None:
        log = self.state.log(self.seat)
        new = log[self.shown:]
        self.shown = len(log)
        widget = self.query_one("#log", RichLog)
        for line in format_events(self.game, new, self.seat, tally=self.tally):
            widget.write(symbolize(line, self.ascii_only))

    def _room(self) -> int:
        """Cells across for a row of buttons."""
        return max(20, (self.size.width or 80) - 2)

    def _mount_rows(self, box, buttons, widths) -> None:
        box.remove_children()
        rows = [Horizontal(*[buttons[i] for i in row], classes="row") for row in pack_rows(widths, self._room())]
        box.mount_all(rows)

    def _draw_hand(self) -> None:
        box = self.query_one("#hand", Rows)
        playable = playable_cards(self.legal, self.hand)
        buttons, widths = [], []
        for i, c in enumerate(self.hand):
            cls = "selected" if i in self.selected else "legal" if c in playable else "idle"
            b = CardButton(c, i, self.ascii_only, cls, self.card_names)
            buttons.append(b)
            widths.append(max(4, len(b.label.plain) + 2) + 1)
        self._mount_rows(box, buttons, widths)

    def _choices(self) -> list:
        """Legal actions to offer as buttons: a whole pass of the selected cards, the actions that are
        exactly the selected cards, then those using no card of the hand (draw, done, bid 3, call 8H …),
        at most ``MAX_BUTTONS``."""
        chosen = [self.hand[i] for i in self.selected]
        whole = whole_passes((self.view or {}).get("pass_left") or 0, self.legal, chosen)
        sel, held = Counter(chosen), Counter(self.hand)
        whole_mode = self._whole_pass()   # a pass chosen whole: no button passes fewer cards
        exact, plain = [], []
        for a in self.legal:
            cards = Counter(_cards_of(a, self.card_names))
            if not cards or cards - held:   # no card, or a card not in the hand (call 8H): a button of its own
                plain.append(a)
            elif sel and cards == sel and not whole_mode:
                exact.append(a)
        return (whole + exact + plain)[:MAX_BUTTONS]

    def _draw_actions(self) -> None:
        box = self.query_one("#actions", Rows)
        buttons = [ActionButton(a, i, self.ascii_only, self.card_names, self.view, self._room() - 3)
                   for i, a in enumerate(self._choices())]
        self._mount_rows(box, buttons, [max(4, len(b.label.plain) + 2) + 1 for b in buttons])

    # ---------- input ----------
    def _whole_pass(self) -> bool:
        """Whether the legal actions are a pass listed one card at a time with more than one card left
        to choose (chosen whole: ``whole_passes``)."""
        left = (self.view or {}).get("pass_left") or 0
        return left > 1 and bool(self.legal) and all(a.startswith("pass ") and len(a.split()) == 2 for a in self.legal)

    def choose_card(self, index: int) -> None:
        """A card clicked or chosen with Enter: played when the one legal action using it is that card
        alone (a card to a trick); any action with more than the card (a word: pass, meld, lay off,
        discard) is a compound choice, so the card is added to (or taken out of) the selection and the
        action buttons offer what the selection makes, to confirm."""
        if not (0 <= index < len(self.hand)):
            return
        self.cursor = index
        code = self.hand[index]
        if not self.legal or code not in playable_cards(self.legal, self.hand):
            self.play(code)   # not my turn, or no legal action uses the card: the reason, nothing changes
            return
        if not self.selected and not self._whole_pass():
            using = [a for a in self.legal if code in _cards_of(a, self.card_names)]
            if using == [code]:
                self.play(code)
                return
        if index in self.selected:
            self.selected.remove(index)
        else:
            self.selected.append(index)
        self._note_selection()
        place = self._focus_place()
        self._draw_hand()
        self._draw_actions()
        self._draw_status(self.view)
        self._restore_focus(place or ("hand", index))

    def _note_selection(self) -> None:
        if not self.selected:
            self.message = ""
            return
        chosen = " ".join(self.hand[i] for i in self.selected)
        choices = self._choices()
        made = [a for a in choices if _cards_of(a, self.card_names)]
        left = (self.view or {}).get("pass_left") or 0
        if made:
            self.message = f"selected: {chosen} — ↓ then Enter to confirm: {action_label(made[0], self.card_names)}" + \
                (f" (or {len(made) - 1} more)" if len(made) > 1 else "") + "; Esc undoes"
        elif left > 1 and self._whole_pass():
            self.message = f"selected: {chosen} — choose {left - len(self.selected)} more to pass; Esc undoes"
        else:
            self.message = f"selected: {chosen} — no action is exactly these cards yet; Esc undoes"

    def on_button_pressed(self, event: Button.Pressed) -> None:
        b = event.button
        if isinstance(b, CardButton):
            self.choose_card(b.index)
        elif isinstance(b, ActionButton):
            self.play(b.action_text)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.play(text)

    def _focus_widget(self, kind, index: int) -> None:
        items = list(self.query(kind))
        if items:
            k = max(0, min(index, len(items) - 1))
            items[k].focus()
            if kind is CardButton:
                self.cursor = k

    def action_move(self, step: int) -> None:
        focused = self.focused
        if isinstance(focused, Input):
            return
        if isinstance(focused, ActionButton):
            items = list(self.query(ActionButton))
            if items:
                k = (items.index(focused) + step) % len(items) if focused in items else 0
                items[k].focus()
            return
        if not self.hand:
            return
        self.cursor = (self.cursor + step) % len(self.hand)
        self._focus_widget(CardButton, self.cursor)

    def action_row(self, step: int) -> None:
        """↓: from the hand to the first row of action buttons, then row by row; ↑: row by row back up,
        then to the hand's card under the cursor."""
        focused = self.focused
        if isinstance(focused, Input):
            return
        rows = [list(r.query(ActionButton)) for r in self.query_one("#actions", Rows).children]
        rows = [r for r in rows if r]
        if not isinstance(focused, ActionButton):
            if step > 0 and rows:
                rows[0][0].focus()
            return
        at = next((k for k, r in enumerate(rows) if focused in r), 0)
        col = rows[at].index(focused) if focused in rows[at] else 0
        to = at + step
        if 0 <= to < len(rows):
            rows[to][min(col, len(rows[to]) - 1)].focus()
        elif to < 0 and self.hand:
            self._focus_widget(CardButton, self.cursor)

    def action_choose(self) -> None:
        focused = self.focused
        if isinstance(focused, (CardButton, ActionButton)):
            focused.press()
        elif isinstance(focused, Input):
            return
        elif self.hand:
            self.choose_card(self.cursor)

    def action_clear(self) -> None:
        self.selected = []
        self.message = ""
        if isinstance(self.focused, Input):
            self.focused.value = ""
            self.set_focus(None)
        self.refresh_table()

    def action_command(self) -> None:
        self.query_one("#command", Input).focus()

    def action_keys(self) -> None:
        if isinstance(self.focused, Input):
            return
        self.notify("\n".join(f"{k}: {what}" for k, what in KEYS), title="Keys", timeout=8)
