"""What the memory browser shows and changes: a person's memories whole (current and no longer true, each with
what replaced it), the person model first, and a correction that supersedes a memory rather than erasing it.

The slash commands page through memories ten at a time; the browser shows them all at once with their history.
Forgetting, erasing everything and the export stay `UserCommands`' (one meaning on every front end); this adds
only what a page needs beyond them. Engine code: it talks to memory through the ports below.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol
from zoneinfo import ZoneInfo

from bot.engine.commands.person_model import PersonModelEditor, PersonModelView
from bot.engine.commands.results import CommandResult, MoodChart
from bot.engine.commands.user_commands import UserCommands
from bot.engine.conversation.message_text import clean_message_text
from bot.engine.model import MemoryItem, UserRef
from bot.engine.person_page import PersonPage, dates_ahead, person_settings
from bot.engine.ports import Clock, DatedEvents, MemoryBrowser, OccasionPlanner, ProfileStore
from bot.engine.texts.say import say

_MAX_CORRECTION_CHARS = 4000


class CorrectableMemories(MemoryBrowser, Protocol):
    async def correct_memory(
        self, user_key: str, memory_id: str, text: str, at: datetime, language: str, timezone: str
    ) -> str | None:
        """Keep `text` as a memory that supersedes `memory_id` (which stays, no longer true); the new memory's
        id, or None when the person holds no current memory with that id."""
        ...


@dataclass(frozen=True, slots=True)
class ShownMemory:
    """One memory on the page: what it says, and for one no longer true, the memory that replaced it."""

    item: MemoryItem
    current: bool
    replaced_by: MemoryItem | None = None
    replaced_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class MemoryBrowsing:
    """Everything the page shows of one person, newest first."""

    language: str
    known: tuple[str, ...]  # the person model's lines ("what I know about you")
    memories: tuple[ShownMemory, ...]


def _when(text: str | object) -> datetime | None:
    try:
        return datetime.fromisoformat(str(text)) if text else None
    except ValueError:
        return None


def shown_memories(items: list[MemoryItem]) -> tuple[ShownMemory, ...]:
    """Newest first, each no longer true one with the memory that names it in its `supersedes`."""
    by_id = {item.memory_id: item for item in items}
    replacer: dict[str, MemoryItem] = {}
    for item in items:
        for old in item.extra.get("supersedes") or ():  # type: ignore[attr-defined]
            if str(old) in by_id:
                replacer[str(old)] = item
    shown = [
        ShownMemory(
            item,
            current=item.extra.get("current") is not False,
            replaced_by=replacer.get(item.memory_id),
            replaced_at=_when(item.extra.get("valid_to")),
        )
        for item in items
    ]
    return tuple(sorted(shown, key=lambda m: m.item.created_at, reverse=True))


class MemoryView:
    """The browser's reads and its one change of its own (a correction), for the person behind an account; the
    rest (forget one, forget everything, export) is the commands' own."""

    def __init__(
        self,
        *,
        commands: UserCommands,
        memories: CorrectableMemories,
        profiles: ProfileStore,
        planner: OccasionPlanner,
        clock: Clock,
        default_timezone: str,
        person_models: PersonModelEditor | None = None,
        dated_events: DatedEvents | None = None,
    ) -> None:
        self._dated_events = dated_events  # None: the dates ahead are the profile birthday only
        self._commands = commands
        self._memories = memories
        self._profiles = profiles
        self._planner = planner
        self._clock = clock
        self._default_timezone = default_timezone
        self._known = PersonModelView(person_models, profiles, clock, default_timezone)

    async def person(self, user: UserRef) -> UserRef:
        """The account as the person it belongs to (after /link), as every command sees it."""
        return await self._commands.person(user)

    async def language(self, user: UserRef) -> str:
        return await self._commands.language_of(user)

    async def forget_memory(self, user: UserRef, reference: str, hint: str | None = None) -> CommandResult:
        return await self._commands.forget_memory(user, reference, hint)

    async def forget_everything(self, user: UserRef, hint: str | None = None) -> CommandResult:
        return await self._commands.forget_everything(user, hint)

    async def export(self, user: UserRef) -> bytes:
        return await self._commands.export(user)

    async def mood(self, user: UserRef, argument: str = "", hint: str | None = None) -> MoodChart:
        return await self._commands.mood(user, argument, hint)

    async def browse(self, user: UserRef) -> MemoryBrowsing:
        user = await self.person(user)
        language = await self.language(user)
        known = await self._known.as_json(user.key, language)
        # What /memories lists (a message whose fact says it word for word is left out: the fact is shown), with
        # each one's history (what it supersedes, when it stopped being true).
        total = (await self._memories.list_memories(user.key, 0, 1)).total
        items = list((await self._memories.list_memories(user.key, 0, max(total, 1))).items)
        return MemoryBrowsing(language, tuple(str(line["line"]) for line in known), shown_memories(items))

    async def about(self, user: UserRef) -> PersonPage:
        """The dates ahead, the settings and what the last reply drew on."""
        user = await self.person(user)
        language = await self.language(user)
        profile = await self._profiles.load_profile(user.key)
        zone = profile.timezone or self._default_timezone
        today = self._clock.now().astimezone(ZoneInfo(zone)).date()
        events = await self._dated_events.dated_events(user.key) if self._dated_events is not None else []
        why = await self._commands.why(user, None, shown=False)
        return PersonPage(
            person_settings(profile, self._default_timezone, language),
            dates_ahead(profile, events, today),
            why.memories,
            why.text,
        )

    async def correct(self, user: UserRef, memory_id: str, text: str) -> CommandResult:
        """The new text supersedes the memory; the old one stays, no longer true, until it is forgotten."""
        user = await self.person(user)
        language = await self.language(user)
        text = clean_message_text(text, _MAX_CORRECTION_CHARS).text.strip()
        if not text:
            return CommandResult(say("usage_remember", language), ok=False)
        profile = await self._profiles.load_profile(user.key)
        zone = profile.timezone or self._default_timezone
        now = self._clock.now()
        new_id = await self._memories.correct_memory(user.key, memory_id, text, now, language, zone)
        if new_id is None:
            return CommandResult(say("forgot_none", language), ok=False)
        await self._planner.plan_user(user.key)
        return CommandResult(say("remembered", language))
