"""Load an embedder's model while the app goes on starting: the prompt shows first, the first reply may wait."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Protocol

log = logging.getLogger(__name__)


class WarmsUp(Protocol):
    async def warm_up(self) -> None: ...


@asynccontextmanager
async def warming_up_in_background(embedder: WarmsUp) -> AsyncIterator[None]:
    """Start `embedder.warm_up()` and return at once; on exit, wait for it (it runs in a thread that cannot be
    stopped halfway). A failed load is logged here; the first `embed` then tries again and raises."""
    loading = asyncio.create_task(embedder.warm_up(), name="embedder warm-up")
    try:
        yield
    finally:
        try:
            await asyncio.shield(loading)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("loading the embedding model failed")
