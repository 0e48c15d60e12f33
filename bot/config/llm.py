"""Language model and embedding settings."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, SecretStr, field_validator

from bot.config.checks import http_url

LLMProvider = Literal["openai", "anthropic", "openai-compatible"]

_DEFAULT_MODELS: dict[str, str] = {
    "openai": "gpt-4o-mini",
    "anthropic": "claude-haiku-4-5",
    "openai-compatible": "llama3.2",
}
OLLAMA_URL = "http://localhost:11434/v1"
OPENAI_URL = "https://api.openai.com/v1"


class LLMSettings(BaseModel):
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

    @field_validator("llm_base_url", "embedding_base_url")
    @classmethod
    def _llm_urls(cls, value: str | None) -> str | None:
        return http_url(value)

    @property
    def resolved_llm_model(self) -> str:
        return self.llm_model or _DEFAULT_MODELS[self.llm_provider]
