"""What a memory's dense vector is made of: its own words, and for an episode the messages around it.

An episode is indexed with the two messages before it (and the gist of the reply): an answer often replies to a
question asked a message or two up. Its vector used to be the embedding of all of that as one text, which
costs the encoder about four times one message (its cost grows faster than the length) and embeds each
message three times over. Now each message is embedded once, alone, and an episode's vector is its own
message's plus half of each context message's, renormalised: the same neighbours lift it, for a third of the
cost. On the LoCoMo dev conversations (`souvenir eval locomo --folds`): R@10 0.783 plain / 0.783 folds
against 0.781 / 0.782 with one long text, R@5 0.710 / 0.715 against 0.704 / 0.701, ingestion ~128 against ~70
messages a second (same loaded box). Half is the even split between "only the message" and "the context as much as the
message"; 0.35 and 0.7 did no better (0.776 / 0.782 and 0.778 / 0.771).

The words indexed for keyword search are unchanged (the whole text); the message after an episode, appended
to its text later, reaches keyword search only, as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from memory.records import MemoryKind, MemoryRecord
from memory.writing.episodes import NEXT, SAID, SEPARATOR

CONTEXT_WEIGHT = 0.5

DenseParts = tuple[tuple[str, float], ...]  # (text, weight)


def dense_parts(record: MemoryRecord) -> DenseParts:
    """The texts whose embeddings, weighted, make `record`'s vector: an episode's message and its context
    messages (not the date it was said, nor the message after it); any other memory's whole text."""
    said = record.attributes.get(SAID, "")
    at = record.text.find(said) if said and record.kind is MemoryKind.EPISODIC else -1
    if at < 0:
        return ((record.text, 1.0),)
    # After the message: the dates it mentions, then one part per context message, then the next messages.
    context = [p.strip() for p in record.text[at + len(said) :].split(SEPARATOR)[1:]]
    following = len(record.attributes.get(NEXT, "").split())
    if following:
        context = context[:-following]
    return ((said, 1.0), *((part, CONTEXT_WEIGHT) for part in context if part))


def compose(parts: DenseParts, vectors: Mapping[str, Sequence[float]]) -> list[float]:
    """The weighted sum of the parts' unit vectors, renormalised (one part: its vector as it is)."""
    if len(parts) == 1:
        return list(vectors[parts[0][0]])
    total = np.zeros(len(vectors[parts[0][0]]), dtype=np.float64)
    for text, weight in parts:
        total += weight * np.asarray(vectors[text], dtype=np.float64)
    norm = float(np.linalg.norm(total))
    return (total / norm).tolist() if norm > 0 else total.tolist()


def texts_of(recipes: Sequence[DenseParts]) -> list[str]:
    """Every distinct text the recipes need, in order."""
    return list(dict.fromkeys(text for parts in recipes for text, _ in parts))
