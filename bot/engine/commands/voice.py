"""/voice on|off: whether the companion answers a person with voice notes (off by default)."""

from __future__ import annotations

from dataclasses import replace

from bot.engine.commands.results import CommandResult
from bot.engine.ports import ProfileStore
from bot.engine.texts.voice import say_voice

_ON = {"on", "yes", "oui", "true", "1", "enable", "activer", "active"}
_OFF = {"off", "no", "non", "false", "0", "disable", "désactiver", "desactiver", "stop"}


async def switch_voice(
    profiles: ProfileStore, person_key: str, word: str, language: str, *, speaking: bool
) -> CommandResult:
    """Turn voice replies on or off for the person; says so when this install cannot speak at all."""
    word = word.strip().lower()
    if word not in _ON | _OFF:
        return CommandResult(say_voice("usage_voice", language), ok=False)
    enabled = word in _ON
    await profiles.save_profile_fields(replace(await profiles.load_profile(person_key), voice_replies=enabled),
                                       ("voice_replies",))  # fmt: skip
    if not enabled:
        return CommandResult(say_voice("voice_off", language))
    return CommandResult(say_voice("voice_on" if speaking else "voice_on_unavailable", language))
