"""Souvenir on Discord (discord.py 2.x). `run_discord` is the entry point the application calls."""

from adapters.discord.client import GatewayTimings, MessageHandler
from adapters.discord.messenger import DiscordMessenger
from adapters.discord.runner import DiscordOptions, run_discord

__all__ = ["DiscordMessenger", "DiscordOptions", "GatewayTimings", "MessageHandler", "run_discord"]
