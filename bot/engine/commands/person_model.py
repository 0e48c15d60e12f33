"""The person model as the person sees it: first in /memories and /export, each line lettered (numbers are
the memories' own, for /forget), and a way to say one is wrong ("/memories wrong b", « /memories faux b »):
the facts behind it are superseded (no longer current, never recalled as true again) and the line leaves the
model at once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from bot.engine.model import UserProfile
from bot.engine.ports import Clock, ProfileStore
from bot.engine.prompt.person_model import PersonModel, PersonModels, addressed, shown_lines
from bot.engine.texts.say import say_in

_WRONG = re.compile(r"^\s*(?:wrong|fix|correct|faux|fausse|corriger|corrige)\s+(?P<letter>[a-z])\)?\s*$", re.I)
_LETTERS = "abcdefghijklmnopqrstuvwxyz"

_TEXTS = {
    "person_header": {"en": "What I know about you:", "fr": "Ce que je sais de toi :"},
    "person_footer": {
        "en": "Something wrong? /memories wrong <letter> (such as /memories wrong b) and I'll set it aside.",
        "fr": "Quelque chose de faux ? /memories faux <lettre> (comme /memories faux b) et je le mets de côté.",
    },
    "person_corrected": {
        "en": "Thanks for telling me: I've set aside « {line} ».",
        "fr": "Merci de me le dire : j'ai mis de côté « {line} ».",
    },
    "person_profile_line": {
        "en": "That line comes from your profile: change it with /profile (such as /profile name Max, "
        "/profile pronouns they/them).",
        "fr": "Cette ligne vient de ton profil : change-la avec /profile (comme /profile nom Max, "
        "/profile pronoms iel).",
    },
    "person_no_line": {
        "en": "There's no line {letter}) in what I know about you (/memories shows it).",
        "fr": "Il n'y a pas de ligne {letter}) dans ce que je sais de toi (/memories l'affiche).",
    },
}


class PersonModelEditor(PersonModels, Protocol):
    async def set_aside(self, user_key: str, memory_ids: Sequence[str]) -> None:
        """The facts behind a line the person says is wrong: superseded, and the model rebuilt without them."""
        ...


def wrong_line(argument: str) -> int | None:
    """The line (1 for a) of "/memories wrong b" (or « faux b »), else None."""
    match = _WRONG.match(argument)
    return _LETTERS.index(match["letter"].lower()) + 1 if match else None


def person_model_listing(model: PersonModel | None, language: str, today: date) -> str:
    """The numbered block, ready to go before the first page of /memories ("" when there is none)."""
    shown = shown_lines(model, language, today) if model is not None else []
    if not shown:
        return ""
    lines = [say_in(_TEXTS, "person_header", language)]
    lines += [f"{_LETTERS[n]}) {text}" for n, (text, _) in enumerate(shown[: len(_LETTERS)])]
    lines.append(say_in(_TEXTS, "person_footer", language))
    return "\n".join(lines)


def person_model_json(model: PersonModel | None, language: str, today: date) -> list[dict[str, Any]]:
    """The block as /export gives it: each line with the memories it came from."""
    if model is None:
        return []
    return [
        {"line": text, "memories": sorted({i for line in lines for i in line.memory_ids})}
        for text, lines in shown_lines(model, language, today)
    ]


async def correct_line(
    editor: PersonModelEditor, user_key: str, number: int, language: str, today: date,
    profile: UserProfile | None = None, now: datetime | None = None,
) -> tuple[str, bool]:
    """Set aside the facts behind line `number` as the person last saw it numbered (with `profile`: how they
    asked to be called first); the answer, and whether a line was set aside."""
    model = _with_profile(await editor.person_model(user_key), user_key, profile, now)
    shown = shown_lines(model, language, today) if model is not None else []
    if not 1 <= number <= len(shown):
        return say_in(_TEXTS, "person_no_line", language, letter=_LETTERS[min(number, len(_LETTERS)) - 1]), False
    text, lines = shown[number - 1]
    if not any(line.memory_ids for line in lines):  # how they asked to be called: their profile's, not a memory
        return say_in(_TEXTS, "person_profile_line", language), False
    await editor.set_aside(user_key, sorted({i for line in lines for i in line.memory_ids}))
    return say_in(_TEXTS, "person_corrected", language, line=text), True


def _with_profile(
    model: PersonModel | None, user_key: str, profile: UserProfile | None, now: datetime | None
) -> PersonModel | None:
    if profile is None or now is None:
        return model
    return addressed(model, user_key, profile.preferred_name, profile.pronouns, now)


class PersonModelView:
    """The person model as the commands show it, counted in the person's local day; without `editor` (no
    model is kept) there is nothing to show and "/memories wrong b" is no command."""

    def __init__(
        self, editor: PersonModelEditor | None, profiles: ProfileStore, clock: Clock, default_timezone: str
    ) -> None:
        self._editor = editor
        self._profiles = profiles
        self._clock = clock
        self._default_timezone = default_timezone

    async def _known(self, user_key: str) -> tuple[PersonModel | None, date]:
        """The kept model with how they asked to be called first (their profile), and their local day."""
        assert self._editor is not None
        profile = await self._profiles.load_profile(user_key)
        now = self._clock.now()
        model = _with_profile(await self._editor.person_model(user_key), user_key, profile, now)
        return model, now.astimezone(ZoneInfo(profile.timezone or self._default_timezone)).date()

    async def listing(self, user_key: str, language: str) -> str:
        if self._editor is None:
            return ""
        model, today = await self._known(user_key)
        return person_model_listing(model, language, today)

    async def as_json(self, user_key: str, language: str) -> list[dict[str, Any]]:
        if self._editor is None:
            return []
        model, today = await self._known(user_key)
        return person_model_json(model, language, today)

    async def correct(self, user_key: str, argument: str, language: str) -> tuple[str, None, bool] | None:
        """The answer to "/memories wrong b" (its text, no page, whether a line was set aside), or None when
        the argument is no correction."""
        line = wrong_line(argument)
        if line is None or self._editor is None:
            return None
        profile = await self._profiles.load_profile(user_key)
        now = self._clock.now()
        today = now.astimezone(ZoneInfo(profile.timezone or self._default_timezone)).date()
        text, ok = await correct_line(self._editor, user_key, line, language, today, profile, now)
        return text, None, ok
