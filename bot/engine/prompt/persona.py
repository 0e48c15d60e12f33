"""Who the companion is. Loaded at the edge from our YAML/JSON file or a character card (`bot.persona_file`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.engine.prompt.card import card_voice
from bot.engine.prompt.lore import LoreEntry

# {{char}} and {{user}} in any case (and the older <BOT> / <USER>): replaced wherever a card's text is used.
_MACRO = re.compile(r"\{\{\s*(char|user)\s*\}\}|<(bot|user)>", re.IGNORECASE)
_NO_USER_NAME = "the person"


def resolve_macros(text: str, char: str, user: str) -> str:
    """`text` with {{char}} as the persona's name and {{user}} as the person's (any case)."""

    def name(match: re.Match[str]) -> str:
        which = (match.group(1) or match.group(2)).lower()
        return char if which in ("char", "bot") else (user or _NO_USER_NAME)

    return _MACRO.sub(name, text)


@dataclass(frozen=True, slots=True)
class Persona:
    name: str
    personality: str
    speaking_style: str = ""
    boundaries: tuple[str, ...] = ()
    # From a character card (empty for our own persona files). Macros stay in: they resolve per person.
    description: str = ""
    scenario: str = ""
    system_prompt: str = ""
    post_history_instructions: str = ""
    example_dialogue: str = ""  # the card's mes_example: <START>-separated sample exchanges
    greetings: tuple[str, ...] = ()  # first_mes, then alternate_greetings
    lore: tuple[LoreEntry, ...] = ()  # enabled character_book entries
    lore_token_budget: int | None = None  # the card book's token_budget
    speaking_voice: str = ""  # the persona file's `voice`: which speech voice reads its voice notes
    appearance: str = ""  # how the companion looks, for pictures (`bot.engine.media.picture_rules`)

    def voice(self, user_name: str = "") -> str:
        """Who the model speaks as, the same in replies and in unprompted messages: the card quoted as data."""
        return card_voice(self, user_name)

    def resolve(self, text: str, user_name: str) -> str:
        return resolve_macros(text, self.name, user_name)

    def greeting_for(self, user_key: str) -> str:
        """The greeting a new person gets: always the same one for a person (a retry greets alike)."""
        if not self.greetings:
            return ""
        return self.greetings[sum(user_key.encode()) % len(self.greetings)]
