"""Voice notes through the whole companion as `souvenir run` wires it: real python-telegram-bot against the
fake Bot API (getFile, file download, sendVoice), the real engine and memory, the openai SDK against the fake
OpenAI server's chat and audio endpoints (the voice endpoint defaults to the LLM's base URL)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.app import Core, open_core, open_platforms_and_jobs
from bot.config import load_settings
from bot.engine.model import UserRef
from tests.conftest import FakeClock
from tests.fakes.audio_samples import ogg_opus_tone, opus_stream_info
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.fake_telegram import FakeTelegram

LEA = 4242
LEA_REF = UserRef("telegram", str(LEA), "Ana")


@dataclass
class Running:
    core: Core
    telegram: FakeTelegram
    llm: FakeOpenAI
    data_dir: Path

    def chat_requests(self) -> list[dict[str, Any]]:
        return [r.body for r in self.llm.requests if "response_format" not in r.body]

    async def next_message(self, send: Any) -> dict[str, Any]:
        """Runs `send`, waits for the bot's next message to Léa and returns it."""
        before = len(self.telegram.sent(LEA))
        await send
        await self.telegram.wait_for(lambda: len(self.telegram.sent(LEA)) > before, within=30)
        await self.core.engine.drain()
        return self.telegram.sent(LEA)[-1]


async def running_with(redis_url: str, data_dir: Path, clock: FakeClock, **extra: Any) -> AsyncIterator[Running]:
    async with FakeOpenAI() as llm, FakeTelegram() as telegram:
        settings = load_settings(
            data_dir=data_dir,
            redis_url=redis_url,
            llm_provider="openai-compatible",
            llm_base_url=llm.base_url,
            llm_max_retries=0,
            telegram_token=telegram.token,
            telegram_api_url=telegram.api_root,
            disclosure_enabled=False,
            **extra,
        )
        async with open_core(settings, clock=clock) as core, open_platforms_and_jobs(core):
            yield Running(core, telegram, llm, data_dir)


@pytest.fixture
async def running(redis_url: str, data_dir: Path, clock: FakeClock) -> AsyncIterator[Running]:
    async for app in running_with(redis_url, data_dir, clock):
        yield app


async def test_a_voice_note_is_transcribed_answered_in_text_and_remembered_as_said_by_voice(running: Running) -> None:
    running.llm.audio.transcript = "My sister Jade gets married on June 2."
    note = ogg_opus_tone(2.0)

    reply = await running.next_message(running.telegram.push_voice(LEA, note, duration=2))

    assert reply["text"] == "echo: My sister Jade gets married on June 2."  # a text reply: voice is off
    upload = running.llm.audio.uploads[-1]
    assert (upload.filename, upload.content, upload.model) == ("voice.ogg", note, "whisper-1")  # as received
    assert running.telegram.downloads == [f"voice/voice-file-{reply['message_id'] - 1}.oga"]
    last_turn = running.chat_requests()[-1]["messages"][-1]
    assert last_turn == {"role": "user", "content": "My sister Jade gets married on June 2."}
    memories = await running.core.memory.export_memories(LEA_REF.key)
    episode = next(m for m in memories if m.kind == "episodic")
    assert episode.text == "My sister Jade gets married on June 2." and episode.extra["via"] == "voice"
    assert not (running.data_dir / "voice-notes").exists()  # the audio itself is not kept


async def test_with_voice_on_the_next_reply_is_a_real_ogg_opus_voice_note_with_its_text(running: Running) -> None:
    turned_on = await running.next_message(running.telegram.push_command(LEA, "/voice", "on"))
    assert "voice notes" in turned_on["text"]

    reply = await running.next_message(running.telegram.push_text(LEA, "Sing me something"))

    assert "voice" in reply and "text" not in reply
    assert reply["caption"] == "echo: Sing me something"
    assert reply["_file_name"] == "voice-message.ogg"
    assert opus_stream_info(reply["_content"])[:2] == ("ogg", "opus")
    assert reply["voice"]["duration"] >= 1
    assert running.llm.audio.speeches[-1]["response_format"] == "opus"

    await running.next_message(running.telegram.push_command(LEA, "/voice", "off"))
    back = await running.next_message(running.telegram.push_text(LEA, "And now?"))
    assert back["text"] == "echo: And now?"


async def test_with_voice_on_a_reply_longer_than_the_limit_is_sent_as_text(running: Running) -> None:
    await running.next_message(running.telegram.push_command(LEA, "/voice", "on"))
    long = "tell me more " * 60  # the echo is over SOUVENIR_VOICE_MAX_CHARS (600)

    reply = await running.next_message(running.telegram.push_text(LEA, long))

    assert "text" in reply and "voice" not in reply
    assert running.llm.audio.speeches == []


async def test_a_voice_note_answered_by_voice_when_voice_is_on(running: Running) -> None:
    await running.next_message(running.telegram.push_command(LEA, "/voice", "on"))
    running.llm.audio.transcript = "Good night"

    reply = await running.next_message(running.telegram.push_voice(LEA, ogg_opus_tone(1.0), duration=1))

    assert reply["caption"] == "echo: Good night" and opus_stream_info(reply["_content"])[1] == "opus"


async def test_too_long_a_voice_note_gets_one_kind_reply_in_their_language_and_is_never_sent_out(
    running: Running,
) -> None:
    update = running.telegram.push_voice(LEA, ogg_opus_tone(0.5), duration=301, language_code="fr")
    reply = await running.next_message(update)

    assert reply["text"].startswith("Ce message vocal est un peu long") and "5 minutes" in reply["text"]
    assert running.llm.audio.uploads == [] and running.telegram.downloads == []
    assert running.chat_requests() == []


async def test_too_large_an_audio_file_gets_a_kind_reply_without_being_downloaded(running: Running) -> None:
    update = running.telegram.push_voice(
        LEA, ogg_opus_tone(0.5), duration=30, kind="audio", mime_type="audio/mpeg", file_size=21 * 1024 * 1024
    )
    reply = await running.next_message(update)

    assert "too big" in reply["text"] and "20 MB" in reply["text"]
    assert running.telegram.downloads == [] and running.llm.audio.uploads == []


async def test_an_audio_file_is_sent_for_transcription_under_its_own_name(running: Running) -> None:
    running.llm.audio.transcript = "a song I wrote"
    update = running.telegram.push_voice(
        LEA, ogg_opus_tone(0.5), duration=1, kind="audio", mime_type="audio/mpeg", file_name="demo.mp3"
    )
    reply = await running.next_message(update)

    assert reply["text"] == "echo: a song I wrote"
    assert running.llm.audio.uploads[-1].filename == "demo.mp3"


async def test_a_failing_transcription_gets_a_kind_reply_and_one_log_line(
    running: Running, caplog: pytest.LogCaptureFixture
) -> None:
    running.llm.audio.failures = [503]
    with caplog.at_level(logging.WARNING):
        reply = await running.next_message(running.telegram.push_voice(LEA, ogg_opus_tone(0.5), duration=1))

    assert reply["text"] == "I can't listen to voice notes right now, sorry. Could you type it for me?"
    lines = [r for r in caplog.records if "transcribed" in r.getMessage()]
    assert len(lines) == 1 and "HTTP 503" in lines[0].getMessage() and lines[0].exc_info is None
    assert running.chat_requests() == []


async def test_a_re_delivered_voice_note_is_answered_once(running: Running) -> None:
    update = await running.telegram.push_voice(LEA, ogg_opus_tone(0.5), duration=400)
    await running.telegram.wait_for(lambda: len(running.telegram.sent(LEA)) == 1, within=30)
    await running.telegram.redeliver(update)
    running.llm.audio.transcript = "after the repeat"
    marker = await running.next_message(running.telegram.push_voice(LEA, ogg_opus_tone(0.5), duration=1))

    assert marker["text"] == "echo: after the repeat"
    assert [m.get("text", "")[:20] for m in running.telegram.sent(LEA)] == [
        "That voice note is a", "echo: after the repea"[:20]
    ]


async def test_without_a_voice_endpoint_a_voice_note_gets_a_kind_reply_and_voice_on_says_so(
    redis_url: str, data_dir: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    async for app in running_with(redis_url, data_dir, clock, voice_enabled=False):
        with caplog.at_level(logging.WARNING):
            reply = await app.next_message(app.telegram.push_voice(LEA, ogg_opus_tone(0.5), duration=1))
        assert reply["text"].startswith("I can't listen to voice notes right now")
        assert [r for r in caplog.records if "no transcription is configured" in r.getMessage()]
        assert app.llm.audio.uploads == [] and app.telegram.downloads == []

        answer = await app.next_message(app.telegram.push_command(LEA, "/voice", "on"))
        assert "can't speak yet" in answer["text"]
        text = await app.next_message(app.telegram.push_text(LEA, "still text?"))
        assert text["text"] == "echo: still text?"


async def test_kept_audio_is_stored_only_when_enabled_and_forget_all_erases_it(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async for app in running_with(redis_url, data_dir, clock, voice_keep_audio=True):
        note = ogg_opus_tone(0.5)
        await app.next_message(app.telegram.push_voice(LEA, note, duration=1))
        kept = list((data_dir / "voice-notes").rglob("*.ogg"))
        assert [path.read_bytes() for path in kept] == [note]

        await app.core.commands.forget_everything(LEA_REF)
        assert list((data_dir / "voice-notes").rglob("*")) == []


async def test_forgetting_the_memory_of_a_voice_note_deletes_its_kept_audio_and_only_it(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async for app in running_with(redis_url, data_dir, clock, voice_keep_audio=True):
        app.llm.audio.transcript = "My boat is called Quetzal."
        await app.next_message(app.telegram.push_voice(LEA, ogg_opus_tone(0.5), duration=1))
        app.llm.audio.transcript = "My dog is called Rex."
        kept = ogg_opus_tone(0.7)
        await app.next_message(app.telegram.push_voice(LEA, kept, duration=1))
        assert len(list((data_dir / "voice-notes").rglob("*.ogg"))) == 2

        memories = await app.core.memory.export_memories(LEA_REF.key)
        boat = next(m for m in memories if m.kind == "episodic" and "Quetzal" in m.text)
        assert (await app.core.commands.forget_memory(LEA_REF, boat.memory_id)).ok
        assert [path.read_bytes() for path in (data_dir / "voice-notes").rglob("*.ogg")] == [kept]
