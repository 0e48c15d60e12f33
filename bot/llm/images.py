"""`ImageGenerator` over an OpenAI-compatible images API: OpenAI itself, or a local Stable Diffusion / ComfyUI
server with the same `/images/generations` and `/images/edits` routes.

With a reference (the persona's avatar) the picture is an edit of it, so the face stays the same; an endpoint
without `/images/edits` (404, 405 or 501) is asked for plain generations from then on, and the operator is told
once. The result comes back as base64, or as a URL that is fetched here.
"""

from __future__ import annotations

import base64
import binascii
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp
import openai
from pydantic import SecretStr

from bot.avatar import image_format
from bot.errors import PictureRefused, PictureUnavailable
from bot.llm.failure import status_reason

log = logging.getLogger("bot.llm.images")

_NO_EDITS = (404, 405, 501)
_REFUSAL_CODES = ("content_policy_violation", "moderation_blocked", "safety")
_MAX_IMAGE_BYTES = 20 * 1024 * 1024
_PLACEHOLDER_API_KEY = "not-needed"


@dataclass(frozen=True)
class ImagesEndpoint:
    """An OpenAI-compatible /images/generations and /images/edits endpoint (SOUVENIR_IMAGES_*) and its model."""

    base_url: str | None  # None: OpenAI's own
    api_key: SecretStr | None
    model: str = "gpt-image-1"
    timeout_s: float = 120.0
    max_retries: int = 2


class OpenAIImages:
    def __init__(self, client: openai.AsyncOpenAI, model: str, *, timeout_s: float = 120.0) -> None:
        self._client = client
        self._model = model
        self._timeout_s = timeout_s
        self._edits_supported = True  # cleared when the endpoint has no /images/edits

    @classmethod
    def from_endpoint(cls, endpoint: ImagesEndpoint) -> OpenAIImages:
        """Builds the SDK client without touching the network."""
        key = endpoint.api_key
        client = openai.AsyncOpenAI(
            api_key=key.get_secret_value() if key else _PLACEHOLDER_API_KEY,
            base_url=endpoint.base_url,
            timeout=endpoint.timeout_s,
            max_retries=endpoint.max_retries,
        )
        return cls(client, endpoint.model)

    async def aclose(self) -> None:
        await self._client.close()

    async def generate(self, prompt: str, reference: bytes | None) -> bytes:
        try:
            if reference is not None and self._edits_supported:
                try:
                    response = await self._client.images.edit(
                        model=self._model, image=_upload(reference), prompt=prompt, n=1, **self._format()
                    )
                except openai.APIStatusError as exc:
                    if exc.status_code not in _NO_EDITS:
                        raise
                    self._edits_supported = False
                    log.warning("the image endpoint has no /images/edits (HTTP %d): pictures are made without "
                                "the avatar as reference from now on", exc.status_code)  # fmt: skip
                    response = await self._client.images.generate(model=self._model, prompt=prompt, n=1,
                                                                  **self._format())  # fmt: skip
            else:
                response = await self._client.images.generate(model=self._model, prompt=prompt, n=1, **self._format())
            return await self._image_of(response)
        except PictureUnavailable:
            raise
        except openai.APIStatusError as exc:
            if _refused(exc):
                log.warning("the image endpoint refused a prompt: %s", status_reason(exc.status_code, exc.body))
                raise PictureRefused(f"image model {self._model}: refused") from exc
            raise _unavailable(self._model, status_reason(exc.status_code, exc.body)) from exc
        except openai.APITimeoutError as exc:
            raise _unavailable(self._model, "timed out") from exc
        except openai.APIConnectionError as exc:
            raise _unavailable(self._model, "connection failed") from exc
        except Exception as exc:  # malformed replies, bad base64
            raise _unavailable(self._model, f"unexpected {type(exc).__name__}") from exc

    def _format(self) -> dict[str, Any]:
        # gpt-image models always answer in base64 and refuse the parameter; others default to a URL.
        return {} if self._model.startswith("gpt-image") else {"response_format": "b64_json"}

    async def _image_of(self, response: Any) -> bytes:
        data = getattr(response, "data", None) or []
        first = data[0] if data else None
        b64 = getattr(first, "b64_json", None)
        url = getattr(first, "url", None)
        if isinstance(b64, str) and b64:
            try:
                image = base64.b64decode(b64, validate=True)
            except (binascii.Error, ValueError):
                raise _unavailable(self._model, "malformed reply: the image is not valid base64") from None
        elif isinstance(url, str) and url:
            image = await self._fetch(url)
        else:
            raise _unavailable(self._model, "malformed reply: no image")
        if image_format(image) not in ("png", "jpeg"):
            raise _unavailable(self._model, "malformed reply: not a PNG or JPEG image")
        return image

    async def _fetch(self, url: str) -> bytes:
        timeout = aiohttp.ClientTimeout(total=self._timeout_s)
        try:
            async with aiohttp.ClientSession(timeout=timeout) as session, session.get(url) as response:
                if response.status != 200:
                    raise _unavailable(self._model, f"the image URL answered HTTP {response.status}")
                image = await response.content.read(_MAX_IMAGE_BYTES + 1)
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise _unavailable(self._model, f"could not fetch the image URL ({type(exc).__name__})") from exc
        if len(image) > _MAX_IMAGE_BYTES:
            raise _unavailable(self._model, "the image is too large")
        return image


def _upload(reference: bytes) -> tuple[str, bytes, str]:
    if image_format(reference) == "jpeg":
        return ("avatar.jpg", reference, "image/jpeg")
    return ("avatar.png", reference, "image/png")


def _refused(exc: openai.APIStatusError) -> bool:
    if exc.status_code != 400:
        return False
    body = exc.body if isinstance(exc.body, dict) else {}
    error = body.get("error", body)
    code = str(error.get("code") or "") if isinstance(error, dict) else ""
    return any(marker in code for marker in _REFUSAL_CODES)


def _unavailable(model: str, reason: str) -> PictureUnavailable:
    """One warning line for the operator; the error to raise."""
    log.warning("picture failed: model=%s reason=%s", model, reason, extra={"cause": ("images", reason)})
    return PictureUnavailable(f"image model {model}: {reason}")


@asynccontextmanager
async def open_image_generator(endpoint: ImagesEndpoint | None) -> AsyncIterator[OpenAIImages | None]:
    """The image client, or None when pictures are off (no endpoint); its HTTP client is closed on exit."""
    if endpoint is None:
        yield None
        return
    images = OpenAIImages.from_endpoint(endpoint)
    log.info("pictures: model %s at %s", endpoint.model, endpoint.base_url or "OpenAI")
    try:
        yield images
    finally:
        await images.aclose()
