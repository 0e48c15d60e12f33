"""Keep the objects a started process holds for good out of the garbage collector's full passes.

Once `souvenir run` is up, ~300,000 objects the collector tracks are there for good: the modules, classes and
functions of discord.py, python-telegram-bot, the LLM SDKs, pydantic, qdrant-edge. A full collection walks
every one of them, and no reply moves meanwhile: ~190–320 ms on this project's 2-core box (`bench/gc_pause.py`;
in `bench.floor`, one reply in a few hundred came ~163 ms late that way). Frozen (`gc.freeze`), they are
skipped: a full pass then walks only what was made since the start.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Iterator
from contextlib import contextmanager

log = logging.getLogger(__name__)


@contextmanager
def frozen_startup_objects() -> Iterator[int]:
    """Collect once (garbage of the start-up must not be kept forever), then freeze what is left; yields how
    many objects were frozen. On exit they are given back to the collector (a test process starts many apps)."""
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    log.info("%d objects from start-up are left out of the garbage collector's full passes", frozen)
    try:
        yield frozen
    finally:
        gc.unfreeze()
