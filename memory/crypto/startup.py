"""The cipher the app runs with, chosen once at start: refused before anything is written when the key
configured does not match the data already stored."""

from __future__ import annotations

import redis.asyncio as aioredis

from bot.errors import ConfigError
from memory.crypto.cipher import PersonCipher, PlainCipher, TextCipher
from memory.crypto.keys import RedisDataKeys, master_key_state


async def cipher_for(client: aioredis.Redis, master: str | None) -> TextCipher:
    """PersonCipher with a master key, PlainCipher without; ConfigError (one line, exit 2) when the stored
    data was encrypted with another key or when it is encrypted and no key is set."""
    state = await master_key_state(client, master)
    if state == "wrong":
        raise ConfigError(
            "SOUVENIR_ENCRYPTION_KEY: this key does not open the data already stored (encrypted with another "
            "key); set the key it was written with, or rotate it with `souvenir rotate-key --old ... --new ...`"
        )
    if state == "missing":
        raise ConfigError(
            "SOUVENIR_ENCRYPTION_KEY: the data already stored is encrypted; set the key it was written with"
        )
    if master is None:
        return PlainCipher()
    return PersonCipher(RedisDataKeys(client, master))
