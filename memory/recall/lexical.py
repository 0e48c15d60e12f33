"""A keyword opinion on recall candidates: BM25 over the candidate pool, the memory's own words weighing more
than the context indexed with it.

The index's searches find the pool (hybrid and dense). Within it, this decides which
memory really says what the question asks: "When did Alice go to the support group?" should bring back
the message that says "support group", not the one before it that merely has it as context. IDF comes from
the pool itself, which is enough to tell rare words from common ones among related memories. The names a
question asks about are read here too, so recall can favour memories that say them themselves.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Sequence

import snowballstemmer

from memory.records import MemoryRecord
from memory.words.bm25 import bm25_scores
from memory.words.sparse import STOPWORDS, WORDS_KEPT, token_of, tokenize, words
from memory.words.text_caches import TEXTS_KEPT, WordCache, per_record, text_cache
from memory.writing.episodes import SEPARATOR, shown_text

_CAPITALISED = re.compile(r"\b[^\W\d_][\w'’-]*", re.UNICODE)
# Capitalised question words are no names ("What", "Quand"): the stopwords and these.
_NOT_NAMES = frozenset(
    "what when where who whom whose why how which would could can will has have does did do is was were are "
    "quand quel quelle quels quelles comment pourquoi combien est qui que quoi ou où est-ce".split()
)
K1 = 0.9
B = 0.4
OWN_WORDS_WEIGHT = 3  # a word in what was said counts three times a word in its context
_ENGLISH = snowballstemmer.stemmer("english")
_FRENCH = snowballstemmer.stemmer("french")
_STEMMING = threading.Lock()  # a Snowball stemmer keeps its word in itself while it works
# snowballstemmer hands the work to PyStemmer (the same algorithms in C) when it is installed, as it is with us.


def stem(token: str) -> str:
    """English then French Snowball stems, so "researched" and "researching", "cheval" and "chevaux" meet
    whichever language the words are in (question and memories go through the same two steps)."""
    return _STEMS[token]


def _snowball(token: str) -> str:
    if token.isdigit():
        # Snowball's rules are suffixes of letters: a number comes out as it went in, and the pure-Python
        # stemmers took ~0.25 ms to say so for each number never seen before (years, times, amounts).
        return token
    with _STEMMING:
        return _FRENCH.stemWord(_ENGLISH.stemWord(token))


def _stem_of_word(word: str) -> str:
    token = token_of(word)
    return _STEMS[token] if token else ""


_STEMS = WordCache(_snowball, maxsize=WORDS_KEPT)  # token -> stem
_WORD_STEMS = WordCache(_stem_of_word, maxsize=WORDS_KEPT)  # folded word -> the stem of its token, or ""


def stems(text: str) -> list[str]:
    """The stems of a text's tokens (`memory.words.sparse.tokenize`), each word's worked out once per process."""
    known = _WORD_STEMS
    return [found for word in words(text) if (found := known[word])]


@text_cache(maxsize=16)
def question_terms(question: str) -> frozenset[str]:
    """A question's stems, as a set: the ranking and the selection both read them, one after the other."""
    return frozenset(stems(question))


@text_cache(maxsize=TEXTS_KEPT)
def _terms(text: str) -> Counter[str]:
    # Cached: the same memories come back for many questions, and tokenising is the costly part of recall.
    return Counter(stems(text))


def _pieces(text: str, shown: str) -> list[str]:
    """An indexed text cut where no word is cut: at the context separators, and around the memory's own
    words. An episode's context messages are other episodes' own words, and its own words are what
    `own_terms` reads: each piece is analysed once, whichever memories hold it."""
    parts = text.split(SEPARATOR)
    head = parts[0]
    at = head.find(shown) if shown else -1
    end = at + len(shown)
    if at >= 0 and _apart(head, at) and _apart(head, end):
        parts[0:1] = [head[:at], shown, head[end:]]
    return parts


def _apart(text: str, at: int) -> bool:
    """Whether cutting `text` at `at` leaves every word whole (a word character on one side at most)."""
    return at <= 0 or at >= len(text) or not (text[at - 1].isalnum() and text[at].isalnum())


@text_cache(maxsize=TEXTS_KEPT)
def _weighted(text: str, shown: str) -> tuple[Counter[str], int]:
    counts: Counter[str] = Counter()
    for piece in _pieces(text, shown):
        if piece:
            counts.update(_terms(piece))
    for term, count in _terms(shown).items():
        counts[term] += (OWN_WORDS_WEIGHT - 1) * count
    return counts, sum(counts.values()) or 1


@per_record()
def keyword_document(record: MemoryRecord) -> tuple[Counter[str], int]:
    """The record's terms, its own words counted OWN_WORDS_WEIGHT times, and their number (read-only)."""
    return _weighted(record.text, shown_text(record))


def keyword_scores(records: Sequence[MemoryRecord], question: str) -> list[float]:
    """BM25 of each record for the question, normalised so the best is 1 (all 0 without shared words)."""
    documents = [keyword_document(r) for r in records]
    return keyword_scores_of([d for d, _ in documents], [n for _, n in documents], frozenset(stems(question)))


def keyword_scores_of(docs: Sequence[Counter[str]], lengths: Sequence[int], terms: frozenset[str]) -> list[float]:
    """`keyword_scores` from the records' keyword documents and the question's stems."""
    if not terms or not docs:
        return [0.0] * len(docs)
    scores = bm25_scores(docs, lengths, terms, K1, B)
    best = max(scores)
    return [s / best for s in scores] if best > 0 else scores


def asked_names(question: str) -> frozenset[str]:
    """The stems of the capitalised words of a question that are no question words: the names it asks
    about ("What did Alice paint in Paris?" → alic, pari)."""
    names: set[str] = set()
    for word in _CAPITALISED.findall(question):
        if not word[0].isupper() or word.casefold() in _NOT_NAMES or word.casefold() in STOPWORDS:
            continue
        names.update(stem(t) for t in tokenize(word))
    return frozenset(names)


@per_record()
def own_terms(record: MemoryRecord) -> Counter[str]:
    """The stems of the memory's own words (not its context's), with their counts (read-only)."""
    return _terms(shown_text(record))
