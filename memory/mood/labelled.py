"""Labelled mood messages, one JSON object a line: {"text": …, "lang": "fr"|"en", "label": …}."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ValidationError

from bot.engine.mood import MoodLabel
from bot.errors import ConfigError


class _Line(BaseModel):
    text: str
    lang: str = ""
    label: MoodLabel


@dataclass(frozen=True, slots=True)
class LabelledMessage:
    text: str
    lang: str
    label: MoodLabel


def load_labelled(path: Path) -> list[LabelledMessage]:
    """Every non-blank line, in order; a bad line is a clear error naming it."""
    out: list[LabelledMessage] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = _Line.model_validate(json.loads(line))
        except (json.JSONDecodeError, ValidationError) as exc:
            raise ConfigError(
                f'{path}:{number}: expected {{"text", "lang", "label"}} with a label among '
                f"joy, calm, sadness, anxiety, anger, tiredness, neutral ({exc.__class__.__name__})"
            ) from exc
        out.append(LabelledMessage(row.text, row.lang, row.label))
    return out
