"""Optional embedder: any OpenAI-compatible /v1/embeddings endpoint (OpenAI, Ollama, vLLM, LM Studio…).

Selected with SOUVENIR_EMBEDDING_PROVIDER=openai-compatible; the vector size is learnt from the
server once, when the embedder is opened. Vectors are re-normalised here: not every server does.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import openai

from bot.errors import LLMUnavailable

DEFAULT_MODEL = "nomic-embed-text"
# Local servers ignore the key, but the SDK refuses to start without one.
PLACEHOLDER_API_KEY = "not-needed"


class OpenAICompatibleEmbedder:
    def __init__(self, client: openai.AsyncOpenAI, model: str, dimension: int, batch_size: int = 64) -> None:
        self._client = client
        self._model = model
        self._dimension = dimension
        self._batch_size = batch_size

    @classmethod
    async def open(
        cls,
        base_url: str | None,
        model: str | None,
        api_key: str | None = None,
        *,
        timeout_s: float = 60.0,
        max_retries: int = 3,
    ) -> OpenAICompatibleEmbedder:
        client = openai.AsyncOpenAI(
            api_key=api_key or PLACEHOLDER_API_KEY, base_url=base_url, timeout=timeout_s, max_retries=max_retries
        )
        probe = cls(client, model or DEFAULT_MODEL, dimension=0)
        try:
            [vector] = await probe._embed_batch(["dimension probe"])
        except BaseException:
            await client.close()
            raise
        return cls(client, probe._model, dimension=len(vector))

    @property
    def dimension(self) -> int:
        return self._dimension

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out: list[list[float]] = []
        for start in range(0, len(texts), self._batch_size):
            out.extend(await self._embed_batch(list(texts[start : start + self._batch_size])))
        return out

    async def _embed_batch(self, texts: list[str]) -> list[list[float]]:
        try:
            response = await self._client.embeddings.create(model=self._model, input=texts)
        except openai.OpenAIError as exc:
            raise LLMUnavailable(f"embedding model {self._model!r} unavailable: {exc}") from exc
        rows = sorted(response.data, key=lambda item: item.index)
        if len(rows) != len(texts):
            raise LLMUnavailable(f"embedding model {self._model!r} returned {len(rows)} vectors for {len(texts)}")
        matrix = np.asarray([row.embedding for row in rows], dtype=np.float32)
        matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
        return matrix.tolist()  # type: ignore[no-any-return]

    async def aclose(self) -> None:
        await self._client.close()
