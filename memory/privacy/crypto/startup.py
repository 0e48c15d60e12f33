"""The cipher the app runs with, chosen once at start: refused before anything is written when the key
configured does not match the data already stored."""

from __future__ import annotations

import logging
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import redis.asyncio as aioredis

from bot.errors import ConfigError
from memory.privacy.crypto.cipher import PersonCipher, PlainCipher, TextCipher
from memory.privacy.crypto.key_store import FileKeyStore, KeyStore, RedisKeyStore
from memory.privacy.crypto.key_store_check import check_key_store
from memory.privacy.crypto.keys import DataKeys, master_key_state, move_data_keys

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class KeyStorePlace:
    """Where the data keys are kept: SOUVENIR_KEY_STORE (`auto` resolved), SOUVENIR_KEY_DIR, SOUVENIR_KEY_STORE_URL."""

    kind: Literal["file", "redis"]
    key_dir: Path  # the file store's folder
    url: str | None = None  # a Redis of its own for the redis store; None: the data's Redis


def key_store_for(stack: AsyncExitStack, place: KeyStorePlace, client: aioredis.Redis) -> KeyStore:
    """Where the data keys are kept, apart from the data (SOUVENIR_KEY_STORE): erasure then reaches backups.
    Every command that opens sealed data uses this one (a start, `reindex`, `rotate-key`); a Redis of its own
    is closed with `stack`."""
    if place.kind == "file":
        return FileKeyStore(place.key_dir)
    if place.url is None:
        return RedisKeyStore(client)
    store = RedisKeyStore.from_url(place.url)
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
