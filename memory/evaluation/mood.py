"""`souvenir eval mood` and `souvenir eval patterns`: the offline mood reader and the pattern finder on files.

eval mood: FILE lines {"text", "lang", "label"}; every line gets exactly one reading; OUT {"n", "accuracy",
"macro_f1", "valence_sign_accuracy", "per_label": {label: {"precision", "recall", "f1"}}}.
eval patterns: FILE lines {"at": ISO-8601 with offset, "text"}, one person's messages in time order; each
is read, its topics found, and patterns computed on the series' own dates and local times (the offsets
the file gives); OUT {"readings": n, "patterns": [...]}.
Both run offline: USE embeddings and the shipped head (the model loads in a worker thread).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.engine.mood import MoodPattern, MoodReading, TimedReading
from bot.engine.ports import LanguageModel
from bot.errors import ConfigError
from memory.embedding import UseEmbedder
from memory.mood.labelled import LabelledMessage, load_labelled
from memory.mood.patterns import find_patterns_local
from memory.mood.reader import OfflineMoodReader, open_offline_reader
from memory.mood.scoring import score_readings
from memory.mood.topics import topics_of
from memory.writing.extraction.llm import LlmExtractor

# The evaluation reads each line as a message written now, in UTC (the mood does not depend on either).
_LLM_READ_AT = datetime(2026, 1, 1, 12, tzinfo=UTC)


async def _reader() -> OfflineMoodReader:
    embedder = UseEmbedder()
    await embedder.warm_up()
    return await open_offline_reader(embedder)


def _write(json_out: Path | None, report: dict[str, Any]) -> None:
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


async def _read_with_model(
    llm: LanguageModel, rows: Sequence[LabelledMessage], offline: Sequence[MoodReading]
) -> tuple[list[MoodReading], int]:
    """Each line through the memory extraction call the app makes (its mood field); the offline reading where
    the model gives none, as in the app. Returns the readings and how many came from the model."""
    extractor = LlmExtractor(llm)
    readings: list[MoodReading] = []
    for row, fallback in zip(rows, offline, strict=True):
        read: list[MoodReading] = []
        await extractor.extract(row.text, _LLM_READ_AT, "UTC", row.lang, mood_out=read)
        readings.append(read[0] if read else fallback)
    return readings, sum(1 for r, o in zip(readings, offline, strict=True) if r is not o)


async def run_mood_eval(data: Path, json_out: Path | None, *, llm: LanguageModel | None = None) -> int:
    rows = load_labelled(data)
    if not rows:
        raise ConfigError(f"--data: no labelled messages in {data}")
    reader = await _reader()
    readings = await reader.read_many([r.text for r in rows])
    if llm is not None:
        readings, from_model = await _read_with_model(llm, rows, readings)
        print(f"{from_model} of {len(rows)} readings came from the language model (the rest offline)")
    report = score_readings([r.label for r in rows], readings)
    _write(json_out, report)
    print(f"{report['n']} messages: accuracy {report['accuracy']:.3f}, macro-F1 {report['macro_f1']:.3f}, "
          f"valence sign {report['valence_sign_accuracy']:.3f}")  # fmt: skip
    for label, scores in report["per_label"].items():
        print(
            f"  {label:<10} precision {scores['precision']:.3f}  recall {scores['recall']:.3f}  f1 {scores['f1']:.3f}"
        )
    return 0


class _TimedLine(BaseModel):
    at: datetime
    text: str


def _load_series(path: Path) -> list[_TimedLine]:
    out: list[_TimedLine] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = _TimedLine.model_validate(json.loads(line))
        except (json.JSONDecodeError, ValidationError) as exc:
            raise ConfigError(f"{path}:{number}: expected {{\"at\": ISO-8601 with offset, \"text\": …}} "
                              f"({exc.__class__.__name__})") from exc  # fmt: skip
        if row.at.utcoffset() is None:
            raise ConfigError(f'{path}:{number}: "at" needs a UTC offset, e.g. 2025-03-02T21:40:00+01:00')
        out.append(row)
    return out


def pattern_json(pattern: MoodPattern) -> dict[str, Any]:
    """The report's shape for one pattern: only the fields its kind uses."""
    out: dict[str, Any] = {"kind": pattern.kind}
    if pattern.kind == "weekday":
        out |= {"weekday": pattern.weekday, "mood": pattern.mood}
    elif pattern.kind == "time_of_day":
        out |= {"hours": pattern.hours, "mood": pattern.mood}
    elif pattern.kind == "trend":
        out |= {"direction": pattern.direction, "since": pattern.since.isoformat() if pattern.since else None}
    else:
        out |= {"topic": pattern.topic, "mood": pattern.mood}
    return out | {"evidence": pattern.evidence, "p_value": pattern.p_value}


async def run_patterns_eval(data: Path, json_out: Path | None) -> int:
    rows = _load_series(data)
    reader = await _reader()
    readings = await reader.read_many([r.text for r in rows])
    series = [
        TimedReading(row.at.astimezone(UTC), reading, topics_of(row.text))
        for row, reading in zip(rows, readings, strict=True)
    ]
    patterns = find_patterns_local(series, [row.at for row in rows]) if series else []
    found = [pattern_json(p) for p in patterns]
    _write(json_out, {"readings": len(series), "patterns": found})
    print(f"{len(series)} readings, {len(patterns)} pattern(s)")
    for entry in found:
        print("  " + ", ".join(f"{k}={v}" for k, v in entry.items()))
    return 0
