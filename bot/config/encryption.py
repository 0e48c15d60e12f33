"""Encryption at rest: the master key, and where each person's wrapped data key is kept."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, SecretStr, field_validator

from bot.config.checks import is_encryption_key


class EncryptionSettings(BaseModel):
    # Encryption at rest: the master key that wraps each person's data key; unset = texts kept clear.
    encryption_key: SecretStr | None = None
    # Where each person's wrapped data key is kept, apart from the data it opens (erasure reaches backups):
    # "file" (SOUVENIR_KEY_DIR, one box), "redis" (SOUVENIR_KEY_STORE_URL, default the main Redis: replicas),
    # "auto": file with the embedded Redis, else redis.
    key_store: Literal["auto", "file", "redis"] = "auto"
    key_dir: Path | None = None  # unset: <data dir>-keys, beside the data dir (never inside it)
    key_store_url: str | None = None  # a Redis apart from the data's for the keys; unset: the main Redis

    @field_validator("encryption_key")
    @classmethod
    def _fernet_key(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value().strip():
            return None
        key = value.get_secret_value().strip()
        if not is_encryption_key(key):
            raise ValueError("32 random bytes in URL-safe base64, as `souvenir keygen` prints")
        return SecretStr(key)
