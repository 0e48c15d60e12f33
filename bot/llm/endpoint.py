"""Where the language model answers (SOUVENIR_LLM_*): what the chat clients and the start-up probe are given.

The wiring builds it from the settings (`bot.app.conversation.chat_endpoint`); nothing here reads them.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import SecretStr

from bot.config import LLMProvider


@dataclass(frozen=True)
class ChatEndpoint:
    """A chat completions endpoint: the provider, its model, where it answers and how long to wait."""

    provider: LLMProvider
    model: str
    base_url: str | None = None  # None: the provider's own endpoint (nothing is probed at start)
    api_key: SecretStr | None = None
    timeout_s: float = 60.0  # per attempt
    max_retries: int = 2
