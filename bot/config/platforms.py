"""Telegram and Discord settings: each platform runs when its token is set."""

from __future__ import annotations

import re

from pydantic import BaseModel, Field, SecretStr, field_validator


class PlatformSettings(BaseModel):
    # Telegram
    telegram_token: SecretStr | None = None
    telegram_api_url: str = "https://api.telegram.org"
    telegram_webhook_url: str | None = None
    telegram_webhook_secret: SecretStr | None = None
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = Field(default=8443, ge=1, le=65535)

    # Discord
    discord_token: SecretStr | None = None
    discord_api_url: str | None = None
    discord_gateway_url: str | None = None
    discord_shards: int | None = Field(default=None, ge=1)
    # This process's part of the shards when several processes split them, e.g. "0,1" of SOUVENIR_DISCORD_SHARDS=4.
    discord_shard_ids: str | None = None

    @field_validator("discord_shard_ids")
    @classmethod
    def _shard_ids(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"\d+(,\d+)*", value.replace(" ", "")):
            raise ValueError("shard numbers separated by commas, such as 0,1")
        return value.replace(" ", "") if value is not None else None

    @property
    def discord_shard_id_list(self) -> list[int] | None:
        """The shards this process connects; None: all of them."""
        if self.discord_shard_ids is None:
            return None
        return [int(part) for part in self.discord_shard_ids.split(",")]
