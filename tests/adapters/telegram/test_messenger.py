"""End to end: proactive DMs through `TelegramMessenger.send_direct` against the fake Bot API."""

from __future__ import annotations

import pytest

from bot.errors import InvalidInput, SouvenirError, UserUnreachable
from tests.adapters.telegram.conftest import Souvenir
from tests.fakes.fake_telegram_wire import Failure, too_many_requests

# PTB 22's own RetryAfter constructor warns that retry_after will become a timedelta; not ours to fix.
pytestmark = pytest.mark.filterwarnings("ignore:.*retry_after:telegram.warnings.PTBDeprecationWarning")


async def test_a_direct_message_goes_to_the_persons_private_chat(souvenir: Souvenir) -> None:
    await souvenir.messenger.send_direct("telegram:55", "Happy birthday, Ana! 🎂")
    assert souvenir.telegram.texts(55) == ["Happy birthday, Ana! 🎂"]
    [call] = souvenir.telegram.calls_of("sendMessage")
    assert call.params["chat_id"] == 55 and "parse_mode" not in call.params


async def test_a_person_who_blocked_the_bot_is_reported_unreachable(souvenir: Souvenir) -> None:
    souvenir.telegram.block_chat(66)
    with pytest.raises(UserUnreachable):
        await souvenir.messenger.send_direct("telegram:66", "Thinking of you")
    assert souvenir.telegram.texts(66) == []


async def test_a_person_who_never_started_the_bot_is_unreachable_too(souvenir: Souvenir) -> None:
    souvenir.telegram.fail_next("sendMessage", Failure(400, "Bad Request: chat not found"))
    with pytest.raises(UserUnreachable):
        await souvenir.messenger.send_direct("telegram:67", "Hello?")


async def test_too_many_requests_is_waited_out_then_the_message_is_sent(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    telegram.fail_next("sendMessage", too_many_requests(retry_after=1))
    await souvenir.messenger.send_direct("telegram:68", "How did the interview go?")
    assert telegram.texts(68) == ["How did the interview go?"]
    first, second = telegram.calls_of("sendMessage")
    assert second.at - first.at >= 0.95  # Telegram's retry_after was honoured


async def test_retries_are_bounded_when_telegram_keeps_refusing(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    telegram.fail_next("sendMessage", too_many_requests(1), too_many_requests(1), too_many_requests(1))
    with pytest.raises(SouvenirError) as raised:
        await souvenir.messenger.send_direct("telegram:69", "Still there?")
    assert not isinstance(raised.value, UserUnreachable)
    assert len(telegram.calls_of("sendMessage")) == 2  # the fixture allows one retry
    assert telegram.texts(69) == []


async def test_a_long_direct_message_is_split(souvenir: Souvenir) -> None:
    paragraphs = [f"Part {n}. " + "A long letter paragraph. " * 100 for n in range(3)]  # 2.5k characters each
    await souvenir.messenger.send_direct("telegram:70", "\n\n".join(paragraphs))
    # Two paragraphs don't fit in 4096 characters: one message each, cut where the paragraphs end.
    assert souvenir.telegram.texts(70) == [p.strip() for p in paragraphs]


async def test_a_key_of_another_platform_is_refused_without_calling_telegram(souvenir: Souvenir) -> None:
    with pytest.raises(InvalidInput):
        await souvenir.messenger.send_direct("discord:123", "hi")
    assert souvenir.telegram.calls_of("sendMessage") == []
