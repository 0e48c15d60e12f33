"""Where discord.py talks to: Discord itself, or a self-hosted/test stand-in.

discord.py keeps both addresses as class attributes, so this is the one place that sets them.
"""

from __future__ import annotations

import discord
import discord.gateway
import discord.http
import yarl

DISCORD_API_ROOT = "https://discord.com"
DISCORD_GATEWAY = "wss://gateway.discord.gg/"
API_VERSION = 10


def point_discord_at(api_root: str | None, gateway_url: str | None) -> None:
    """REST calls go to `{api_root}/api/v10/…`; the websocket to `gateway_url`. None means Discord's own."""
    root = (api_root or DISCORD_API_ROOT).rstrip("/")
    discord.http.Route.BASE = f"{root}/api/v{API_VERSION}"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url or DISCORD_GATEWAY)
