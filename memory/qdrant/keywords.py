"""The keyword (sparse) vectors of memories and queries, with ids keyed per person when encryption is on.

With a cipher, a person's keyword ids are keyed by their `keyword_key` (derived from their data key): the
sparse vectors stored on disk then name no word, and a query must be encoded with the same person's key to
match. Without one, ids are plain crc32s, as the words themselves are stored in clear.
"""

from __future__ import annotations

from memory.privacy.crypto import Sealer, TextCipher
from memory.records import MemoryRecord
from memory.words.sparse import SparseTerms, encode_document, encode_query

NOTHING = SparseTerms((), ())


def sparse_text(record: MemoryRecord) -> str:
    """What keyword search sees: the text plus the short label and whose it is."""
    return " ".join(part for part in (record.text, record.label, record.subject) if part)


def document_terms(record: MemoryRecord, sealer: Sealer | None) -> SparseTerms:
    """`sealer`: the record's person's, when encryption is on (None: it is off)."""
    return encode_document(sparse_text(record), None if sealer is None else _key(sealer))


async def query_terms(cipher: TextCipher, user_key: str, text: str) -> SparseTerms:
    """The query's terms as the person's memories were encoded; none when their data key is gone (nothing of
    theirs can match then)."""
    if not cipher.enabled:
        return encode_query(text)
    key = (await cipher.opener(user_key)).keyword_key
    return NOTHING if key is None else encode_query(text, key)


def _key(sealer: Sealer) -> bytes:
    key = sealer.keyword_key
    if key is None:  # a sealer that seals always has a data key
        raise ValueError("a sealer with no keyword key")
    return key
