"""The one place the LLM provider is chosen, from the endpoint the wiring builds."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.engine.ports import LanguageModel
from bot.llm.endpoint import ChatEndpoint
from bot.llm.probe import probe_in_background


@asynccontextmanager
async def open_language_model(endpoint: ChatEndpoint) -> AsyncIterator[LanguageModel]:
    """The language model at `endpoint`; its HTTP client is closed on exit. Nothing is sent on entry but a
    background GET of the base URL's /models, which warns once if nothing answers there."""
    # Each SDK is imported only when chosen: they are slow to import and most setups use one.
    if endpoint.provider == "anthropic":
        from bot.llm.anthropic_chat import AnthropicChatModel

        anthropic_model = AnthropicChatModel.from_endpoint(endpoint)
        try:
            async with probe_in_background(endpoint):
                yield anthropic_model
        finally:
            await anthropic_model.aclose()
    else:
        from bot.llm.openai_chat import OpenAIChatModel

        openai_model = OpenAIChatModel.from_endpoint(endpoint)
        try:
            async with probe_in_background(endpoint):
                yield openai_model
        finally:
            await openai_model.aclose()
