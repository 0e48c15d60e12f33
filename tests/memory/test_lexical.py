"""Keyword matching in recall meets the forms of a word, in English and in French."""

from __future__ import annotations

from memory.lexical import keyword_scores, stems
from tests.memory.test_recall import _record


def test_forms_of_a_word_meet_in_english_and_french() -> None:
    assert stems("adoption chevaux researching") == stems("adopted cheval research")


def test_a_question_finds_the_memory_that_says_its_word_in_another_form() -> None:
    adopted = _record("Caroline: we adopted a puppy last spring")
    other = _record("Caroline: the weather was lovely last spring")
    weather, puppy = keyword_scores([other, adopted], "Did Caroline think about adoption?")
    assert puppy > weather
