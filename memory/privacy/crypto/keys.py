"""Envelope keys: one data key per person, wrapped by the master key (SOUVENIR_ENCRYPTION_KEY), kept in a key
store apart from the data (`memory.privacy.crypto.key_store`).

The only module that imports `cryptography`'s key handling. A one-way hash of the person key names each data
key, so no key names the person; `souvenir:crypto:check` (in the data's Redis) is a known text encrypted with
the master key, written when encryption is first on: a start with another key, or with none, is refused before
anything is written.

Destroying the data key (crypto-shredding) makes every copy of the person's texts unreadable at once,
including what a backup of the data or a file not yet compacted still holds. Rotating the master key rewraps
the data keys only: the data itself is not re-encrypted.
"""

from __future__ import annotations

import redis.asyncio as aioredis
from cryptography.fernet import Fernet, InvalidToken, MultiFernet

from memory.privacy.crypto.key_store import (
    DATA_KEY_PREFIX,
    STORE_RECORD,
    KeyStore,
    RedisKeyStore,
    data_key_name,
    key_id,
)

__all__ = ["CHECK_KEY", "DATA_KEY_PREFIX", "DataKeys", "RedisDataKeys", "WrongMasterKey", "data_key_name"]

CHECK_KEY = "souvenir:crypto:check"
_CHECK_TEXT = b"souvenir encryption key check v1"


class WrongMasterKey(Exception):
    """The master key does not open what was wrapped with another one."""


def new_master_key() -> str:
    """A fresh key in the SOUVENIR_ENCRYPTION_KEY format (32 random bytes, URL-safe base64). Never one that
    starts with "-", which a command line would take for an option (`rotate-key --new -x…`)."""
    while (key := Fernet.generate_key().decode()).startswith("-"):
        continue
    return key


class DataKeys:
    """The wrapped data keys in a key store. `master` unwraps them; the store's `create` makes two writers that
    create a person's first key at the same moment agree on one."""

    def __init__(self, store: KeyStore, master: str) -> None:
        self._store = store
        self._master = Fernet(master.encode())

    async def wrapped(self, person_key: str) -> bytes | None:
        """The person's data key as stored (wrapped), or None when they have none (never written, or erased)."""
        return await self._store.get(key_id(person_key))

    async def wrapped_or_create(self, person_key: str) -> bytes:
        kid = key_id(person_key)
        fresh = self._master.encrypt(Fernet.generate_key())
        while True:
            if await self._store.create(kid, fresh):
                return fresh
            found = await self._store.get(kid)
            if found is not None:
                return found
            # erased between the two calls: try creating it again

    def unwrap(self, wrapped: bytes) -> bytes:
        """The raw data key (a Fernet key)."""
        try:
            return self._master.decrypt(wrapped)
        except InvalidToken:
            raise WrongMasterKey("a data key does not open with SOUVENIR_ENCRYPTION_KEY") from None

    async def destroy(self, person_key: str) -> None:
        await self._store.delete(key_id(person_key))


class RedisDataKeys(DataKeys):
    """Data keys kept in a Redis (the data's own, in tests and when no other key store is set)."""

    def __init__(self, client: aioredis.Redis, master: str) -> None:
        super().__init__(RedisKeyStore(client), master)


async def master_key_state(client: aioredis.Redis, master: str | None, store: KeyStore | None = None) -> str:
    """What the stored data says about `master`: "ok" (it opens the data, or there is none yet), "wrong"
    (encrypted with another key), "missing" (encrypted, and no key given) or "new" (no key, no encrypted data).
    `store`: where the data keys are (default: `client`)."""
    store = store or RedisKeyStore(client)
    check = await client.get(CHECK_KEY)
    some_key = None
    if check is None:
        async for kid in store.ids():
            some_key = await store.get(kid)
            if some_key is not None:
                break
    encrypted = check if check is not None else some_key
    if master is None:
        return "new" if encrypted is None else "missing"
    if encrypted is not None:
        try:
            Fernet(master.encode()).decrypt(encrypted)
        except InvalidToken:
            return "wrong"
    if check is None:
        await client.set(CHECK_KEY, Fernet(master.encode()).encrypt(_CHECK_TEXT))
    return "ok"


async def rewrap_data_keys(client: aioredis.Redis, old: str, new: str, store: KeyStore | None = None) -> int:
    """Every data key and the check record re-encrypted from `old` to `new` master key; how many data keys.

    A key already wrapped with `new` is kept as it is (MultiFernet opens both), so a rotation cut short can
    simply be run again. `store`: where the data keys are (default: `client`)."""
    store = store or RedisKeyStore(client)
    both = MultiFernet([Fernet(new.encode()), Fernet(old.encode())])
    check = await client.get(CHECK_KEY)
    if check is not None:
        try:
            both.decrypt(check)
        except InvalidToken:
            raise WrongMasterKey("--old does not open the stored data") from None
    rewrapped = 0
    for kid in [kid async for kid in store.ids()]:
        # Compare and set: a key erased meanwhile is not brought back, one replaced meanwhile is rewrapped in turn.
        while (wrapped := await store.get(kid)) is not None:
            try:
                fresh = both.rotate(wrapped)
            except InvalidToken:
                raise WrongMasterKey("--old does not open a stored data key") from None
            if await store.replace(kid, wrapped, fresh):
                rewrapped += kid != STORE_RECORD  # the key store's own record is no one's key
                break
    await client.set(CHECK_KEY, Fernet(new.encode()).encrypt(_CHECK_TEXT))
    return rewrapped


async def move_data_keys(source: KeyStore, target: KeyStore) -> int:
    """Data keys kept in `source` (an earlier version kept them in the data's Redis) moved into `target`, each
    written there before it leaves `source`; how many moved. A key `target` already has wins."""
    moved = 0
    for kid in [kid async for kid in source.ids()]:
        wrapped = await source.get(kid)
        if wrapped is None:
            continue
        await target.create(kid, wrapped)
        await source.delete(kid)
        moved += 1
    return moved
