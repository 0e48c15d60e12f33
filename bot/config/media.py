"""Voice notes and pictures: OpenAI-compatible endpoints, models and limits."""

from __future__ import annotations

from pydantic import BaseModel, Field, SecretStr, field_validator

from bot.config.checks import http_url


class MediaSettings(BaseModel):
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

    @field_validator("voice_base_url", "images_base_url")
    @classmethod
    def _media_urls(cls, value: str | None) -> str | None:
        return http_url(value)
