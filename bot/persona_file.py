"""Reading a persona file (YAML or JSON) into the engine's `Persona`, validated with pydantic."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import yaml
from pydantic import BaseModel, Field, ValidationError

from bot.engine.persona import Persona
from bot.errors import ConfigError


class _PersonaFile(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    personality: str = Field(min_length=1)
    speaking_style: str = ""
    boundaries: list[str] = []


def load_persona(path: Path | None) -> Persona:
    """The persona at `path`, or the packaged default when `path` is None."""
    if path is None:
        text = resources.files("bot").joinpath("personas/default.yaml").read_text(encoding="utf-8")
        where = "the default persona"
    else:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"SOUVENIR_PERSONA_FILE: cannot read {path} ({exc.strerror})") from None
        where = str(path)
    try:
        data = json.loads(text) if text.lstrip().startswith("{") else yaml.safe_load(text)
        parsed = _PersonaFile.model_validate(data)
    except (ValueError, yaml.YAMLError, ValidationError) as exc:
        first = exc.errors()[0] if isinstance(exc, ValidationError) else None
        if first is None:
            detail = "not valid YAML or JSON"
        elif first["loc"]:
            detail = f"field '{'.'.join(map(str, first['loc']))}': {first['msg']}"
        else:
            detail = "expected a mapping with name, personality, speaking_style and boundaries"
        raise ConfigError(f"SOUVENIR_PERSONA_FILE: {where} is not a persona file ({detail})") from None
    return Persona(
        name=parsed.name,
        personality=parsed.personality.strip(),
        speaking_style=parsed.speaking_style.strip(),
        boundaries=tuple(b.strip() for b in parsed.boundaries if b.strip()),
    )
