"""What a person can ask of the companion outside of conversation: settings and their own memories.

Every platform's slash commands and the CLI call this one service, so /birthday means the same thing on
Telegram, Discord and the terminal.
"""

from __future__ import annotations

import logging

from bot.engine.commands.accounts import AccountCommands
from bot.engine.commands.base import NUMBER, typed
from bot.engine.commands.memories import MemoryCommands
from bot.engine.commands.results import MoodChart
from bot.engine.commands.settings import SettingCommands
from bot.engine.model import UserRef
from bot.engine.texts.mood import say_mood
from bot.engine.texts.say import say

log = logging.getLogger(__name__)

_MOOD_DAYS_DEFAULT = 30
_MOOD_DAYS_MAX = 400


class UserCommands(SettingCommands, MemoryCommands, AccountCommands):
    """Every command a person can give, on every platform and the CLI: the settings, their memories, their
    accounts (`bot.engine.commands.settings`, `.memories`, `.accounts`), and these few besides."""

    async def start_text(self, user: UserRef, hint: str | None = None) -> str:
        lang = await self.language_of(user, hint)
        name = f" {user.display_name}" if user.display_name else ""
        return say("start", lang, name=name, bot=self._bot_name)

    async def help_text(self, user: UserRef, hint: str | None = None) -> str:
        return say("help", await self.language_of(user, hint))

    async def privacy_text(self, user: UserRef, hint: str | None = None) -> str:
        return say("privacy", await self.language_of(user, hint), window_hours=self._window_hours)

    async def mood(self, user: UserRef, argument: str = "", hint: str | None = None) -> MoodChart:
        """/mood [days]: the person's own chart (30 days unless they ask for up to 400)."""
        argument = typed(argument)
        user = await self._person(user)
        lang = await self.language_of(user, hint)
        word = argument.strip()
        if word and not (NUMBER.fullmatch(word) and 1 <= int(word) <= _MOOD_DAYS_MAX):
            return MoodChart(say_mood("usage_mood", lang), ok=False)
        days = int(word) if word else _MOOD_DAYS_DEFAULT
        if self._moods is None:
            return MoodChart(say_mood("mood_too_few", lang))
        profile = await self._profiles.load_profile(user.key)
        zone = profile.timezone or self._default_timezone
        try:
            png = await self._moods.mood_chart(user.key, days, lang, zone)
        except Exception:
            log.exception("could not draw a mood chart")
            return MoodChart(say_mood("mood_unavailable", lang), ok=False)
        if png is None:
            return MoodChart(say_mood("mood_too_few", lang))
        return MoodChart(say_mood("mood_caption", lang, days=days), png)
