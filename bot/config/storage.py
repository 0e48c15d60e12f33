"""Storage settings: the data folder, Redis (embedded, a server or behind Sentinel) and Qdrant."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, SecretStr, field_validator


class StorageSettings(BaseModel):
    data_dir: Path = Path("./data")
    redis_url: str | None = None  # redis://, rediss:// (TLS) or unix://; unset with no Sentinel: embedded valkey
    # Several replicas behind Sentinel: host:port,host:port and the monitored service (then no SOUVENIR_REDIS_URL).
    redis_sentinels: str | None = None
    redis_sentinel_service: str = "mymaster"
    redis_password: SecretStr | None = None  # the master's password with Sentinel (a URL carries its own)
    qdrant_url: str | None = None
    qdrant_api_key: SecretStr | None = None
    # A distributed Qdrant cluster (docs/deployment.md): set when the collection is first created.
    qdrant_shards: int = Field(default=1, ge=1, le=1000)
    qdrant_replication: int = Field(default=1, ge=1, le=100)
    qdrant_write_consistency: int = Field(default=1, ge=1, le=100)

    @field_validator("redis_url")
    @classmethod
    def _redis_url(cls, value: str | None) -> str | None:
        if value is not None and urlsplit(value.strip()).scheme not in ("redis", "rediss", "unix"):
            raise ValueError("a redis://, rediss:// (TLS) or unix:// URL such as redis://localhost:6379/0")
        return value.strip() if value is not None else None

    @field_validator("redis_sentinels")
    @classmethod
    def _sentinels(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"[^\s,:]+:\d{1,5}(,[^\s,:]+:\d{1,5})*", value.replace(" ", "")):
            raise ValueError("host:port pairs separated by commas, such as sentinel-1:26379,sentinel-2:26379")
        return value.replace(" ", "") if value is not None else None

    @property
    def redis_embedded(self) -> bool:
        """No Redis server configured: this process starts its own valkey."""
        return self.redis_url is None and self.redis_sentinels is None

    @property
    def redis_sentinel_addresses(self) -> list[tuple[str, int]]:
        pairs = [item.rpartition(":") for item in (self.redis_sentinels or "").split(",") if item]
        return [(host, int(port)) for host, _, port in pairs]
