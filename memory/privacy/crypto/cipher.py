"""Sealing the texts kept at rest with each person's data key (`PersonCipher`), or not at all (`PlainCipher`).

A sealed text is `sv1:` followed by a Fernet token (AES-128-CBC with an HMAC-SHA256, random IV): the same
words sealed twice differ, and a text changed on disk does not open. A stored text without the prefix was
written before encryption was turned on and is read as it is.

Each person's keyword key (`Sealer.keyword_key`) is derived from their data key with HMAC-SHA256: the memory
index keys its keyword ids with it (memory/words/sparse.py), and it goes with the data key at erasure.

Data keys are cached in the process (unwrapping is one Fernet decryption and one Redis read); erasure drops
the cached key with the stored one. Stores get a cipher by constructor injection; `bot.app` picks one.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol

from cryptography.fernet import Fernet, InvalidToken

from bot.errors import UnreadableText
from memory.privacy.crypto.keys import DataKeys

SEALED_PREFIX = "sv1:"
CACHED_KEYS = 10_000
FRESH_S = 30.0  # how long an open trusts a cached data key before reading it again
_KEYWORD_KEY_INFO = b"souvenir keyword ids v1"


def keyword_key_of(data_key: bytes) -> bytes:
    """The 32-byte key of a person's keyword ids, from their raw data key (a Fernet key, URL-safe base64)."""
    return hmac.new(base64.urlsafe_b64decode(data_key), _KEYWORD_KEY_INFO, hashlib.sha256).digest()


def is_sealed(text: str) -> bool:
    return text.startswith(SEALED_PREFIX)


class Sealer(Protocol):
    """One person's texts, sealed and opened without I/O (for many payloads at once). `keyword_key`: the key of
    their keyword ids (None: no encryption, or no data key)."""

    @property
    def keyword_key(self) -> bytes | None: ...

    def seal(self, text: str) -> str: ...

    def open(self, text: str) -> str: ...


class TextCipher(Protocol):
    """What the stores use. `open` raises UnreadableText when the person's key is gone."""

    @property
    def enabled(self) -> bool: ...

    async def seal(self, person_key: str, text: str) -> str: ...

    async def open(self, person_key: str, text: str) -> str: ...

    async def sealer(self, person_key: str) -> Sealer: ...

    async def opener(self, person_key: str) -> Sealer: ...

    async def forget_user(self, user_key: str) -> None: ...


class _KeySealer:
    def __init__(self, key: Fernet | None, keyword_key: bytes | None = None) -> None:
        self._key = key
        self._keyword_key = keyword_key

    @property
    def keyword_key(self) -> bytes | None:
        return self._keyword_key

    def seal(self, text: str) -> str:
        if self._key is None:
            raise UnreadableText("no data key to seal with")
        return SEALED_PREFIX + self._key.encrypt(text.encode()).decode()

    def open(self, text: str) -> str:
        if not is_sealed(text):
            return text
        if self._key is None:
            raise UnreadableText("the data key of this text is gone")
        try:
            return self._key.decrypt(text[len(SEALED_PREFIX) :].encode()).decode()
        except InvalidToken:
            raise UnreadableText("this text does not open with its person's data key") from None


class PersonCipher:
    """Texts sealed with the data key of the person they are about; a `UserDataEraser` that destroys that
    key (crypto-shredding): it runs right after the erasure log moves the epoch, before every other eraser.

    Sealing reads the stored key every time (one Redis GET per write), so a key destroyed or replaced by
    another process is never written with. Opening trusts a cached key for `fresh_s` seconds: another
    process's erasure (and a new key made after it) is seen at the latest that long after."""

    def __init__(
        self,
        keys: DataKeys,
        *,
        cached: int = CACHED_KEYS,
        fresh_s: float = FRESH_S,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._keys = keys
        # wrapped, key, keyword key, when read
        self._cache: OrderedDict[str, tuple[bytes, Fernet, bytes, float]] = OrderedDict()
        self._cached = cached
        self._fresh_s = fresh_s
        self._monotonic = monotonic

    @property
    def enabled(self) -> bool:
        return True

    async def seal(self, person_key: str, text: str) -> str:
        return (await self.sealer(person_key)).seal(text)

    async def open(self, person_key: str, text: str) -> str:
        if not is_sealed(text):
            return text
        return (await self.opener(person_key)).open(text)

    async def sealer(self, person_key: str) -> Sealer:
        wrapped = await self._keys.wrapped(person_key) or await self._keys.wrapped_or_create(person_key)
        return self._key(person_key, wrapped)

    async def opener(self, person_key: str) -> Sealer:
        hit = self._cache.get(person_key)
        if hit is not None and self._monotonic() - hit[3] < self._fresh_s:
            self._cache.move_to_end(person_key)
            return _KeySealer(hit[1], hit[2])
        wrapped = await self._keys.wrapped(person_key)
        if wrapped is None:
            self._cache.pop(person_key, None)
            return _KeySealer(None)
        return self._key(person_key, wrapped)

    async def forget_user(self, user_key: str) -> None:
        self._cache.pop(user_key, None)
        await self._keys.destroy(user_key)
        self._cache.pop(user_key, None)  # a read in flight may have cached it meanwhile

    def _key(self, person_key: str, wrapped: bytes) -> _KeySealer:
        """The data key `wrapped` holds (and its keyword key), unwrapped once per process and kept (the most
        recent `cached`)."""
        hit = self._cache.get(person_key)
        if hit is not None and hit[0] == wrapped:
            key, keyword_key = hit[1], hit[2]
        else:
            raw = self._keys.unwrap(wrapped)
            key, keyword_key = Fernet(raw), keyword_key_of(raw)
        self._cache[person_key] = (wrapped, key, keyword_key, self._monotonic())
        self._cache.move_to_end(person_key)
        while len(self._cache) > self._cached:
            self._cache.popitem(last=False)
        return _KeySealer(key, keyword_key)


class _Clear:
    @property
    def keyword_key(self) -> bytes | None:
        return None

    def seal(self, text: str) -> str:
        return text

    def open(self, text: str) -> str:
        if is_sealed(text):
            raise UnreadableText("this text is encrypted and no SOUVENIR_ENCRYPTION_KEY is set")
        return text


class PlainCipher:
    """No SOUVENIR_ENCRYPTION_KEY: texts are kept as they are."""

    @property
    def enabled(self) -> bool:
        return False

    async def seal(self, person_key: str, text: str) -> str:
        return text

    async def open(self, person_key: str, text: str) -> str:
        return _Clear().open(text)

    async def sealer(self, person_key: str) -> Sealer:
        return _Clear()

    async def opener(self, person_key: str) -> Sealer:
        return _Clear()

    async def forget_user(self, user_key: str) -> None:
        return None


async def seal_json(cipher: TextCipher, person_key: str, value: Any) -> str:
    """A JSON document (an outbox entry, a state blob) as one sealed string."""
    return await cipher.seal(person_key, json.dumps(value, ensure_ascii=False))


async def open_json(cipher: TextCipher, person_key: str, text: str | bytes) -> Any:
    raw = text.decode() if isinstance(text, bytes) else text
    return json.loads(await cipher.open(person_key, raw))
