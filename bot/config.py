"""Settings: one pydantic-settings class, env prefix SOUVENIR_, `.env` supported.

Every variable is documented in `.env.example`. `load_settings()` turns validation errors into one
`ConfigError` line that names the variable and what it expects.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
from datetime import time, timedelta
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.engine.safety.disclosure import DisclosurePolicy
from bot.errors import ConfigError

LLMProvider = Literal["openai", "anthropic", "openai-compatible"]

_DEFAULT_MODELS: dict[str, str] = {
    "openai": "gpt-4o-mini",
    "anthropic": "claude-haiku-4-5",
    "openai-compatible": "llama3.2",
}
OLLAMA_URL = "http://localhost:11434/v1"
OPENAI_URL = "https://api.openai.com/v1"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="SOUVENIR_", env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )

    # Storage
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

    # Language model
    llm_provider: LLMProvider = "openai-compatible"
    llm_model: str | None = None
    llm_api_key: SecretStr | None = None
    llm_base_url: str | None = None
    llm_timeout_s: float = Field(default=60.0, gt=0)
    llm_max_retries: int = Field(default=2, ge=0, le=10)
    # The model's context window in tokens: each reply's prompt is trimmed to fit (history, then memories).
    llm_context_tokens: int = Field(default=8192, ge=1024, le=2_000_000)
    llm_extraction: bool = True  # also use the LLM to extract memories (offline extraction always runs)

    # Embeddings
    embedding_provider: Literal["use", "openai-compatible"] = "use"
    embedding_model: str | None = None
    embedding_base_url: str | None = None

    # Companion
    persona_file: Path | None = None
    persona_avatar: Path | None = None  # the bot's profile picture; else a PNG card's own image
    default_timezone: str = "UTC"
    default_language: Literal["en", "fr"] = "en"
    window_turns: int = Field(default=20, ge=2, le=200)
    window_ttl_hours: float = Field(default=72.0, gt=0)
    thread_pause_hours: float = Field(default=3.0, gt=0)  # after this long, where the last talk left off is offered
    # What each reply recalls from long-term memory; `souvenir eval locomo` scores the same figures.
    recall_limit: int = Field(default=10, ge=1, le=50)
    recall_max_words: int = Field(default=300, ge=20, le=3000)
    # Messages older than this many days fade into one digest per conversation and day (facts stay); 0 = never.
    episode_fade_days: int = Field(default=180, ge=0)
    episode_retention_days: int | None = Field(default=None, ge=1)  # None: episodes are kept (memory.writing.retention)
    # Stores keyed by an HMAC of the platform id (memory.privacy.pseudonyms); the secret is generated when unset.
    pseudonymous_keys: bool = False
    pseudonym_secret: SecretStr | None = None
    disclosure_enabled: bool = True
    disclosure_interval_hours: float = Field(default=3.0, gt=0, le=3)  # NY GBL §1702: at least every 3 hours
    disclosure_text_en: str | None = None
    disclosure_text_fr: str | None = None
    max_message_chars: int = Field(default=4000, ge=200, le=100_000)  # longer messages are cut, with a note
    # Safety: explicit content only in private chats with a confirmed adult ("private"), or never;
    # crisis lines by country, from a JSON file over the built-in ones (bot.crisis_lines_file).
    adult_content: Literal["off", "private"] = "off"
    crisis_lines_file: Path | None = None

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

    # Unprompted messages
    birthday_time: time = time(9, 0)
    birthday_days_before_others: int = Field(default=0, ge=0, le=7)
    checkin_after_days: int = Field(default=3, ge=1)
    quiet_hours: str = "22:00-08:00"
    proactive_daily_cap: int = Field(default=2, ge=1)
    # How long a sweep's hold on a due message lasts without renewal: a killed replica's are taken over after it.
    proactive_lease_s: int = Field(default=30, ge=5, le=3600)

    # Stopping: how long in-flight replies and memory writes get to finish before they are dropped.
    shutdown_grace_s: float = Field(default=10.0, ge=0, le=300)

    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    # Operations: /healthz and /metrics on this port (unset: off), and the log line format.
    http_port: int | None = Field(default=None, ge=0, le=65535)
    http_host: str = "0.0.0.0"
    log_format: Literal["text", "json"] = "text"
    # The memory browser: the HTTPS address a reverse proxy or tunnel forwards to SOUVENIR_HTTP_PORT (unset: off).
    public_url: str | None = None

    # Nothing lost: the outbox of memory writes, and how many messages a person may send a minute.
    rate_limit_per_minute: int = Field(default=20, ge=0)  # 0: no limit
    outbox_claim_idle_s: float = Field(default=120.0, gt=0)  # a replica silent this long on an entry is gone
    outbox_max_attempts: int = Field(default=5, ge=1)  # failed rounds before an entry goes to the dead letters
    # The inbox: a message being answered is held under this lease (renewed while it is answered); a process
    # killed mid-reply lets it run out, and the message is answered late, or only remembered past this age.
    inbox_lease_s: float = Field(default=30.0, gt=0)
    late_reply_within_minutes: float = Field(default=60.0, ge=0)
    # Encryption at rest: the master key that wraps each person's data key; unset = texts kept clear.
    encryption_key: SecretStr | None = None
    # Where each person's wrapped data key is kept, apart from the data it opens (erasure reaches backups):
    # "file" (SOUVENIR_KEY_DIR, one box), "redis" (SOUVENIR_KEY_STORE_URL, default the main Redis: replicas),
    # "auto": file with the embedded Redis, else redis.
    key_store: Literal["auto", "file", "redis"] = "auto"
    key_dir: Path | None = None  # unset: <data dir>-keys, beside the data dir (never inside it)
    key_store_url: str | None = None  # a Redis apart from the data's for the keys; unset: the main Redis
    # Voice notes: an OpenAI-compatible /audio/transcriptions and /audio/speech endpoint.
    voice_base_url: str | None = None  # unset: the LLM's base URL when the provider speaks OpenAI's API
    voice_api_key: SecretStr | None = None  # unset: the LLM's key when the base URL is the LLM's
    voice_stt_model: str = "whisper-1"
    voice_tts_model: str = "tts-1"
    voice_tts_voice: str = "alloy"  # a persona file's `voice` wins
    voice_enabled: bool | None = None  # unset: on when a base URL is known
    voice_max_seconds: int = Field(default=300, ge=1, le=3600)
    voice_max_chars: int = Field(default=600, ge=1, le=4096)  # longer replies are sent as text
    voice_keep_audio: bool = False  # keep received voice notes' audio in SOUVENIR_DATA_DIR/voice-notes
    # Pictures: an OpenAI-compatible /images/generations and /images/edits endpoint.
    images_enabled: bool = False
    images_base_url: str | None = None  # unset: the LLM base URL when SOUVENIR_LLM_PROVIDER=openai
    images_api_key: SecretStr | None = None  # unset: the LLM key when SOUVENIR_LLM_PROVIDER=openai
    images_model: str = "gpt-image-1"
    images_daily_limit: int = Field(default=5, ge=0, le=1000)  # pictures per person and local day

    @field_validator("default_timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError("an IANA time zone name such as Europe/Paris or America/New_York") from exc
        return value

    @field_validator("llm_base_url", "embedding_base_url", "voice_base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip()
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018 - raises on a port that is not a number
        except ValueError:
            parts = None
        if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("an http:// or https:// URL such as http://localhost:11434/v1")
        return value

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip().rstrip("/")
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018 - raises on a port that is not a number
        except ValueError:
            parts = None
        if parts is None or not parts.hostname or parts.query or parts.fragment or parts.username:
            raise ValueError("an https:// address such as https://souvenir.example.org")
        if parts.scheme == "https" or (parts.scheme == "http" and is_loopback_host(parts.hostname)):
            return value
        raise ValueError(
            "an https:// address such as https://souvenir.example.org (plain http:// only for a loopback address "
            "such as http://127.0.0.1:8080)"
        )

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

    @field_validator("discord_shard_ids")
    @classmethod
    def _shard_ids(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"\d+(,\d+)*", value.replace(" ", "")):
            raise ValueError("shard numbers separated by commas, such as 0,1")
        return value.replace(" ", "") if value is not None else None

    @field_validator("quiet_hours")
    @classmethod
    def _quiet_hours(cls, value: str) -> str:
        if not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d", value.strip()):
            raise ValueError("a local time range HH:MM-HH:MM such as 22:00-08:00")
        return value.strip()

    @field_validator("encryption_key")
    @classmethod
    def _fernet_key(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value().strip():
            return None
        key = value.get_secret_value().strip()
        if not is_encryption_key(key):
            raise ValueError("32 random bytes in URL-safe base64, as `souvenir keygen` prints")
        return SecretStr(key)

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

    @field_validator("images_base_url")
    @classmethod
    def _images_url(cls, value: str | None) -> str | None:
        return cls._http_url(value)

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
    def redis_embedded(self) -> bool:
        """No Redis server configured: this process starts its own valkey."""
        return self.redis_url is None and self.redis_sentinels is None

    @property
    def redis_sentinel_addresses(self) -> list[tuple[str, int]]:
        pairs = [item.rpartition(":") for item in (self.redis_sentinels or "").split(",") if item]
        return [(host, int(port)) for host, _, port in pairs]

    @property
    def discord_shard_id_list(self) -> list[int] | None:
        """The shards this process connects; None: all of them."""
        if self.discord_shard_ids is None:
            return None
        return [int(part) for part in self.discord_shard_ids.split(",")]

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

    @property
    def resolved_llm_model(self) -> str:
        return self.llm_model or _DEFAULT_MODELS[self.llm_provider]

    @property
    def disclosure_policy(self) -> DisclosurePolicy:
        texts = (("en", self.disclosure_text_en), ("fr", self.disclosure_text_fr))
        return DisclosurePolicy(
            enabled=self.disclosure_enabled,
            interval=timedelta(hours=self.disclosure_interval_hours),
            texts=tuple((language, text) for language, text in texts if text),
        )

    @property
    def quiet_hours_range(self) -> tuple[time, time]:
        start, end = self.quiet_hours.split("-")
        return time.fromisoformat(start), time.fromisoformat(end)

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


# What a person should write, for pydantic's error types (its own messages read "Input should be a valid
# integer, unable to parse string as an integer").
_EXPECTED: dict[str, str] = {
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_parsing": "a number",
    "bool_parsing": "true or false, on or off, yes or no",
    "time_parsing": "a time of day such as 09:00",
    "path_type": "a folder path",
}
_BOUNDS = {"greater_than_equal": ("ge", "of at least"), "less_than_equal": ("le", "of at most"),
           "greater_than": ("gt", "above"), "less_than": ("lt", "below")}  # fmt: skip


def _expected(first: Any) -> str:
    kind = str(first.get("type", ""))
    context = first.get("ctx") or {}
    if kind == "value_error" and "error" in context:
        return str(context["error"])  # our validators say what they expect
    if kind in _EXPECTED:
        return _EXPECTED[kind]
    if kind == "literal_error" and "expected" in context:
        return str(context["expected"])
    if kind in _BOUNDS and _BOUNDS[kind][0] in context:
        bound, words = _BOUNDS[kind]
        return f"a number {words} {context[bound]:g}"
    message = str(first.get("msg", "a valid value"))
    return message.removeprefix("Value error, ").removeprefix("Input should be ")


_SECRET_FIELDS = {"encryption_key"}


def is_loopback_host(host: str) -> bool:
    """localhost or a loopback IP address (127.0.0.0/8, ::1): only this machine can reach it."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_encryption_key(text: str) -> bool:
    """The SOUVENIR_ENCRYPTION_KEY format: 32 bytes in URL-safe base64 (what Fernet.generate_key() prints)."""
    if not re.fullmatch(r"[A-Za-z0-9_-]{43}=", text.strip()):
        return False
    try:
        return len(base64.urlsafe_b64decode(text.strip().encode())) == 32
    except (binascii.Error, ValueError):
        return False


def _describe(error: ValidationError) -> str:
    """One line naming the variable, what it expects and what it got."""
    first = error.errors()[0]
    loc = first.get("loc") or ()
    if not loc:
        # Model-level checks already start with the variable name.
        return str(first.get("msg", "invalid settings")).removeprefix("Value error, ")
    value = first.get("input")
    secret = str(loc[0]) in _SECRET_FIELDS  # never echoed back, even when invalid
    shown = "" if isinstance(value, dict) or value is None or secret else f" (got {value!r})"
    return f"SOUVENIR_{str(loc[0]).upper()}: expected {_expected(first)}{shown}"


def load_settings(**overrides: object) -> Settings:
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        raise ConfigError(_describe(exc)) from None
