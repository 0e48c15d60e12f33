"""Looking through a whole Redis database for text: every key and every value, no name pattern."""

from __future__ import annotations

import re

import redis.asyncio as aioredis

# A Fernet token (a sealed text after `sv1:`, a wrapped data key) is URL-safe base64 of random bytes that
# always starts with "gAAAAA" (version byte 0x80, then the top of a timestamp). Searched as it is, it holds a
# three-letter needle like "Rex" about once in a few hundred runs, so the search skips tokens: what it must
# find is plaintext, and a token never is.
_FERNET_TOKEN = re.compile(r"gAAAAA[A-Za-z0-9_=-]{40,}")


async def redis_mentions(client: aioredis.Redis, *needles: str) -> list[str]:
    """Every key, and every value of every type, that says one of `needles` — all keys, no name pattern."""
    found: list[str] = []
    async for raw_key in client.scan_iter(count=1000):
        key = raw_key.decode()
        kind = (await client.type(raw_key)).decode()
        if kind == "string":
            values = [await client.get(raw_key)]
        elif kind == "hash":
            values = [part for pair in (await client.hgetall(raw_key)).items() for part in pair]
        elif kind == "list":
            values = await client.lrange(raw_key, 0, -1)
        elif kind == "set":
            values = list(await client.smembers(raw_key))
        elif kind == "zset":
            values = [member for member, _score in await client.zrange(raw_key, 0, -1, withscores=True)]
        elif kind == "stream":  # the outbox, its dead letters
            entries = await client.xrange(raw_key)
            values = [part for _id, fields in entries for pair in fields.items() for part in pair]
        else:
            raise AssertionError(f"unexpected Redis type {kind} at {key}")
        texts = [key, *(v.decode() if isinstance(v, bytes) else str(v) for v in values)]
        texts = [_FERNET_TOKEN.sub("<sealed>", text) for text in texts]
        found += [f"{key}: {t}" for t in texts for needle in needles if needle.lower() in t.lower()]
    return found
