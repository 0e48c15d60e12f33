"""The memory browser: a small web view, served by the bot on SOUVENIR_HTTP_PORT under SOUVENIR_PUBLIC_URL, where
each person sees what the companion keeps about them, corrects it, forgets it and exports it. Telegram opens it
as a Mini App (signed launch data), Discord through a single-use link.

It may import aiohttp and Jinja2 (pages rendered on the server, no build step), the engine's model and its
operations (`bot.engine`), and nothing of `memory`, the platforms' libraries or `bot.app`: sessions, login
tokens and the memories come through the ports in `adapters.web.ports`, which `bot/app/` fills.
"""

from adapters.web.app import memory_browser_routes
from adapters.web.ports import BrowserParts

__all__ = ["BrowserParts", "memory_browser_routes"]
