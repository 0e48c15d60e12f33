"""Pattern finder figures on synthetic series: how often a planted Sunday effect is found, how often noise
yields a pattern (per kind), and the time one series takes.

    python -m bench.mood_patterns [--series 50]

Series: 8 or 12 weeks, 1-3 messages a day at random daytime hours, moods uniformly random; a planted
series makes each Sunday message anxious with probability `strength`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from datetime import UTC, datetime, timedelta

from bot.engine.mood import MOOD_LABELS, MoodLabel, MoodReading, TimedReading
from memory.mood.patterns import find_patterns

VALENCE = {"joy": 0.7, "calm": 0.4, "sadness": -0.7, "anxiety": -0.5, "anger": -0.6, "tiredness": -0.4, "neutral": 0.0}
MONDAY = datetime(2025, 3, 3, 8, tzinfo=UTC)


def series(seed: int, weeks: int, strength: float) -> list[TimedReading]:
    rng = random.Random(seed)
    out: list[TimedReading] = []
    for day in range(weeks * 7):
        for _ in range(rng.randint(1, 3)):
            at = MONDAY + timedelta(days=day, minutes=rng.randint(0, 13 * 60))
            label: MoodLabel = rng.choice(MOOD_LABELS)
            if at.weekday() == 6 and rng.random() < strength:
                label = "anxiety"
            topics = ("work",) if rng.random() < 0.2 else ()
            out.append(TimedReading(at, MoodReading(label, VALENCE[label], 0.5), topics))
    return out


def _finds_sunday_anxiety(readings: list[TimedReading]) -> bool:
    found = find_patterns(readings, "UTC")
    return any(p.kind == "weekday" and p.weekday == "sunday" and p.mood == "anxiety" for p in found)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--series", type=int, default=50)
    args = parser.parse_args()
    for weeks in (8, 12):
        timings: list[float] = []
        false_kinds: dict[str, int] = {}
        for seed in range(args.series):
            started = time.perf_counter()
            found = find_patterns(series(1000 + seed, weeks, 0.0), "UTC")
            timings.append(time.perf_counter() - started)
            for kind in {p.kind for p in found}:
                false_kinds[kind] = false_kinds.get(kind, 0) + 1
        print(f"{weeks} weeks, noise: series with a pattern, by kind: {false_kinds or 'none'} of {args.series}; "
              f"median {statistics.median(timings) * 1000:.0f} ms a series")  # fmt: skip
        for strength in (0.4, 0.6, 0.8):
            hits = sum(_finds_sunday_anxiety(series(2000 + seed, weeks, strength)) for seed in range(args.series))
            print(f"  planted Sunday anxiety at {strength:.0%} of Sunday messages: found in {hits}/{args.series}")


if __name__ == "__main__":
    main()
