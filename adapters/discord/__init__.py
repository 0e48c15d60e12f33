"""Souvenir on Discord (discord.py 2.x). `run_discord` is the entry point the application calls.

It alone imports discord.py. It imports the engine (`bot.engine`), plain helpers of `bot` (errors, the
avatar) and `adapters.message_split`, never memory or the wiring; its one use of Redis is the IDENTIFY pacing
its processes share (`identify_gate`) (contracts in pyproject.toml)."""

from adapters.discord.client import GatewayTimings, MessageHandler
from adapters.discord.messenger import DiscordMessenger
from adapters.discord.runner import DiscordOptions, run_discord

__all__ = ["DiscordMessenger", "DiscordOptions", "GatewayTimings", "MessageHandler", "run_discord"]
