"""The optional OpenAI-compatible embedder, against a loopback /v1/embeddings server."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web

from bot.errors import ConfigError, LLMUnavailable
from memory.index_factory import EmbedderOptions, open_embedder


class FakeEmbeddingServer:
    """Answers each input with a 3-d vector of (length, vowels, 1), in shuffled order, not normalised."""

    def __init__(self) -> None:
        self.requests: list[dict[str, object]] = []
        self.fail = False
        self._runner: web.AppRunner | None = None
        self.base_url = ""

    async def _embeddings(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.requests.append(body)
        if self.fail:
            return web.json_response({"error": {"message": "model not loaded", "type": "server_error"}}, status=400)
        data = [
            {"object": "embedding", "index": i, "embedding": [float(len(t)), float(sum(c in "aeiou" for c in t)), 1.0]}
            for i, t in enumerate(body["input"])
        ]
        return web.json_response(
            {
                "object": "list",
                "data": list(reversed(data)),
                "model": body["model"],
                "usage": {"prompt_tokens": 1, "total_tokens": 1},
            }
        )

    async def __aenter__(self) -> FakeEmbeddingServer:
        app = web.Application()
        app.router.add_post("/v1/embeddings", self._embeddings)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}/v1"
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._runner is not None
        await self._runner.cleanup()


@pytest.fixture
async def server() -> AsyncIterator[FakeEmbeddingServer]:
    async with FakeEmbeddingServer() as running:
        yield running


def _options(base_url: str | None) -> EmbedderOptions:
    return EmbedderOptions("openai-compatible", "tiny-embed", base_url, max_retries=0)


async def test_vectors_come_back_in_order_normalised_with_the_served_size(
    server: FakeEmbeddingServer, data_dir: Path
) -> None:
    async with open_embedder(_options(server.base_url)) as embedder:
        assert embedder.dimension == 3
        texts = [f"text {'a' * i}" for i in range(70)]  # two batches of at most 64
        vectors = await embedder.embed(texts)

    assert len(vectors) == 70
    assert all(math.isclose(math.hypot(*v), 1.0, abs_tol=1e-5) for v in vectors)
    lengths = [v[0] / v[2] for v in vectors]  # undo normalisation: the first component is the length
    assert [round(x) for x in lengths] == [len(t) for t in texts]
    assert [len(r["input"]) for r in server.requests[1:]] == [64, 6]  # type: ignore[arg-type]
    assert {r["model"] for r in server.requests} == {"tiny-embed"}


async def test_server_errors_are_llm_unavailable(server: FakeEmbeddingServer, data_dir: Path) -> None:
    async with open_embedder(_options(server.base_url)) as embedder:
        server.fail = True
        with pytest.raises(LLMUnavailable):
            await embedder.embed(["hello"])


async def test_a_base_url_is_required(data_dir: Path) -> None:
    with pytest.raises(ConfigError):
        async with open_embedder(_options(None)):
            pass
