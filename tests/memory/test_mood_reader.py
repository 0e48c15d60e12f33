"""The offline mood reader on clear French and English messages (real USE model, shipped head)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from memory.mood.head import MoodHead
from memory.mood.reader import OfflineMoodReader, open_offline_reader
from tests.memory.index_fixtures import shared_use_embedder


@pytest.fixture(scope="session")
async def reader() -> OfflineMoodReader:
    return await open_offline_reader(await shared_use_embedder())


@pytest.mark.parametrize(
    ("text", "language", "label"),
    [
        ("I just got the job, I'm over the moon!", "en", "joy"),
        ("Trop heureuse, on part en vacances demain !", "fr", "joy"),
        ("Soirée tranquille avec un livre, je me sens apaisé", "fr", "calm"),
        ("My grandfather passed away this morning, I can't stop crying", "en", "sadness"),
        ("J'ai une boule au ventre, l'opération est demain", "fr", "anxiety"),
        ("I'm furious, the landlord kept my deposit for nothing", "en", "anger"),
        ("Je suis épuisé, j'ai dormi deux heures", "fr", "tiredness"),
        ("What time does the bakery open on Sundays?", "en", "neutral"),
        ("I'm not sad, just really sleepy", "en", "tiredness"),  # negation: the sadness is denied
        ("😭", "en", "sadness"),
        ("🤬", "fr", "anger"),
    ],
)
async def test_clear_messages_get_their_mood(reader: OfflineMoodReader, text: str, language: str, label: str) -> None:
    reading = await reader.read(text, language)
    assert reading.label == label
    assert -1.0 <= reading.valence <= 1.0 and 0.0 <= reading.intensity <= 1.0


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Pas mal du tout, ce concert, j'ai adoré", "fr"),  # "pas mal" is praise
        ("Je ne suis plus stressée du tout, tout est réglé", "fr"),  # a denied worry
        ("Not worried at all anymore, it all worked out", "en"),
    ],
)
async def test_negated_worries_and_understatement_read_positive(
    reader: OfflineMoodReader, text: str, language: str
) -> None:
    reading = await reader.read(text, language)
    assert reading.label in ("joy", "calm") and reading.valence > 0


async def test_valence_follows_the_mood_and_neutral_is_zero(reader: OfflineMoodReader) -> None:
    texts = ["Best day of my life!!", "I feel so alone since she left", "The meeting is at ten", ""]
    joy, sad, plain, empty = await reader.read_many(texts)
    assert joy.valence > 0.3 and sad.valence < -0.3
    assert plain.valence == 0.0 and empty.label == "neutral" and empty.intensity == 0.0


async def test_every_text_gets_one_reading_in_order(reader: OfflineMoodReader) -> None:
    texts = ["ok", "ok", "I'm exhausted", "ok"]
    readings = await reader.read_many(texts)
    assert [r.label for r in readings] == ["neutral", "neutral", "tiredness", "neutral"]


class _WrongWidth:
    dimension = 384

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[0.0] * 384 for _ in texts]


def test_a_head_trained_on_other_embeddings_is_refused() -> None:
    head = MoodHead(np.zeros((512 + 26, 7)), np.zeros(7), np.zeros(538), np.ones(538), 512)
    with pytest.raises(ValueError, match="512-d"):
        OfflineMoodReader(_WrongWidth(), head)
