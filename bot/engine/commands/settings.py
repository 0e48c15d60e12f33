"""The setting commands: /birthday, /timezone, /checkins, /groups, /voice, /language, /age and /profile.

Each alone shows its current value, then how to change it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bot.engine.commands.base import Commands, quoted, typed
from bot.engine.commands.profile import set_profile
from bot.engine.commands.results import CommandResult
from bot.engine.commands.voice import switch_voice
from bot.engine.model import MonthDay, UserProfile, UserRef
from bot.engine.safety.age import set_age
from bot.engine.texts.current_settings import say_setting
from bot.engine.texts.say import say
from bot.engine.when.dates import parse_birthday
from bot.errors import InvalidInput

_ON = {"on", "yes", "oui", "true", "1", "enable", "activer", "active"}
_OFF = {"off", "no", "non", "false", "0", "disable", "désactiver", "desactiver", "stop"}
_LANGUAGES = {"en": "en", "english": "en", "anglais": "en", "fr": "fr", "french": "fr", "français": "fr",
              "francais": "fr"}  # fmt: skip
_AUTO = {"auto", "automatic", "automatique"}
_MONTHS = {
    "en": "January February March April May June July August September October November December".split(),
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split(),
}


Switch = Callable[[UserProfile, bool], UserProfile]


def _day(birthday: MonthDay, lang: str) -> str:
    month = _MONTHS[lang if lang in _MONTHS else "en"][birthday.month - 1]
    return f"{month} {birthday.day}" if lang == "en" else f"{birthday.day} {month}"


def _then_usage(current: str, command: str, lang: str) -> CommandResult:
    """A setting command alone: its current value, then how to change it."""
    return CommandResult(f"{current}\n{say(f'usage_{command}', lang)}")


class SettingCommands(Commands):
    async def set_birthday(self, user: UserRef, text: str, hint: str | None = None) -> CommandResult:
        text = typed(text)
        user = await self._person(user)
        lang = await self.language_of(user, hint)
        if not text.strip():
            birthday = (await self._profiles.load_profile(user.key)).birthday
            current = say_setting("birthday_current", lang, date=_day(birthday, lang)) if birthday else None
            return _then_usage(current or say_setting("birthday_none", lang), "birthday", lang)
        try:
            birthday = parse_birthday(text, lang)
        except InvalidInput:
            return CommandResult(say("birthday_invalid", lang, text=quoted(text)), ok=False)
        profile = await self._profiles.load_profile(user.key)
        named = profile.display_name or user.display_name
        await self._profiles.save_profile(replace(profile, birthday=birthday, display_name=named))
        await self._planner.plan_user(user.key)
        return CommandResult(say("birthday_set", lang, date=_day(birthday, lang)))

    async def set_timezone(self, user: UserRef, text: str, hint: str | None = None) -> CommandResult:
        text = typed(text)
        user = await self._person(user)
        return await self._timezone.set(user.key, text, await self.language_of(user, hint), quoted(text))

    async def set_checkins(self, user: UserRef, text: str, hint: str | None = None) -> CommandResult:
        user = await self._person(user)
        if not typed(text).strip():
            lang = await self.language_of(user, hint)
            on = (await self._profiles.load_profile(user.key)).checkins
            current = "checkins_current_on" if on else "checkins_current_off"
            return _then_usage(say_setting(current, lang), "checkins", lang)
        result = await self._switch(user, text, hint, lambda p, on: replace(p, checkins=on), texts="checkins")
        if result.ok:
            await self._planner.plan_user(user.key)
        return result

    async def set_group_sharing(self, user: UserRef, text: str, hint: str | None = None) -> CommandResult:
        """Opt in (or back out) of private memories surfacing in group chats."""
        user = await self._person(user)
        share = lambda p, on: replace(p, share_dm_memories_in_groups=on)  # noqa: E731
        return await self._switch(user, text, hint, share, texts="groups")

    async def set_voice(self, user: UserRef, text: str, hint: str | None = None) -> CommandResult:
        """/voice on|off: replies (and unprompted messages) as voice notes."""
        user = await self._person(user)
        lang = await self.language_of(user, hint)
        return await switch_voice(self._profiles, user.key, text, lang, speaking=self._voice_speaking)

    async def _switch(
        self, user: UserRef, text: str, hint: str | None, change: Switch, *, texts: str
    ) -> CommandResult:
        """An on/off profile setting; `texts` names the usage_X, X_on and X_off texts."""
        lang = await self.language_of(user, hint)
        word = typed(text).lower()
        if word not in _ON | _OFF:
            return CommandResult(say(f"usage_{texts}", lang), ok=False)
        enabled = word in _ON
        profile = await self._profiles.load_profile(user.key)
        await self._profiles.save_profile(change(profile, enabled))
        return CommandResult(say(f"{texts}_on" if enabled else f"{texts}_off", lang))

    async def set_language(self, user: UserRef, text: str, hint: str | None = None) -> CommandResult:
        """/language en|fr pins the language used with the person; /language auto follows what they write."""
        text = typed(text)
        user = await self._person(user)
        word = text.strip().lower()
        profile = await self._profiles.load_profile(user.key)
        if not word:
            lang = await self.language_of(user, hint)
            chosen = profile.language_chosen and profile.language
            current = "language_current_chosen" if chosen else "language_current_auto"
            return _then_usage(say_setting(current, lang), "language", lang)
        if word in _AUTO:
            await self._profiles.save_profile(replace(profile, language_chosen=False))
            return CommandResult(say("language_auto", await self.language_of(user, hint)))
        chosen = _LANGUAGES.get(word)
        if chosen is None:
            return CommandResult(say("usage_language", await self.language_of(user, hint)), ok=False)
        await self._profiles.save_profile(replace(profile, language=chosen, language_chosen=True))
        return CommandResult(say("language_set", chosen))

    async def set_age(self, user: UserRef, text: str, hint: str | None = None) -> CommandResult:
        """/age <years>: the age the person confirms (explicit content and minors' rules: `bot.engine.safety.age`)."""
        user = await self._person(user)
        language = await self.language_of(user, hint)
        return await set_age(self._profiles, user.key, text, language, self._clock.now())

    async def set_profile(self, user: UserRef, text: str, hint: str | None = None) -> CommandResult:
        """/profile [name <name>|pronouns <pronouns>|tu|vous]: how the person wants to be addressed."""
        text = typed(text)
        user = await self._person(user)
        return await set_profile(self._profiles, user, text, await self.language_of(user, hint))
