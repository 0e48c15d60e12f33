"""The shipped learned crisis reader on its own, over the real sentence embedding: it reads crises that no
phrase cue names and leaves a companion's everyday chat alone. None of these lines is in a training or
evaluation set (`tests/data/crisis_*.tsv`). The sets kept blind are read whole, against the targets."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import numpy as np
import pytest

from bot.engine.safety.crisis import LEARNED_THRESHOLD, CrisisLevel, LearnedCrisis, phrase_crisis, read_crisis
from memory.crisis.features import Vocabulary
from memory.crisis.labelled import FRESH_SETS, load_labelled
from memory.crisis.reader import LearnedCrisisReader, load_head
from memory.crisis.scoring import score
from memory.embedding import UseEmbedder

UNNAMED_CRISES = [
    "I've been looking up how many of my pills it would take",
    "I keep thinking the world would be lighter without me in it",
    "j'ai rangé ma chambre et laissé un mot sur le bureau, c'est fini pour moi",
    "plus rien ne me retient ici, je crois que c'est la dernière nuit",
]
EVERYDAY = [
    "send me a picture of you at the beach",
    "my neighbour's dog barked all night, I'm exhausted",
    "j'ai trop mangé à Noël, je vais exploser",
    "can you tell me a story about a dragon who loves tea",
    "on a fêté les 30 ans de ma soeur hier soir, c'était génial",
    "hi! how are you today?",
]


@pytest.fixture(scope="module")
async def reader() -> AsyncIterator[LearnedCrisisReader]:
    embedder = UseEmbedder()

    async def vector(text: str) -> list[float]:
        [found] = await embedder.embed([text])
        return list(found)

    yield LearnedCrisisReader(vector, load_head())


@pytest.mark.parametrize("text", UNNAMED_CRISES)
async def test_a_crisis_no_phrase_names_is_read_by_the_learned_reader(reader: LearnedCrisisReader, text: str) -> None:
    assert not phrase_crisis(text)  # the phrase cues alone would miss it
    learned = await reader.read(text)
    assert learned.crisis >= LEARNED_THRESHOLD
    assert read_crisis(text, learned).level is not CrisisLevel.NONE


@pytest.mark.parametrize("text", EVERYDAY)
async def test_everyday_chat_is_not_a_crisis(reader: LearnedCrisisReader, text: str) -> None:
    assert read_crisis(text, await reader.read(text)).level is CrisisLevel.NONE


ORDINARY_WITH_NUMBERS = [
    row.text for row in load_labelled(Path(__file__).parents[1] / "data" / "crisis_ordinary_numbers.tsv")
]


@pytest.mark.parametrize("text", ORDINARY_WITH_NUMBERS)
async def test_numbers_and_clock_times_alone_are_no_crisis(reader: LearnedCrisisReader, text: str) -> None:
    """A chat id, a score or a train at 11 tonight is not a plan: the reader once took "chat 702" for one."""
    assert read_crisis(text, await reader.read(text)).level is CrisisLevel.NONE


def test_a_word_the_head_never_saw_adds_nothing_and_every_number_reads_alike() -> None:
    vocabulary = Vocabulary(words=("chat", "in chat", "chat 0", "0"), characters=("<0>", "zzz"))
    assert np.array_equal(vocabulary.vector("in chat 702"), vocabulary.vector("in chat 3"))
    assert vocabulary.vector("in chat 702").sum() == 5  # chat, in chat, chat 0, 0 and <0>; "in" is unknown
    assert not vocabulary.vector("voulais juste").any()  # no bucket to share with a word it knows


@pytest.mark.parametrize("blind_set", FRESH_SETS, ids=lambda path: path.stem)
async def test_the_blind_sets_meet_the_targets_as_replies_read_them(blind_set: Path) -> None:
    """Recall ≥ 0.95 and false alarms ≤ 0.10 on each set kept blind (a head or threshold that slips fails here)."""
    rows = load_labelled(blind_set)
    texts = [row.text for row in rows]
    vectors = await UseEmbedder().embed(texts)
    learned = [LearnedCrisis(*map(float, p)) for p in load_head().probabilities(texts, vectors)]
    said = [int(read_crisis(t, lc).level) for t, lc in zip(texts, learned, strict=True)]
    figures = score(rows, said)["all"]
    assert figures["recall"] >= 0.95
    assert figures["false_alarms"] <= 0.10
