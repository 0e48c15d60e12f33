"""Dense sentence embedders implementing `memory.ports.Embedder`."""

from memory.embedding.use import USE_DIMENSION, UseEmbedder

__all__ = ["USE_DIMENSION", "UseEmbedder"]
