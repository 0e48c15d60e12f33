"""What the memory browser shows and changes: a person's memories whole (current and no longer true, each with
what replaced it), the person model first, and a correction that supersedes a memory rather than erasing it.

The slash commands page through memories ten at a time; the browser shows fifty a page with their history, paged
and searched in the store (a page reads its fifty and what replaced those, never the whole listing).
Forgetting, erasing everything and the export stay `UserCommands`' (one meaning on every front end); this adds
only what a page needs beyond them. Engine code: it talks to memory through the ports below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Protocol
from zoneinfo import ZoneInfo

from bot.engine.browser.person_page import SHOWN_REPLIES, PersonPage, dates_ahead, person_settings
from bot.engine.commands.person_model import PersonModelEditor, PersonModelView
from bot.engine.commands.results import CommandResult, MoodChart
from bot.engine.commands.user_commands import UserCommands
from bot.engine.conversation.message_text import clean_message_text
from bot.engine.model import MemoryItem, MemoryPage, UserRef
from bot.engine.ports import Clock, DatedEvents, MemoryBrowser, OccasionPlanner, ProfileStore, ReplyTrail
from bot.engine.texts.say import say

_MAX_CORRECTION_CHARS = 4000
PAGE_SIZE = 50  # memories a page shows; older ones are a link away (the first view stays small on a phone)
SEARCH_LIMIT = 100  # the matches a page of a search shows (the best ones by words and meaning are read first)
KINDS = ("semantic", "temporal", "episodic", "emotional")
MAX_STEPS = 20  # the corrections a history shows at most (each one more a read of the store)


class CorrectableMemories(MemoryBrowser, Protocol):
    async def correct_memory(
        self, user_key: str, memory_id: str, text: str, at: datetime, language: str, timezone: str
    ) -> str | None:
        """Keep `text` as a memory that supersedes `memory_id` (which stays, no longer true); the new memory's
        id, or None when the person holds no current memory with that id."""
        ...

    async def browse_memories(self, user_key: str, offset: int, limit: int, *, kind: str = "") -> MemoryPage:
        """As `list_memories`, of one kind only when `kind` names one."""
        ...

    async def search_memories(
        self, user_key: str, words: str, limit: int, *, kind: str = "", offset: int = 0
    ) -> MemoryPage:
        """The listed memories whose text holds `words`, newest first: `limit` of them from `offset`, and how
        many there are in all (none is left out unsaid)."""
        ...

    async def replacements(self, user_key: str, memory_ids: Sequence[str]) -> dict[str, MemoryItem]:
        """For those of `memory_ids` no longer true, the memory that replaced each (by id)."""
        ...


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a correction's history: what was held, and since when (None for the first: it was said then)."""

    item: MemoryItem
    since: datetime | None = None


@dataclass(frozen=True, slots=True)
class ShownMemory:
    """One memory on the page: what it says, and for one no longer true, the memory that replaced it and the
    whole chain it belongs to, oldest first (Paris, said in May → Lyon since June → Grenoble since September)."""

    item: MemoryItem
    current: bool
    replaced_by: MemoryItem | None = None
    replaced_at: datetime | None = None
    history: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class MemoryBrowsing:
    """One page of what the browser shows of a person, newest first."""

    language: str
    known: tuple[str, ...]  # the person model's lines ("what I know about you")
    memories: tuple[ShownMemory, ...]  # this page's
    found: int = 0  # how many the listing (of that kind) holds, or the search found
    number: int = 1  # this page's number, from 1
    pages: int = 1


def _when(text: str | object) -> datetime | None:
    try:
        return datetime.fromisoformat(str(text)) if text else None
    except ValueError:
        return None


def _old(item: MemoryItem) -> bool:
    return item.extra.get("current") is False


async def replaced_in_turn(
    memories: CorrectableMemories, user_key: str, items: Sequence[MemoryItem]
) -> dict[str, MemoryItem]:
    """For each of `items` no longer true, the memory that replaced it; and for each replacement no longer true
    either (corrected again), the one that replaced that, and so on to the current one (at most `MAX_STEPS` reads,
    each of the memories found the read before)."""
    replaced: dict[str, MemoryItem] = {}
    asked = [item.memory_id for item in items if _old(item)]
    for _ in range(MAX_STEPS):
        if not asked:
            break
        found = await memories.replacements(user_key, asked)
        replaced.update(found)
        asked = [new.memory_id for new in found.values() if _old(new) and new.memory_id not in replaced]
    return replaced


def history_of(
    item: MemoryItem, known: Mapping[str, MemoryItem], replaced: Mapping[str, MemoryItem]
) -> tuple[Step, ...]:
    """The chain of corrections `item` belongs to, oldest first: back through the memories it supersedes that are
    `known` (on the page, or found as replacements), then on through what replaced each to the current one."""
    chain = [item]
    seen = {item.memory_id}
    while len(chain) < MAX_STEPS:  # back: what the first one superseded
        before = [known[i] for i in _supersedes(chain[0]) if i in known and i not in seen]
        if not before:
            break
        chain.insert(0, before[0])
        seen.add(before[0].memory_id)
    while len(chain) < 2 * MAX_STEPS:  # on: what replaced the last one
        after = replaced.get(chain[-1].memory_id)
        if after is None or after.memory_id in seen:
            break
        chain.append(after)
        seen.add(after.memory_id)
    steps = [Step(chain[0])]
    for previous, step in pairwise(chain):
        steps.append(Step(step, _when(previous.extra.get("valid_to")) or step.created_at))
    return tuple(steps)


def _supersedes(item: MemoryItem) -> list[str]:
    ids = item.extra.get("supersedes")
    return [str(i) for i in ids] if isinstance(ids, list) else []


def shown_memories(items: Sequence[MemoryItem], replaced: Mapping[str, MemoryItem]) -> tuple[ShownMemory, ...]:
    """Newest first, each no longer true one with the memory that replaced it (`replaced`, by id) and the chain
    of corrections it belongs to (`replaced` holds the replacements' replacements too: `replaced_in_turn`)."""
    known = {m.memory_id: m for m in (*items, *replaced.values())}
    shown = [
        ShownMemory(
            item,
            current=not _old(item),
            replaced_by=replaced.get(item.memory_id),
            replaced_at=_when(item.extra.get("valid_to")),
            history=history_of(item, known, replaced) if _old(item) else (),
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
        trail: ReplyTrail | None = None,
    ) -> None:
        self._trail = trail  # None: "why" shows the last reply only, as /memories why does
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

    async def browse(
        self, user: UserRef, *, kind: str = "", search: str = "", page: int = 1, page_size: int = PAGE_SIZE
    ) -> MemoryBrowsing:
        """One page of what /memories lists (a message whose fact says it word for word is left out: the fact is
        shown), of one kind when `kind` names one, or what a search finds; each with what replaced it."""
        user = await self.person(user)
        language = await self.language(user)
        known = tuple(str(line["line"]) for line in await self._known.as_json(user.key, language))
        kind = kind if kind in KINDS else ""
        if search.strip():
            number = max(page, 1)
            hits = await self._memories.search_memories(user.key, search, SEARCH_LIMIT, kind=kind,
                                                        offset=(number - 1) * SEARCH_LIMIT)  # fmt: skip
            found, pages = hits.total, max(1, -(-hits.total // SEARCH_LIMIT))
            if number > pages:  # past the end (forgotten meanwhile): the last page
                number = pages
                hits = await self._memories.search_memories(user.key, search, SEARCH_LIMIT, kind=kind,
                                                            offset=(number - 1) * SEARCH_LIMIT)  # fmt: skip
            items = list(hits.items)
        else:
            number = max(page, 1)
            listed = await self._memories.browse_memories(user.key, (number - 1) * page_size, page_size, kind=kind)
            found, pages = listed.total, max(1, -(-listed.total // page_size))
            if number > pages:  # past the end (a memory was forgotten meanwhile): the last page
                number = pages
                listed = await self._memories.browse_memories(user.key, (number - 1) * page_size, page_size,
                                                              kind=kind)  # fmt: skip
            items = list(listed.items)
        replaced = await replaced_in_turn(self._memories, user.key, items)
        return MemoryBrowsing(language, known, shown_memories(items, replaced), found, number, pages)

    async def about(self, user: UserRef) -> PersonPage:
        """The dates ahead, the settings and what the last reply drew on."""
        user = await self.person(user)
        language = await self.language(user)
        profile = await self._profiles.load_profile(user.key)
        zone = profile.timezone or self._default_timezone
        today = self._clock.now().astimezone(ZoneInfo(zone)).date()
        events = await self._dated_events.dated_events(user.key) if self._dated_events is not None else []
        why = await self._commands.why(user, None, shown=False)
        replies = await self._trail.recent_replies(user.key) if self._trail is not None else []
        return PersonPage(
            person_settings(profile, self._default_timezone, language),
            dates_ahead(profile, events, today),
            why.memories,
            why.text,
            tuple(sorted(replies, key=lambda r: r.at, reverse=True)[:SHOWN_REPLIES]),
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
