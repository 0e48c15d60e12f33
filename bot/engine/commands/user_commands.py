"""What a person can ask of the companion outside of conversation: settings and their own memories.

Every platform's slash commands and the CLI call this one service, so /birthday means the same thing on
Telegram, Discord and the terminal.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol

from bot.engine.commands.export_json import memories_json, mood_readings_json, profile_json, turns_json
from bot.engine.commands.linking import Redeemed, shown_code
from bot.engine.commands.person_model import PersonModelEditor, PersonModelView
from bot.engine.commands.profile import set_profile
from bot.engine.commands.results import CommandResult, MemoriesListing, MoodChart
from bot.engine.commands.shown_pages import ShownPages
from bot.engine.commands.timezone import TimezoneSetting
from bot.engine.commands.voice import switch_voice
from bot.engine.commands.why import WhyListing, trail_json, why_listing
from bot.engine.conversation.message_text import clean_message_text
from bot.engine.conversation.pseudonymous import pseudonymous_conversation, pseudonymous_user
from bot.engine.model import MemoryPage, MonthDay, UserProfile, UserRef, dm_conversation_id
from bot.engine.noop import NoReplyTrail
from bot.engine.ports import (
    AccountLinks,
    Clock,
    ConversationWindow,
    ErasedStore,
    Identities,
    MemoryBrowser,
    MoodHistory,
    OccasionPlanner,
    ProfileStore,
    Pseudonyms,
    ReplyTrail,
    StoreEraser,
    UserDataEraser,
)
from bot.engine.safety.age import set_age
from bot.engine.texts.current_settings import say_setting
from bot.engine.texts.language import normalise_language
from bot.engine.texts.mood import say_mood
from bot.engine.texts.say import say
from bot.engine.when.city_zones import Cities
from bot.engine.when.dates import parse_birthday
from bot.errors import InvalidInput

log = logging.getLogger(__name__)

_ON = {"on", "yes", "oui", "true", "1", "enable", "activer", "active"}
_OFF = {"off", "no", "non", "false", "0", "disable", "désactiver", "desactiver", "stop"}
_LANGUAGES = {"en": "en", "english": "en", "anglais": "en", "fr": "fr", "french": "fr", "français": "fr",
              "francais": "fr"}  # fmt: skip
_AUTO = {"auto", "automatic", "automatique"}
# A page or a memory number as people type them (memory ids are UUIDs, never all digits).
_NUMBER = re.compile(r"[0-9]{1,6}")
_SHOWN_TEXT_CHARS = 80
_MONTHS = {
    "en": "January February March April May June July August September October November December".split(),
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split(),
}


Switch = Callable[[UserProfile, bool], UserProfile]


class LinkedIdentities(Identities, AccountLinks, UserDataEraser, Protocol):
    """Who is who across platforms, as /link, /unlink and /forget all use it."""


_REDEEM_TEXTS = {
    Redeemed.INVALID: "link_invalid",
    Redeemed.EXPIRED: "link_expired",
    Redeemed.SAME_PLATFORM: "link_same_platform",
    Redeemed.ALREADY_LINKED: "link_already_linked",
    Redeemed.PLATFORM_TAKEN: "link_platform_taken",
    Redeemed.HAS_MEMORIES: "link_has_memories",
    Redeemed.RATE_LIMITED: "link_tries_limited",
}


# A /remember note is capped like a message; what a refusal quotes back is shorter still.
_MAX_ARGUMENT_CHARS = 4000
_QUOTED_CHARS = 60


def _argument(text: str) -> str:
    """What was typed after a command, cleaned as messages are (no lone surrogates, control or invisible
    characters; capped): every command reads it so, whatever the platform handed over."""
    return clean_message_text(text, _MAX_ARGUMENT_CHARS).text


def _quoted(text: str) -> str:
    text = text.strip()
    return text if len(text) <= _QUOTED_CHARS else text[: _QUOTED_CHARS - 1] + "…"


def _day(birthday: MonthDay, lang: str) -> str:
    month = _MONTHS[lang if lang in _MONTHS else "en"][birthday.month - 1]
    return f"{month} {birthday.day}" if lang == "en" else f"{birthday.day} {month}"


def _then_usage(current: str, command: str, lang: str) -> CommandResult:
    """A setting command alone: its current value, then how to change it."""
    return CommandResult(f"{current}\n{say(f'usage_{command}', lang)}")


_MOOD_DAYS_DEFAULT = 30
_MOOD_DAYS_MAX = 400


def _together(before: ErasedStore | None, part: ErasedStore) -> ErasedStore:
    """Two parts of one store (two erasers, or two accounts of one person) as one."""
    if before is None:
        return part
    counts = [c for c in (before.count, part.count) if c is not None]
    return ErasedStore(part.store, before.ok and part.ok, sum(counts) if counts else None)


class UserCommands:
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

    async def link(self, user: UserRef, argument: str = "", hint: str | None = None) -> CommandResult:
        """/link: a code for the person's account on another platform; /link CODE: join this account to the
        person who asked for CODE (the rules are in `bot.engine.commands.linking`)."""
        argument = _argument(argument)
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

    async def language_of(self, user: UserRef, hint: str | None = None) -> str:
        user = await self._person(user)
        profile = await self._profiles.load_profile(user.key)
        return profile.language or normalise_language(hint) or self._default_language

    async def start_text(self, user: UserRef, hint: str | None = None) -> str:
        lang = await self.language_of(user, hint)
        name = f" {user.display_name}" if user.display_name else ""
        return say("start", lang, name=name, bot=self._bot_name)

    async def help_text(self, user: UserRef, hint: str | None = None) -> str:
        return say("help", await self.language_of(user, hint))

    async def privacy_text(self, user: UserRef, hint: str | None = None) -> str:
        return say("privacy", await self.language_of(user, hint), window_hours=self._window_hours)

    async def remember(self, user: UserRef, text: str, hint: str | None = None) -> CommandResult:
        text = _argument(text)
        user = await self._person(user)
        lang = await self.language_of(user, hint)
        if not text.strip():
            return CommandResult(say("usage_remember", lang), ok=False)
        zone = (await self._profiles.load_profile(user.key)).timezone or self._default_timezone
        await self._memories.remember_note(user.key, text.strip(), self._clock.now(), lang, zone)
        return CommandResult(say("remembered", lang))

    async def set_birthday(self, user: UserRef, text: str, hint: str | None = None) -> CommandResult:
        text = _argument(text)
        user = await self._person(user)
        lang = await self.language_of(user, hint)
        if not text.strip():
            birthday = (await self._profiles.load_profile(user.key)).birthday
            current = say_setting("birthday_current", lang, date=_day(birthday, lang)) if birthday else None
            return _then_usage(current or say_setting("birthday_none", lang), "birthday", lang)
        try:
            birthday = parse_birthday(text, lang)
        except InvalidInput:
            return CommandResult(say("birthday_invalid", lang, text=_quoted(text)), ok=False)
        profile = await self._profiles.load_profile(user.key)
        named = profile.display_name or user.display_name
        await self._profiles.save_profile(replace(profile, birthday=birthday, display_name=named))
        await self._planner.plan_user(user.key)
        return CommandResult(say("birthday_set", lang, date=_day(birthday, lang)))

    async def set_timezone(self, user: UserRef, text: str, hint: str | None = None) -> CommandResult:
        text = _argument(text)
        user = await self._person(user)
        return await self._timezone.set(user.key, text, await self.language_of(user, hint), _quoted(text))

    async def set_checkins(self, user: UserRef, text: str, hint: str | None = None) -> CommandResult:
        user = await self._person(user)
        if not _argument(text).strip():
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
        word = _argument(text).lower()
        if word not in _ON | _OFF:
            return CommandResult(say(f"usage_{texts}", lang), ok=False)
        enabled = word in _ON
        profile = await self._profiles.load_profile(user.key)
        await self._profiles.save_profile(change(profile, enabled))
        return CommandResult(say(f"{texts}_on" if enabled else f"{texts}_off", lang))

    async def set_language(self, user: UserRef, text: str, hint: str | None = None) -> CommandResult:
        """/language en|fr pins the language used with the person; /language auto follows what they write."""
        text = _argument(text)
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
        text = _argument(text)
        user = await self._person(user)
        return await set_profile(self._profiles, user, text, await self.language_of(user, hint))

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
        word = _argument(argument)
        if (corrected := await self._known.correct(user.key, word, lang)) is not None:  # "/memories wrong b"
            return MemoriesListing(*corrected)
        if word and not (_NUMBER.fullmatch(word) and int(word) >= 1):
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
        reference = _argument(reference)
        user = await self._person(user)
        lang = await self.language_of(user, hint)
        reference = reference.strip()
        if not reference:
            return CommandResult(say("usage_forget", lang), ok=False)
        if _NUMBER.fullmatch(reference):
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
                erased["links"] = ErasedStore("links", ok=True)
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
                count = await eraser.forget_user(user_key)
                parts.append(ErasedStore(store, ok=True, count=count if isinstance(count, int) else None))
            except Exception:
                parts.append(ErasedStore(store, ok=False))
                log.exception("forget_user failed in %s for a user", store)
        return parts

    async def mood(self, user: UserRef, argument: str = "", hint: str | None = None) -> MoodChart:
        """/mood [days]: the person's own chart (30 days unless they ask for up to 400)."""
        argument = _argument(argument)
        user = await self._person(user)
        lang = await self.language_of(user, hint)
        word = argument.strip()
        if word and not (_NUMBER.fullmatch(word) and 1 <= int(word) <= _MOOD_DAYS_MAX):
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

