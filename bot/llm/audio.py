"""Listening and speaking over OpenAI's audio API: `POST /audio/transcriptions` and `POST /audio/speech`,
at OpenAI or any server with that API (a local Whisper, Kokoro or Piper server…), through the openai SDK.

Voice notes are sent for transcription as received (Telegram's and Discord's OGG/Opus as `.ogg`). Speech is
asked for as Opus; an endpoint that refuses Opus is asked for MP3 from then on, which `bot.voice_codec`
re-encodes. Failures become `VoiceUnavailable` with a short reason (one log line, by the caller).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import openai
from pydantic import SecretStr

from bot.engine.media.voice_note import VoiceNote
from bot.errors import VoiceUnavailable
from bot.llm.failure import status_reason
from bot.llm.openai_chat import PLACEHOLDER_API_KEY
from bot.voice_codec import voice_note_from

_FALLBACK_FORMAT = "mp3"  # every OpenAI-compatible speech server offers it


@dataclass(frozen=True, slots=True)
class AudioModels:
    transcription: str = "whisper-1"
    speech: str = "tts-1"


class OpenAIAudio:
    """The engine's `Transcriber` and `SpeechSynthesizer`."""

    def __init__(self, client: openai.AsyncOpenAI, models: AudioModels) -> None:
        self._client = client
        self._models = models
        self._format = "opus"  # until the endpoint says it cannot

    async def transcribe(self, audio: bytes, filename: str) -> str:
        try:
            result = await self._client.audio.transcriptions.create(
                model=self._models.transcription, file=(filename, audio), response_format="json"
            )
        except Exception as exc:
            raise VoiceUnavailable(f"transcription at {self._client.base_url} failed: {_reason(exc)}") from None
        return result.text

    async def speak(self, text: str, voice: str) -> VoiceNote:
        try:
            audio = await self._speech(text, voice)
        except openai.BadRequestError as exc:
            if self._format == _FALLBACK_FORMAT:
                raise VoiceUnavailable(f"speech at {self._client.base_url} failed: {_reason(exc)}") from None
            self._format = _FALLBACK_FORMAT  # e.g. "response_format: opus not supported"
            try:
                audio = await self._speech(text, voice)
            except Exception as again:
                raise VoiceUnavailable(f"speech at {self._client.base_url} failed: {_reason(again)}") from None
        except Exception as exc:
            raise VoiceUnavailable(f"speech at {self._client.base_url} failed: {_reason(exc)}") from None
        return await voice_note_from(audio)

    async def _speech(self, text: str, voice: str) -> bytes:
        response = await self._client.audio.speech.create(
            model=self._models.speech, voice=voice, input=text, response_format=self._format  # type: ignore[arg-type]
        )
        return response.content

    async def aclose(self) -> None:
        await self._client.close()


@dataclass(frozen=True)
class AudioEndpoint:
    """An OpenAI-compatible /audio/transcriptions and /audio/speech endpoint (SOUVENIR_VOICE_*) and its models."""

    base_url: str
    api_key: SecretStr | None
    models: AudioModels = AudioModels()
    timeout_s: float = 60.0
    max_retries: int = 2


@asynccontextmanager
async def open_audio(endpoint: AudioEndpoint | None) -> AsyncIterator[OpenAIAudio | None]:
    """The audio client, or None when voice is off (no endpoint); nothing is sent on entry."""
    if endpoint is None:
        yield None
        return
    key = endpoint.api_key
    client = openai.AsyncOpenAI(
        api_key=key.get_secret_value() if key else PLACEHOLDER_API_KEY,
        base_url=endpoint.base_url,
        timeout=endpoint.timeout_s,
        max_retries=endpoint.max_retries,
    )
    audio = OpenAIAudio(client, endpoint.models)
    try:
        yield audio
    finally:
        await audio.aclose()


def _reason(exc: Exception) -> str:
    if isinstance(exc, openai.APITimeoutError):
        return "timed out"
    if isinstance(exc, openai.APIConnectionError):
        return "connection failed"
    if isinstance(exc, openai.APIStatusError):
        return status_reason(exc.status_code, exc.body).replace("SOUVENIR_LLM_API_KEY", "SOUVENIR_VOICE_API_KEY")
    return f"unexpected {type(exc).__name__}"
