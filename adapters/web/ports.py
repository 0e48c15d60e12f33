"""What the memory browser needs from the rest of the bot, as ports; `bot/app/` gives the concrete parts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.engine.browser.memory_view import MemoryBrowsing
from bot.engine.browser.person_page import PersonPage
from bot.engine.commands.results import CommandResult, MoodChart
from bot.engine.conversation.rate_limit import RateLimiter
from bot.engine.model import UserRef
from bot.engine.ports import Clock


class WebSessions(Protocol):
    """Server-side sessions: the cookie holds only a random id."""

    async def open(self, account_key: str, person_key: str) -> tuple[str, str]:
        """A new session: its id (the cookie's value) and its CSRF token."""
        ...

    async def find(self, session_id: str) -> tuple[str, str] | None:
        """The account and the CSRF token of a live session."""
        ...

    async def end(self, session_id: str) -> None: ...


class LoginTokens(Protocol):
    """Single-use tokens for the Discord link."""

    async def issue(self, account_key: str) -> str: ...

    async def redeem(self, token: str) -> str | None:
        """The account a token was issued to, the first time only."""
        ...


class OwnMemories(Protocol):
    """The person's own memories, through the engine's operations (every one resolves the account to the
    person it belongs to, after /link too)."""

    async def person(self, user: UserRef) -> UserRef: ...

    async def language(self, user: UserRef) -> str:
        """ "en" or "fr": the language the person's pages are in."""
        ...

    async def browse(self, user: UserRef, *, kind: str = "", search: str = "", page: int = 1) -> MemoryBrowsing:
        """One page of the person's memories (of one `kind`), or what a `search` finds."""
        ...

    async def about(self, user: UserRef) -> PersonPage: ...

    async def correct(self, user: UserRef, memory_id: str, text: str) -> CommandResult: ...

    async def forget_memory(self, user: UserRef, reference: str, hint: str | None = None) -> CommandResult: ...

    async def forget_everything(self, user: UserRef, hint: str | None = None) -> CommandResult: ...

    async def export(self, user: UserRef) -> bytes: ...

    async def mood(self, user: UserRef, argument: str = "", hint: str | None = None) -> MoodChart:
        """The /mood chart (its PNG, or why there is none)."""
        ...


@dataclass(frozen=True)
class BrowserParts:
    """Everything the browser's routes use; `telegram_token` None: no Mini App launch is accepted."""

    public_url: str
    memories: OwnMemories
    sessions: WebSessions
    logins: LoginTokens
    clock: Clock
    telegram_token: str | None = None
    limiter: RateLimiter | None = None  # per account; None: no limit
    encrypted: bool = False  # encryption at rest is on: an erasure's receipt says backups can no longer be read
