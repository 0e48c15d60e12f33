"""The cipher the app runs with, chosen once at start: refused before anything is written when the key
configured does not match the data already stored."""

from __future__ import annotations

import logging
from contextlib import AsyncExitStack

import redis.asyncio as aioredis

from bot.config import Settings
from bot.errors import ConfigError
from memory.privacy.crypto.cipher import PersonCipher, PlainCipher, TextCipher
from memory.privacy.crypto.key_store import FileKeyStore, KeyStore, RedisKeyStore
from memory.privacy.crypto.key_store_check import check_key_store
from memory.privacy.crypto.keys import DataKeys, master_key_state, move_data_keys

log = logging.getLogger(__name__)


def key_store_for(stack: AsyncExitStack, settings: Settings, client: aioredis.Redis) -> KeyStore:
    """Where the data keys are kept, apart from the data (SOUVENIR_KEY_STORE): erasure then reaches backups.
    Every command that opens sealed data uses this one (a start, `reindex`, `rotate-key`); a Redis of its own
    is closed with `stack`."""
    if settings.resolved_key_store == "file":
        return FileKeyStore(settings.resolved_key_dir)
    if settings.key_store_url is None:
        return RedisKeyStore(client)
    store = RedisKeyStore.from_url(settings.key_store_url)
    stack.push_async_callback(store.aclose)
    return store


async def cipher_for(client: aioredis.Redis, master: str | None, store: KeyStore | None = None) -> TextCipher:
    """PersonCipher with a master key, PlainCipher without; ConfigError (one line, exit 2) when the stored
    data was encrypted with another key or when it is encrypted and no key is set. `store`: where the data
    keys are kept (default: `client`); keys an earlier version kept in `client` are moved there first."""
    if store is not None and not isinstance(store, RedisKeyStore):
        moved = await move_data_keys(RedisKeyStore(client), store)
        if moved:
            log.info("moved %d data keys out of Redis into the key store", moved)
    state = await master_key_state(client, master, store)
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
    store = store or RedisKeyStore(client)
    await check_key_store(client, store, master)
    return PersonCipher(DataKeys(store, master))
