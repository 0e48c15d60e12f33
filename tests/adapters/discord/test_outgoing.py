"""Splitting replies to Discord's 2000-character limit."""

from __future__ import annotations

from adapters.discord.outgoing import DISCORD_MESSAGE_LIMIT, split_message


def test_a_short_reply_is_one_message() -> None:
    assert split_message("  Hello, Alice!  ") == ["Hello, Alice!"]
    assert split_message("   ") == []


def test_a_long_reply_is_cut_between_sentences_within_the_limit() -> None:
    text = " ".join(f"This is sentence {n}, with a little more to say." for n in range(120))

    pieces = split_message(text)

    assert len(pieces) > 1
    assert all(len(piece) <= DISCORD_MESSAGE_LIMIT for piece in pieces)
    assert all(piece.endswith("to say.") for piece in pieces)
    assert " ".join(pieces) == text


def test_a_paragraph_break_is_preferred_over_a_sentence_end() -> None:
    first = "One. " * 30 + "End of the first part."
    text = first + "\n\n" + "Two. " * 10

    assert split_message(text, limit=200)[0] == first


def test_closing_quotes_stay_with_their_sentence() -> None:
    pieces = split_message("Il a dit « oui ». Puis « non ! » Ensuite rien.", limit=25)

    assert pieces == ["Il a dit « oui ».", "Puis « non ! »", "Ensuite rien."]


def test_text_without_spaces_is_cut_hard_at_the_limit() -> None:
    pieces = split_message("a" * 4500)

    assert [len(piece) for piece in pieces] == [2000, 2000, 500]
