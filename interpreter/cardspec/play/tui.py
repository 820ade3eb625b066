"""``cardspec tui``: a terminal card table on Textual (the optional extra ``cardspec[tui]``).

Built only on what any front end has: the seat's view (``State.view(seat)``, its ``display`` part in
the ruleset's words), the legal actions' text forms and the seat's log (``State.log(seat)``). Nothing
here knows a game: cards are codes, actions are text.

- the hand, sorted and grouped by suit, suits coloured (``--ascii``: letters S H D C, no colour needed);
  the cards that some legal action uses are highlighted;
- a card click (or ←/→ and Enter/Space) plays it when one legal action is that card alone, else selects it;
  the buttons under the hand are the legal actions that are exactly the selected cards (a pass, a meld,
  a lay-off), then the actions that use no card (draw, done, bid 3, raise 10 …, up to ``MAX_BUTTONS``);
- a command line takes any action as text (``bid 3``, ``lay off 2 4H``); a refused one shows the
  engine's reason on the status line and changes nothing;
- the status line says whose turn it is (waiting for which seat), the score table shows the labelled
  counters (per seat or per team), the event log the play log a card player reads (``play.format_events``);
- the other seats are bots (``play.make_bots``) that act one per ``delay`` seconds.

``cardspec play --human`` stays the fallback without Textual.
"""
from __future__ import annotations

from collections import Counter

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Footer, Input, RichLog, Static

from ..cards import CardError, normalize_code
from ..errors import CardspecError, IllegalAction
from .terminal import describe_legal, display_lines, format_events, make_bots
from ..engine.display import contract as contract_of

__all__ = ["CardTableApp", "card_text", "hand_groups", "playable_cards"]

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_STYLE = {"S": "bold", "H": "bold red", "D": "bold red", "C": "bold"}
SUIT_ORDER = ["S", "H", "C", "D"]     # alternating colours
MAX_BUTTONS = 24


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


def hand_groups(hand: list) -> list:
    """The hand's cards grouped by suit, in alternating colours (the view's order within a suit)."""
    groups = {}
    for c in hand:
        groups.setdefault(_suit(c), []).append(c)
    order = [s for s in SUIT_ORDER if s in groups] + [s for s in groups if s not in SUIT_ORDER]
    return [groups[s] for s in order]


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


class CardButton(Button):
    """One card of the hand (a button: mouse or keyboard)."""

    def __init__(self, code: str, index: int, ascii_only: bool, classes: str = "", names: dict | None = None):
        super().__init__(card_text(code, ascii_only, names), classes=("card " + classes).strip())
        self.code = code
        self.index = index


class ActionButton(Button):
    """A legal action as a button; its label is the action's text."""

    def __init__(self, action: str, index: int):
        super().__init__(action, classes="action")
        self.action_text = action


class CardTableApp(App):
    """One seat of a match played in the terminal; the other seats are bots.

    ``game``: a loaded ``Game``; ``seat``: the person's seat; ``seed``: the deal and bot seed;
    ``delay``: seconds between bot actions (0 in tests); ``ascii_only``: suit letters, no colour."""

    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $boost; padding: 0 1; }
    #status.mine { background: $success 40%; }
    #status.over { background: $warning 40%; }
    #middle { height: 1fr; }
    #left { width: 2fr; }
    #table { height: auto; padding: 0 1; }
    #scores { height: auto; padding: 0 1; }
    #log { width: 1fr; border-left: solid $primary; }
    #hand { height: auto; }
    #actions { height: auto; max-height: 6; }
    .card { min-width: 5; width: auto; margin: 0 0; }
    .card.legal { background: $success 30%; }
    .card.selected { background: $accent; }
    .card.idle { opacity: 60%; }
    .action { width: auto; min-width: 6; margin: 0 1 0 0; }
    #command { dock: bottom; }
    """
    BINDINGS = [
        Binding("left", "move(-1)", "card ←", show=True),
        Binding("right", "move(1)", "card →", show=True),
        Binding("enter", "choose", "play/select", show=True, priority=False),
        Binding("space", "choose", "play/select", show=False),
        Binding("escape", "clear", "clear selection"),
        Binding("colon", "command", "type an action"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, game, seat: int = 0, seed=0, delay: float = 0.4, ascii_only: bool = False,
                 bots: str | None = None):
        super().__init__()
        self.game = game
        self.seat = seat
        self.seed = seed
        self.delay = delay
        self.ascii_only = ascii_only
        self.state = game.new_state(seed=seed)
        self.bots = make_bots(game, seed, bots)
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

    # ---------- layout ----------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="middle"):
            with VerticalScroll(id="left"):
                yield Static(id="scores")
                yield Static(id="table")
            yield RichLog(id="log", wrap=True, markup=False)
        yield Horizontal(id="hand")
        yield Horizontal(id="actions")
        yield Input(placeholder="type an action (e.g. bid 3, lay off 2 4H) and Enter; ':' to come here",
                    id="command")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"cardspec: {self.game.data.get('title') or self.game.name} (seat {self.seat})"
        self.refresh_table()
        self._schedule_bots()

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
            self.played.append(text)
            self.selected = []
        self.refresh_table()
        self._schedule_bots()
        return True

    # ---------- drawing ----------
    def refresh_table(self) -> None:
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
        self._draw_log()
        self._draw_hand()
        self._draw_actions()

    def _draw_status(self, v) -> None:
        st = self.query_one("#status", Static)
        st.remove_class("mine", "over")
        if v["terminal"]:
            st.add_class("over")
            text = "Game over. " + ", ".join(f"{k}: {x}" for k, x in (v.get("scores") or {}).items())
        elif v["to_act"] == self.seat:
            st.add_class("mine")
            text = "Your turn — " + describe_legal(self.legal, limit=8)
        else:
            text = f"Waiting for seat {v['to_act']} (bot)…"
        if self.message:
            text += f"   [{self.message}]"
        st.update(Text(text))

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
            out.append(line + "\n")
        self.query_one("#table", Static).update(out)

    def _draw_log(self) -> None:
        log = self.state.log(self.seat)
        new = log[self.shown:]
        self.shown = len(log)
        widget = self.query_one("#log", RichLog)
        for line in format_events(self.game, new, self.seat, tally=self.tally):
            widget.write(line)

    def _draw_hand(self) -> None:
        box = self.query_one("#hand", Horizontal)
        box.remove_children()
        playable = playable_cards(self.legal, self.hand)
        buttons = []
        for i, c in enumerate(self.hand):
            cls = "selected" if i in self.selected else "legal" if c in playable else "idle"
            buttons.append(CardButton(c, i, self.ascii_only, cls, self.card_names))
        box.mount_all(buttons)

    def _choices(self) -> list:
        """Legal actions to offer as buttons: those that are exactly the selected cards, then those using
        no card (draw, done, bid 3 …), at most ``MAX_BUTTONS``."""
        sel = Counter(self.hand[i] for i in self.selected)
        exact = [a for a in self.legal if sel and Counter(_cards_of(a, self.card_names)) == sel]
        plain = [a for a in self.legal if not _cards_of(a, self.card_names)]
        return (exact + plain)[:MAX_BUTTONS]

    def _draw_actions(self) -> None:
        box = self.query_one("#actions", Horizontal)
        box.remove_children()
        box.mount_all([ActionButton(a, i) for i, a in enumerate(self._choices())])

    # ---------- input ----------
    def choose_card(self, index: int) -> None:
        """A card clicked or chosen with Enter: played when one legal action is that card alone (or the
        word and that card); else added to (or taken out of) the selection."""
        if not (0 <= index < len(self.hand)):
            return
        self.cursor = index
        code = self.hand[index]
        if not self.selected:
            alone = [a for a in self.legal if _cards_of(a, self.card_names) == [code]]
            if len(alone) == 1 and len(self.legal) and all(len(_cards_of(a, self.card_names)) <= 1 for a in self.legal
                                                           if code in _cards_of(a, self.card_names)):
                self.play(alone[0])
                return
        if index in self.selected:
            self.selected.remove(index)
        else:
            self.selected.append(index)
        self.message = "selected: " + " ".join(self.hand[i] for i in self.selected) if self.selected else ""
        self._draw_hand()
        self._draw_actions()
        self._draw_status(self.view)

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

    def action_move(self, step: int) -> None:
        if not self.hand:
            return
        self.cursor = (self.cursor + step) % len(self.hand)
        cards = list(self.query(CardButton))
        if self.cursor < len(cards):
            cards[self.cursor].focus()

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
        self.refresh_table()

    def action_command(self) -> None:
        self.query_one("#command", Input).focus()
