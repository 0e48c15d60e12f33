"""Voice-note codec work (PyAV): time and size per reply, for a note the endpoint gave as OGG/Opus (only measured:
duration and waveform) and one it gave as WAV (re-encoded to OGG/Opus as well).

    python -m bench.voice_codec [--seconds 5,30,60] [--runs 5]

Prints the median wall time of `voice_note_from` per input, and the sizes in and out.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from bot.voice_codec import voice_note_from
from tests.fakes.audio_samples import ogg_opus_tone, wav_tone


async def main(seconds: list[float], runs: int) -> None:
    print(f"{'input':<14}{'median ms':>11}{'in KB':>9}{'out KB':>9}{'waveform':>10}")
    for length in seconds:
        for name, audio in (("ogg/opus", ogg_opus_tone(length)), ("wav 24 kHz", wav_tone(length))):
            times = []
            for _ in range(runs):
                started = time.perf_counter()
                note = await voice_note_from(audio)
                times.append(time.perf_counter() - started)
            label = f"{name} {length:g}s"
            print(f"{label:<14}{statistics.median(times) * 1000:>11.1f}{len(audio) / 1024:>9.1f}"
                  f"{len(note.audio) / 1024:>9.1f}{len(note.waveform):>10}")  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", default="5,30,60")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(main([float(s) for s in args.seconds.split(",")], args.runs))
