"""Pacing outgoing messages under Telegram's limits: about one per second per chat, 30 per second in all.

Why not python-telegram-bot's AIORateLimiter (PTB 22, `python-telegram-bot[rate-limiter]`):
- It paces a chat only when it is a group (20 a minute); private chats — where almost every reply and
  every unprompted DM goes — get no per-chat spacing, so a reply split in pieces or a burst of replies to
  one person goes out at once, against Telegram's "about one message per second per chat".
- Its limiter wraps every request that names a chat, `sendChatAction` included: the typing indicator each
  busy chat repeats every few seconds would eat into the 30-a-second budget meant for messages.
- On one 429 it holds back every request of the bot, and its retries happen inside the request layer:
  here TelegramSender retries only the refused send, bounded, re-entering this throttle, and keeps
  telling a 403 (UserUnreachable) apart from a 429.
- It runs on aiolimiter's real clock; this one takes `now`/`sleep`, so its tests are exact and instant.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable


class SendThrottle:
    """Waits until a send to `chat_id` is allowed. Each chat's slots are reserved in call order, so
    concurrent senders to one chat queue up instead of bursting; the overall rate is a sliding
    window of the last `overall_per_second` sends."""

    def __init__(
        self,
        *,
        per_chat_interval: float = 1.0,
        overall_per_second: int = 25,
        now: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        """`now` (default: the running loop's monotonic clock) and `sleep` are injectable for tests."""
        if per_chat_interval < 0 or overall_per_second < 1:
            raise ValueError("per_chat_interval must be >= 0 and overall_per_second >= 1")
        self._now = now or (lambda: asyncio.get_running_loop().time())
        self._sleep = sleep
        self._per_chat_interval = per_chat_interval
        self._next_slot: dict[int, float] = {}
        self._recent: deque[float] = deque(maxlen=overall_per_second)
        self._overall = asyncio.Lock()

    async def wait_turn(self, chat_id: int) -> None:
        now = self._now()
        slot = max(now, self._next_slot.get(chat_id, now))
        self._next_slot[chat_id] = slot + self._per_chat_interval
        self._forget_idle_chats(now)
        if slot > now:
            await self._sleep(slot - now)
        async with self._overall:
            now = self._now()
            if len(self._recent) == self._recent.maxlen:
                wait = self._recent[0] + 1.0 - now
                if wait > 0:
                    await self._sleep(wait)
                    now = self._now()
            self._recent.append(now)

    def _forget_idle_chats(self, now: float) -> None:
        # Keep the map small: a chat whose next slot is already past needs no entry.
        if len(self._next_slot) > 1024:
            self._next_slot = {chat: at for chat, at in self._next_slot.items() if at > now}
