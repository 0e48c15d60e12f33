"""The companion's settings: its persona, what it remembers and for how long, and the safety it keeps."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, Field, SecretStr, field_validator

from bot.engine.safety.disclosure import DisclosurePolicy


class CompanionSettings(BaseModel):
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

    @field_validator("default_timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError("an IANA time zone name such as Europe/Paris or America/New_York") from exc
        return value

    @property
    def disclosure_policy(self) -> DisclosurePolicy:
        texts = (("en", self.disclosure_text_en), ("fr", self.disclosure_text_fr))
        return DisclosurePolicy(
            enabled=self.disclosure_enabled,
            interval=timedelta(hours=self.disclosure_interval_hours),
            texts=tuple((language, text) for language, text in texts if text),
        )
