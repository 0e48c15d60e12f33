"""What every chat command shares: the ports it is given, who is asking (the person behind the account, after
/link, or their pseudonym), the language they get, and how what they typed after the command is read.

`UserCommands` (`bot.engine.commands.user_commands`) is these commands' sum: settings, memories, accounts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from bot.engine.commands.person_model import PersonModelEditor, PersonModelView
from bot.engine.commands.shown_pages import ShownPages
from bot.engine.commands.timezone import TimezoneSetting
from bot.engine.conversation.message_text import clean_message_text
from bot.engine.conversation.pseudonymous import pseudonymous_user
from bot.engine.model import UserRef
from bot.engine.noop import NoReplyTrail
from bot.engine.ports import (
    AccountLinks,
    Clock,
    ConversationWindow,
    Identities,
    MemoryBrowser,
    MoodHistory,
    OccasionPlanner,
    ProfileStore,
    Pseudonyms,
    ReplyTrail,
    UserDataEraser,
)
from bot.engine.texts.language import normalise_language
from bot.engine.when.city_zones import Cities

# A page or a memory number as people type them (memory ids are UUIDs, never all digits).
NUMBER = re.compile(r"[0-9]{1,6}")
# A /remember note is capped like a message; what a refusal quotes back is shorter still.
_MAX_ARGUMENT_CHARS = 4000
_QUOTED_CHARS = 60


class LinkedIdentities(Identities, AccountLinks, UserDataEraser, Protocol):
    """Who is who across platforms, as /link, /unlink and /forget all use it."""


def typed(text: str) -> str:
    """What was typed after a command, cleaned as messages are (no lone surrogates, control or invisible
    characters; capped): every command reads it so, whatever the platform handed over."""
    return clean_message_text(text, _MAX_ARGUMENT_CHARS).text


def quoted(text: str) -> str:
    text = text.strip()
    return text if len(text) <= _QUOTED_CHARS else text[: _QUOTED_CHARS - 1] + "…"


class Commands:
    def __init__(
        self,
        *,
        profiles: ProfileStore,
        memories: MemoryBrowser,
        window: ConversationWindow,
        planner: OccasionPlanner,
        erasers: Sequence[UserDataEraser],
        clock: Clock,
        default_timezone: str,
        default_language: str,
        bot_name: str,
        window_ttl_hours: float = 72.0,
        trail: ReplyTrail | None = None,
        moods: MoodHistory | None = None,
        identities: LinkedIdentities | None = None,
        pseudonyms: Pseudonyms | None = None,
        voice_speaking: bool = False,
        cities: Cities | None = None,
        person_models: PersonModelEditor | None = None,
        ended_at_unlink: Sequence[UserDataEraser] = (),
    ) -> None:
        self._ended_at_unlink = tuple(ended_at_unlink)  # e.g. the memory browser's sessions of each account
        self._known = PersonModelView(person_models, profiles, clock, default_timezone)  # None: memories only
        self._voice_speaking = voice_speaking  # a speech service is configured: /voice on can be honoured
        self._profiles = profiles
        self._pseudonyms = pseudonyms  # None: stores are keyed by the platform ids themselves
        self._identities = identities  # None: no linking (the terminal chat); every account is its own person
        self._moods = moods
        self._window_hours = f"{window_ttl_hours:g}"  # /privacy says when recent messages expire
        self._memories = memories
        self._window = window
        self._planner = planner
        self._erasers = tuple(erasers)
        self._clock = clock
        self._default_timezone = default_timezone
        self._default_language = default_language
        self._bot_name = bot_name
        self._trail = trail or NoReplyTrail()
        self._shown = ShownPages()
        # cities None: /timezone knows zone names and their own cities only ("Europe/Paris", "Paris").
        self._timezone = TimezoneSetting(profiles, planner, clock, default_timezone, cities)

    async def person(self, user: UserRef) -> UserRef:
        """The account as the person it belongs to (after /link, or its pseudonymous key)."""
        return await self._person(user)

    async def _person(self, user: UserRef) -> UserRef:
        """The account as the person it belongs to (see `UserRef.key`); once per command."""
        user = await pseudonymous_user(self._pseudonyms, user)
        if user.person_key or self._identities is None:
            return user
        return replace(user, person_key=await self._identities.person_of(user))

    async def language_of(self, user: UserRef, hint: str | None = None) -> str:
        user = await self._person(user)
        profile = await self._profiles.load_profile(user.key)
        return profile.language or normalise_language(hint) or self._default_language
