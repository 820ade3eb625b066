"""Players: bots that are given a seat's view and the legal actions, never the state."""
from .base import BOTS, Bot, RandomBot, make_bot, take_turn

__all__ = ["BOTS", "Bot", "RandomBot", "SEARCH_BOT", "make_bot", "offered_opponents", "take_turn"]

#: The searching opponent offered to a person (ISMCTS playouts per move: within a server's max_bot_iterations).
SEARCH_BOT = {"spec": "ismcts:200", "label": "searching (ISMCTS, 200 playouts a move)"}
#: The same search weaker and stronger (a server refuses more playouts than its ``max_bot_iterations``, 5,000).
SEARCH_STRENGTHS = ({"spec": "ismcts:50", "label": "searching, quick (ISMCTS, 50 playouts a move)"},
                    {"spec": "ismcts:1000", "label": "searching, strong (ISMCTS, 1,000 playouts a move)"})


def offered_opponents(data: dict) -> list:
    """The opponents offered to a person for a ruleset (``data``: its merged YAML mapping), as
    ``[{"spec", "label"}]`` in ``make_bot`` specs, the first the default (issue 35: a default that plays the
    game, not a random one): the ruleset's own bot (``bots: default: {bot: meld}``), then its policies
    (``bots: NAME: {rules}``, labelled by their help), then a searching bot (``SEARCH_BOT``) and the same
    search quick and strong (``SEARCH_STRENGTHS``), then a random player. The browser lobby lists them; ``cardspec tui`` and ``cardspec play --human`` take the first."""
    out = []
    for name, spec in (data.get("bots") or {}).items():
        if not isinstance(spec, dict):
            continue
        if "bot" in spec:
            out.append({"spec": str(spec["bot"]), "label": f"the game's own bot ({spec['bot']})"})
        elif "rules" in spec:
            help_text = " ".join(str(spec.get("help") or "").split())
            label = f"policy '{name}'" + (f": {help_text}" if help_text else "")
            out.append({"spec": f"policy:{name}", "label": label if len(label) <= 120 else label[:119] + "…"})
    return out + [dict(SEARCH_BOT)] + [dict(b) for b in SEARCH_STRENGTHS] + \
        [{"spec": "random", "label": "random (any legal move)"}]
