"""Errors people see.

``RulesetError`` carries every problem found in a ruleset, each with file,
line, column, message and an optional hint; ``IllegalAction`` names the seat,
the action and the legal alternatives. Both are ``ValueError``s so a caller can
catch bad input in one place (python-chess does the same with its move errors).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Problem:
    """One problem in a ruleset or scenario.

    ``line`` and ``col`` are 1-based; 0 means unknown. ``source_line`` is the
    text of that line (for the caret display) when known. ``severity`` is ``"error"`` (the ruleset
    cannot be used) or ``"warning"`` (it can, but probably not as meant: ``cardspec validate`` still
    exits 0).
    """

    file: str
    line: int
    col: int
    message: str
    hint: str = ""
    source_line: str = ""
    code: str = "ruleset/invalid"
    severity: str = "error"   # or "warning": reported, but the ruleset is usable

    def format(self, caret: bool = True) -> str:
        """``file:line:col: error: message`` (``warning:`` for a warning) then the line with a caret, then the hint."""
        where = f"{self.file}:{self.line}:{self.col}" if self.line > 0 else self.file
        head = f"{where}: {self.severity}: {self.message}"
        out = [head]
        if caret and self.source_line:
            out.append("    " + self.source_line.rstrip("\n"))
            out.append("    " + " " * max(self.col - 1, 0) + "^")
        if self.hint:
            out.append(f"    hint: {self.hint}")
        return "\n".join(out)


class CardspecError(ValueError):
    """Base class of every error cardspec raises on bad input. ``code`` is stable, for programs."""

    code = "error"


class RulesetError(CardspecError):
    """A ruleset (or scenario) that cannot be used; ``problems`` lists every problem found."""

    code = "ruleset/invalid"

    def __init__(self, problems):
        if isinstance(problems, Problem):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("\n".join(p.format() for p in self.problems))

    @property
    def first(self) -> Problem:
        return self.problems[0]

    def __reduce__(self):
        """Pickled with its problems (a worker process's error reaches the parent whole: rebuilt from its text
        it became one problem per character, printed a character a line — issue 20 item 6)."""
        return type(self), (self.problems,), self.__dict__


def _clip(text, most: int) -> str:
    """``text`` as a message shows it: at most ``most`` characters, then ``… (N characters)``. A player's
    typed text may be megabytes; the message stays a line (the exception keeps the whole text)."""
    text = str(text)
    return text if len(text) <= most else f"{text[:most]}… ({len(text):,} characters)"


class IllegalAction(CardspecError):
    """An action the seat to act may not take now; the state is left unchanged.

    Attributes: ``seat`` (int or None), ``action`` (the text given), ``legal``
    (the legal actions' text forms), ``reason``. ``str(e)`` is
    ``seat N: 'ACTION' is REASON; legal: A B …`` (ACTION and REASON cut at 200 and 500 characters)
    listing at most ``SHOWN``
    legal actions, then ``… and N more`` (separated by `` | `` when an action has spaces:
    ``legal: pass AS | pass KS``).
    """

    code = "action/illegal"
    SHOWN = 20

    def __init__(self, seat, action, legal, reason="not a legal action"):
        self.seat, self.action, self.legal, self.reason = seat, action, list(legal), reason
        more = len(self.legal) - self.SHOWN
        sep = " | " if any(" " in a for a in self.legal) else " "   # "pass AS | pass KS": one action each
        shown = sep.join(self.legal[:self.SHOWN]) + (f" … and {more} more" if more > 0 else "")
        who = f"seat {seat}" if seat is not None else "nobody"
        super().__init__(f"{who}: '{_clip(action, 200)}' is {_clip(reason, 500)}; legal: {shown or '(none)'}")

    def __reduce__(self):
        return type(self), (self.seat, self.action, self.legal, self.reason), self.__dict__


class GameOver(IllegalAction):
    """An action given after the game ended."""

    code = "action/game_over"


class TooManyActions(RulesetError):
    """The legal actions are too many to list at once (more than ``MAX_LISTED``, docs/rulesets.md "Caps"):
    raised by ``State.legal_actions()`` (code ``ruleset/runtime``, at the step, as any ``RulesetError``).

    Unlike other errors of the rules, the state is unchanged and still usable: its small choices
    (``legal_choices``/``choose``, ``legal_action_ids``/``apply_id``), ``apply`` of an action's text and
    ``cardspec.engine.walk.legal_walk`` (the first legal actions, found through the small choices) all work.
    Front ends fall back to those (docs/actions.md, "Too many to list")."""


class ScenarioError(CardspecError):
    """A scenario file that cannot be replayed (bad key, unknown card, wrong seat prefix)."""

    code = "scenario/invalid"


#: What a user is asked to do about an error that is cardspec's fault, not theirs.
BUG_HINT = ("this is a bug in cardspec, not a problem in your input: please report it with the command, "
            "its files and this message (CARDSPEC_DEBUG=1 shows the Python traceback)")


def _detail(e: BaseException) -> str:
    detail = " ".join(str(e).split())
    return detail if len(detail) <= 300 else detail[:300] + " …"


def internal_error_text(e: BaseException) -> str:
    """``error: [internal/error] unexpected TYPE: TEXT`` then the bug-report hint, for an unexpected
    exception ``e`` (what the command line prints instead of a traceback)."""
    detail = _detail(e)
    return f"error: [internal/error] unexpected {type(e).__name__}" + (f": {detail}" if detail else "") + \
        f"\n    hint: {BUG_HINT}"
