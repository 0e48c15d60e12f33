"""A cheap look at start-up: does anything answer at the configured LLM base URL?

Without it, a newcomer with no Ollama running gets the fallback reply and a log line saying "connection
failed", with no idea what to start. The probe runs in the background (it never holds up a reply) and
says once, at start, what is wrong and how to fix it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

import aiohttp

from bot.config import OLLAMA_URL
from bot.llm.endpoint import ChatEndpoint

log = logging.getLogger("bot.llm")

PROBE_TIMEOUT_S = 5.0


async def probe_base_url(base_url: str, provider: str, model: str, *, timeout_s: float = PROBE_TIMEOUT_S) -> str | None:
    """None when an OpenAI-style API answers at `base_url` (any status but 404, even 401: the key is the
    call's business); else one line for the operator saying what to do."""
    # Anthropic's base URL is the host (the SDK adds /v1/…); OpenAI-style ones include their /v1.
    url = base_url.rstrip("/") + ("/v1/models" if provider == "anthropic" else "/models")
    try:
        async with (
            aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout_s)) as session,
            session.get(url, allow_redirects=False) as response,
        ):
            status = response.status
    except (aiohttp.ClientError, OSError, TimeoutError) as exc:
        return _nothing_answers(base_url, provider, model, _reason(exc))
    if status == 404 and provider != "anthropic":
        return (
            f"Something answers at {base_url}, but not as an OpenAI-compatible API (GET {url} gave HTTP 404). "
            f"Check SOUVENIR_LLM_BASE_URL: such URLs usually end in /v1 (Ollama's is {OLLAMA_URL})."
        )
    return None


def _nothing_answers(base_url: str, provider: str, model: str, reason: str) -> str:
    how = (
        f"To use Ollama, start it with `ollama serve` and fetch the model with `ollama pull {model}`. "
        "Or choose another provider: SOUVENIR_LLM_PROVIDER=openai or anthropic with SOUVENIR_LLM_API_KEY, "
        "or SOUVENIR_LLM_BASE_URL for another OpenAI-compatible server."
        if provider == "openai-compatible"
        else "Check SOUVENIR_LLM_BASE_URL, or unset it to use the provider's own endpoint."
    )
    return f"Nothing answers at {base_url} ({reason}), so every reply will be the fallback until a model does. {how}"


def _reason(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    if isinstance(exc, aiohttp.ClientConnectorError):
        return "connection refused" if isinstance(exc.os_error, ConnectionRefusedError) else "cannot connect"
    return type(exc).__name__


@asynccontextmanager
async def probe_in_background(endpoint: ChatEndpoint) -> AsyncIterator[None]:
    """Probe the endpoint's base URL while the caller runs; a warning once if nothing answers. Nothing is
    probed for a provider's own endpoint (no SOUVENIR_LLM_BASE_URL): that is theirs to keep up."""
    base_url = endpoint.base_url
    if base_url is None:
        yield
        return

    async def probe() -> None:
        hint = await probe_base_url(base_url, endpoint.provider, endpoint.model)
        if hint:
            log.warning("%s", hint)

    task = asyncio.create_task(probe(), name="llm-probe")
    try:
        yield
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
