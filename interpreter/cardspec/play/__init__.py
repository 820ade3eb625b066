"""Playing matches: ``terminal`` (``cardspec play``: bots, a human seat, a readable log), ``tui`` (``cardspec
tui``: a terminal card table) and ``simulate`` (many whole matches between bots, with statistics).

The names of ``terminal`` are also this package's (``from cardspec.play import play_match``, as before
the front ends were grouped).
"""
from .terminal import ask_human, describe_legal, display_lines, format_events, make_bots, play_match

__all__ = ["ask_human", "describe_legal", "display_lines", "format_events", "make_bots", "play_match"]
