"""The resolution of a trick: its winner (``wins:``, ``key:``, ``cancel:``), who takes its cards and who
leads next (``take:``, ``next_leader:``), cards nobody won carried to the next trick
(``if_none_wins: carry``), the ``trick`` event, ``after_trick:`` and ``until:``, as generated statements.

``wins``/``key`` (and ``cancel``) decide the trick's winner: among the cards for which ``wins`` holds
and that no other card cancels, the one with the highest ``key``. By default the winner takes the
trick's cards and leads the next trick; ``take:`` and ``next_leader:`` say otherwise, each on its own
(docs/rulesets.md, "Who takes the trick, who leads next").
"""
from __future__ import annotations

import re

from ...compiler import Compiler, inline_calls
from ...slots import LEADER, LED_SUIT, TO_ACT, TRICK_NUMBER, TRICKS_TOTAL, TRUMP, WINNER
from ....lang import BOOL, INT, EngineText

WIN_CTX = (("card", "card"), ("seat", INT))
PAIR_CTX = (("a", "card"), ("b", "card"))
TRICK_CTX = (("winner", INT), ("leader", INT))
AFTER_TRICK_CTX = TRICK_CTX + (("taker", INT), ("next_leader", INT))
#: The engine's defaults (read among the engine's names: a ruleset's own ``trump`` or ``led_suit`` never changes them).
DEFAULT_WINS = EngineText("card.suit == led_suit or (trump != no_suit and card.suit == trump)")
DEFAULT_KEY = EngineText("card.rank + (if trump != no_suit and card.suit == trump then 1000 else 0)")


def winner_code(comp: Compiler, body, path):
    """``(wins, key, cancel)``: the compiled ``wins:``, ``key:`` (defaults: the led suit or trump wins, the
    highest rank, trumps above) and ``cancel:`` (None without one)."""
    wins = comp.code(body.get("wins", DEFAULT_WINS),
                     path + ("wins",),
                     WIN_CTX, (BOOL,))
    key = comp.code(body.get("key", DEFAULT_KEY),
                    path + ("key",), WIN_CTX, (INT,))
    cancel = comp.code(body["cancel"], path + ("cancel",), PAIR_CTX, (BOOL,)) if "cancel" in body else None
    return wins, key, cancel


def trick_lines(step, comp: Compiler, body, path, wins, key, cancel, after_trick: list):
    """``(res, wins_src, key_src)``: the statements resolving the trick in ``plays`` once its last card is
    played (winner, taker, next leader, the cards taken or carried, the ``trick`` event, ``after_trick``,
    ``until``, the next trick set up; they set ``done`` when the deal's tricks are over), and the
    sources of ``wins`` and ``key`` of a card ``p_card`` (definitions inlined, the led suit and trump
    read from the locals ``_led`` and ``_trump``). ``step``: the ``Tricks`` step being built."""
    game, n, W, sitting = step.game, step.game.n, step.won, step.sitting
    comp.ns["_SUIT_LETTER"] = tuple(game.deck.suits) + tuple(game.deck.extra_suits) + (None,)
    # The led suit and trump are read into locals once per trick (the resolution reads them per card).
    res = ["k = len(plays)", f"_led = v[{LED_SUIT}]", f"_trump = v[{TRUMP}]"]
    if cancel is not None:
        res += ["cancelled = [False] * k",
                "for i in range(k):",
                "    p_a = plays[i][1]",
                "    for j in range(i + 1, k):",
                "        p_b = plays[j][1]",
                f"        if {cancel.src}:",
                "            cancelled[i] = cancelled[j] = True"]
    else:
        res += ["cancelled = None"]
    wins_src = wins.src if wins else "False"
    key_src = key.src if key else "0"
    # A definition of the card called by wins:/key: (key: power(card)) is inlined: no call per card. Not
    # one whose values are kept by argument (game._memoized: it reads only the card and costs >= 500).
    defs = {k: v for k, v in getattr(game.env, "def_src", {}).items()
            if not hasattr(comp.ns.get(k), "__wrapped__")}
    wins_src, key_src = inline_calls(wins_src, defs, "p_card"), inline_calls(key_src, defs, "p_card")
    slot_local = lambda src: re.sub(rf"\bs\.v\[{LED_SUIT}\]", "_led", re.sub(rf"\bs\.v\[{TRUMP}\]", "_trump", src))
    wins_src, key_src = slot_local(wins_src), slot_local(key_src)
    res += ["best = -1", "best_key = 0"]
    if cancel is not None or sitting:
        res += ["for i in range(k):"] + (["    if cancelled[i]:", "        continue"] if cancel is not None else []) + [
                "    p_seat, p_card = plays[i]",
                f"    if {wins_src}:",
                f"        kv = {key_src}",
                "        if best < 0 or kv > best_key:",
                "            best = i",
                "            best_key = kv"]
    else:
        # A trick is resolved with exactly n plays: the loop is unrolled at load time.
        for i in range(n):
            res += [f"p_seat, p_card = plays[{i}]"] + _wins_then_key(wins_src, key_src, [
                    "if best < 0 or kv > best_key:" if i else "if True:",
                    f"    best = {i}",
                    "    best_key = kv"])
    res += [f"p_leader = v[{LEADER}]",
            f"done = v[{TRICK_NUMBER}] >= v[{TRICKS_TOTAL}] or not hands[p_leader]",
            "carried = False",
            "if best >= 0:",
            "    p_winner = plays[best][0]",
            "else:",
            "    p_winner = p_leader",
            f"    carried = {step.carry} and not done",
            ]
    # Who takes the cards and who leads next (default: the winner), read before the trick is cleared.
    for name, local_name in (("take", "p_taker"), ("next_leader", "p_next_leader")):
        lines = seat_choice(comp, body.get(name), path + (name,), local_name, cancel is not None, n)
        res += [slot_local(ln) for ln in lines]
    res += [
            "if carried:",
            "    s.carried.extend([c for _, c in plays])",
            "else:",
            f"    dst = s.z[{W}][p_taker]",
            f"    dst.extend(({''.join(f'plays[{i}][1], ' for i in range(n))}))" if not sitting else
            "    dst.extend([c for _, c in plays])",
            "    if s.carried:",
            "        dst.extend(s.carried)",
            "        s.carried = []",
            "if events is not None:",   # the `trick` event (DESIGN.md), built inline: n plays exactly
            f"    ev = {{'type': 'trick', 'number': v[{TRICK_NUMBER}], 'leader': p_leader, "
            "'winner': None if carried else p_winner, 'taker': None if carried else p_taker, "
            "'next_leader': p_next_leader, 'cards': "
            + ("[" + ", ".join(f"[plays[{i}][0], CODE[plays[{i}][1]]]" for i in range(n)) + "]" if not sitting
               else "[[_s, CODE[_c]] for _s, _c in plays]") + ", 'cancelled': "
            + ("[CODE[plays[i][1]] for i in range(k) if cancelled[i]]" if cancel is not None else "[]")
            # the led suit when it need not be the led card's suit (led_suit:, choose:, a joker led)
            + (f", 'led_suit': _SUIT_LETTER[v[{LED_SUIT}]]" if step.relead else "") + "}",
            "    if carried:",
            "        ev['carried'] = True",
            "    events.append(ev)",
            f"v[{WINNER}] = p_winner",
            "if not carried:"] + ["    " + ln for ln in after_trick] + ["    pass"] + step._until_lines + [
            "plays = s.plays = []",
            f"v[{LED_SUIT}] = -1",
            "if not done:",
            f"    v[{TRICK_NUMBER}] += 1",
            f"    v[{LEADER}] = p_next_leader",
            f"    v[{TO_ACT}] = p_next_leader"]
    return res, wins_src, key_src


def seat_choice(comp: Compiler, spec, path, target: str, cancel: bool, n: int) -> list:
    """Statements setting the local ``target`` to the seat ``spec`` names, after the winner is known.

    ``spec``: None or ``winner`` (the winner, ``p_winner``); a seat expression of ``winner`` and
    ``leader``; or ``{wins: EXPR, key: EXPR}``: the player of the card with the highest ``key`` among
    those for which ``wins`` holds (default: the step's default ``wins``), cancelled cards skipped,
    the winner when no card qualifies. Records a problem for anything else.
    """
    if spec is None or str(spec).strip() == "winner":
        return [f"{target} = p_winner"]
    if isinstance(spec, dict):
        extra = [k for k in spec if k not in ("wins", "key")]
        if extra or "key" not in spec:
            comp.problem(path, f"{path[-1]}: is a seat expression or {{wins: EXPR, key: EXPR}} (key required)"
                         + (f"; unknown key {', '.join(map(str, extra))}" if extra else ""),
                         "e.g. take: {key: 100 - card.rank} (the lowest card takes the trick)")
            return [f"{target} = p_winner"]
        wins = comp.code(spec.get("wins", DEFAULT_WINS), path + ("wins",), WIN_CTX, (BOOL,))
        key = comp.code(spec["key"], path + ("key",), WIN_CTX, (INT,))
        if wins is None or key is None:
            return [f"{target} = p_winner"]
        return (["_b = -1", "_bk = 0", "for _i in range(k):"]
                + (["    if cancelled[_i]:", "        continue"] if cancel else [])
                + ["    p_seat, p_card = plays[_i]", f"    if {wins.src}:", f"        _kv = {key.src}",
                   "        if _b < 0 or _kv > _bk:", "            _b = _i", "            _bk = _kv",
                   f"{target} = plays[_b][0] if _b >= 0 else p_winner"])
    code = comp.code(spec, path, TRICK_CTX, (INT,))
    if code is None:
        return [f"{target} = p_winner"]
    return [f"{target} = ({code.src}) % {n}"]


def _wins_then_key(wins_src: str, key_src: str, body: list) -> list:
    """Statements: when ``wins_src`` holds, ``kv = key_src`` then ``body`` (indented).

    When ``wins`` only compares the key with a number (``wins: power(card) > 0``, ``key: power(card)``)
    the key is computed once, before the test, instead of twice: the same values, one evaluation less
    per card (expressions have no effects)."""
    inner = _unparen(key_src)
    if inner and len(inner) > 12:
        w = _unparen(wins_src)
        for k in {key_src, inner, f"({inner})"}:
            m = re.fullmatch(r"\(*" + re.escape(k) + r"\)* (>|>=|<|<=|==|!=) (-?\d+)", w)
            if m:
                return [f"kv = {key_src}", f"if kv {m.group(1)} {m.group(2)}:"] + ["    " + ln for ln in body]
    return [f"if {wins_src}:", f"    kv = {key_src}"] + ["    " + ln for ln in body]


def _unparen(src: str) -> str:
    """``src`` without the parentheses that enclose all of it (``((a) + b)`` → ``(a) + b``)."""
    while src.startswith("(") and src.endswith(")"):
        depth = 0
        for i, ch in enumerate(src):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0 and i < len(src) - 1:
                return src
        src = src[1:-1]
    return src
