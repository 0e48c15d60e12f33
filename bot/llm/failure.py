"""Turning a failed LLM call into `LLMUnavailable`, with one warning line for the operator."""

from __future__ import annotations

import logging
from types import ModuleType

from bot.errors import LLMUnavailable

log = logging.getLogger("bot.llm")

_MAX_DETAIL = 160


def status_reason(status: int, body: object) -> str:
    """A short reason for an HTTP error status, with the server's message when it is safe to show.

    `body` is the decoded error body (OpenAI and Anthropic both put a message in `error.message`) or
    its raw text. Authentication errors may echo part of the key back, so theirs is never repeated.
    """
    if status in (401, 403):
        return f"HTTP {status} (check SOUVENIR_LLM_API_KEY)"
    detail = " ".join(_error_message(body).split())[:_MAX_DETAIL]
    return f"HTTP {status}: {detail}" if detail else f"HTTP {status}"


def sdk_reason(exc: Exception, sdk: ModuleType) -> str:
    """Why a call through `sdk` failed. The openai and anthropic SDKs are generated from one template
    and share their error classes' names and fields, so one reading serves both."""
    if isinstance(exc, sdk.APITimeoutError):
        return "timed out"
    if isinstance(exc, sdk.APIConnectionError):
        cause = exc.__cause__
        return f"connection failed ({type(cause).__name__})" if cause else "connection failed"
    if isinstance(exc, sdk.APIStatusError):
        return status_reason(exc.status_code, exc.body)
    if isinstance(exc, UnicodeError):  # a ValueError too, but about what was sent, not what came back
        return "the request held text that is not valid Unicode"
    if isinstance(exc, (sdk.APIResponseValidationError, ValueError)):
        return "malformed reply: not the expected JSON"
    return f"unexpected {type(exc).__name__}"


def _error_message(body: object) -> str:
    if isinstance(body, str):
        return body
    if isinstance(body, dict):
        error = body.get("error", body)
        message = error.get("message") if isinstance(error, dict) else error
        return message if isinstance(message, str) else ""
    return ""


def unavailable(provider: str, model: str, reason: str) -> LLMUnavailable:
    """Log the failure once and return the error to raise."""
    # Each reason is its own cause for the CLI's log filter (one line a minute per cause).
    log.warning("LLM call failed: provider=%s model=%s reason=%s", provider, model, reason,
                extra={"cause": ("llm", provider, reason)})  # fmt: skip
    return LLMUnavailable(f"{provider} model {model}: {reason}")
