"""A person's own memories as the chat shows them: /remember, /memories (a page, the person model first, a
line of it marked wrong), /memories why, and /forget one memory by its number on the page shown or its id.
"""

from __future__ import annotations

from bot.engine.commands.base import NUMBER, Commands, typed
from bot.engine.commands.results import CommandResult, MemoriesListing
from bot.engine.commands.why import WhyListing, why_listing
from bot.engine.conversation.pseudonymous import pseudonymous_conversation
from bot.engine.model import MemoryPage, UserRef
from bot.engine.texts.say import say

_SHOWN_TEXT_CHARS = 80


class MemoryCommands(Commands):
    async def remember(self, user: UserRef, text: str, hint: str | None = None) -> CommandResult:
        text = typed(text)
        user = await self._person(user)
        lang = await self.language_of(user, hint)
        if not text.strip():
            return CommandResult(say("usage_remember", lang), ok=False)
        zone = (await self._profiles.load_profile(user.key)).timezone or self._default_timezone
        await self._memories.remember_note(user.key, text.strip(), self._clock.now(), lang, zone)
        return CommandResult(say("remembered", lang))

    async def memories_page(self, user: UserRef, offset: int = 0, limit: int = 5) -> MemoryPage:
        user = await self._person(user)
        return await self._memories.list_memories(user.key, max(0, offset), max(1, min(limit, 50)))

    async def memories_listing(
        self, user: UserRef, argument: str = "", page_size: int = 5, hint: str | None = None
    ) -> MemoriesListing:
        """/memories [page]: that page (the first without an argument), a usage line for anything but a page
        number, and a plain "no such page" past the last one."""
        user = await self._person(user)
        lang = await self.language_of(user, hint)
        word = typed(argument)
        if (corrected := await self._known.correct(user.key, word, lang)) is not None:  # "/memories wrong b"
            return MemoriesListing(*corrected)
        if word and not (NUMBER.fullmatch(word) and int(word) >= 1):
            return MemoriesListing(say("usage_memories", lang), ok=False)
        number = int(word) if word else 1
        page = await self.memories_page(user, (number - 1) * page_size, page_size)
        if not page.items and page.total > 0:
            pages = -(-page.total // page_size)
            return MemoriesListing(say("memories_no_page", lang, page=number, pages=pages), ok=False)
        text = await self.describe_page(user, page, hint)
        return MemoriesListing(text, page if page.items else None)

    async def describe_page(self, user: UserRef, page: MemoryPage, hint: str | None = None) -> str:
        """The page as text, items numbered from 1 within the page (buttons and "/forget <n>" refer to those
        numbers); a memory that a newer one replaced is marked."""
        user = await self._person(user)
        lang = await self.language_of(user, hint)
        self._shown.note(user.key, page)
        known = await self._known.listing(user.key, lang) if page.offset == 0 else ""  # what I know, first
        if page.total == 0 or not page.items:
            return known or say("memories_empty", lang)
        last = page.offset + len(page.items)
        lines = [*([known, ""] if known else []),
                 say("memories_header", lang, first=page.offset + 1, last=last, total=page.total)]  # fmt: skip
        superseded = say("memory_superseded", lang)
        for n, item in enumerate(page.items, start=1):
            mark = f" {superseded}" if item.extra.get("current") is False else ""
            lines.append(f"{n}. {item.text}{mark}")
        return "\n".join(lines)

    async def why(
        self, user: UserRef, conversation_id: str | None = None, hint: str | None = None, *, shown: bool = True
    ) -> WhyListing:
        """/memories why: the memories the last reply to the person drew on, in that conversation (None: in
        any). Once `shown` to the person, "/forget <n>" means the n-th of them."""
        account, user = user, await self._person(user)
        conversation_id = pseudonymous_conversation(conversation_id, account, user)
        lang = await self.language_of(user, hint)
        replies = await self._trail.recent_replies(user.key, conversation_id)
        listing = why_listing(replies[0] if replies else None, lang)
        if shown:
            self._shown.note(user.key, [(m.memory_id, m.text) for m in listing.memories])
        return listing

    async def forget_memory(self, user: UserRef, reference: str, hint: str | None = None) -> CommandResult:
        """Forget one memory by its number on the last page shown (else in the newest-first listing), or by id."""
        reference = typed(reference)
        user = await self._person(user)
        lang = await self.language_of(user, hint)
        reference = reference.strip()
        if not reference:
            return CommandResult(say("usage_forget", lang), ok=False)
        if NUMBER.fullmatch(reference):
            return await self._forget_number(user, int(reference), lang)
        gone = await self._memories.forget_memory(user.key, reference)
        if gone:
            await self._planner.plan_user(user.key)
        return CommandResult(say("forgot_one" if gone else "forgot_none", lang), ok=gone)

    async def _forget_number(self, user: UserRef, number: int, lang: str) -> CommandResult:
        shown = self._shown.last(user.key)
        if shown:
            if not 1 <= number <= len(shown):
                return CommandResult(say("forget_no_number", lang, n=number, count=len(shown)), ok=False)
            memory_id, text = shown[number - 1]
        else:
            # No page shown since this process started: the number counts in the newest-first listing.
            page = await self.memories_page(user, number - 1, 1) if number >= 1 else None
            if page is None or not page.items:
                return CommandResult(say("forget_no_such_number", lang, n=number), ok=False)
            memory_id, text = page.items[0].memory_id, page.items[0].text
        if not await self._memories.forget_memory(user.key, memory_id):
            return CommandResult(say("forgot_already", lang), ok=False)
        await self._planner.plan_user(user.key)
        shown_text = text if len(text) <= _SHOWN_TEXT_CHARS else text[: _SHOWN_TEXT_CHARS - 1] + "…"
        return CommandResult(say("forgot_this", lang, text=shown_text))
