"""Lexical mood cues on colloquial French and English: the forms people actually type count for their mood."""

from __future__ import annotations

import pytest

from memory.mood.cues import cue_counts


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("nothing makes me angrier than being ignored", "anger"),  # comparative of "angry"
        ("mon voisin fait des travaux à 7h, ça me soûle", "anger"),  # "soûle" spelt with its circumflex
        ("je suis vénère, le bus est passé sans s'arrêter", "anger"),
        ("j'ai la trouille pour mon opération", "anxiety"),
        ("je flippe pour demain", "anxiety"),
        ("been feeling blue all week", "sadness"),
        ("je suis au fond du trou", "sadness"),
        ("so stoked, the band is touring near us", "joy"),
        ("ptdr j'ai trop rigolé ce soir", "joy"),
        ("sat in the garden doing nothing. bliss", "calm"),
        ("journée peinarde, j'ai bouquiné", "calm"),
        ("didn't sleep a wink last night", "tiredness"),  # the negation is the tiredness
        ("je dors debout", "tiredness"),
    ],
)
def test_colloquial_forms_count_for_their_mood(text: str, label: str) -> None:
    assert cue_counts(text)[f"word_{label}"] >= 1


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("the guy cut me off and then flipped me off", "anxiety"),  # English "flipped" is not French "flipper"
        ("I can pose a question tomorrow", "calm"),
        ("it costs twenty pounds", "anxiety"),
        ("back to the daily grind", "joy"),
    ],
)
def test_look_alike_words_are_not_cues(text: str, label: str) -> None:
    assert cue_counts(text)[f"word_{label}"] == 0
