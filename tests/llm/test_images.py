"""The images client over the real openai SDK against the loopback fake's /images routes."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import pytest

from bot.errors import PictureRefused, PictureUnavailable
from bot.llm.images import ImagesEndpoint, OpenAIImages
from tests.fakes.fake_images import tiny_png
from tests.fakes.fake_openai import FakeOpenAI

AVATAR = tiny_png((10, 20, 30), size=8)


@pytest.fixture
async def server() -> AsyncIterator[FakeOpenAI]:
    async with FakeOpenAI() as fake:
        yield fake


def _images(server: FakeOpenAI, model: str = "gpt-image-1") -> OpenAIImages:
    return OpenAIImages.from_endpoint(ImagesEndpoint(server.base_url, None, model, max_retries=0))


async def test_with_a_reference_the_avatar_is_uploaded_to_edits(server: FakeOpenAI) -> None:
    images = _images(server)
    image = await images.generate("Mia at the beach", AVATAR)
    await images.aclose()
    assert image == server.images.image
    (request,) = server.images.requests
    assert (request.route, request.prompt, request.reference) == ("edits", "Mia at the beach", AVATAR)
    assert request.model == "gpt-image-1" and request.response_format is None


async def test_without_edits_it_falls_back_to_generations_once_and_for_all(
    server: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    server.images.edits_supported = False
    images = _images(server)
    with caplog.at_level(logging.WARNING, logger="bot.llm.images"):
        first = await images.generate("one", AVATAR)
        second = await images.generate("two", AVATAR)
    await images.aclose()
    assert first == second == server.images.image
    assert [r.route for r in server.images.requests] == ["edits", "generations", "generations"]
    assert sum("no /images/edits" in r.message for r in caplog.records) == 1


async def test_a_model_that_answers_urls_is_asked_for_base64_and_a_url_still_works(server: FakeOpenAI) -> None:
    images = _images(server, model="sdxl")
    image = await images.generate("plain", None)
    await images.aclose()
    assert image == server.images.image
    assert server.images.requests[0].response_format == "b64_json"


async def test_a_url_answer_is_fetched(server: FakeOpenAI) -> None:
    server.images.answer_urls = True
    images = _images(server, model="sdxl")
    image = await images.generate("plain", None)
    await images.aclose()
    assert image == server.images.image


async def test_a_refusal_and_a_failure_are_told_apart(server: FakeOpenAI, caplog: pytest.LogCaptureFixture) -> None:
    images = _images(server)
    server.images.refuse = True
    with pytest.raises(PictureRefused):
        await images.generate("something not allowed", None)
    server.images.refuse = False
    server.images.fail_with = 500
    with caplog.at_level(logging.WARNING, logger="bot.llm.images"), pytest.raises(PictureUnavailable) as failed:
        await images.generate("x", None)
    await images.aclose()
    assert not isinstance(failed.value, PictureRefused)
    assert any("picture failed" in r.message and "HTTP 500" in r.message for r in caplog.records)
