"""The crisis follow-up: the model reads each message after the reply (memory extraction); when it sees suicidal
ideation or self-harm that the offline detector missed, the reply carried no crisis lines, so they go to the
person's private chat now, within seconds, rather than only with the next reply.

Once per message: an outbox entry written twice (a retry, two replicas) claims the same key, and only the
first claim sends. A claim is taken before sending, so a failed send is not repeated either: it is logged, and
the next reply still answers as to a crisis (the writer notes the reading on the profile as well).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from bot.engine.metrics import EngineMetrics
from bot.engine.model import Exchange
from bot.engine.ports import MessageClaims, Messenger
from bot.engine.safety.crisis_lines import CrisisLines
from bot.engine.texts.safety import say_safety
from bot.errors import UserUnreachable

log = logging.getLogger(__name__)

# After the message's own claim key: the person's erasure (`RedisMessageClaims.forget_user`) takes it with the
# message's claims, since it holds no colon past the chat's prefix.
_CLAIM_SUFFIX = ".crisis-follow-up"


def follow_up_text(lines: tuple[str, ...], language: str) -> str:
    """A caring line, then the crisis lines as a crisis reply gives them: the companion's own voice, no persona."""
    listed = "\n".join(f"• {line}" for line in lines)
    return f"{say_safety('crisis_follow_up', language)}\n\n{say_safety('crisis_lines', language, lines=listed)}"


class CrisisFollowUp:
    """`memory.ports.CrisisFollowUps`, sending through the messenger of the platform the message came from.

    The memory writer exists before the platforms start: each front end registers its messenger with
    `through` once it runs (the app for Telegram and Discord, the terminal chat for itself)."""

    def __init__(self, *, claims: MessageClaims, lines: CrisisLines, metrics: EngineMetrics) -> None:
        self._claims = claims
        self._lines = lines
        self._metrics = metrics
        self._messengers: dict[str, Messenger] = {}

    @contextmanager
    def through(self, platform: str, messenger: Messenger) -> Iterator[None]:
        """Follow-ups to people on `platform` go through `messenger` while the block runs."""
        self._messengers[platform] = messenger
        try:
            yield
        finally:
            if self._messengers.get(platform) is messenger:
                del self._messengers[platform]

    async def crisis_read(self, exchange: Exchange) -> None:
        if exchange.reply.crisis:
            return  # the reply itself carried the crisis lines
        user = exchange.message.user
        messenger = self._messengers.get(user.platform)
        if messenger is None:  # e.g. a maintenance command draining the outbox with no platform running
            log.warning("a crisis follow-up was not sent: %s is not running here; the next reply answers it",
                        user.platform)  # fmt: skip
            return
        try:
            if not await self._claims.claim(exchange.message.dedup_key + _CLAIM_SUFFIX):
                return  # already sent (or being sent) for this message
            text = follow_up_text(self._lines.lines_for(exchange.timezone, exchange.language), exchange.language)
            # The account that wrote the message (a linked person's other accounts are not written to).
            await messenger.send_direct(user.account_key, text)
        except UserUnreachable:  # blocked the bot, or never opened a private chat with it (a group message)
            log.warning("a crisis follow-up could not be sent on %s: the person cannot be written to privately",
                        user.platform)  # fmt: skip
            return
        except Exception:  # an error boundary: memory writing goes on, the next reply answers with care
            log.exception("a crisis follow-up could not be sent on %s", user.platform)
            return
        log.info("a crisis follow-up was sent on %s", user.platform)  # no one named, nothing of what was said
        self._metrics.crisis_detected(level="concern", language=exchange.language, how="follow_up")
