"""Who the companion is. Loaded from a YAML/JSON file at the edge (`bot.persona_file`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Persona:
    name: str
    personality: str
    speaking_style: str
    boundaries: tuple[str, ...] = ()

    def voice(self) -> str:
        """Who the model speaks as, the same in replies and in unprompted messages."""
        parts = [f"You are {self.name}, an AI companion. {self.personality}"]
        if self.speaking_style:
            parts.append(f"Speaking style: {self.speaking_style}")
        if self.boundaries:
            parts.append("Boundaries:\n" + "\n".join(f"- {b}" for b in self.boundaries))
        return "\n\n".join(parts)
