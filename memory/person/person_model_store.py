"""The person model in Redis: one sealed value per person, `souvenir:person-model:<user key>`.

It says what their memories say, so it goes wherever they go: `forget_user` deletes it (it is one of the
erasers `/forget all` runs), and `forget_memories` takes out the lines a forgotten memory backed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

import redis.asyncio as aioredis

from bot.engine.prompt.person_model import PersonLine, PersonModel, Source, ThreadLine
from bot.errors import UnreadableText
from memory.privacy.crypto import PlainCipher, TextCipher


def person_model_key(user_key: str) -> str:
    return f"souvenir:person-model:{user_key}"


class RedisPersonModels:
    """`bot.engine.prompt.person_model.PersonModels`, the keeper's store, and a `UserDataEraser`."""

    def __init__(self, client: aioredis.Redis, *, cipher: TextCipher | None = None) -> None:
        self._redis = client
        self._cipher: TextCipher = cipher or PlainCipher()  # sealed with the person's data key

    async def person_model(self, user_key: str) -> PersonModel | None:
        raw = await self._redis.get(person_model_key(user_key))
        if raw is None:
            return None
        try:
            opened = await self._cipher.open(user_key, raw.decode() if isinstance(raw, bytes) else raw)
        except UnreadableText:
            return None
        return _from_json(user_key, opened)

    async def save(self, model: PersonModel) -> None:
        sealed = await self._cipher.seal(model.user_key, _to_json(model))
        await self._redis.set(person_model_key(model.user_key), sealed)

    async def forget_memories(self, user_key: str, memory_ids: Sequence[str]) -> None:
        model = await self.person_model(user_key)
        if model is not None and model.memory_ids().intersection(memory_ids):
            await self.save(model.without(memory_ids))

    async def forget_user(self, user_key: str) -> None:
        await self._redis.delete(person_model_key(user_key))


def _source_json(source: Source) -> dict[str, str | None]:
    at = source.told_at.isoformat() if source.told_at else None
    return {"id": source.memory_id, "kind": source.kind, "text": source.text, "at": at}


def _source(data: dict[str, Any]) -> Source:
    at = datetime.fromisoformat(data["at"]) if data.get("at") else None  # a model kept before it said when
    return Source(data["id"], data["kind"], data["text"], at)


def _to_json(model: PersonModel) -> str:
    data = {
        "built_at": model.built_at.isoformat(),
        "lines": [
            {
                "aspect": line.aspect, "value": line.value, "relation": line.relation,
                "on": line.on.isoformat() if line.on else None, "sources": [_source_json(s) for s in line.sources],
            }
            for line in model.lines
        ],
        "thread": [{"text": t.text, "source": _source_json(t.source), "gist": t.gist} for t in model.thread],
        "thread_at": model.thread_at.isoformat() if model.thread_at else None,
    }  # fmt: skip
    return json.dumps(data, ensure_ascii=False)


def _from_json(user_key: str, raw: str) -> PersonModel:
    data: dict[str, Any] = json.loads(raw)
    lines = tuple(
        PersonLine(
            line["aspect"], line["value"], tuple(_source(s) for s in line["sources"]), line.get("relation", ""),
            date.fromisoformat(line["on"]) if line.get("on") else None,
        )
        for line in data.get("lines", [])
    )  # fmt: skip
    thread = tuple(ThreadLine(t["text"], _source(t["source"]), bool(t.get("gist"))) for t in data.get("thread", []))
    thread_at = datetime.fromisoformat(data["thread_at"]) if data.get("thread_at") else None
    return PersonModel(user_key, datetime.fromisoformat(data["built_at"]), lines, thread, thread_at)
