"""``cardspec tui`` by keyboard alone, against opponents that play the game (issue 35, items 1, 2, 5, 6).

Issue 35, "Done when": "A person can play Napoleon, Hearts, Burraco, Red Dog and Eleusis (as dealer) against
non-random bots ... and the TUI with keyboard alone, confirming compound choices". Each test below drives
the app headless (Textual's Pilot) with key presses only — ←/→ along the hand or the buttons, ↓/↑ between
the hand and the rows of buttons, Enter, Esc, ':' and typed text — as docs/tui.md documents them
(``tui.KEYS``), and checks every action it meant against what the engine applied. Item 5's screens are
snapshot tests at 80×24 and 160×50 (tests/__snapshots__/).
"""
from __future__ import annotations

import asyncio
import random
from collections import Counter

import pytest

pytest.importorskip("textual")

import cardspec   # noqa: E402
from cardspec.play.terminal import format_events, person_opponents   # noqa: E402
from cardspec.play.tui import (KEYS, ActionButton, CardButton, CardTableApp, Rows, _cards_of, action_label,   # noqa: E402
                               pack_rows, since_lines, symbolize, whole_passes)
from cardspec.players.policy import PolicyBot   # noqa: E402
from textual.widgets import Input, Static   # noqa: E402


def _text(widget) -> str:
    from rich.console import Console
    c = Console(width=400, record=True, file=open("/dev/null", "w"))
    c.print(widget.content)
    return c.export_text()


def _screen(app) -> str:
    """The whole screen as plain text (what a person sees, line by line)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(seg.text for seg in s) for s in strips)


async def _settle(pilot, app, limit=3000):
    for _ in range(limit):
        if app.state.terminal or app.state.to_act == app.seat:
            break
        await pilot.pause()
    await pilot.pause()


async def _press(pilot, *keys):
    for k in keys:
        await pilot.press(k)
    await pilot.pause()


async def _to_card(pilot, app, index):
    """Move the hand's focus to card ``index`` with ←/→ only."""
    if not isinstance(app.focused, CardButton):
        await _press(pilot, "up", "up", "up")
    assert isinstance(app.focused, CardButton), app.focused
    n = len(app.hand)
    steps = (index - app.cursor) % n
    for _ in range(steps):
        await pilot.press("right")
    await pilot.pause()
    assert app.focused.index == index


async def _to_button(pilot, app, action):
    """Move the focus to the button that sends ``action`` with ↓ and → only; False when none is drawn."""
    buttons = list(app.query(ActionButton))
    target = [b for b in buttons if b.action_text == action]
    if not target:
        return False
    if not isinstance(app.focused, ActionButton):
        await _press(pilot, "down")
    assert isinstance(app.focused, ActionButton), app.focused
    for _ in range(len(buttons)):
        if app.focused.action_text == action:
            return True
        await pilot.press("right")
        await pilot.pause()
    return app.focused.action_text == action


async def _type(pilot, app, text):
    await _press(pilot, "colon")
    assert isinstance(app.focused, Input)
    for ch in text:
        await pilot.press("space" if ch == " " else ch)
    await _press(pilot, "enter")


async def key_do(pilot, app, action):
    """Do ``action`` (a legal action's text) with keys alone, as a person would: a card to a trick by
    moving to it and Enter; a compound choice (cards and a word) by selecting its cards, then ↓ to its
    button and Enter; any other action by its button, or typed after ':' when no button is drawn."""
    cards = _cards_of(action, app.card_names)
    if Counter(cards) - Counter(app.hand):   # a card not in the hand (a called card): its own button
        cards = []
    if cards and action != cards[0] or len(cards) > 1:
        used = Counter()
        for code in cards:
            k = [i for i, c in enumerate(app.hand) if c == code][used[code]]
            used[code] += 1
            await _to_card(pilot, app, k)
            await _press(pilot, "enter")
            assert k in app.selected, (action, app.selected, app.message)
        assert "selected:" in _text(app.query_one("#status", Static))
        assert await _to_button(pilot, app, action), (action, [b.action_text for b in app.query(ActionButton)])
        await _press(pilot, "enter")
    elif cards:
        await _to_card(pilot, app, app.hand.index(cards[0]))
        await _press(pilot, "enter")
    elif await _to_button(pilot, app, action):
        await _press(pilot, "enter")
    else:
        await _type(pilot, app, action)
    assert app.played and app.played[-1] == action, (action, app.played[-3:], app.message)


def _pick(app, rng):
    """A legal action for the test to play: a whole pass when cards are passed one at a time, else any."""
    left = app.view.get("pass_left") or 0
    legal = app.legal
    if left > 1 and whole_passes(left, legal, [a.split()[1] for a in legal[:left]]):
        return "pass " + " ".join(rng.sample(sorted({a.split()[1] for a in legal}), left))
    return rng.choice(legal[:40])


def _play_by_keys(game, seat, seed, bots, moves, size=(100, 30), check=None):
    async def go():
        app = CardTableApp(game, seat=seat, seed=seed, delay=0, bots=bots)
        rng = random.Random(seed)
        async with app.run_test(size=size) as pilot:
            await _settle(pilot, app)
            done = 0
            while not app.state.terminal and done < moves:
                assert app.state.to_act == seat
                await key_do(pilot, app, _pick(app, rng))
                done += 1
                if check:
                    await check(pilot, app)
                await _settle(pilot, app)
            return app, done
    return asyncio.run(go())


def test_the_keys_are_documented():
    """docs/tui.md lists every key of ``KEYS``; '?' shows them on the screen."""
    from pathlib import Path
    doc = (Path(__file__).resolve().parent.parent / "docs" / "tui.md").read_text()
    for key, _ in KEYS:
        assert key in doc, key


def test_a_person_gets_opponents_that_play_the_game():
    """Issue 35, Deliver: "a sensible default that plays the game (not random) where a policy or ISMCTS bot
    exists": the ruleset's own bot or first policy, else a searching bot."""
    assert person_opponents(cardspec.load("napoleon")) == "policy:basic"
    assert person_opponents(cardspec.load("hearts")) == "ismcts:200"
    assert person_opponents(cardspec.load("burraco")) is None     # its own meld bot (bots: default:)
    app = CardTableApp(cardspec.load("napoleon"), seat=0, seed=1, delay=0)
    assert all(isinstance(app.bots[s], PolicyBot) for s in range(1, 5))


def test_hearts_pass_is_selected_undone_then_confirmed_whole_by_keys():
    """black-lady.md "Hearts": pass three cards. The first card chosen is not passed at once (a compound
    choice): three are selected, Esc undoes the selection with the state unchanged, then three are chosen
    again and the one button "pass 3 cards: …" confirms them."""
    game = cardspec.load("hearts", options={"deals": 1})

    async def go():
        app = CardTableApp(game, seat=0, seed=5, delay=0, bots="ismcts:20")
        async with app.run_test(size=(80, 24)) as pilot:
            await _settle(pilot, app)
            assert app.view["pass_left"] == 3 and isinstance(app.focused, CardButton)
            before = app.state.view(0)
            for k in (0, 1, 2):
                await _to_card(pilot, app, k)
                await _press(pilot, "enter")
            assert app.selected == [0, 1, 2] and app.state.view(0) == before, "a selected card is not passed yet"
            label = [b for b in app.query(ActionButton)][0].label.plain
            chosen = [app.hand[i] for i in (0, 1, 2)]
            assert label == symbolize(action_label("pass " + " ".join(chosen))).plain and label.startswith("pass 3 cards: ")
            await _press(pilot, "escape")
            assert app.selected == [] and app.state.view(0) == before and not list(app.query(ActionButton))
            await key_do(pilot, app, "pass " + " ".join(app.hand[i] for i in (3, 5, 7)))
            assert app.state.view(0).get("pass_left") in (None, 0) or app.state.to_act != 0
    asyncio.run(go())


def test_hearts_a_whole_deal_by_keys_against_a_searching_bot():
    """black-lady.md "Hearts": a whole deal (the pass, thirteen tricks) by keys only, against ISMCTS."""
    game = cardspec.load("hearts", options={"deals": 1})
    app, done = _play_by_keys(game, 0, 3, "ismcts:10", 60, size=(80, 24))
    assert app.state.terminal and done == 14


def test_napoleon_by_keys_against_its_policy_with_the_contract_on_the_table():
    """napoleon.md: the auction, then the play, against the ruleset's policy (the default opponents); once
    the auction ends the contract and its declarer are drawn on the table (issue 35 item 3)."""
    game = cardspec.load("napoleon", options={"deals": 1})
    seen = []

    async def check(pilot, app):
        seen.append(_text(app.query_one("#table", Static)))

    app, done = _play_by_keys(game, 0, 4, None, 30, check=check)
    assert done >= 5
    assert any("Contract:" in t or "High bid:" in t for t in seen), seen[:3]


def test_red_dog_bets_by_keys_and_the_settled_hand_stays_in_sight():
    """red-dog.md: bets are buttons in rows (every raise reachable with ↓/→); after a bet settles, the
    spread and the third card stay on the table ("Since your last move") until the next action (issue 35
    item 4)."""
    game = cardspec.load("red-dog", players=3)
    kept = []

    async def check(pilot, app):
        since = _text(app.query_one("#since", Static))
        kept.append(since)
        assert "Since your last move" in since and "seat 0: " in since
        if "third card" in since:
            assert "shows" in since or "spread" in since

    app, done = _play_by_keys(game, 0, 7, None, 12, size=(80, 24), check=check)
    assert done == 12 or app.state.terminal
    assert any("third card" in k for k in kept), kept


def test_since_your_last_move_cuts_whole_moves_only():
    """Fresh-eyes report on issue 35: "Since your last move" cut its middle at a line, so Red Dog's
    "consecutive ranks: a tie, nothing moves" could stand under another seat's bet. A cut now leaves out
    whole moves (a line and the lines indented under it) and says how many; the first move (yours and its
    result) and the latest are whole."""
    lines = ["  seat 0: raise 30",
             "    spread 10, bets 30: third card 2H, strictly between: wins; paid 30 (pot 0)",
             "  pot refill: each player in play pays 10 (pot 30)",
             "  seat 1 shows TS 7C", "  seat 1: raise 25",
             "    spread 2, bets 25: third card TC, not between: loses the bet; paid 0 (pot 55)",
             "  seat 2 shows 9D 8H", "    consecutive ranks: a tie, nothing moves",
             "  seat 0 shows 7D 6C", "    consecutive ranks: a tie, nothing moves",
             "  seat 1 shows QD KD", "    consecutive ranks: a tie, nothing moves",
             "  seat 2 shows 3C 4D", "    consecutive ranks: a tie, nothing moves",
             "  seat 0 shows 9H 3D"]
    shown = since_lines(lines, 8)
    assert shown[:2] == lines[:2]
    assert shown[2] == "  … (5 moves: see the log)"
    assert shown[3:] == lines[-5:]
    for i, ln in enumerate(shown):   # every indented result sits under its own move
        if ln.startswith("    "):
            assert shown[i - 1] == lines[lines.index(ln, lines.index(shown[i - 1])) - 1]
    assert since_lines(lines[:8], 8) == lines[:8]
    heading = ["Deal 2 (dealer: seat 1)"] + lines
    assert since_lines(heading, 8)[0] == "Deal 2 (dealer: seat 1)" and "    " not in since_lines(heading, 8)[2][:4]


def test_burraco_turns_by_keys_against_its_meld_bot():
    """burraco.md "A turn": draw, melds and lay-offs (compound: cards selected, then confirmed by their
    button), a discard — by keys only, against the game's own meld bot."""
    game = cardspec.load("burraco")
    app, done = _play_by_keys(game, 0, 2, None, 25, size=(120, 36))
    assert done == 25 or app.state.terminal
    kinds = {a.split()[0] for a in app.played}
    assert "draw" in kinds or "take" in kinds


def test_eleusis_dealer_picks_a_rule_by_its_words_and_sees_it_revealed_in_words():
    """eleusis-prophets.md: the dealer writes down a secret rule. The buttons say each library rule in
    words (not its internal name); the dealer picks one with ↓ and Enter; at the round's end the rule is
    revealed in words and as written (issue 35 item 6)."""
    game = cardspec.load("eleusis-prophets", players=4)

    async def go():
        app = CardTableApp(game, seat=0, seed=2, delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await _settle(pilot, app)
            assert app.view.get("secret_rule"), "seat 0 deals first and chooses the rule"
            labels = [b.label.plain for b in app.query(ActionButton)]
            assert "the card has a different colour from the last card" in labels
            assert not any(lab.startswith("rule ") for lab in labels)
            assert "write" in _text(app.query_one("#table", Static))
            await _press(pilot, "down", "down", "down")
            chosen = app.focused
            assert isinstance(chosen, ActionButton) and chosen.action_text.startswith("rule ")
            await _press(pilot, "enter")
            assert app.played == [chosen.action_text]
            for _ in range(2000):
                lines = format_events(game, app.state.log(0), 0)
                if any("the secret rule was:" in x for x in lines) or app.state.terminal:
                    break
                if app.state.to_act == 0:   # the dealer's next decision (a later round): play on by keys
                    await key_do(pilot, app, app.legal[0])
                await pilot.pause()
            line = next(x for x in lines if "the secret rule was:" in x)
            assert chosen.label.plain.rstrip("…") in line and "as written:" in line, line
            shown = "".join(seg.text for strip in app.query_one("#log").lines for seg in strip)
            assert "the secret rule was:" in shown
    asyncio.run(go())


def test_eleusis_dealer_writes_a_rule_after_colon():
    """eleusis-prophets.md: the dealer may write a rule of their own; ':' then ``write …`` and Enter."""
    game = cardspec.load("eleusis-prophets", players=4)

    async def go():
        app = CardTableApp(game, seat=0, seed=2, delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await _settle(pilot, app)
            await _type(pilot, app, "write card.rank > last.rank")
            assert app.played == ["write card.rank > last.rank"], app.message
    asyncio.run(go())


def test_cards_are_symbols_in_the_table_and_log_and_the_log_wraps():
    """Issue 35 item 5: "hand with suit symbols but the table with raw codes (8S JK 2D)"; "log lines cut
    instead of wrapped"."""
    assert symbolize("discard: 8S JK 2D TH").plain == "discard: 8♠ JK 2♦ 10♥"
    assert symbolize("AS is not a word, As is").plain == "A♠ is not a word, As is"
    assert symbolize("discard: 8S", ascii_only=True).plain == "discard: 8S"
    game = cardspec.load("red-dog", players=2)

    async def go():
        app = CardTableApp(game, seat=0, seed=2, delay=0, bots="random")
        async with app.run_test(size=(80, 24)) as pilot:
            await _settle(pilot, app)
            screen = _screen(app)
            assert not any(code in screen.split() for code in app.hand), screen
            log = app.query_one("#log")
            texts = ["".join(seg.text for seg in strip).rstrip() for strip in log.lines]
            assert texts and all(len(t) <= log.size.width for t in texts), (log.size.width, texts)
            assert any(t.startswith("  ") for t in texts)
    asyncio.run(go())


def test_pack_rows_wraps_buttons_onto_rows():
    assert pack_rows([5, 5, 5], 12) == [[0, 1], [2]]
    assert pack_rows([20, 3], 10) == [[0], [1]]
    assert pack_rows([], 10) == []


def test_nineteen_bet_buttons_all_fit_on_rows_at_80_columns():
    """Issue 35 item 5: "19 bet buttons overflow (bet 100 off screen)": every button lies inside the
    screen, on as many rows as it takes, each reachable with ↓/→."""
    game = cardspec.load("red-dog-casino")

    async def go():
        app = CardTableApp(game, seat=0, seed=1, delay=0, bots="random")
        async with app.run_test(size=(80, 24)) as pilot:
            await _settle(pilot, app)
            buttons = list(app.query(ActionButton))
            assert len(buttons) == len([a for a in app.legal if not _cards_of(a)]) >= 10
            rows = list(app.query_one("#actions", Rows).children)
            assert len(rows) > 1
            for b in buttons:
                assert b.region.right <= 80 or b.region.width == 0
            await _press(pilot, "down")
            last = buttons[-1].action_text
            assert await _to_button(pilot, app, last)
    asyncio.run(go())


def test_a_long_legal_list_points_at_the_buttons_not_at_question_mark():
    """Fresh-eyes report on issue 35: the TUI's status said "… (30 in all; '?' lists them)" where '?' shows
    the keys. In the TUI the rest are the buttons below (or typed after ':'); the terminal keeps '?'."""
    from cardspec.play.terminal import describe_legal
    game = cardspec.load("red-dog-casino")

    async def go():
        app = CardTableApp(game, seat=0, seed=1, delay=0, bots="random")
        async with app.run_test(size=(80, 24)) as pilot:
            await _settle(pilot, app)
            assert len(app.legal) > 8
            status = _text(app.query_one("#status", Static))
            assert "in all; the buttons below" in status, status
            assert "'?' lists them" not in status
    asyncio.run(go())
    many = [f"bet {i}" for i in range(40)]
    assert describe_legal(many, limit=8).endswith("(40 in all; '?' lists them)")


def test_snapshot_80x24_hearts_pass_with_a_selection(snap_compare):
    """80×24 (--ascii): a Hearts pass with two cards selected; the status says what the selection makes."""
    async def run_before(pilot):
        await pilot.pause()
        await pilot.press("enter")
        await pilot.press("right")
        await pilot.press("enter")
        await pilot.pause()
    app = CardTableApp(cardspec.load("hearts", options={"deals": 1}), seat=0, seed=5, delay=0, ascii_only=True,
                       bots="random")
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_snapshot_160x50_red_dog_after_bets(snap_compare):
    """160×50 (--ascii): Red Dog after two bets: the rows of bet buttons and what happened since the last bet."""
    async def run_before(pilot):
        await pilot.pause()
        for _ in range(2):
            await pilot.press("down")
            await pilot.press("right")
            await pilot.press("enter")
            await pilot.pause()
    app = CardTableApp(cardspec.load("red-dog", players=3), seat=0, seed=7, delay=0, ascii_only=True, bots="random")
    assert snap_compare(app, terminal_size=(160, 50), run_before=run_before)
