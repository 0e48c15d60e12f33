"""Voice messages on Discord: real discord.py against the fake gateway and REST (voice-message attachments in,
flagged voice-message uploads out), the voice service over the openai SDK against the fake OpenAI server."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import redis.asyncio as aioredis

from adapters.discord import run_discord
from bot.engine.media.voice import VoiceLimits
from bot.engine.media.voice_conversation import VoiceConversation
from bot.engine.media.voice_messenger import SpeakingMessenger
from bot.llm.audio import open_audio
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from tests.adapters.discord.conftest import FAST, EchoEngine, discord_settings
from tests.adapters.discord.test_slash_commands import run
from tests.conftest import FakeClock
from tests.fakes import fake_discord_payloads as p
from tests.fakes.audio_samples import ogg_opus_tone, opus_stream_info
from tests.fakes.commands import redis_backed_commands
from tests.fakes.fake_discord import FakeDiscord
from tests.fakes.fake_discord_rest import Sent
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.memory_browser import InMemoryMemoryBrowser
from tests.llm.test_audio import voice_endpoint

VOICE_FLAG = 8192


@dataclass
class VoiceBot:
    fake: FakeDiscord
    llm: FakeOpenAI
    engine: EchoEngine
    speaking: SpeakingMessenger
    # the slash-command helpers of the other tests read these
    guild_id: int = 0
    channel_id: int = 0


@pytest.fixture
async def voice_bot(fake: FakeDiscord, redis: aioredis.Redis, clock: FakeClock) -> AsyncIterator[VoiceBot]:
    commands, _, _ = redis_backed_commands(redis, clock, InMemoryMemoryBrowser(), voice_speaking=True)
    engine = EchoEngine(RedisMessageClaims(redis))
    async with FakeOpenAI() as llm, open_audio(voice_endpoint(llm)) as audio:
        conversation = VoiceConversation(
            engine, profiles=RedisProfiles(redis), claims=RedisMessageClaims(redis), transcriber=audio,
            speech=audio, speaking_voice="alloy", limits=VoiceLimits(), default_language="en",
        )  # fmt: skip
        async with run_discord(
            discord_settings(fake), engine=conversation, commands=commands, timings=FAST, voice=conversation
        ) as messenger:
            yield VoiceBot(fake, llm, engine, SpeakingMessenger(messenger, conversation))


async def replies(bot: VoiceBot, channel_id: int, count: int) -> list[Sent]:
    """The bot's messages in the channel (not its answers to slash commands), once there are `count`."""

    def messages() -> list[Sent] | None:
        sent = [s for s in bot.fake.sent_in(channel_id) if s.how == "message"]
        return sent if len(sent) >= count else None

    return await bot.fake.wait_for(messages)


def channel_of(bot: VoiceBot, author: dict[str, object]) -> int:
    return bot.fake.rest.dm_channels[int(str(author["id"]))]


async def test_a_voice_message_is_downloaded_transcribed_and_answered_in_text(voice_bot: VoiceBot) -> None:
    alice = p.user("Alice")
    voice_bot.llm.audio.transcript = "I got the job!"
    note = ogg_opus_tone(1.5)

    await voice_bot.fake.send_voice_dm(alice, note, duration_secs=1.5)
    [reply] = await replies(voice_bot, channel_of(voice_bot, alice), 1)

    assert reply.content == "Echo: I got the job!" and not reply.flags & VOICE_FLAG
    assert voice_bot.engine.seen[-1].text == "I got the job!" and voice_bot.engine.seen[-1].by_voice
    upload = voice_bot.llm.audio.uploads[-1]
    assert (upload.filename, upload.content) == ("voice-message.ogg", note)


async def test_with_voice_on_the_reply_is_a_flagged_voice_message_with_a_waveform_then_its_words(
    voice_bot: VoiceBot,
) -> None:
    alice = p.user("Alice")
    answer = await run(voice_bot, alice, "voice", state="on")  # type: ignore[arg-type]
    assert "voice notes" in answer.content

    await voice_bot.fake.send_dm(alice, "Tell me a story")
    channel = channel_of(voice_bot, alice)
    voice, words = (await replies(voice_bot, channel, 2))[-2:]

    assert voice.flags & VOICE_FLAG and voice.content == ""
    [attachment] = voice.body["attachments"]
    assert attachment["filename"] == "voice-message.ogg" and attachment["duration_secs"] > 0.5
    waveform = base64.b64decode(attachment["waveform"])
    assert 0 < len(waveform) <= 256 and max(waveform) == 255
    assert opus_stream_info(voice.files["voice-message.ogg"])[:2] == ("ogg", "opus")
    assert words.content == "Echo: Tell me a story" and not words.flags & VOICE_FLAG


async def test_an_unprompted_message_is_spoken_for_someone_with_voice_on_and_written_otherwise(
    voice_bot: VoiceBot,
) -> None:
    alice, bob = p.user("Alice"), p.user("Bob")
    await run(voice_bot, alice, "voice", state="on")  # type: ignore[arg-type]

    await voice_bot.speaking.send_direct(f"discord:{alice['id']}", "Happy birthday, Alice!")
    await voice_bot.speaking.send_direct(f"discord:{bob['id']}", "Happy birthday, Bob!")

    to_alice = await replies(voice_bot, channel_of(voice_bot, alice), 2)
    assert to_alice[-2].flags & VOICE_FLAG and to_alice[-1].content == "Happy birthday, Alice!"
    to_bob = await replies(voice_bot, channel_of(voice_bot, bob), 1)
    assert [(s.content, s.flags & VOICE_FLAG) for s in to_bob] == [("Happy birthday, Bob!", 0)]
    assert [s["input"] for s in voice_bot.llm.audio.speeches] == ["Happy birthday, Alice!"]


async def test_too_long_a_voice_message_gets_a_kind_reply_and_is_not_downloaded(voice_bot: VoiceBot) -> None:
    alice = p.user("Alice")

    await voice_bot.fake.send_voice_dm(alice, ogg_opus_tone(0.5), duration_secs=600)
    [reply] = await replies(voice_bot, channel_of(voice_bot, alice), 1)

    assert reply.content.startswith("That voice note is a bit long")
    assert voice_bot.llm.audio.uploads == [] and voice_bot.engine.seen == []


async def test_speech_that_fails_leaves_the_reply_in_text(voice_bot: VoiceBot) -> None:
    alice = p.user("Alice")
    await run(voice_bot, alice, "voice", state="on")  # type: ignore[arg-type]
    voice_bot.llm.audio.failures = [500]

    await voice_bot.fake.send_dm(alice, "hello?")
    sent = await voice_bot.fake.wait_for(
        lambda: [s for s in voice_bot.fake.sent_in(channel_of(voice_bot, alice)) if s.content == "Echo: hello?"]
    )

    assert not any(s.flags & VOICE_FLAG for s in voice_bot.fake.sent_in(channel_of(voice_bot, alice)))
    assert voice_bot.llm.audio.speeches and voice_bot.llm.audio.failures == []  # it was tried, and failed
    assert len(sent) == 1
