"""Keeps each person's model up to date: rebuilt after their memories change, never on the reply path.

Long-term memory calls `rebuild` once a message (or a batch of them, or a /remember note) is written, and
after a memory is forgotten or a line corrected; the reply reads the kept result in one store read. A rebuild
is two ordered reads of the person's newest memories and a few rules (`memory.person.person_model`). It yields to an
erasure made while it ran, like every other write (`memory.privacy.erasure`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Protocol

from bot.engine.ports import Clock
from bot.engine.prompt.person_model import PersonModel
from memory.person.person_model import build_person_model
from memory.ports import ErasureLog
from memory.records import MemoryKind
from memory.store import MemoryStore
from memory.writing.extraction.candidates import EPISODE

log = logging.getLogger(__name__)

FACTS_READ = 400  # the newest facts, dates and feelings a model is built from
EPISODES_READ = 20  # the newest messages, for the thread of the last conversation
_FACT_KINDS = (MemoryKind.SEMANTIC, MemoryKind.EMOTIONAL, MemoryKind.TEMPORAL)


class PersonModelStore(Protocol):
    async def person_model(self, user_key: str) -> PersonModel | None: ...

    async def save(self, model: PersonModel) -> None: ...

    async def forget_memories(self, user_key: str, memory_ids: Sequence[str]) -> None: ...

    async def forget_user(self, user_key: str) -> None: ...


class PersonModelKeeper:
    def __init__(
        self,
        store: MemoryStore,
        models: PersonModelStore,
        clock: Clock,
        *,
        default_timezone: str = "UTC",
        erasures: ErasureLog | None = None,
    ) -> None:
        self._store = store
        self._models = models
        self._clock = clock
        self._default_timezone = default_timezone
        self._erasures = erasures

    async def rebuild(self, user_key: str, timezone: str | None = None, since: int | None = None) -> None:
        """Build the person's model from their memories now; a failure is logged (the old model stays).
        `since`: the erasure epoch the write that asks for it started from (an erasure since then: nothing to
        build). A person with nothing to know has no model kept at all."""
        try:
            epoch = None if self._erasures is None else await self._erasures.epoch(user_key)
            if since is not None and epoch is not None and epoch != since:
                return  # /forget all ran after the write began: it wins
            facts = await self._store.scroll(user_key, 0, FACTS_READ, current_only=True, kinds=_FACT_KINDS)
            episodes = await self._store.scroll(
                user_key, 0, EPISODES_READ, current_only=True, kinds=(MemoryKind.EPISODIC,)
            )
            now = self._clock.now()
            zone = timezone or self._default_timezone
            model = await asyncio.to_thread(build_person_model, user_key, facts, episodes, now, zone)
            if model.empty:
                await self._models.forget_user(user_key)
                return
            await self._models.save(model)
            if self._erasures is not None and await self._erasures.epoch(user_key) != epoch:
                await self._models.forget_user(user_key)  # /forget all ran meanwhile: it wins
        except Exception:
            log.exception("could not rebuild a person model; the previous one stays")

    async def person_model(self, user_key: str) -> PersonModel | None:
        return await self._models.person_model(user_key)

    async def set_aside(self, user_key: str, memory_ids: Sequence[str]) -> None:
        """A line the person says is wrong: the facts behind it, and the messages they were read from (which say
        the same), are superseded — kept as history, never recalled as current — and the line goes at once."""
        found = await self._store.fetch(user_key, list(memory_ids))
        said = [e for r in found if r.kind is not MemoryKind.EPISODIC and (e := r.attributes.get(EPISODE))]
        await self._store.supersede(user_key, [*memory_ids, *said], self._clock.now())
        await self._models.forget_memories(user_key, memory_ids)
        await self.rebuild(user_key)

    async def forget_memories(self, user_key: str, memory_ids: Sequence[str]) -> None:
        """The lines those memories backed go at once (the rebuild that follows may take a moment)."""
        await self._models.forget_memories(user_key, memory_ids)
