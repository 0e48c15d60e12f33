"""Souvenir on Telegram (python-telegram-bot 22): `run_telegram` starts it, `TelegramMessenger` sends DMs."""

from adapters.telegram.conversation import ConversationEngine
from adapters.telegram.runner import run_telegram
from adapters.telegram.sending import TelegramMessenger

__all__ = ["ConversationEngine", "TelegramMessenger", "run_telegram"]
