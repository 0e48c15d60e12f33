"""What a person reads of the person model in /memories, in French and English, and how they say a line is
wrong: « /memories faux b » as well as "/memories wrong b"."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime

from bot.engine.commands.person_model import correct_line, person_model_listing, wrong_line
from bot.engine.model import UserProfile
from bot.engine.prompt.person_model import HOME, NAME, PersonLine, PersonModel, Source, addressed

TODAY = date(2026, 3, 20)
MODEL = PersonModel(
    "telegram:1", datetime(2026, 3, 20, 12, tzinfo=UTC),
    (PersonLine(NAME, "Léa", (Source("f1", "semantic", "Je m'appelle Léa"),)),
     PersonLine(HOME, "Lyon", (Source("f2", "semantic", "J'habite à Lyon"), Source("f3", "semantic", "Lyon")))),
)  # fmt: skip


class Editor:
    def __init__(self) -> None:
        self.set_aside_ids: list[str] = []

    async def person_model(self, user_key: str) -> PersonModel | None:
        return MODEL

    async def set_aside(self, user_key: str, memory_ids: Sequence[str]) -> None:
        self.set_aside_ids.extend(memory_ids)


def test_a_line_is_named_by_its_letter_in_either_language() -> None:
    for said in ("wrong b", "faux b", "fausse B", "corrige b)", " fix b "):
        assert wrong_line(said) == 2, said
    for said in ("b", "wrong", "faux 2", "wrong bb", "what is wrong b?"):
        assert wrong_line(said) is None, said


def test_the_listing_is_lettered_in_the_persons_language() -> None:
    listing = person_model_listing(MODEL, "fr", TODAY)
    assert listing.splitlines()[:3] == ["Ce que je sais de toi :", "a) Prénom : Léa", "b) Habite à Lyon"]
    assert "/memories faux" in listing
    assert person_model_listing(MODEL, "en", TODAY).splitlines()[2] == "b) Lives in Lyon"


async def test_faux_b_sets_aside_every_memory_behind_line_b() -> None:
    editor = Editor()
    text, ok = await correct_line(editor, "telegram:1", 2, "fr", TODAY)
    assert ok and "« Habite à Lyon »" in text and sorted(editor.set_aside_ids) == ["f2", "f3"]
    text, ok = await correct_line(editor, "telegram:1", 5, "fr", TODAY)
    assert not ok and "pas de ligne e)" in text


NOW = datetime(2026, 3, 20, 12, tzinfo=UTC)


def test_how_they_asked_to_be_called_is_the_first_line_in_either_language() -> None:
    max_model = addressed(MODEL, "telegram:1", "Max", "they/them", NOW)
    assert person_model_listing(max_model, "en", TODAY).splitlines()[1:4] == [
        "a) Name: Léa", "b) Goes by Max (they/them)", "c) Lives in Lyon",
    ]  # fmt: skip
    assert person_model_listing(addressed(MODEL, "telegram:1", "Max", "iel", NOW), "fr", TODAY).splitlines()[2] == (
        "b) Se fait appeler Max (iel)"
    )
    lea = addressed(MODEL, "telegram:1", "Léa", "iel", NOW)  # the name their memories give is not said twice
    assert person_model_listing(lea, "fr", TODAY).splitlines()[1:4] == [
        "a) Prénom : Léa", "b) Pronoms : iel", "c) Habite à Lyon",
    ]  # fmt: skip
    assert addressed(MODEL, "telegram:1", "Léa", "", NOW) is MODEL
    only_pronouns = addressed(None, "telegram:1", "", "elle", NOW)
    assert person_model_listing(only_pronouns, "fr", TODAY).splitlines()[1] == "a) Pronoms : elle"
    assert person_model_listing(addressed(None, "telegram:1", "Max", "", NOW), "en", TODAY).splitlines()[1] == (
        "a) Goes by Max"
    )
    assert addressed(MODEL, "telegram:1", "", "", NOW) is MODEL


async def test_the_profile_line_is_changed_with_profile_not_set_aside() -> None:
    editor = Editor()
    profile = UserProfile("telegram:1", preferred_name="Max", pronouns="iel")
    text, ok = await correct_line(editor, "telegram:1", 2, "fr", TODAY, profile, NOW)
    assert not ok and "/profile" in text and editor.set_aside_ids == []
    text, ok = await correct_line(editor, "telegram:1", 3, "fr", TODAY, profile, NOW)  # c) with the profile's b)
    assert ok and "« Habite à Lyon »" in text and sorted(editor.set_aside_ids) == ["f2", "f3"]
