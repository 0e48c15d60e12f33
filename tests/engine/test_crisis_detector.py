"""The offline crisis detector on labelled French and English messages, hard negatives included."""

from __future__ import annotations

import pytest

from bench.crisis_detector import SETS, labelled
from bench.crisis_detector import score_phrases as score
from bot.engine.crisis import shows_crisis


@pytest.mark.parametrize("name", SETS)
def test_the_labelled_messages_are_read_with_high_precision_and_recall(name: str) -> None:
    scores = score(labelled(name))
    assert scores.precision >= 0.95 and scores.recall >= 0.95, scores.misses


@pytest.mark.parametrize(
    "text",
    [
        "this traffic is killing me",
        "je suis mort de rire",
        "I'm not suicidal, just tired",
        "je ne suis pas suicidaire",
        "I would never kill myself",
        "my friend said she wants to kill herself",
        "I want to die of embarrassment",
        "I hurt myself playing football",
        "je veux en finir avec ce dossier",
    ],
)
def test_idioms_negations_and_other_peoples_words_are_not_a_crisis(text: str) -> None:
    assert not shows_crisis(text)


@pytest.mark.parametrize(
    "text",
    [
        "I want to kill myself",
        "JE VEUX MOURIR",
        "j’ai plus envie de vivre",
        "I don't want to live anymore",
        "I'm not ok. I want to die",
        "je ne sais pas, j'ai envie de me tuer",
    ],
)
def test_a_wish_to_die_is_seen_whatever_the_case_apostrophes_or_an_earlier_negation(text: str) -> None:
    assert shows_crisis(text)
