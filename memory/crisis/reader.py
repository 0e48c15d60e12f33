"""The learned crisis reader on the reply path: the message's vector (shared with its recall, so no second
embedding), the cue vector, the head. A few microseconds beyond the embedding recall waits for anyway."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.engine.safety.crisis import LearnedCrisis
from memory.crisis.head import SHIPPED_HEAD, CrisisHead

TextVector = Callable[[str], Awaitable[list[float]]]


class LearnedCrisisReader:
    """`bot.engine.ports.CrisisReader`: `text_vector` is the memory's (`MemoryService.message_vector`)."""

    def __init__(self, text_vector: TextVector, head: CrisisHead) -> None:
        self._text_vector = text_vector
        self._head = head

    async def read(self, text: str) -> LearnedCrisis:
        vector = await self._text_vector(text)
        if len(vector) != self._head.embedding_dimension:
            raise ValueError(
                f"the crisis head was trained on {self._head.embedding_dimension}-d embeddings, got {len(vector)}-d"
            )
        none, concern, imminent = (float(p) for p in self._head.probabilities([text], [vector])[0])
        return LearnedCrisis(none, concern, imminent)


def load_head(path: Path = SHIPPED_HEAD) -> CrisisHead:
    """The shipped weights (read once at start, off the event loop by the caller)."""
    return CrisisHead.load(path)
