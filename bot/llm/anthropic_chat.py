"""`LanguageModel` over Anthropic's Messages API. The only module that imports `anthropic`.

Timeouts and retries are the SDK's own, as for OpenAI: each attempt gets `llm_timeout_s`, and
408/409/429/5xx (529 overloaded included), timeouts and connection errors are retried
`llm_max_retries` times with backoff, honouring `retry-after` / `retry-after-ms`.
The installed SDK (API version 2026-10-21) has no `temperature` parameter, so the request's is unused.
"""

from __future__ import annotations

from typing import Any

import anthropic
from anthropic.types import MessageParam

from bot.engine.ports import CompletionRequest
from bot.errors import ConfigError
from bot.llm.conversation import alternating_messages, clean_reply, system_prompt
from bot.llm.endpoint import ChatEndpoint
from bot.llm.failure import sdk_reason, unavailable

PROVIDER = "anthropic"


class AnthropicChatModel:
    def __init__(self, client: anthropic.AsyncAnthropic, model: str) -> None:
        self._client = client
        self._model = model

    @classmethod
    def from_endpoint(cls, endpoint: ChatEndpoint) -> AnthropicChatModel:
        """A model at `endpoint`; builds the SDK client without touching the network."""
        if endpoint.api_key is None:  # Settings already insists; without a key the SDK reads disk/env
            raise ConfigError(
                "SOUVENIR_LLM_API_KEY: an API key is required when SOUVENIR_LLM_PROVIDER=anthropic"
            )
        client = anthropic.AsyncAnthropic(
            api_key=endpoint.api_key.get_secret_value(),
            base_url=endpoint.base_url,
            timeout=endpoint.timeout_s,
            max_retries=endpoint.max_retries,
        )
        return cls(client, endpoint.model)

    async def aclose(self) -> None:
        await self._client.close()

    async def complete(self, request: CompletionRequest) -> str:
        options: dict[str, Any] = {}
        system = system_prompt(request)
        if system:
            options["system"] = system
        try:
            message = await self._client.messages.create(
                model=self._model,
                max_tokens=request.max_tokens,
                messages=_messages(request),
                **options,
            )
        except Exception as exc:  # SDK errors, and bare ValueErrors when a body is not JSON
            raise unavailable(PROVIDER, self._model, sdk_reason(exc, anthropic)) from exc
        text = _reply_text(message)
        if not text:
            raise unavailable(PROVIDER, self._model, "malformed reply: no text")
        return clean_reply(text, request.json_output)


def _messages(request: CompletionRequest) -> list[MessageParam]:
    messages: list[MessageParam] = []
    for message in alternating_messages(request):
        if message.role == "user":
            messages.append({"role": "user", "content": message.text})
        else:
            messages.append({"role": "assistant", "content": message.text})
    return messages


def _reply_text(message: object) -> str | None:
    # Non-strict SDK parsing lets missing fields through as None; thinking blocks carry no answer.
    blocks = getattr(message, "content", None)
    if not isinstance(blocks, list):
        return None
    texts = [block.text for block in blocks if getattr(block, "type", None) == "text"]
    text = "".join(part for part in texts if isinstance(part, str))
    return text if text.strip() else None
