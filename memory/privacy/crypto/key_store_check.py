"""A lost key store is told at start, not papered over with new keys.

The data and its key store name each other: the data's Redis holds `souvenir:crypto:key_store`, a random id,
and the key store holds the same id wrapped by the master key (under the key id `keystore`, beside the data
keys, so a rotation rewraps it and a move carries it). A start whose key store lacks that record, or holds
another one — the key dir was deleted or not mounted, `SOUVENIR_KEY_DIR` / `SOUVENIR_KEY_STORE_URL` point
elsewhere — stops with one line, before anything is written: going on would make a new data key for everyone,
and every text sealed before would stay unreadable for good.
"""

from __future__ import annotations

import secrets

import redis.asyncio as aioredis
from cryptography.fernet import Fernet, InvalidToken

from bot.errors import ConfigError
from memory.privacy.crypto.key_store import STORE_RECORD, KeyStore

DATA_RECORD = "souvenir:crypto:key_store"


def _text(value: str | bytes | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


async def check_key_store(client: aioredis.Redis, store: KeyStore, master: str) -> None:
    """ConfigError when the key store is not the one the data was written with; on a first start (or the first
    since this record exists) the two records are written."""
    fernet = Fernet(master.encode())
    wrapped = await store.get(STORE_RECORD)
    try:
        held = None if wrapped is None else fernet.decrypt(wrapped).decode()
    except InvalidToken:
        raise ConfigError("SOUVENIR_ENCRYPTION_KEY: this key does not open the key store's own record") from None
    expected = _text(await client.get(DATA_RECORD))
    if expected is None:
        if held is None:
            held = secrets.token_hex(16)
            if not await store.create(STORE_RECORD, fernet.encrypt(held.encode())):
                return await check_key_store(client, store, master)  # another process wrote it meanwhile
        await client.set(DATA_RECORD, held, nx=True)
        expected = _text(await client.get(DATA_RECORD))
    if held == expected:
        return
    what = "holds no record of it: it was lost, or is not the one configured" if held is None else (
        "is another one than the data was written with"
    )
    raise ConfigError(
        f"the key store (SOUVENIR_KEY_STORE, SOUVENIR_KEY_DIR / SOUVENIR_KEY_STORE_URL) {what}. Every person's "
        "data key is kept there: restore it from its backup, or point the settings at it. Starting without it "
        "would make new keys, and everything sealed so far would stay unreadable."
    )
