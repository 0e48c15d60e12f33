"""What a person reads of the person model in /memories, in French and English, and how they say a line is
wrong: « /memories faux b » as well as "/memories wrong b"."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime

from bot.engine.person_model import HOME, NAME, PersonLine, PersonModel, Source
from bot.engine.person_model_command import correct_line, person_model_listing, wrong_line

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
