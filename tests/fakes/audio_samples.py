"""Real audio for the fakes: a short tone as OGG/Opus (what Telegram and Discord voice notes are) or WAV."""

from __future__ import annotations

import io

import av
import numpy as np

_RATE = 48_000


def _tone(seconds: float, rate: int) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    return (0.3 * np.sin(2 * np.pi * 440 * t) * np.linspace(0.2, 1.0, t.size)).astype(np.float32)


def ogg_opus_tone(seconds: float = 1.0) -> bytes:
    out = io.BytesIO()
    with av.open(out, mode="w", format="ogg") as container:
        stream = container.add_stream("libopus", rate=_RATE)
        stream.layout = "mono"
        frame = av.AudioFrame.from_ndarray(_tone(seconds, _RATE).reshape(1, -1), format="flt", layout="mono")
        frame.sample_rate = _RATE
        for packet in [*stream.encode(frame), *stream.encode(None)]:
            container.mux(packet)
    return out.getvalue()


def wav_tone(seconds: float = 1.0, rate: int = 24_000) -> bytes:
    out = io.BytesIO()
    with av.open(out, mode="w", format="wav") as container:
        stream = container.add_stream("pcm_s16le", rate=rate)
        stream.layout = "mono"
        pcm = (_tone(seconds, rate) * 32767).astype(np.int16).reshape(1, -1)
        frame = av.AudioFrame.from_ndarray(pcm, format="s16", layout="mono")
        frame.sample_rate = rate
        for packet in [*stream.encode(frame), *stream.encode(None)]:
            container.mux(packet)
    return out.getvalue()


def opus_stream_info(audio: bytes) -> tuple[str, str, float]:
    """(container format, codec, seconds) as FFmpeg reads them: proves bytes are a real OGG/Opus file."""
    with av.open(io.BytesIO(audio)) as container:
        stream = container.streams.audio[0]
        seconds = float(stream.duration * stream.time_base) if stream.duration else 0.0
        return container.format.name, stream.codec_context.name, seconds
