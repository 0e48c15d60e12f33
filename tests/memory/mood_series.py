"""One person's messages over weeks, for the pattern finder: readings directly, or texts for `eval patterns`."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.engine.mood import MOOD_LABELS, MoodLabel, MoodReading, TimedReading

VALENCE: dict[str, float] = {"joy": 0.7, "calm": 0.4, "sadness": -0.7, "anxiety": -0.5, "anger": -0.6,
                             "tiredness": -0.4, "neutral": 0.0}  # fmt: skip
MONDAY = datetime(2025, 3, 3, tzinfo=UTC)

TEXTS: dict[str, tuple[str, ...]] = {
    "joy": ("I got the promotion, so happy!", "Super soirée, on a tellement ri", "Best weekend in ages 😁"),
    "calm": ("Quiet evening with a book, feeling peaceful", "Je me sens sereine aujourd'hui",
             "Tea on the balcony, relaxed"),
    "sadness": ("I miss her so much, I cried again", "Je me sens tellement seul", "Feeling really low today 😢"),
    "anxiety": ("I'm so anxious about tomorrow, can't stop worrying", "J'ai l'angoisse de la semaine qui arrive",
                "Stressed out and scared about work 😰"),
    "anger": ("I'm furious with my landlord", "Ça m'énerve, j'en ai marre", "So angry right now 😡"),
    "tiredness": ("I'm exhausted, barely slept", "Je suis crevée", "So tired I could sleep all day 😴"),
    "neutral": ("I had pasta for lunch", "Le train part à 8h", "The meeting moved to Thursday"),
}  # fmt: skip


def planted_labels(
    seed: int,
    *,
    weeks: int = 8,
    per_day: tuple[int, int] = (1, 3),
    sunday_anxiety: float = 0.0,
    low_from_day: int | None = None,
    hours: tuple[int, int] = (8, 21),
) -> list[tuple[datetime, MoodLabel]]:
    """Random moods at random times between `hours` (UTC); on Sundays `sunday_anxiety` of messages are anxious; from
    `low_from_day` on, most messages are sad or tired."""
    rng = random.Random(seed)
    out: list[tuple[datetime, MoodLabel]] = []
    for day in range(weeks * 7):
        start = MONDAY + timedelta(days=day, hours=hours[0])
        for _ in range(rng.randint(*per_day)):
            at = start + timedelta(minutes=rng.randint(0, (hours[1] - hours[0]) * 60 - 1))
            label: MoodLabel = rng.choice(MOOD_LABELS)
            if start.weekday() == 6 and rng.random() < sunday_anxiety:
                label = "anxiety"
            if low_from_day is not None and day >= low_from_day and rng.random() < 0.8:
                label = rng.choice(("sadness", "tiredness"))
            out.append((at, label))
    return sorted(out)


def readings(labelled: list[tuple[datetime, MoodLabel]], topics: tuple[str, ...] = ()) -> list[TimedReading]:
    return [TimedReading(at, MoodReading(label, VALENCE[label], 0.5), topics) for at, label in labelled]


def write_texts(path: Path, labelled: list[tuple[datetime, MoodLabel]], seed: int = 0) -> None:
    """The series as `eval patterns` reads it: {"at": ISO-8601 with offset, "text"} in time order."""
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        for at, label in labelled:
            line = {"at": at.isoformat(), "text": rng.choice(TEXTS[label])}
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
