"""Reading a persona into the engine's `Persona`: our YAML/JSON file or a character card (JSON or PNG).

Validated with pydantic at the edge; any problem is one `ConfigError` line naming the file and what is wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import yaml
from pydantic import BaseModel, Field, ValidationError

from bot.engine.prompt.persona import Persona
from bot.errors import ConfigError
from bot.persona_card import Card, card_from_bytes, card_from_document, looks_like_card
from bot.png_text import is_png

SETTING = "SOUVENIR_PERSONA_FILE"


class _PersonaFile(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    personality: str = Field(min_length=1)
    speaking_style: str = ""
    boundaries: list[str] = []
    voice: str = Field(default="", max_length=64)  # the speech voice for voice notes (else SOUVENIR_VOICE_TTS_VOICE)
    appearance: str = ""  # how the companion looks, for pictures


@dataclass(frozen=True, slots=True)
class LoadedPersona:
    persona: Persona
    card: Card | None = None  # set when the file was a character card


def load_persona(path: Path | None) -> Persona:
    """The persona at `path`, or the packaged default when `path` is None."""
    return read_persona(path).persona


def read_persona(path: Path | None, label: str = SETTING) -> LoadedPersona:
    if path is None:
        text = resources.files("bot").joinpath("personas/default.yaml").read_text(encoding="utf-8")
        return LoadedPersona(_our_format(text, "the default persona", label))
    try:
        content = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{label}: cannot read {path} ({exc.strerror})") from None
    return persona_from_bytes(content, str(path), label)


def persona_from_bytes(content: bytes, where: str, label: str = SETTING) -> LoadedPersona:
    try:
        png = is_png(content)
        text = "" if png else content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ConfigError(f"{label}: {where} is not a persona file (neither a PNG card nor UTF-8 text)") from None
    try:
        if png:
            return _loaded(card_from_bytes(content, default_boundaries()))
        if looks_like_card(document := _json_or_none(text)):
            return _loaded(card_from_document(document, default_boundaries()))
    except ConfigError as exc:
        raise ConfigError(f"{label}: {where} is not a usable character card ({exc})") from None
    return LoadedPersona(_our_format(text, where, label))


def _json_or_none(text: str) -> object:
    try:
        return json.loads(text) if text.lstrip().startswith("{") else None
    except ValueError:
        return None


def _loaded(card: Card) -> LoadedPersona:
    return LoadedPersona(card.persona, card)


def default_boundaries() -> tuple[str, ...]:
    """The packaged persona's boundaries: a card written for another front end keeps them."""
    return _default().boundaries


def _default() -> Persona:
    text = resources.files("bot").joinpath("personas/default.yaml").read_text(encoding="utf-8")
    return _our_format(text, "the default persona", SETTING)


def _our_format(text: str, where: str, label: str) -> Persona:
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
        raise ConfigError(f"{label}: {where} is not a persona file ({detail})") from None
    return Persona(
        name=parsed.name,
        personality=parsed.personality.strip(),
        speaking_style=parsed.speaking_style.strip(),
        boundaries=tuple(b.strip() for b in parsed.boundaries if b.strip()),
        speaking_voice=parsed.voice.strip(),
        appearance=parsed.appearance.strip(),
    )
