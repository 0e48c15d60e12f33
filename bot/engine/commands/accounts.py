"""The person across their accounts: /link and /unlink, /forget all (every store, under each linked account,
each store's part for a receipt), and /export (everything held about them, as JSON).
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from typing import Any

from bot.engine.commands.base import Commands, typed
from bot.engine.commands.export_json import memories_json, mood_readings_json, profile_json, turns_json
from bot.engine.commands.linking import Redeemed, shown_code
from bot.engine.commands.results import CommandResult
from bot.engine.commands.why import trail_json
from bot.engine.model import UserRef, dm_conversation_id
from bot.engine.ports import (
    ErasedStore,
    StoreEraser,
    Tally,
)
from bot.engine.texts.say import say

log = logging.getLogger(__name__)

_REDEEM_TEXTS = {
    Redeemed.INVALID: "link_invalid",
    Redeemed.EXPIRED: "link_expired",
    Redeemed.SAME_PLATFORM: "link_same_platform",
    Redeemed.ALREADY_LINKED: "link_already_linked",
    Redeemed.PLATFORM_TAKEN: "link_platform_taken",
    Redeemed.HAS_MEMORIES: "link_has_memories",
    Redeemed.RATE_LIMITED: "link_tries_limited",
}


def _together(before: ErasedStore | None, part: ErasedStore) -> ErasedStore:
    """Two parts of one store (two erasers, or two accounts of one person) as one."""
    if before is None:
        return part
    counts = [c for c in (before.count, part.count) if c is not None]
    tallies: dict[str, int] = {}
    for tally in (*before.tallies, *part.tallies):
        tallies[tally.sort] = tallies.get(tally.sort, 0) + tally.count
    return ErasedStore(part.store, before.ok and part.ok, sum(counts) if counts else None,
                       tuple(Tally(sort, count) for sort, count in tallies.items()))  # fmt: skip


def _part(store: str, count: object) -> ErasedStore:
    """What one eraser said it erased, as its store's part."""
    if isinstance(count, Tally):
        return ErasedStore(store, ok=True, count=count.count, tallies=(count,))
    return ErasedStore(store, ok=True, count=count if isinstance(count, int) else None)


class AccountCommands(Commands):
    async def link(self, user: UserRef, argument: str = "", hint: str | None = None) -> CommandResult:
        """/link: a code for the person's account on another platform; /link CODE: join this account to the
        person who asked for CODE (the rules are in `bot.engine.commands.linking`)."""
        argument = typed(argument)
        user = await self._person(user)
        lang = await self.language_of(user, hint)
        if self._identities is None:
            return CommandResult(say("link_unavailable", lang), ok=False)
        if not argument.strip():
            issued = await self._identities.issue_code(user)
            if issued.code is None:
                return CommandResult(say("link_code_limited", lang), ok=False)
            return CommandResult(say("link_code", lang, code=shown_code(issued.code)))
        if len(await self._identities.accounts(user.key)) > 1:
            return CommandResult(say("link_already_linked", lang), ok=False)
        # Never merged: an account with memories of its own cannot join (nor be read into) another person.
        if (await self._memories.list_memories(user.key, 0, 1)).total > 0:
            return CommandResult(say("link_has_memories", lang), ok=False)
        redemption = await self._identities.redeem(user, argument)
        if redemption.outcome is not Redeemed.LINKED:
            return CommandResult(say(_REDEEM_TEXTS[redemption.outcome], lang), ok=False)
        # What the account kept on its own (settings, moods, schedule, recent messages) is dropped, so it
        # never gets wishes of its own or leaves data behind under its plain key.
        await self._erase(user.account_key)
        person = replace(user, person_key=redemption.person_key or user.key)
        return CommandResult(say("link_linked", await self.language_of(person, hint)))

    async def unlink(self, user: UserRef, hint: str | None = None) -> CommandResult:
        """/unlink: the accounts are strangers again; the one whose key is the person's keeps everything."""
        user = await self._person(user)
        lang = await self.language_of(user, hint)
        if self._identities is None:
            return CommandResult(say("link_unavailable", lang), ok=False)
        accounts = await self._identities.accounts(user.key)
        if await self._identities.unlink(user) is None:
            return CommandResult(say("unlink_not_linked", lang), ok=False)
        for key in dict.fromkeys([user.key, *accounts]):
            for ended in self._ended_at_unlink:
                await ended.forget_user(key)
        return CommandResult(say("unlink_done", lang))

    async def forget_everything(self, user: UserRef, hint: str | None = None) -> CommandResult:
        """Erase the person from every store, under their key and each linked account's (private chats and
        their claims are named by the account), then their links. Each part is tried even if another fails."""
        user = await self._person(user)
        lang = await self.language_of(user, hint)
        accounts = await self._identities.accounts(user.key) if self._identities is not None else []
        erased: dict[str, ErasedStore] = {}  # by store, over the person's key and each linked account's
        for key in dict.fromkeys([user.key, *accounts]):
            self._shown.forget_user(key)  # the lines last shown ("/forget 3") are their words too
            for part in await self._erase(key):
                erased[part.store] = _together(erased.get(part.store), part)
        if self._identities is not None:
            try:
                await self._identities.forget_user(user.key)
                erased["links"] = ErasedStore("links", ok=True, count=len(set(accounts) - {user.key}))
            except Exception:
                erased["links"] = ErasedStore("links", ok=False)
                log.exception("forgetting the links of a person failed")
        if not all(part.ok for part in erased.values()):
            # A store is down: say so in their language; trying again erases what is left.
            return CommandResult(say("forget_all_failed", lang), ok=False, erased=tuple(erased.values()))
        return CommandResult(say("forgot_all", lang), erased=tuple(erased.values()))

    async def _erase(self, user_key: str) -> list[ErasedStore]:
        """Every store forgets `user_key`; each one's part (a store that fails does not stop the others)."""
        parts = []
        for eraser in self._erasers:
            store = eraser.store if isinstance(eraser, StoreEraser) else type(eraser).__name__
            try:
                parts.append(_part(store, await eraser.forget_user(user_key)))
            except Exception:
                parts.append(ErasedStore(store, ok=False))
                log.exception("forget_user failed in %s for a user", store)
        return parts

    async def export(self, user: UserRef) -> bytes:
        """Everything held about the person, as UTF-8 JSON."""
        user = await self._person(user)
        profile = await self._profiles.load_profile(user.key)
        memories = await self._memories.export_memories(user.key)
        turns = await self._window.recent_turns(dm_conversation_id(user))
        document: dict[str, Any] = {
            "user": user.key,
            "accounts": await self._identities.accounts(user.key) if self._identities else [user.key],
            "exported_at": self._clock.now().isoformat(),
            "profile": profile_json(profile),
            "person_model": await self._known.as_json(user.key, profile.language or self._default_language),
            "memories": memories_json(memories),
            "recent_private_messages": turns_json(turns),
            "memories_last_replies_drew_on": trail_json(await self._trail.recent_replies(user.key)),
        }
        if self._moods is not None:
            document["mood_readings"] = mood_readings_json(await self._moods.mood_readings(user.key))
        return json.dumps(document, ensure_ascii=False, indent=2, default=str).encode()
