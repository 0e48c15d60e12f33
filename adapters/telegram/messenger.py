"""The engine's `Messenger` port for Telegram: unprompted messages to a person's private chat."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from telegram.error import BadRequest, Forbidden, TelegramError

from adapters.telegram.normalise import PLATFORM
from adapters.telegram.replies import send_reply
from adapters.telegram.sending import TelegramSender
from bot.engine.media.pictures import Picture
from bot.engine.media.voice_note import VoiceNote
from bot.engine.model import Reply
from bot.errors import InvalidInput, SouvenirError, UserUnreachable

# Telegram says "chat not found" to a bot that a person never started: as unreachable as a block.
_UNREACHABLE_BAD_REQUESTS = ("chat not found", "user not found", "peer_id_invalid")


class TelegramMessenger:
    def __init__(self, sender: TelegramSender) -> None:
        self._sender = sender

    async def send_direct(self, user_key: str, text: str) -> None:
        await self._deliver(user_key, lambda chat_id: self._sender.send_text(chat_id, text))

    async def send_voice_direct(self, user_key: str, note: VoiceNote, text: str) -> None:
        """An unprompted voice note, its text as the caption (or after it when too long for one)."""
        reply = Reply(text, "en", voice=note)
        await self._deliver(user_key, lambda chat_id: send_reply(self._sender, chat_id, reply))

    async def send_direct_picture(self, user_key: str, text: str, picture: Picture) -> None:
        """A photo with `text` as its caption (a birthday card with the birthday message)."""
        reply = Reply(text, "en", picture=picture)
        await self._deliver(user_key, lambda chat_id: send_reply(self._sender, chat_id, reply))

    async def _deliver(self, user_key: str, send: Callable[[int], Awaitable[object]]) -> None:
        chat_id = chat_id_of(user_key)
        try:
            await send(chat_id)
        except Forbidden as exc:
            raise UserUnreachable(f"Telegram refuses to deliver to {user_key}: {exc.message}") from exc
        except BadRequest as exc:
            if any(marker in exc.message.lower() for marker in _UNREACHABLE_BAD_REQUESTS):
                raise UserUnreachable(f"Telegram cannot reach {user_key}: {exc.message}") from exc
            raise SouvenirError(f"Telegram rejected a message to {user_key}: {exc.message}") from exc
        except TelegramError as exc:
            raise SouvenirError(f"Telegram send to {user_key} failed: {exc.message}") from exc


def chat_id_of(user_key: str) -> int:
    """A person's private chat id is their user id."""
    platform, _, user_id = user_key.partition(":")
    if platform != PLATFORM or not user_id.lstrip("-").isdigit():
        raise InvalidInput(f"not a Telegram user key: {user_key!r}")
    return int(user_id)
