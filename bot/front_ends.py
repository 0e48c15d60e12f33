"""What a running front end registers its messenger with: the crisis follow-ups and the late replies, which
both write to a person after (or instead of) a reply, through the platform they wrote on."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from typing import Protocol

from bot.engine.ports import Messenger


class Registry(Protocol):
    def through(self, platform: str, messenger: Messenger) -> AbstractContextManager[None]: ...


class FrontEnds:
    def __init__(self, *registries: Registry | None) -> None:
        self._registries = [r for r in registries if r is not None]

    @contextmanager
    def through(self, platform: str, messenger: Messenger) -> Iterator[None]:
        """`messenger` registered with every one of them while the block runs."""
        with ExitStack() as stack:
            for registry in self._registries:
                stack.enter_context(registry.through(platform, messenger))
            yield
