"""Settings: one pydantic-settings class, env prefix SOUVENIR_, `.env` supported.

Every variable is documented in `.env.example`. `load_settings()` turns validation errors into one
`ConfigError` line that names the variable and what it expects. The fields are in groups by concern, one
module each: `storage`, `llm` (and embeddings), `companion` (persona, memory, safety), `platforms`,
`unprompted`, `operations` (stopping, logs, HTTP, the outbox and inbox), `encryption` (encryption at rest),
`media` (voice notes and pictures); `settings` brings them together with the checks that span groups.

It imports pydantic and pydantic-settings, `bot.errors`, and from the engine only the disclosure policy's values
(`bot.engine.safety.disclosure`); never the wiring. The parts it configures take small option objects built from
it in `bot/app/`, not the settings themselves.
"""

from bot.config.checks import is_encryption_key, is_loopback_host
from bot.config.llm import OLLAMA_URL, OPENAI_URL, LLMProvider
from bot.config.loading import load_settings
from bot.config.settings import Settings

__all__ = [
    "OLLAMA_URL",
    "OPENAI_URL",
    "LLMProvider",
    "Settings",
    "is_encryption_key",
    "is_loopback_host",
    "load_settings",
]
