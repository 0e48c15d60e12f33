"""What the learned crisis reader sees of a message: its embedding, what the phrase cues found in it, its words
and the letters inside them.

The cues are signals, not verdicts: a denied phrase ("I'm not suicidal") and an idiom ("this job is killing me")
are features the head weighs against what the embedding says, like a person reading the whole sentence would.

Words and letter runs are looked up in the training set's own vocabulary, kept with the head: a word it never
saw adds nothing, where a hashed bucket would have lent it the weight of whichever word shared the bucket
("702" read as "voulais juste"). Every number reads as one word, "0": a chat id is not a time.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from bot.engine.safety.crisis import Cue, phrase_cue
from bot.engine.safety.crisis_cues import IDIOMS, IMMINENT, OTHERS, PHRASES, STORY, TOPICS, normalised

CHARACTER_GRAMS = (3, 4, 5)
WORD_MIN_COUNT = 2  # a word or word pair enters the vocabulary when this many training lines hold it
CHARACTER_MIN_COUNT = 3
_WORD = re.compile(r"[a-z0-9]+")
_NUMBER = re.compile(r"[0-9]+")
CUES = ("phrase", "topic", "phrase_any", "imminent", "idiom", "others", "story", "question", "laughing")
_LAUGHING = ("lol", "mdr", "ptdr", "haha", "xd", "😂", "🤣")


def cue_vector(text: str) -> np.ndarray:
    normal = normalised(text)
    words = set(normal.replace("!", " ").replace(".", " ").split())
    cue = phrase_cue(text)
    any_cue = PHRASES.search(normal) is not None or TOPICS.search(normal) is not None  # denied or not
    return np.array(
        [
            cue is Cue.STATEMENT, cue is Cue.TOPIC, any_cue, IMMINENT.search(normal) is not None,
            IDIOMS.search(normal) is not None, OTHERS.search(normal) is not None, STORY.search(normal) is not None,
            "?" in normal, any(w in words or w in normal for w in _LAUGHING),
        ],
        dtype=np.float32,
    )  # fmt: skip


def _words(text: str) -> list[str]:
    return _WORD.findall(_NUMBER.sub("0", normalised(text)))


def word_grams(text: str) -> set[str]:
    """The message's words and word pairs: slang and the words around a phrase ("pour l'escalade") the
    embedding blurs."""
    words = _words(text)
    return {*words, *(f"{a} {b}" for a, b in itertools.pairwise(words))}


def character_grams(text: str) -> set[str]:
    """The 3-, 4- and 5-letter runs of the message's words, each word marked at both ends. Spellings no word
    list holds share their letters with the words they play on: "jveux", "unalive", "mourrir", "killin myself",
    "suicidaire" beside "suicide"."""
    grams: set[str] = set()
    for word in _words(text):
        marked = f"<{word}>"
        for size in CHARACTER_GRAMS:
            grams.update(marked[start : start + size] for start in range(len(marked) - size + 1))
    return grams


def _frequent(texts: Iterable[str], grams_of: Callable[[str], set[str]], min_count: int) -> tuple[str, ...]:
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(grams_of(text))
    return tuple(sorted(gram for gram, count in counts.items() if count >= min_count))


@dataclass(frozen=True)
class Vocabulary:
    """The words, word pairs and letter runs the head has weights for, in feature order."""

    words: tuple[str, ...]
    characters: tuple[str, ...]
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {f"w {gram}": i for i, gram in enumerate(self.words)}
        index.update({f"c {gram}": len(self.words) + i for i, gram in enumerate(self.characters)})
        object.__setattr__(self, "_index", index)

    @classmethod
    def of(cls, texts: Sequence[str]) -> Vocabulary:
        """What the training lines hold often enough to learn a weight for."""
        return cls(_frequent(texts, word_grams, WORD_MIN_COUNT), _frequent(texts, character_grams, CHARACTER_MIN_COUNT))

    def __len__(self) -> int:
        return len(self._index)

    def indices(self, text: str) -> list[int]:
        """The columns of the known words, word pairs and letter runs the text holds, in order."""
        keys = [f"w {gram}" for gram in word_grams(text)] + [f"c {gram}" for gram in character_grams(text)]
        return sorted({self._index[key] for key in keys if key in self._index})

    def vector(self, text: str) -> np.ndarray:
        vector = np.zeros(len(self._index), dtype=np.float32)
        vector[self.indices(text)] = 1.0
        return vector


def features(texts: Sequence[str], vectors: Sequence[Sequence[float]], vocabulary: Vocabulary) -> np.ndarray:
    """The head's input, one row a text: its embedding, its cue vector, its known words and letter runs."""
    if not texts:
        return np.asarray(vectors, dtype=np.float32).reshape(0, -1)
    return np.hstack([_embedding_and_cues(texts, vectors), np.stack([vocabulary.vector(t) for t in texts])])


def _embedding_and_cues(texts: Sequence[str], vectors: Sequence[Sequence[float]]) -> np.ndarray:
    embedded = np.asarray(vectors, dtype=np.float32).reshape(len(texts), -1)
    return np.hstack([embedded, np.stack([cue_vector(t) for t in texts])])


@dataclass(frozen=True)
class KnownRows:
    """Which known words and letter runs each training row holds, as (row, column) pairs: the rows are sparse
    (a line holds ~100 of tens of thousands), so the training products run over the pairs alone."""

    rows: np.ndarray
    columns: np.ndarray
    height: int
    width: int

    def column_means(self) -> np.ndarray:
        return np.bincount(self.columns, minlength=self.width) / max(1, self.height)

    def times(self, w: np.ndarray) -> np.ndarray:
        """(height, width) @ w."""
        picked = w[self.columns]
        return np.stack(
            [np.bincount(self.rows, weights=picked[:, j], minlength=self.height) for j in range(w.shape[1])], axis=1
        )

    def transposed_times(self, e: np.ndarray) -> np.ndarray:
        """(height, width).T @ e."""
        picked = e[self.rows]
        return np.stack(
            [np.bincount(self.columns, weights=picked[:, j], minlength=self.width) for j in range(e.shape[1])], axis=1
        )


def training_features(
    texts: Sequence[str], vectors: Sequence[Sequence[float]], vocabulary: Vocabulary
) -> tuple[np.ndarray, KnownRows]:
    """What `features` gives, for many lines at once: the embeddings and cue vectors dense, the known words and
    letter runs as pairs."""
    dense = _embedding_and_cues(texts, vectors)
    rows: list[int] = []
    columns: list[int] = []
    for row, text in enumerate(texts):
        hits = vocabulary.indices(text)
        rows.extend([row] * len(hits))
        columns.extend(hits)
    known = KnownRows(np.array(rows, dtype=np.int64), np.array(columns, dtype=np.int64), len(texts), len(vocabulary))
    return dense, known
