"""Everything Souvenir says in its own voice (not the LLM's), in English and French.

`say(key, language, **values)` picks the language, falling back to English. Its texts are kept by what they are
about: the chat around a conversation, the settings, the memories, linking accounts (`bot.engine.texts.chat`,
`.settings`, `.memories`, `.linking`); `say_in` reads the other texts' tables (`texts.mood`, `texts.voice`...) alike.
"""

from __future__ import annotations

from bot.engine.texts.chat import CHAT
from bot.engine.texts.linking import LINKING
from bot.engine.texts.memories import MEMORIES
from bot.engine.texts.settings import SETTINGS

_TEXTS: dict[str, dict[str, str]] = {**CHAT, **SETTINGS, **MEMORIES, **LINKING}


def say_in(table: dict[str, dict[str, str]], key: str, language: str | None, /, **values: object) -> str:
    """`key`'s text from `table` in `language` (English when there is none), with `values` filled in."""
    variants = table[key]
    text = variants.get(language or "en") or variants["en"]
    return text.format(**values) if values else text


def say(key: str, language: str | None, /, **values: object) -> str:
    return say_in(_TEXTS, key, language, **values)
