"""The openai SDK's audio API against the loopback fake OpenAI server: transcription and speech."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.errors import VoiceUnavailable
from bot.llm.audio import AudioEndpoint, OpenAIAudio, open_audio
from tests.fakes.audio_samples import ogg_opus_tone, opus_stream_info
from tests.fakes.fake_openai import FakeOpenAI


def voice_endpoint(server: FakeOpenAI) -> AudioEndpoint:
    return AudioEndpoint(server.base_url, api_key=None, max_retries=0)


@pytest.fixture
async def server() -> AsyncIterator[FakeOpenAI]:
    async with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
async def audio(server: FakeOpenAI) -> AsyncIterator[OpenAIAudio]:
    async with open_audio(voice_endpoint(server)) as opened:
        assert opened is not None
        yield opened


async def test_a_voice_note_is_uploaded_as_received_and_its_transcript_returned(
    server: FakeOpenAI, audio: OpenAIAudio
) -> None:
    server.audio.transcript = "I passed my exam!"
    note = ogg_opus_tone(1.0)

    assert await audio.transcribe(note, "voice.ogg") == "I passed my exam!"

    upload = server.audio.uploads[-1]
    assert (upload.filename, upload.content, upload.model) == ("voice.ogg", note, "whisper-1")


async def test_speech_is_asked_for_as_opus_and_arrives_as_a_real_ogg_opus_note(
    server: FakeOpenAI, audio: OpenAIAudio
) -> None:
    note = await audio.speak("Happy birthday, Ana!", "nova")

    assert server.audio.speeches[-1] == {
        "model": "tts-1", "voice": "nova", "input": "Happy birthday, Ana!", "response_format": "opus"
    }  # fmt: skip
    assert opus_stream_info(note.audio)[:2] == ("ogg", "opus")
    assert note.duration_s == pytest.approx(1.0, abs=0.1)
    assert 0 < len(note.waveform) <= 256 and max(note.waveform) == 255


async def test_an_endpoint_without_opus_gives_mp3_or_wav_which_is_converted_to_ogg_opus(
    server: FakeOpenAI, audio: OpenAIAudio
) -> None:
    server.audio.opus_refused = True

    note = await audio.speak("Bonne nuit", "alloy")

    assert [s["response_format"] for s in server.audio.speeches] == ["opus", "mp3"]
    assert opus_stream_info(note.audio)[:2] == ("ogg", "opus")
    assert note.duration_s == pytest.approx(1.0, abs=0.1)


async def test_failures_are_voice_unavailable_with_a_reason(server: FakeOpenAI, audio: OpenAIAudio) -> None:
    server.audio.failures = [503, 500]

    with pytest.raises(VoiceUnavailable, match="HTTP 503"):
        await audio.transcribe(ogg_opus_tone(0.5), "voice.ogg")
    with pytest.raises(VoiceUnavailable, match="HTTP 500"):
        await audio.speak("hi", "alloy")


def test_the_endpoint_follows_the_llm_unless_set_and_is_off_when_asked() -> None:
    openai = Settings(_env_file=None, llm_provider="openai", llm_api_key="sk-llm")  # type: ignore[call-arg]
    assert openai.voice_endpoint == "https://api.openai.com/v1"
    assert openai.voice_key is not None and openai.voice_key.get_secret_value() == "sk-llm"
    own = Settings(  # type: ignore[call-arg]
        _env_file=None, llm_provider="openai", llm_api_key="sk-llm", voice_base_url="http://whisper:9000/v1"
    )
    assert (own.voice_endpoint, own.voice_key) == ("http://whisper:9000/v1", None)
    anthropic = Settings(_env_file=None, llm_provider="anthropic", llm_api_key="k")  # type: ignore[call-arg]
    assert anthropic.voice_endpoint is None
    off = Settings(_env_file=None, voice_enabled=False)  # type: ignore[call-arg]
    assert off.voice_endpoint is None


def test_voice_on_with_anthropic_needs_an_audio_endpoint_and_a_bad_url_is_refused() -> None:
    from bot.config import load_settings
    from bot.errors import ConfigError

    with pytest.raises(ConfigError, match="SOUVENIR_VOICE_BASE_URL: an OpenAI-compatible audio endpoint"):
        load_settings(_env_file=None, llm_provider="anthropic", llm_api_key="k", voice_enabled=True)
    with pytest.raises(ConfigError, match="SOUVENIR_VOICE_BASE_URL: expected an http:// or https:// URL"):
        load_settings(_env_file=None, voice_base_url="whisper:9000")
    with pytest.raises(ConfigError, match="SOUVENIR_VOICE_MAX_SECONDS"):
        load_settings(_env_file=None, voice_max_seconds=0)
