"""BM25-style sparse vectors for keyword recall (a cat called "Miso", a town, a band).

Documents get BM25 term-frequency saturation; queries get 1.0 per term. The IDF half of BM25 is
left to Qdrant (sparse vector with the IDF modifier), so the corpus statistics stay in the engine.
Token ids are a stable hash, identical across processes and machines, never Python's hash(): a plain crc32
of the token without encryption, and with it a keyed one (BLAKE2b under a key derived from the person's data
key, `keyword_key`), so the index stored on disk does not spell out the words: a dictionary of crc32s finds
nothing in it, and once erasure destroys the data key nobody can compute the ids again.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
import zlib
from collections import Counter
from dataclasses import dataclass

from memory.words.bm25 import saturated_tf
from memory.words.text_caches import WordCache

# Memories are short sentences: a constant average length keeps documents independent of each other.
AVERAGE_DOCUMENT_TOKENS = 10.0
K1 = 1.2
B = 0.75
_MAX_TOKEN_CHARS = 40
WORDS_KEPT = 65536  # distinct words whose token is kept (a few MB)

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_ASCII_WORD = re.compile(r"[a-z0-9]+")  # the same on lowercased ASCII text, twice as fast

_STOPWORDS_EN = """
a about above after again against all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just me more most my
myself no nor not now of off on once only or other our ours ourselves out over own same she should so
some such than that the their theirs them themselves then there these they this those through to too
under until up very was we were what when where which while who whom why will with would you your yours
yourself yourselves im ive dont didnt doesnt isnt wasnt cant wont thats
"""
_STOPWORDS_FR = """
a ai aie aient ait as au aux avaient avais avait avec avez avions avons c ce ceci cela celle celles
celui ces cet cette ceux d dans de des du elle elles en es est et etaient etais etait ete etes etre eu
eux il ils j je l la le les leur leurs lui m ma mais me meme mes moi mon n ne nos notre nous on ont ou
par pas pour qu que quel quelle quelles quels qui s sa sans se ses si son sont sur t ta te tes toi ton
tu un une vos votre vous y suis sommes serai sera etions fait faire tres plus moins aussi bien
"""
STOPWORDS = frozenset((_STOPWORDS_EN + _STOPWORDS_FR).split())


@dataclass(frozen=True, slots=True)
class SparseTerms:
    """A sparse vector: sorted unique uint32 indices and their weights."""

    indices: tuple[int, ...]
    values: tuple[float, ...]

    def __bool__(self) -> bool:
        return bool(self.indices)


class _Unmarked(dict[int, int | None]):
    """str.translate table dropping combining marks, filled as characters are met (lookups stay in C)."""

    def __missing__(self, code: int) -> int | None:
        kept = None if unicodedata.combining(chr(code)) else code
        self[code] = kept
        return kept


_UNMARKED = _Unmarked()


def _fold(text: str) -> str:
    # Accents folded so "café" matches "cafe" and "Noël" matches "noel".
    if text.isascii():
        return text.lower()  # nothing to fold (casefold and NFKD leave ASCII as lower() does), 20x cheaper
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return decomposed if decomposed.isascii() else decomposed.translate(_UNMARKED)


def _stem(token: str) -> str:
    # The lightest FR+EN stemmer that helps: plural "s"/"x" ("chats" → "chat", "cats" → "cat").
    if len(token) > 3 and token[-1] in "sx" and token[-2] not in "su":
        return token[:-1]
    return token


def token_of(word: str) -> str:
    """The token a folded word gives: "" for a stopword, a single letter or an overlong word."""
    if word in STOPWORDS or len(word) > _MAX_TOKEN_CHARS:
        return ""
    if len(word) == 1 and not word.isdigit():
        return ""
    return _stem(word)


_TOKENS = WordCache(token_of, maxsize=WORDS_KEPT)


def words(text: str) -> list[str]:
    """The folded words of a text, before stopwords are dropped (see `token_of`)."""
    if text.isascii():
        return _ASCII_WORD.findall(text.lower())
    return _WORD.findall(_fold(text))


def tokenize(text: str) -> list[str]:
    """Lowercased, accent-folded words and numbers, stopwords dropped, plurals lightly stemmed."""
    tokens = _TOKENS
    return [token for word in words(text) if (token := tokens[word])]


KEYWORD_KEY_BYTES = 32


def token_id(token: str, key: bytes | None = None) -> int:
    """The token's uint32 id: crc32 without a key, BLAKE2b-32 keyed by `key` (a person's `keyword_key`)."""
    if key is None:
        return zlib.crc32(token.encode("utf-8"))
    digest = hashlib.blake2b(token.encode("utf-8"), digest_size=4, key=key).digest()
    return int.from_bytes(digest, "big")


def _to_terms(weights: dict[int, float]) -> SparseTerms:
    ordered = sorted(weights.items())
    return SparseTerms(tuple(i for i, _ in ordered), tuple(w for _, w in ordered))


def encode_document(text: str, key: bytes | None = None) -> SparseTerms:
    """BM25 tf saturation per term: tf·(k1+1) / (tf + k1·(1 − b + b·len/avg)); ids keyed by `key` if given."""
    tokens = tokenize(text)
    if not tokens:
        return SparseTerms((), ())
    weights: dict[int, float] = {}
    for token, tf in Counter(tokens).items():
        index = token_id(token, key)
        # Two tokens sharing an id are rare enough to just add up.
        weights[index] = weights.get(index, 0.0) + saturated_tf(tf, len(tokens), AVERAGE_DOCUMENT_TOKENS, K1, B)
    return _to_terms(weights)


def encode_query(text: str, key: bytes | None = None) -> SparseTerms:
    """1.0 per distinct query term: the engine multiplies by IDF and the document's weight. `key`: the one the
    person's documents were encoded with."""
    return _to_terms({token_id(token, key): 1.0 for token in tokenize(text)})
