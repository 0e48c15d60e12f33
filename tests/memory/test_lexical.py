"""Keyword matching in recall meets the forms of a word, in English and in French."""

from __future__ import annotations

from memory.recall.lexical import keyword_scores, stems
from tests.memory.test_recall import _record


def test_forms_of_a_word_meet_in_english_and_french() -> None:
    assert stems("adoption chevaux researching") == stems("adopted cheval research")


def test_a_question_finds_the_memory_that_says_its_word_in_another_form() -> None:
    adopted = _record("Caroline: we adopted a puppy last spring")
    other = _record("Caroline: the weather was lovely last spring")
    weather, puppy = keyword_scores([other, adopted], "Did Caroline think about adoption?")
    assert puppy > weather


def test_numbers_stem_as_themselves_as_snowball_says() -> None:
    import snowballstemmer

    english, french = snowballstemmer.stemmer("english"), snowballstemmer.stemmer("french")
    numbers = ["0", "7", "42", "2023", "0930", "1999", "٣٤"]
    assert stems(" ".join(numbers)) == [french.stemWord(english.stemWord(n)) for n in numbers] == numbers
