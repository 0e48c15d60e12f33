"""Who the companion is: its persona, its picture, and the crisis lines its safety rules give."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.avatar import BotAvatar, bot_avatar
from bot.config import Settings
from bot.crisis_lines_file import load_crisis_lines
from bot.engine.prompt.persona import Persona
from bot.engine.safety.crisis_lines import CrisisLines
from bot.persona_file import read_persona
from bot.persona_store import persona_path


@dataclass(frozen=True)
class Companion:
    persona: Persona
    avatar: BotAvatar | None  # the bot's profile picture, set where the platform allows it
    crisis_lines: CrisisLines


async def load_companion(settings: Settings) -> Companion:
    loaded = read_persona(persona_path(settings.persona_file, settings.data_dir))
    crisis_lines = await asyncio.to_thread(load_crisis_lines, settings.crisis_lines_file)
    avatar = bot_avatar(settings.persona_avatar, loaded.card.avatar if loaded.card else None, settings.data_dir)
    return Companion(loaded.persona, avatar, crisis_lines)
