"""The persona's picture as the Telegram bot's profile photo (Bot API setMyProfilePhoto)."""

from __future__ import annotations

import asyncio
import logging

from telegram import Bot, InputProfilePhotoStatic
from telegram.error import TelegramError

from bot.avatar import BotAvatar

log = logging.getLogger(__name__)

_TIMEOUT_S = 30.0


async def set_profile_photo(bot: Bot, avatar: BotAvatar | None) -> None:
    """Sets the photo when it changed since Telegram last took one. Telegram only takes a JPEG profile photo:
    a PNG card's image is converted. Never stops the bot."""
    if avatar is None or not await avatar.changed_for("telegram"):
        return
    try:
        photo = await avatar.as_jpeg()
    except ValueError as exc:
        log.warning("the persona's avatar cannot be made a JPEG for Telegram (%s); keeping the current one", exc)
        return
    try:
        async with asyncio.timeout(_TIMEOUT_S):
            await bot.set_my_profile_photo(InputProfilePhotoStatic(photo=photo))
    except (TelegramError, TimeoutError) as exc:
        log.warning("Telegram did not take the persona's avatar (%s); keeping the current one", exc)
        return
    await avatar.mark_set("telegram")
    log.info("Telegram profile photo set from the persona")
