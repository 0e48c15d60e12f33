"""A language model that reports each call's latency and failure to `LLMMetrics`, whatever the provider."""

from __future__ import annotations

import time

from bot.engine.metrics import LLMMetrics
from bot.engine.ports import CompletionRequest, LanguageModel


class MeasuredLanguageModel:
    def __init__(self, inner: LanguageModel, *, provider: str, metrics: LLMMetrics) -> None:
        self._inner = inner
        self._provider = provider
        self._metrics = metrics

    async def complete(self, request: CompletionRequest) -> str:
        started = time.perf_counter()
        try:
            text = await self._inner.complete(request)
        except Exception as exc:
            self._metrics.llm_call(self._provider, time.perf_counter() - started, type(exc).__name__)
            raise
        self._metrics.llm_call(self._provider, time.perf_counter() - started, None)
        return text
