"""The one splitter both platforms use, measured per character by the caller."""

from __future__ import annotations

import pytest

from adapters.message_split import split_message


def test_a_character_wider_than_the_limit_is_refused_rather_than_looping() -> None:
    with pytest.raises(ValueError):
        split_message("🎂", 1, units=lambda c: 2)


def test_a_space_right_at_the_limit_is_a_clean_cut() -> None:
    assert split_message("abcd efgh", 4) == ["abcd", "efgh"]
