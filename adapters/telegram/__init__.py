"""Souvenir on Telegram (python-telegram-bot 22): `run_telegram` starts it, `TelegramMessenger` sends DMs."""

from adapters.telegram.conversation import ConversationEngine
from adapters.telegram.messenger import TelegramMessenger
from adapters.telegram.runner import TelegramOptions, run_telegram

__all__ = ["ConversationEngine", "TelegramMessenger", "TelegramOptions", "run_telegram"]
