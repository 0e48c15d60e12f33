"""Souvenir on Telegram (python-telegram-bot 22): `run_telegram` starts it, `TelegramMessenger` sends DMs.

It alone imports python-telegram-bot. It imports the engine (`bot.engine`), plain helpers of `bot` (errors,
the avatar) and `adapters.message_split`, never memory, Redis or the wiring. A reply goes one way: the handlers
hand it to `replies`, which decides its form (text, voice note, photo) and calls `sending`, which knows no form
(contracts in pyproject.toml)."""

from adapters.telegram.conversation import ConversationEngine
from adapters.telegram.messenger import TelegramMessenger
from adapters.telegram.runner import TelegramOptions, run_telegram

__all__ = ["ConversationEngine", "TelegramMessenger", "TelegramOptions", "run_telegram"]
