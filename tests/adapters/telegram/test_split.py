"""Long replies are cut into Telegram-sized pieces at natural boundaries."""

from __future__ import annotations

import pytest

from adapters.telegram.split import TELEGRAM_MESSAGE_LIMIT, split_message, telegram_length


def words_of(pieces: list[str]) -> list[str]:
    return " ".join(pieces).split()


def test_a_short_reply_is_sent_whole() -> None:
    assert split_message("  Hello there.\n\nHow are you?  ") == ["Hello there.\n\nHow are you?"]
    assert split_message("") == []


def test_a_long_reply_is_cut_between_paragraphs_and_loses_nothing() -> None:
    paragraphs = [f"Paragraph {n}. " + "word " * 300 for n in range(6)]  # ~1.5k characters each
    text = "\n\n".join(p.strip() for p in paragraphs)
    pieces = split_message(text)
    assert len(pieces) > 1
    assert all(telegram_length(piece) <= TELEGRAM_MESSAGE_LIMIT for piece in pieces)
    assert all(piece.startswith("Paragraph") for piece in pieces)
    assert words_of(pieces) == text.split()


def test_without_paragraphs_it_cuts_after_a_sentence_not_inside_one() -> None:
    sentence = "I remember your sister's wedding is in June, and you were nervous about the speech! "
    text = sentence * 120  # ~10k characters, no newline
    pieces = split_message(text, limit=1000)
    assert all(telegram_length(piece) <= 1000 for piece in pieces)
    assert all(piece.endswith("speech!") for piece in pieces)
    assert words_of(pieces) == text.split()


def test_french_spacing_before_question_marks_still_ends_sentences() -> None:
    text = "Tu te souviens de Lyon ? " * 100
    pieces = split_message(text, limit=300)
    assert all(piece.endswith("Lyon ?") for piece in pieces)


def test_an_unbroken_run_is_cut_hard_at_the_limit() -> None:
    text = "a" * 10_000
    pieces = split_message(text)
    assert [len(piece) for piece in pieces] == [4096, 4096, 1808]


def test_emoji_count_twice_and_are_never_cut_in_half() -> None:
    text = "🎂" * 3000  # 6000 UTF-16 units
    pieces = split_message(text)
    assert [telegram_length(piece) for piece in pieces] == [4096, 1904]
    assert "".join(pieces) == text


def test_a_limit_too_small_for_any_character_is_refused() -> None:
    with pytest.raises(ValueError):
        split_message("hello", limit=1)
