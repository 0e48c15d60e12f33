"""Voice notes: the ports the engine listens and speaks through, and what a received one looks like.

Adapters hand over a `VoiceClip` (what the platform says about the audio, and how to fetch it); the
`VoiceConversation` checks the limits, transcribes it and answers the transcript like typed words.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.engine.media.voice_note import VoiceNote

# Telegram bots may download files up to 20 MB; OpenAI's transcription takes up to 25 MB.
MAX_VOICE_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class VoiceClip:
    """A voice note or audio file a person sent, before it is downloaded."""

    filename: str  # with the extension the transcription API reads the format from (".ogg", ".mp3"…)
    fetch: Callable[[], Awaitable[bytes]]  # downloads it; only called once the limits are checked
    duration_s: float | None = None  # as the platform reports it
    size_bytes: int | None = None


class Transcriber(Protocol):
    async def transcribe(self, audio: bytes, filename: str) -> str:
        """The words spoken. Raises `bot.errors.VoiceUnavailable` when the service fails."""
        ...


class SpeechSynthesizer(Protocol):
    async def speak(self, text: str, voice: str) -> VoiceNote:
        """`text` read aloud as OGG/Opus. Raises `bot.errors.VoiceUnavailable` when the service fails."""
        ...


class VoiceArchive(Protocol):
    """Where received audio is kept when the operator enables it (SOUVENIR_VOICE_KEEP_AUDIO)."""

    async def keep(self, user_key: str, message_id: str, filename: str, audio: bytes) -> None: ...


@dataclass(frozen=True, slots=True)
class VoiceLimits:
    max_seconds: int = 300
    max_chars: int = 600  # longer replies are sent as text
    max_bytes: int = MAX_VOICE_BYTES
