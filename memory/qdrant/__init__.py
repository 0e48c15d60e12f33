"""Long-term memory storage on Qdrant: payload mapping, the two backends, and the hybrid index.

It alone imports the Qdrant libraries (qdrant-client for a server, qdrant-edge embedded). It imports memory's
records and ports, the words room (sparse vectors, text caches), the ciphers that seal payloads
(`memory.privacy.crypto`), how an episode's dense vector is made (`memory.writing.dense_parts`) and the engine's
ports; never recall, the person model or the Redis stores (contracts in pyproject.toml)."""

from memory.qdrant.index import QdrantMemoryIndex

__all__ = ["QdrantMemoryIndex"]
