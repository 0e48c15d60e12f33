"""Unprompted voice notes on Telegram (the scheduler's messenger) and what happens when a person refuses
voice notes or blocked the bot: real python-telegram-bot against the fake Bot API, the openai SDK against the
fake OpenAI server's speech endpoint."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace

import pytest
import redis.asyncio as aioredis

from bot.engine.media.voice import VoiceLimits
from bot.engine.media.voice_conversation import VoiceConversation
from bot.engine.media.voice_messenger import SpeakingMessenger
from bot.errors import UserUnreachable
from bot.llm.audio import open_audio
from memory.redis.stores.message_claims import RedisMessageClaims
from tests.adapters.telegram.conftest import Souvenir
from tests.fakes.audio_samples import opus_stream_info
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.fake_telegram_wire import Failure
from tests.llm.test_audio import voice_endpoint

ANA = 5151


@pytest.fixture
async def speaking(
    souvenir: Souvenir, redis_client: aioredis.Redis
) -> AsyncIterator[tuple[SpeakingMessenger, FakeOpenAI]]:
    async with FakeOpenAI() as llm, open_audio(voice_endpoint(llm)) as audio:
        conversation = VoiceConversation(
            souvenir.engine, profiles=souvenir.profiles, claims=RedisMessageClaims(redis_client), transcriber=audio,
            speech=audio, speaking_voice="alloy", limits=VoiceLimits(max_chars=100), default_language="en",
        )  # fmt: skip
        yield SpeakingMessenger(souvenir.messenger, conversation), llm


async def voice_on(souvenir: Souvenir, user_id: int) -> None:
    profile = await souvenir.profiles.load_profile(f"telegram:{user_id}")
    await souvenir.profiles.save_profile(replace(profile, voice_replies=True))


async def test_a_birthday_wish_is_a_voice_note_with_its_caption_when_voice_is_on(
    souvenir: Souvenir, speaking: tuple[SpeakingMessenger, FakeOpenAI]
) -> None:
    messenger, llm = speaking
    await voice_on(souvenir, ANA)

    await messenger.send_direct(f"telegram:{ANA}", "Happy birthday, Ana! 🎂")

    [sent] = await souvenir.reply_in(ANA)
    assert sent["caption"] == "Happy birthday, Ana! 🎂" and opus_stream_info(sent["_content"])[:2] == ("ogg", "opus")
    assert llm.audio.speeches[-1]["input"] == "Happy birthday, Ana! 🎂"


async def test_a_long_check_in_stays_text_and_voice_off_people_get_text(
    souvenir: Souvenir, speaking: tuple[SpeakingMessenger, FakeOpenAI]
) -> None:
    messenger, llm = speaking
    await voice_on(souvenir, ANA)

    await messenger.send_direct(f"telegram:{ANA}", "How have you been? " * 10)  # over max_chars (100)
    await messenger.send_direct("telegram:6262", "Hi Bob")  # voice is off by default

    assert "text" in (await souvenir.reply_in(ANA))[0] and "text" in (await souvenir.reply_in(6262))[0]
    assert llm.audio.speeches == []


async def test_someone_who_refuses_voice_notes_still_gets_the_words(
    souvenir: Souvenir, speaking: tuple[SpeakingMessenger, FakeOpenAI]
) -> None:
    messenger, _ = speaking
    await voice_on(souvenir, ANA)
    souvenir.telegram.fail_next("sendVoice", Failure(400, "Bad Request: VOICE_MESSAGES_FORBIDDEN"))

    await messenger.send_direct(f"telegram:{ANA}", "Thinking of you")

    [sent] = await souvenir.reply_in(ANA)
    assert sent["text"] == "Thinking of you"


async def test_a_blocked_bot_makes_the_person_unreachable_for_voice_too(
    souvenir: Souvenir, speaking: tuple[SpeakingMessenger, FakeOpenAI]
) -> None:
    messenger, _ = speaking
    await voice_on(souvenir, ANA)
    souvenir.telegram.block_chat(ANA)

    with pytest.raises(UserUnreachable):
        await messenger.send_direct(f"telegram:{ANA}", "Happy birthday!")
