"""BM25-style sparse encoding: what keyword search can and cannot match."""

from __future__ import annotations

import subprocess
import sys

from memory.words.sparse import K1, encode_document, encode_query, token_id, tokenize


def test_words_are_lowercased_accent_folded_and_stopwords_dropped() -> None:
    assert tokenize("Le CAFÉ de Noël, and the Miso!") == ["cafe", "noel", "miso"]


def test_light_plural_stemming_matches_singular() -> None:
    assert tokenize("chats cats") == tokenize("chat cat")
    assert tokenize("bus boss") == ["bus", "boss"]


def test_numbers_are_kept() -> None:
    assert tokenize("my locker is 4821") == ["locker", "4821"]


def _weights(text: str) -> dict[int, float]:
    terms = encode_document(text)
    return dict(zip(terms.indices, terms.values, strict=True))


def test_query_terms_weigh_one_and_document_terms_saturate() -> None:
    query = encode_query("Miso Miso cat")
    assert sorted(query.indices) == sorted({token_id("miso"), token_id("cat")})
    assert set(query.values) == {1.0}

    once = _weights("miso garden tree")[token_id("miso")]
    thrice = _weights("miso miso miso")[token_id("miso")]
    assert once < thrice < K1 + 1.0  # more occurrences help, with diminishing returns


def test_indices_are_sorted_unique_uint32() -> None:
    terms = encode_document("Souvenir remembers birthdays, weddings and the names of cats and dogs")
    assert list(terms.indices) == sorted(set(terms.indices))
    assert all(0 <= i < 2**32 for i in terms.indices)


def test_stopwords_only_give_an_empty_vector() -> None:
    assert not encode_query("the and of le la les")
    assert not encode_document("")


def test_ids_are_stable_across_processes() -> None:
    # Python's hash() is salted per process; the token ids must not be.
    code = "from memory.words.sparse import token_id; print(token_id('miso'))"
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(other.stdout) == token_id("miso")
