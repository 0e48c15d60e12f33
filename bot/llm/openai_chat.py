"""`LanguageModel` over the OpenAI Chat Completions API: OpenAI itself or any compatible server
(Ollama, vLLM, LM Studio, OpenRouter…). The only module that imports `openai`.

Timeouts and retries are the SDK's own: each attempt gets `llm_timeout_s`, and 408/409/429/5xx,
timeouts and connection errors are retried `llm_max_retries` times with exponential backoff, waiting
what `Retry-After` / `retry-after-ms` ask for (up to two minutes).
"""

from __future__ import annotations

import logging
from typing import Any

import openai
from openai.types.chat import ChatCompletionMessageParam

from bot.engine.ports import CompletionRequest
from bot.llm.conversation import alternating_messages, clean_reply, system_prompt
from bot.llm.endpoint import ChatEndpoint
from bot.llm.failure import sdk_reason, unavailable

log = logging.getLogger("bot.llm")

# Local servers ignore the key, but the SDK refuses to start without one.
PLACEHOLDER_API_KEY = "not-needed"


class OpenAIChatModel:
    def __init__(self, client: openai.AsyncOpenAI, model: str, provider: str = "openai") -> None:
        self._client = client
        self._model = model
        self._provider = provider
        self._json_format_accepted = True  # cleared when a server rejects `response_format`

    @classmethod
    def from_endpoint(cls, endpoint: ChatEndpoint) -> OpenAIChatModel:
        """A model at `endpoint`; builds the SDK client without touching the network."""
        api_key = endpoint.api_key.get_secret_value() if endpoint.api_key else PLACEHOLDER_API_KEY
        client = openai.AsyncOpenAI(
            api_key=api_key,
            base_url=endpoint.base_url,
            timeout=endpoint.timeout_s,
            max_retries=endpoint.max_retries,
        )
        return cls(client, endpoint.model, endpoint.provider)

    async def aclose(self) -> None:
        await self._client.close()

    async def complete(self, request: CompletionRequest) -> str:
        try:
            completion = await self._create_with_json_fallback(request)
        except Exception as exc:  # SDK errors, and bare ValueErrors when a body is not JSON
            raise unavailable(self._provider, self._model, sdk_reason(exc, openai)) from exc
        text = _reply_text(completion)
        if not text:
            raise unavailable(self._provider, self._model, "malformed reply: no text")
        return clean_reply(text, request.json_output)

    async def _create_with_json_fallback(self, request: CompletionRequest) -> Any:
        if not (request.json_output and self._json_format_accepted):
            return await self._create(request, json_format=False)
        try:
            return await self._create(request, json_format=True)
        except openai.BadRequestError:
            # Some compatible servers refuse `response_format`; the system prompt still asks for JSON.
            # Only a success without it proves the flag was the problem (a 400 has other causes).
            completion = await self._create(request, json_format=False)
            log.info("%s refused response_format=json_object; asking in the prompt only", self._provider)
            self._json_format_accepted = False
            return completion

    async def _create(self, request: CompletionRequest, json_format: bool) -> Any:
        options: dict[str, Any] = {}
        if json_format:
            options["response_format"] = {"type": "json_object"}
        # OpenAI's newer models only take `max_completion_tokens`; compatible servers know `max_tokens`.
        tokens_field = "max_completion_tokens" if self._provider == "openai" else "max_tokens"
        options[tokens_field] = request.max_tokens
        return await self._client.chat.completions.create(
            model=self._model,
            messages=_messages(request),
            temperature=min(max(request.temperature, 0.0), 2.0),
            **options,
        )


def _messages(request: CompletionRequest) -> list[ChatCompletionMessageParam]:
    messages: list[ChatCompletionMessageParam] = []
    system = system_prompt(request)
    if system:
        messages.append({"role": "system", "content": system})
    for message in alternating_messages(request):
        if message.role == "user":
            messages.append({"role": "user", "content": message.text})
        else:
            messages.append({"role": "assistant", "content": message.text})
    return messages


def _reply_text(completion: object) -> str | None:
    # Non-strict SDK parsing lets missing fields through as None: check every step.
    choices = getattr(completion, "choices", None)
    if not isinstance(choices, list) or not choices:
        return None
    content = getattr(getattr(choices[0], "message", None), "content", None)
    return content if isinstance(content, str) and content.strip() else None
