"""Long-term memory storage on Qdrant: payload mapping, the two backends, and the hybrid index."""

from memory.qdrant.index import QdrantMemoryIndex

__all__ = ["QdrantMemoryIndex"]
