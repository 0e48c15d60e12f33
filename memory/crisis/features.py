"""What the learned crisis reader sees of a message: its embedding, what the phrase cues found in it, its words
and the letters inside them.

The cues are signals, not verdicts: a denied phrase ("I'm not suicidal") and an idiom ("this job is killing me")
are features the head weighs against what the embedding says, like a person reading the whole sentence would.
"""

from __future__ import annotations

import itertools
import re
import zlib
from collections.abc import Sequence

import numpy as np

from bot.engine.safety.crisis import phrase_crisis
from bot.engine.safety.crisis_cues import IDIOMS, IMMINENT, OTHERS, PHRASES, STORY, normalised

WORD_BUCKETS = 2048
CHARACTER_BUCKETS = 4096
CHARACTER_GRAMS = (3, 4, 5)
_WORD = re.compile(r"[a-z0-9]+")
CUES = ("phrase", "phrase_any", "imminent", "idiom", "others", "story", "question", "laughing")
_LAUGHING = ("lol", "mdr", "ptdr", "haha", "xd", "😂", "🤣")


def cue_vector(text: str) -> np.ndarray:
    normal = normalised(text)
    words = set(normal.replace("!", " ").replace(".", " ").split())
    return np.array(
        [
            phrase_crisis(text), PHRASES.search(normal) is not None, IMMINENT.search(normal) is not None,
            IDIOMS.search(normal) is not None, OTHERS.search(normal) is not None, STORY.search(normal) is not None,
            "?" in normal, any(w in words or w in normal for w in _LAUGHING),
        ],
        dtype=np.float32,
    )  # fmt: skip


def word_vector(text: str) -> np.ndarray:
    """Which words and word pairs the message holds, hashed into `WORD_BUCKETS` (a stable hash: the same
    buckets in every process). Slang and the words around a phrase ("pour l'escalade") the embedding blurs."""
    words = _WORD.findall(normalised(text))
    grams = [*words, *(f"{a} {b}" for a, b in itertools.pairwise(words))]
    vector = np.zeros(WORD_BUCKETS, dtype=np.float32)
    for gram in grams:
        vector[zlib.crc32(gram.encode()) % WORD_BUCKETS] = 1.0
    return vector


def character_vector(text: str) -> np.ndarray:
    """Which 3-, 4- and 5-letter runs the message's words hold (each word marked at both ends), hashed into
    `CHARACTER_BUCKETS`. Spellings no word list holds share their letters with the words they play on:
    "jveux", "unalive", "mourrir", "killin myself", "suicidaire" beside "suicide"."""
    vector = np.zeros(CHARACTER_BUCKETS, dtype=np.float32)
    for word in _WORD.findall(normalised(text)):
        marked = f"<{word}>"
        for size in CHARACTER_GRAMS:
            for start in range(len(marked) - size + 1):
                vector[zlib.crc32(b"c" + marked[start : start + size].encode()) % CHARACTER_BUCKETS] = 1.0
    return vector


def features(texts: Sequence[str], vectors: Sequence[Sequence[float]]) -> np.ndarray:
    """The head's input, one row a text: its embedding, its cue vector, its hashed words and letter runs."""
    embedded = np.asarray(vectors, dtype=np.float32).reshape(len(texts), -1)
    if not texts:
        return embedded
    cues = np.stack([cue_vector(t) for t in texts])
    words = np.stack([word_vector(t) for t in texts])
    characters = np.stack([character_vector(t) for t in texts])
    return np.hstack([embedded, cues, words, characters])
