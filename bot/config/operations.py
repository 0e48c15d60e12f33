"""Running settings: stopping, logs, /healthz and /metrics, the memory browser's address, and nothing lost (the
outbox of memory writes, the inbox of messages being answered, the rate limit)."""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, field_validator

from bot.config.checks import is_loopback_host


class OperationsSettings(BaseModel):
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
