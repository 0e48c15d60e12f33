"""Pseudonymous keys (SOUVENIR_PSEUDONYMOUS_KEYS=true): stores name people by a keyed hash of their account.

An account `telegram:123456` becomes `telegram:~<32 hex>`, HMAC-SHA256 of the account key under a server
secret (SOUVENIR_PSEUDONYM_SECRET, else 32 random bytes generated once into `data_dir/pseudonym.secret`,
0600). Without the secret, a copy of the stores cannot be tied to platform accounts; with it, it can be
checked one account at a time only. The platform name stays: it says where to write, not to whom.

The one way back, needed to write to a person unprompted, is the Redis hash `souvenir:pseudonyms`
(field: pseudonymous account key, value: the platform account key). It is filled as people write and
emptied of a person by /forget all; `ResolvingMessenger` is the only reader. With encryption at rest each
value is sealed with the person's data key.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import replace
from pathlib import Path

import redis.asyncio as aioredis

from bot.engine.media.pictures import Picture
from bot.engine.media.voice_messenger import VoiceDelivery, send_picture_or_text
from bot.engine.media.voice_note import VoiceNote
from bot.engine.model import UserRef
from bot.errors import UnreadableText, UserUnreachable
from memory.privacy.crypto import PlainCipher, TextCipher

MARK = "~"
DIGITS = 32
MAPPING_KEY = "souvenir:pseudonyms"
SECRET_FILE = "pseudonym.secret"


def load_or_create_secret(data_dir: Path, configured: str | None) -> bytes:
    """The configured secret, else the one in the data dir, generated (0600) the first time."""
    if configured:
        return configured.encode()
    path = data_dir / SECRET_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_bytes().strip()
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(secrets.token_hex(32) + "\n")
    return path.read_bytes().strip()


def is_pseudonym(user_id: str) -> bool:
    return user_id.startswith(MARK) and len(user_id) == DIGITS + 1


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisPseudonyms:
    """`Pseudonyms` for the engine and commands, the way back for the messengers, and a `UserDataEraser`."""

    def __init__(self, client: aioredis.Redis, secret: bytes, cipher: TextCipher | None = None) -> None:
        self._redis = client
        self._secret = secret
        self._cipher: TextCipher = cipher or PlainCipher()
        self._recorded: set[str] = set()  # pseudonymous keys whose way back this process has written

    def pseudonym_of(self, account_key: str) -> str:
        return MARK + hmac.new(self._secret, account_key.encode(), hashlib.sha256).hexdigest()[:DIGITS]

    async def pseudonymous(self, user: UserRef) -> UserRef:
        if is_pseudonym(user.user_id):
            return user
        pseudonymous = replace(user, user_id=self.pseudonym_of(user.account_key))
        key = pseudonymous.account_key
        if key not in self._recorded:
            await self._redis.hset(MAPPING_KEY, key, await self._cipher.seal(key, user.account_key))
            self._recorded.add(key)
        return pseudonymous

    async def platform_account(self, key: str) -> str | None:
        """The platform account behind a pseudonymous key (None once the person erased everything); any
        other key is returned as it is."""
        _, _, user_id = key.partition(":")
        if not is_pseudonym(user_id):
            return key
        found = await self._redis.hget(MAPPING_KEY, key)
        if found is None:
            return None
        try:
            return await self._cipher.open(key, _text(found))
        except UnreadableText:  # its data key was destroyed: the person erased everything
            return None

    async def forget_user(self, user_key: str) -> None:
        """Called with the person key and with each of their account keys: no way back to them is kept."""
        await self._redis.hdel(MAPPING_KEY, user_key)
        self._recorded.discard(user_key)


class ResolvingMessenger:
    """Writes to the platform account behind a pseudonymous key; a person who erased everything is unreachable."""

    def __init__(self, messenger: VoiceDelivery, pseudonyms: RedisPseudonyms) -> None:
        self._messenger = messenger
        self._pseudonyms = pseudonyms

    async def _account(self, user_key: str) -> str:
        account = await self._pseudonyms.platform_account(user_key)
        if account is None:
            raise UserUnreachable(f"no platform account is known for {user_key} any more")
        return account

    async def send_direct(self, user_key: str, text: str) -> None:
        await self._messenger.send_direct(await self._account(user_key), text)

    async def send_voice_direct(self, user_key: str, note: VoiceNote, text: str) -> None:
        await self._messenger.send_voice_direct(await self._account(user_key), note, text)

    async def send_direct_picture(self, user_key: str, text: str, picture: Picture) -> None:
        await send_picture_or_text(self._messenger, await self._account(user_key), text, picture)
