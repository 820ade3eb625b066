"""Players: bots that are given a seat's view and the legal actions, never the state."""
from .base import BOTS, Bot, RandomBot, make_bot, take_turn

__all__ = ["BOTS", "Bot", "RandomBot", "make_bot", "take_turn"]
