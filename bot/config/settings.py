"""`Settings`: every group of settings in one pydantic-settings class, env prefix SOUVENIR_, `.env` supported;
the checks and the values that span groups."""

from __future__ import annotations

from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.config.companion import CompanionSettings
from bot.config.encryption import EncryptionSettings
from bot.config.llm import OLLAMA_URL, OPENAI_URL, LLMSettings
from bot.config.media import MediaSettings
from bot.config.operations import OperationsSettings
from bot.config.platforms import PlatformSettings
from bot.config.storage import StorageSettings
from bot.config.unprompted import UnpromptedSettings


# The groups from last to first: pydantic lists the fields of the last base first, and the configuration reference
# (docs/configuration.md) keeps the order storage, language model, companion, platforms, unprompted messages,
# operations, encryption, voice and pictures.
class Settings(
    MediaSettings, EncryptionSettings, OperationsSettings, UnpromptedSettings, PlatformSettings, CompanionSettings,
    LLMSettings, StorageSettings, BaseSettings,
):  # fmt: skip
    model_config = SettingsConfigDict(
        env_prefix="SOUVENIR_", env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )

    @model_validator(mode="after")
    def _provider_needs(self) -> Settings:
        if self.redis_url is not None and self.redis_sentinels is not None:
            raise ValueError("SOUVENIR_REDIS_SENTINELS: set it or SOUVENIR_REDIS_URL, not both")
        if self.discord_shard_ids is not None:
            ids = self.discord_shard_id_list or []
            if self.discord_shards is None or max(ids) >= self.discord_shards or len(set(ids)) != len(ids):
                raise ValueError(
                    "SOUVENIR_DISCORD_SHARD_IDS: distinct shard numbers below SOUVENIR_DISCORD_SHARDS (which must "
                    "be set too), e.g. SOUVENIR_DISCORD_SHARDS=2 and SOUVENIR_DISCORD_SHARD_IDS=1"
                )
        if self.voice_enabled and self.voice_base_url is None and self.llm_provider == "anthropic":
            raise ValueError(
                "SOUVENIR_VOICE_BASE_URL: an OpenAI-compatible audio endpoint is required for voice notes when "
                "SOUVENIR_LLM_PROVIDER=anthropic"
            )
        if self.resolved_key_store == "file" and self.resolved_key_dir.is_relative_to(self.data_dir.absolute()):
            raise ValueError(
                "SOUVENIR_KEY_DIR: must be outside SOUVENIR_DATA_DIR (a backup of the data dir would hold the keys "
                "that erasure destroys)"
            )
        if self.key_store_url is not None and self.resolved_key_store != "redis":
            raise ValueError("SOUVENIR_KEY_STORE_URL: only with SOUVENIR_KEY_STORE=redis (or auto with a Redis server)")
        if self.qdrant_write_consistency > self.qdrant_replication:
            raise ValueError(
                "SOUVENIR_QDRANT_WRITE_CONSISTENCY: at most SOUVENIR_QDRANT_REPLICATION (a write cannot be "
                "confirmed by more copies than there are)"
            )
        if self.public_url is not None and self.http_port is None:
            raise ValueError(
                "SOUVENIR_PUBLIC_URL: the memory browser is served on SOUVENIR_HTTP_PORT, which must be set too"
            )
        if self.llm_provider == "openai-compatible" and self.llm_base_url is None:
            self.llm_base_url = OLLAMA_URL
        if self.llm_provider in ("openai", "anthropic") and self.llm_api_key is None:
            raise ValueError(
                f"SOUVENIR_LLM_API_KEY: an API key is required when SOUVENIR_LLM_PROVIDER={self.llm_provider}"
            )
        return self

    @model_validator(mode="after")
    def _images_endpoint(self) -> Settings:
        if self.images_enabled and self.images_base_url is None and self.llm_provider != "openai":
            raise ValueError(
                "SOUVENIR_IMAGES_BASE_URL: required when SOUVENIR_IMAGES_ENABLED=true and SOUVENIR_LLM_PROVIDER "
                "is not openai (an endpoint serving /images/generations, e.g. http://localhost:7860/v1)"
            )
        return self

    @property
    def resolved_images_base_url(self) -> str | None:
        """Where pictures are made; None means OpenAI's own API (the SDK's default)."""
        if self.images_base_url is not None:
            return self.images_base_url
        return self.llm_base_url if self.llm_provider == "openai" else None

    @property
    def resolved_images_api_key(self) -> SecretStr | None:
        if self.images_api_key is not None:
            return self.images_api_key
        return self.llm_api_key if self.llm_provider == "openai" and self.images_base_url is None else None

    @property
    def resolved_key_store(self) -> Literal["file", "redis"]:
        """Where the data keys are kept: with `auto`, a file store beside an embedded Redis, else the Redis."""
        if self.key_store != "auto":
            return self.key_store
        return "file" if self.redis_embedded else "redis"

    @property
    def resolved_key_dir(self) -> Path:
        """SOUVENIR_KEY_DIR, else `<data dir>-keys` beside the data dir (absolute)."""
        if self.key_dir is not None:
            return self.key_dir.absolute()
        data = self.data_dir.absolute()
        return data.with_name(f"{data.name}-keys")

    @property
    def voice_endpoint(self) -> str | None:
        """Where voice notes are transcribed and spoken; None when voice is off or no endpoint is known."""
        if self.voice_enabled is False:
            return None
        if self.voice_base_url is not None:
            return self.voice_base_url
        if self.llm_provider in ("openai", "openai-compatible"):
            return self.llm_base_url or OPENAI_URL
        return None

    @property
    def voice_key(self) -> SecretStr | None:
        if self.voice_api_key is not None:
            return self.voice_api_key
        return self.llm_api_key if self.voice_base_url is None else None

    def secret_values(self) -> list[str]:
        """Every configured secret in clear (tokens, keys, passwords, a URL's password): kept out of the logs."""
        found = [v.get_secret_value() for v in self.__dict__.values() if isinstance(v, SecretStr)]
        for value in self.__dict__.values():
            if isinstance(value, str) and "://" in value:
                try:
                    password = urlsplit(value).password
                except ValueError:
                    continue
                if password:
                    found.append(password)
        return [v for v in found if v]
