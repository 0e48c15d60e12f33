"""What the memory pipeline needs from the index: search and change (MemoryIndex) plus listing (MemoryCatalog)."""

from __future__ import annotations

from typing import Protocol

from memory.ports import MemoryCatalog, MemoryIndex


class MemoryStore(MemoryIndex, MemoryCatalog, Protocol):
    """The Qdrant index implements both ports on one collection."""
