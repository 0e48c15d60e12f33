"""Draws docs/mood-chart-sample.png (the README's sample /mood chart) from synthetic readings.

Ninety days of a made-up person: two or three messages a day, mostly light, Sundays heavier, a heavier last
week. Deterministic (seeded), so the picture only changes when the chart does.

    python scripts/sample_mood_chart.py [OUT.png] [--fr]
"""

from __future__ import annotations

import random
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from bot.engine.mood import MoodPattern, MoodReading, TimedReading
from memory.mood.chart import render_chart

NOW = datetime(2026, 11, 30, 20, tzinfo=UTC)


def synthetic_readings(days: int = 90, seed: int = 11) -> list[TimedReading]:
    rng = random.Random(seed)
    out: list[TimedReading] = []
    for back in range(days, -1, -1):
        day = NOW - timedelta(days=back)
        for _ in range(rng.randint(1, 3)):
            at = day.replace(hour=rng.randint(8, 22), minute=rng.randint(0, 59))
            valence = rng.gauss(0.25, 0.3)
            if at.weekday() == 6:
                valence -= 0.55  # Sundays are heavier
            if back < 7:
                valence -= 0.35  # and so is the last week
            valence = max(-1.0, min(1.0, valence))
            label = "joy" if valence > 0.3 else "calm" if valence > 0 else "anxiety" if at.weekday() == 6 else "sadness"
            out.append(TimedReading(at, MoodReading(label, round(valence, 2), 0.6)))  # type: ignore[arg-type]
    return sorted(out, key=lambda r: r.at)


def main(argv: list[str]) -> int:
    out = Path(next((a for a in argv if not a.startswith("--")), "docs/mood-chart-sample.png"))
    language = "fr" if "--fr" in argv else "en"
    patterns = [
        MoodPattern("weekday", mood="anxiety", weekday="sunday", evidence=13, p_value=0.004),
        MoodPattern("trend", direction="down", since=date(2026, 11, 24)),
    ]
    png = render_chart(synthetic_readings(), patterns, language=language, timezone="Europe/Paris", days=90, now=NOW)
    assert png is not None
    out.write_bytes(png)
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
