"""Envelope keys: one data key per person, wrapped by the master key (SOUVENIR_ENCRYPTION_KEY), kept in Redis.

The only module that imports `cryptography`'s key handling. Keys (a one-way hash of the person key names
them, so no key names the person):
- `souvenir:datakey:<hash>` — the person's data key (a Fernet key), encrypted with the master key;
- `souvenir:crypto:check` — a known text encrypted with the master key, written when encryption is first on:
  a start with another key, or with none, is refused before anything is written.

Destroying the data key (crypto-shredding) makes every copy of the person's texts unreadable at once,
including what a backup or a file not yet compacted still holds. Rotating the master key rewraps the data
keys only: the data itself is not re-encrypted.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import redis.asyncio as aioredis
from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from redis.exceptions import WatchError

DATA_KEY_PREFIX = "souvenir:datakey:"
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


def data_key_name(person_key: str) -> str:
    return DATA_KEY_PREFIX + hashlib.sha256(person_key.encode()).hexdigest()


class RedisDataKeys:
    """The wrapped data keys in Redis. `master` unwraps them; `SET NX` makes two processes that create a
    person's first key at the same moment agree on one."""

    def __init__(self, client: aioredis.Redis, master: str) -> None:
        self._redis = client
        self._master = Fernet(master.encode())

    async def wrapped(self, person_key: str) -> bytes | None:
        """The person's data key as stored (wrapped), or None when they have none (never written, or erased)."""
        found = await self._redis.get(data_key_name(person_key))
        return None if found is None else found if isinstance(found, bytes) else found.encode()

    async def wrapped_or_create(self, person_key: str) -> bytes:
        name = data_key_name(person_key)
        fresh = self._master.encrypt(Fernet.generate_key())
        while True:
            if await self._redis.set(name, fresh, nx=True):
                return fresh
            found = await self.wrapped(person_key)
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
        await self._redis.delete(data_key_name(person_key))


async def master_key_state(client: aioredis.Redis, master: str | None) -> str:
    """What the stored data says about `master`: "ok" (it opens the data, or there is none yet), "wrong"
    (encrypted with another key), "missing" (encrypted, and no key given) or "new" (no key, no encrypted data)."""
    check = await client.get(CHECK_KEY)
    some_key = None
    if check is None:
        async for name in client.scan_iter(match=f"{DATA_KEY_PREFIX}*", count=1000):
            some_key = await client.get(name)
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


async def rewrap_data_keys(client: aioredis.Redis, old: str, new: str) -> int:
    """Every data key and the check record re-encrypted from `old` to `new` master key; how many data keys.

    A key already wrapped with `new` is kept as it is (MultiFernet opens both), so a rotation cut short can
    simply be run again."""
    both = MultiFernet([Fernet(new.encode()), Fernet(old.encode())])
    check = await client.get(CHECK_KEY)
    if check is not None:
        try:
            both.decrypt(check)
        except InvalidToken:
            raise WrongMasterKey("--old does not open the stored data") from None
    names: Sequence[bytes] = [name async for name in client.scan_iter(match=f"{DATA_KEY_PREFIX}*", count=1000)]
    rewrapped = 0
    for name in names:
        # Watched: a key erased meanwhile is not brought back, one replaced meanwhile is rewrapped in turn.
        async with client.pipeline(transaction=True) as pipe:
            while True:
                try:
                    await pipe.watch(name)
                    wrapped = await pipe.get(name)
                    if wrapped is None:
                        break
                    try:
                        fresh = both.rotate(wrapped)
                    except InvalidToken:
                        raise WrongMasterKey("--old does not open a stored data key") from None
                    pipe.multi()
                    pipe.set(name, fresh)
                    await pipe.execute()
                    rewrapped += 1
                    break
                except WatchError:
                    continue
    await client.set(CHECK_KEY, Fernet(new.encode()).encrypt(_CHECK_TEXT))
    return rewrapped
