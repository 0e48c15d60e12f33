"""Where the wrapped per-person data keys live: apart from the data they open, so that erasure reaches backups.

A backup of the data dir (or of the Redis that holds the texts) taken before `/forget all` holds the person's
sealed texts; opened after it, with the master key and the key store as they are then, it shows none of them,
since the person's data key is gone from the key store. Two backends, chosen once in `bot.app`:

- `FileKeyStore`: one small file per person in a directory beside the data dir (`SOUVENIR_KEY_DIR`, default
  `<data dir>-keys`), for one box. The data dir lock already makes this process its only writer; files are
  created with `O_EXCL` (two writers agree on the first key) and removed with the directory synced.
- `RedisKeyStore`: keys in a Redis (`SOUVENIR_KEY_STORE_URL`, default the main one), for replicas on several
  boxes. Only a Redis apart from the data's, whose backups are kept no longer than erasure promises, gives
  backups the same guarantee.

A copy of the key store itself, taken before an erasure, brings the person's key back: what the README says
about backing it up follows from that.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Protocol

import redis.asyncio as aioredis

DATA_KEY_PREFIX = "souvenir:datakey:"
# the key store's own record (memory/privacy/crypto/key_store_check.py), never a person's key id
STORE_RECORD = "keystore"
_SUFFIX = ".key"


def key_id(person_key: str) -> str:
    """A one-way hash of the person key: no stored name says who the key is for."""
    return hashlib.sha256(person_key.encode()).hexdigest()


def data_key_name(person_key: str) -> str:
    """The Redis name of a person's wrapped data key."""
    return DATA_KEY_PREFIX + key_id(person_key)


class KeyStore(Protocol):
    """Wrapped data keys by key id (`key_id`)."""

    async def get(self, kid: str) -> bytes | None: ...

    async def create(self, kid: str, wrapped: bytes) -> bool:
        """Store `wrapped` unless a key is there already; whether it was stored."""
        ...

    async def replace(self, kid: str, old: bytes, new: bytes) -> bool:
        """`new` in place of `old` (a rewrap); False when the key changed or went meanwhile."""
        ...

    async def delete(self, kid: str) -> None: ...

    def ids(self) -> AsyncIterator[str]: ...


class RedisKeyStore:
    def __init__(self, client: aioredis.Redis) -> None:
        self._redis = client
        self._owned = False

    @classmethod
    def from_url(cls, url: str) -> RedisKeyStore:
        """A key store on its own Redis (closed with `aclose`)."""
        store = cls(aioredis.Redis.from_url(url))
        store._owned = True
        return store

    async def aclose(self) -> None:
        if self._owned:
            await self._redis.aclose()

    async def get(self, kid: str) -> bytes | None:
        found = await self._redis.get(DATA_KEY_PREFIX + kid)
        return None if found is None else found if isinstance(found, bytes) else found.encode()

    async def create(self, kid: str, wrapped: bytes) -> bool:
        return bool(await self._redis.set(DATA_KEY_PREFIX + kid, wrapped, nx=True))

    async def replace(self, kid: str, old: bytes, new: bytes) -> bool:
        # Compare and set in one step: a key erased meanwhile is not brought back.
        swapped = await self._redis.eval(_SWAP, 1, DATA_KEY_PREFIX + kid, old, new)  # type: ignore[misc]
        return bool(swapped)

    async def delete(self, kid: str) -> None:
        await self._redis.delete(DATA_KEY_PREFIX + kid)

    async def ids(self) -> AsyncIterator[str]:
        async for name in self._redis.scan_iter(match=f"{DATA_KEY_PREFIX}*", count=1000):
            text = name.decode() if isinstance(name, bytes) else name
            yield text.removeprefix(DATA_KEY_PREFIX)


_SWAP = "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2]) return 1 end return 0"


class FileKeyStore:
    """`directory/<key id>.key`, 0600 in a 0700 directory; file work runs off the event loop."""

    def __init__(self, directory: Path) -> None:
        self._dir = directory

    @property
    def directory(self) -> Path:
        return self._dir

    async def get(self, kid: str) -> bytes | None:
        return await asyncio.to_thread(self._read, kid)

    async def create(self, kid: str, wrapped: bytes) -> bool:
        return await asyncio.to_thread(self._create, kid, wrapped)

    async def replace(self, kid: str, old: bytes, new: bytes) -> bool:
        return await asyncio.to_thread(self._replace, kid, old, new)

    async def delete(self, kid: str) -> None:
        await asyncio.to_thread(self._delete, kid)

    async def ids(self) -> AsyncIterator[str]:
        for name in await asyncio.to_thread(self._names):
            yield name

    def _path(self, kid: str) -> Path:
        if not kid.isalnum():
            raise ValueError(f"not a key id: {kid!r}")
        return self._dir / f"{kid}{_SUFFIX}"

    def _read(self, kid: str) -> bytes | None:
        try:
            return self._path(kid).read_bytes()
        except FileNotFoundError:
            return None

    def _create(self, kid: str, wrapped: bytes) -> bool:
        self._dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        # Written under a temporary name and linked into place: the key appears whole or not at all, and
        # `link` fails when one is there already (the first writer wins).
        temporary = self._temporary(kid)
        self._write(temporary, wrapped)
        try:
            os.link(temporary, self._path(kid))
        except FileExistsError:
            return False
        finally:
            temporary.unlink(missing_ok=True)
            self._sync_dir()
        return True

    def _replace(self, kid: str, old: bytes, new: bytes) -> bool:
        if self._read(kid) != old:
            return False
        temporary = self._temporary(kid)
        self._write(temporary, new)
        os.replace(temporary, self._path(kid))
        self._sync_dir()
        return True

    def _delete(self, kid: str) -> None:
        path = self._path(kid)
        with contextlib.suppress(FileNotFoundError):
            # Overwritten before it is unlinked, so the freed blocks do not keep the wrapped key (on a disk
            # that writes in place; a copy-on-write file system or an SSD may still hold the old blocks).
            size = path.stat().st_size
            with open(path, "r+b") as file:
                file.write(os.urandom(size))
                file.flush()
                os.fsync(file.fileno())
            path.unlink()
            self._sync_dir()

    def _names(self) -> list[str]:
        if not self._dir.is_dir():
            return []
        return sorted(p.name.removesuffix(_SUFFIX) for p in self._dir.glob(f"*{_SUFFIX}") if p.is_file())

    def _temporary(self, kid: str) -> Path:
        # Unique to each call: two first writes for one person at once must not share a file.
        return self._dir / f".{kid}.{os.urandom(8).hex()}.new"

    def _write(self, path: Path, data: bytes) -> None:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())

    def _sync_dir(self) -> None:
        descriptor = os.open(self._dir, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
