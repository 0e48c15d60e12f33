"""The active persona kept in the data dir: `souvenir persona import` puts a checked copy there, and the app
uses it when SOUVENIR_PERSONA_FILE is not set."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from bot.errors import ConfigError
from bot.persona_file import LoadedPersona, persona_from_bytes, read_persona
from bot.png_text import is_png

_FOLDER = "persona"
_SUFFIXES = (".png", ".json", ".yaml")


def active_persona_file(data_dir: Path) -> Path | None:
    """The imported persona, if any."""
    for suffix in _SUFFIXES:
        path = data_dir / _FOLDER / f"active{suffix}"
        if path.is_file():
            return path
    return None


def persona_path(persona_file: Path | None, data_dir: Path) -> Path | None:
    """SOUVENIR_PERSONA_FILE wins; else the imported one; None means the packaged default."""
    return persona_file or active_persona_file(data_dir)


def import_persona(source: Path, data_dir: Path, label: str = "persona import") -> LoadedPersona:
    """Check `source` and make a copy of it the active persona. Nothing changes unless it is valid."""
    try:
        content = source.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{label}: cannot read {source} ({exc.strerror})") from None
    loaded = persona_from_bytes(content, str(source), label)
    folder = data_dir / _FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    suffix = ".png" if is_png(content) else ".json" if content.lstrip().startswith(b"{") else ".yaml"
    target = folder / f"active{suffix}"
    partial = folder / f".active{suffix}.partial"
    partial.write_bytes(content)
    os.replace(partial, target)  # atomic: a crash leaves the old persona or the new one, never half of one
    for other in _SUFFIXES:
        if other != suffix:
            (folder / f"active{other}").unlink(missing_ok=True)
    return loaded


def card_v2(path: Path | None, label: str) -> dict[str, Any]:
    """The persona at `path` as Character Card V2 JSON (our own format is converted)."""
    loaded = read_persona(path, label)
    if loaded.card is not None:
        return loaded.card.as_v2()
    persona = loaded.persona
    return {
        "spec": "chara_card_v2",
        "spec_version": "2.0",
        "data": {
            "name": persona.name,
            "description": persona.personality,
            "personality": "",
            "scenario": "",
            "first_mes": "",
            "mes_example": "",
            "creator_notes": "Exported from Souvenir.",
            "system_prompt": "",
            "post_history_instructions": persona.speaking_style,
            "alternate_greetings": [],
            "tags": [],
            "creator": "",
            "character_version": "",
            "extensions": {
                "souvenir": {"speaking_style": persona.speaking_style, "boundaries": list(persona.boundaries)},
                # Read back by the card loader: pictures keep the same face after a round trip.
                **({"appearance": persona.appearance} if persona.appearance else {}),
            },
        },
    }
