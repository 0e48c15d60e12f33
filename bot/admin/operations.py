"""`souvenir memories …` as one request → one answer, whether the CLI runs it itself or asks the running process.

Both paths run this same code, so the operator sees the same output either way. It speaks to the operator, in
English, about the person by their key: never the companion's own words to the person.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from pydantic import BaseModel, Field

from bot.admin.held import erased_text, held_about, too_few_moods_text
from bot.admin.users import pick_user, user_of
from bot.engine.commands.user_commands import UserCommands
from bot.engine.model import RecallQuery, UserProfile, UserRef
from bot.engine.mood import MIN_CHART_READINGS
from bot.engine.ports import Clock, LongTermMemory
from bot.errors import InvalidInput

log = logging.getLogger(__name__)

Action = Literal["list", "search", "forget", "export", "users", "why", "mood"]


class AdminRequest(BaseModel):
    """One operator command, as the CLI parsed it."""

    action: Action
    user: str | None = None
    limit: int = Field(default=50, ge=1)
    query: str = ""
    memory_id: str | None = None
    all: bool = False
    days: int = Field(default=90, ge=1, le=400)  # mood


@dataclass(frozen=True)
class Answer:
    """What the CLI prints and the exit code it returns."""

    code: int
    out: str = ""
    err: str = ""
    png: str = ""  # mood: the chart, base64


class KnownPeople(Protocol):
    async def known_user_keys(self) -> list[str]: ...

    async def load_profiles(self, user_keys: Sequence[str]) -> list[UserProfile]: ...


class MemoryAdmin:
    def __init__(
        self,
        *,
        commands: UserCommands,
        memory: LongTermMemory,
        people: KnownPeople,
        clock: Clock,
        recall_limit: int = 10,
    ) -> None:
        self._commands = commands
        self._recall_limit = recall_limit
        self._memory = memory
        self._people = people
        self._clock = clock

    async def handle(self, request: AdminRequest) -> Answer:
        known = await self._people.load_profiles(await self._people.known_user_keys())
        if request.action == "users":
            return await self._users(known)
        try:
            user = pick_user(request.user or "", known)
        except InvalidInput as exc:
            return Answer(2, err=f"souvenir: {exc}\n")
        if request.action == "list":
            return await self._list(user, request.limit)
        if request.action == "search":
            return await self._search(user, request.query)
        if request.action == "why":
            return await self._why(user)
        if request.action == "forget":
            if request.all:
                return await self._forget_everything(user)
            return await self._forget_memory(user, request.memory_id or "")
        if request.action == "mood":
            return await self._mood(user, request.days)
        return Answer(0, out=(await self._commands.export(user)).decode() + "\n")

    async def _forget_everything(self, user: UserRef) -> Answer:
        held = await held_about(self._commands, user)  # counted first: afterwards there is nothing to count
        if not (await self._commands.forget_everything(user)).ok:
            return Answer(
                1,
                err=f"souvenir: a store could not erase {user.key} (see the log); run the same command again "
                "to erase what is left\n",
            )
        return Answer(0, out=erased_text(held))

    async def _forget_memory(self, user: UserRef, memory_id: str) -> Answer:
        text = (await held_about(self._commands, user)).memories.get(memory_id)
        if not (await self._commands.forget_memory(user, memory_id)).ok:
            return Answer(
                1,
                err=f"souvenir: {user.key} has no memory {memory_id!r}; "
                f"`souvenir memories list --user {user.key}` shows their ids\n",
            )
        return Answer(0, out=f"Forgot memory {memory_id} of {user.key}" + (f": {text}\n" if text else "\n"))

    async def _mood(self, user: UserRef, days: int) -> Answer:
        chart = await self._commands.mood(user, str(days))
        if chart.png is not None:
            return Answer(0, png=base64.b64encode(chart.png).decode())
        if not chart.ok:
            return Answer(1, err=f"souvenir: the mood chart of {user.key} could not be drawn (see the log)\n")
        held = await held_about(self._commands, user)
        return Answer(0, out=too_few_moods_text(held, days=days, now=self._clock.now(), needed=MIN_CHART_READINGS))

    async def _users(self, known: Sequence[UserProfile]) -> Answer:
        rows = [
            (p.user_key, p.display_name or "-", (await self._commands.memories_page(user_of(p.user_key), 0, 1)).total)
            for p in known
        ]
        key_width = max((len(key) for key, _, _ in rows), default=0)
        name_width = max((len(name) for _, name, _ in rows), default=0)
        lines = [f"{key:<{key_width}}  {name:<{name_width}}  {total} memories" for key, name, total in rows]
        lines.append(f"({len(known)} {'person' if len(known) == 1 else 'people'})")
        return Answer(0, out="\n".join(lines) + "\n")

    async def _list(self, user: UserRef, limit: int) -> Answer:
        page = await self._commands.memories_page(user, 0, limit)
        lines = [f"{m.memory_id}  {m.created_at:%Y-%m-%d}  {m.kind:<9}  {m.text}" for m in page.items]
        lines.append(f"({len(page.items)} of {page.total})")
        return Answer(0, out="\n".join(lines) + "\n")

    async def _why(self, user: UserRef) -> Answer:
        """What the last reply to the person (in any conversation) drew on: id, kind, text; never when told."""
        why = await self._commands.why(user, shown=False)  # the operator looking changes no "/forget <n>"
        if not why.memories:
            return Answer(0, out=why.text + "\n")
        return Answer(0, out="".join(f"{m.memory_id}  {m.kind:<9}  {m.text}\n" for m in why.memories))

    async def _search(self, user: UserRef, text: str) -> Answer:
        query = RecallQuery(user.key, text, self._clock.now(), scopes=("dm",), limit=self._recall_limit)
        found = sorted(await self._memory.recall(query), key=lambda m: m.score, reverse=True)  # best first
        return Answer(0, out="".join(f"{m.memory_id}  {m.score:.3f}  {m.kind:<9}  {m.text}\n" for m in found))
