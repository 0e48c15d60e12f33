"""What `--user` an operator may give: the whole key, or a bare id only one stored person has."""

from __future__ import annotations

import pytest

from bot.admin.users import pick_user
from bot.engine.model import UserProfile, UserRef
from bot.errors import InvalidInput

KNOWN = [
    UserProfile("terminal:alice", display_name="Alice"),
    UserProfile("telegram:12345", display_name="Bob"),
    UserProfile("discord:12345", display_name="Bobby"),
]


def test_a_bare_id_that_only_one_person_has_is_theirs() -> None:
    assert pick_user("alice", KNOWN) == UserRef("terminal", "alice", "Alice")


def test_a_whole_key_is_taken_as_given() -> None:
    assert pick_user("telegram:12345", KNOWN).key == "telegram:12345"
    assert pick_user("telegram:999", KNOWN).key == "telegram:999"


def test_a_bare_id_two_people_share_names_both_keys() -> None:
    with pytest.raises(InvalidInput, match="ambiguous") as caught:
        pick_user("12345", KNOWN)
    assert "telegram:12345" in str(caught.value) and "discord:12345" in str(caught.value)


def test_an_unknown_id_suggests_the_close_keys() -> None:
    with pytest.raises(InvalidInput, match="did you mean terminal:alice"):
        pick_user("Ali", KNOWN)
    with pytest.raises(InvalidInput, match=r"telegram:12345.*memories users"):
        pick_user("carol", KNOWN)


@pytest.mark.parametrize("given", ["", ":12345", "telegram:"])
def test_a_malformed_key_gets_the_expected_form(given: str) -> None:
    with pytest.raises(InvalidInput, match="telegram:12345"):
        pick_user(given, KNOWN)
