"""The two backends of the `LanguageModel` port as tests drive them: a loopback fake server, the
settings pointing at it, and where a recorded request body keeps the system prompt and the messages."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.app.conversation import chat_endpoint
from bot.config import Settings, load_settings
from bot.engine.model import ChatTurn, Role
from bot.engine.ports import CompletionRequest
from bot.llm.factory import open_language_model
from tests.fakes.fake_anthropic import FakeAnthropic
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.llm_script import JsonObject, ScriptedLLMServer

AT = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)
ANTHROPIC_KEY = "sk-ant-test-key"


@dataclass(frozen=True, slots=True)
class Backend:
    provider: str  # SOUVENIR_LLM_PROVIDER
    model: str
    completion_path: str
    api_key: str | None  # what the settings carry, and what the fake insists on when not None
    fake: Callable[..., ScriptedLLMServer]  # takes `api_key=`
    system_of: Callable[[JsonObject], str]
    messages_of: Callable[[JsonObject], list[JsonObject]]  # the conversation, system prompt excluded

    def server(self, api_key: str | None = None) -> ScriptedLLMServer:
        """A fake (not started yet) insisting on `api_key`, else on the backend's own key."""
        return self.fake(api_key=api_key or self.api_key)

    def settings(self, server: ScriptedLLMServer, **overrides: Any) -> Settings:
        values: dict[str, Any] = {
            "llm_provider": self.provider,
            "llm_base_url": server.base_url,
            "llm_api_key": self.api_key,  # None: not whatever a developer's .env says
            "llm_model": self.model,
            "llm_timeout_s": 5.0,
            "llm_max_retries": 0,
        }
        values.update(overrides)
        return load_settings(**values)


def _openai_system(body: JsonObject) -> str:
    messages = body.get("messages") or []
    return str(messages[0]["content"]) if messages and messages[0].get("role") == "system" else ""


def _openai_conversation(body: JsonObject) -> list[JsonObject]:
    return [message for message in body.get("messages") or [] if message.get("role") != "system"]


OPENAI_COMPATIBLE = Backend(
    provider="openai-compatible",
    model="fake-model",
    completion_path="/v1/chat/completions",
    api_key=None,
    fake=FakeOpenAI,
    system_of=_openai_system,
    messages_of=_openai_conversation,
)

ANTHROPIC = Backend(
    provider="anthropic",
    model="claude-fake",
    completion_path="/v1/messages",
    api_key=ANTHROPIC_KEY,
    fake=FakeAnthropic,
    system_of=lambda body: str(body.get("system", "")),
    messages_of=lambda body: list(body.get("messages") or []),
)


def turns(*pairs: tuple[Role, str]) -> tuple[ChatTurn, ...]:
    return tuple(ChatTurn(role, text, AT) for role, text in pairs)


def ask(text: str = "Hello!", *, json_output: bool = False) -> CompletionRequest:
    return CompletionRequest(system="You are Souvenir.", turns=turns(("user", text)), json_output=json_output)


async def complete(settings: Settings, request: CompletionRequest) -> str:
    """One completion from the model the wiring would open for `settings`."""
    async with open_language_model(chat_endpoint(settings)) as model:
        return await model.complete(request)
