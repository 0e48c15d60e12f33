"""Who the companion is. Loaded from a YAML/JSON file at the edge (`bot.persona_file`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Persona:
    name: str
    personality: str
    speaking_style: str
    boundaries: tuple[str, ...] = ()
