"""The embedding model loads while start-up goes on; closing waits for it; a failed load does not stop the app."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from memory.embedding import UseEmbedder
from memory.embedding.background import warming_up_in_background
from memory.index_factory import EmbedderOptions, open_embedder


class GatedModel:
    """Its warm-up starts, then waits until the test lets it finish."""

    def __init__(self, *, fails: bool = False) -> None:
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        self.loaded = False
        self._fails = fails

    async def warm_up(self) -> None:
        self.started.set()
        await self.release.wait()
        if self._fails:
            raise OSError("model file missing")
        self.loaded = True


async def test_start_up_goes_on_while_the_model_loads_and_closing_waits_for_it() -> None:
    model = GatedModel()
    async with warming_up_in_background(model):
        await asyncio.wait_for(model.started.wait(), 30)
        assert not model.loaded  # we are past start-up while the model is still loading
        model.release.set()
    assert model.loaded


async def test_a_failed_load_is_logged_and_closing_still_succeeds(caplog: pytest.LogCaptureFixture) -> None:
    model = GatedModel(fails=True)
    with caplog.at_level(logging.ERROR, logger="memory.embedding.background"):
        async with warming_up_in_background(model):
            model.release.set()
    assert "loading the embedding model failed" in caplog.text
    assert not model.loaded


async def test_the_app_gets_the_use_embedder_before_its_model_has_loaded(tmp_path: Path) -> None:
    async with open_embedder(EmbedderOptions()) as embedder:
        assert isinstance(embedder, UseEmbedder)
        assert not embedder.loaded  # start-up (and the chat's first prompt) did not wait for the model
        [vector] = await embedder.embed(["mon chat s'appelle Miso"])  # the first embedding waits for it
        assert embedder.loaded and len(vector) == 512
