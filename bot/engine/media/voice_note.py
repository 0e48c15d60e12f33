"""A voice note the companion sends: real OGG/Opus audio and what platforms show with it."""

from __future__ import annotations

from dataclasses import dataclass

VOICE_FILENAME = "voice-message.ogg"
VOICE_MIME = "audio/ogg"


@dataclass(frozen=True, slots=True)
class VoiceNote:
    audio: bytes  # OGG/Opus: what Telegram's sendVoice and Discord voice messages play
    duration_s: float
    waveform: bytes = b""  # up to 256 loudness samples 0-255 (Discord draws them)

    def __post_init__(self) -> None:
        if len(self.waveform) > 256:
            raise ValueError("a voice note's waveform holds at most 256 samples")
