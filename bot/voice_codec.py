"""OGG/Opus for voice notes, with PyAV (FFmpeg's libraries, libopus included, shipped in its wheels).

Speech endpoints that cannot give Opus answer MP3 or WAV; Telegram's sendVoice and Discord voice messages
play only OGG/Opus. PyAV decodes whatever came and encodes Opus without a system ffmpeg. It also measures
what platforms show next to a voice note: its duration and a waveform. All of it is CPU work: callers run
it off the event loop (`voice_note_from`).
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import av
import numpy as np

from bot.engine.media.voice_note import VoiceNote
from bot.errors import VoiceUnavailable

_RATE = 48_000  # Opus's native rate
_WAVEFORM_SAMPLES = 256  # Discord's limit for a voice message's waveform


async def voice_note_from(audio: bytes) -> VoiceNote:
    """A voice note of `audio` (OGG/Opus kept as it is, anything else re-encoded), off the event loop."""
    return await asyncio.to_thread(_voice_note, audio)


def _voice_note(audio: bytes) -> VoiceNote:
    try:
        samples = _decoded(audio)
        ogg = audio if _is_ogg_opus(audio) else _encoded(samples)
    except (av.FFmpegError, ValueError) as exc:
        raise VoiceUnavailable(f"the speech audio could not be read: {exc}") from None
    if samples.size == 0:
        raise VoiceUnavailable("the speech audio was empty")
    return VoiceNote(ogg, round(samples.size / _RATE, 2), waveform(samples))


def _is_ogg_opus(audio: bytes) -> bool:
    return audio[:4] == b"OggS" and b"OpusHead" in audio[:128]


def _decoded(audio: bytes) -> np.ndarray[Any, np.dtype[np.float32]]:
    """Mono float samples at 48 kHz."""
    resampler = av.AudioResampler(format="flt", layout="mono", rate=_RATE)
    chunks: list[np.ndarray[Any, Any]] = []
    with av.open(io.BytesIO(audio), mode="r") as container:
        if not container.streams.audio:
            raise ValueError("no audio stream")
        for frame in container.decode(audio=0):
            chunks.extend(f.to_ndarray().reshape(-1) for f in resampler.resample(frame))
        chunks.extend(f.to_ndarray().reshape(-1) for f in resampler.resample(None))
    return np.concatenate(chunks).astype(np.float32) if chunks else np.zeros(0, dtype=np.float32)


def _encoded(samples: np.ndarray[Any, np.dtype[np.float32]]) -> bytes:
    out = io.BytesIO()
    with av.open(out, mode="w", format="ogg") as container:
        stream = container.add_stream("libopus", rate=_RATE)
        stream.layout = "mono"
        frame = av.AudioFrame.from_ndarray(samples.reshape(1, -1), format="flt", layout="mono")
        frame.sample_rate = _RATE
        for packet in stream.encode(frame):
            container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)
    return out.getvalue()


def waveform(samples: np.ndarray[Any, np.dtype[np.float32]]) -> bytes:
    """Up to 256 loudness values 0-255 (peak per slice, the loudest slice at 255)."""
    slices = np.array_split(np.abs(samples), min(_WAVEFORM_SAMPLES, max(1, samples.size)))
    peaks = np.array([s.max() if s.size else 0.0 for s in slices], dtype=np.float32)
    top = float(peaks.max()) if peaks.size else 0.0
    scaled = peaks / top * 255 if top > 0 else peaks
    return bytes(int(v) for v in np.clip(scaled, 0, 255))
