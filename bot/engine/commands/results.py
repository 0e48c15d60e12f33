"""What the user commands answer with: plain values the adapters render (text, a page for buttons, a chart)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.model import MemoryPage
from bot.engine.ports import ErasedStore


@dataclass(frozen=True, slots=True)
class CommandResult:
    text: str
    ok: bool = True
    erased: tuple[ErasedStore, ...] = ()  # after /forget all: each store's part, for a receipt


@dataclass(frozen=True, slots=True)
class MoodChart:
    """A /mood answer: a caption (or why there is no chart), and the PNG when there is one."""

    text: str
    png: bytes | None = None
    ok: bool = True


MOOD_CHART_FILENAME = "souvenir-mood.png"


@dataclass(frozen=True, slots=True)
class MemoriesListing:
    """A /memories answer: its text, and the page shown (None when there is no page to show buttons for)."""

    text: str
    page: MemoryPage | None = None
    ok: bool = True
