"""The /memories and /forget-all buttons: custom_ids Discord accepts, and forged ones that match nothing."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from adapters.discord.components import PAGE_SIZE, is_our_button, memories_view
from bot.engine.model import MemoryItem, MemoryPage

AT = datetime(2026, 3, 1, tzinfo=UTC)


def page(offset: int, count: int, total: int) -> MemoryPage:
    items = tuple(MemoryItem(str(uuid.uuid4()), "semantic", f"memory {n}", AT) for n in range(count))
    return MemoryPage(items, offset, total)


def matches(custom_id: str) -> bool:
    return is_our_button(custom_id)


def test_a_middle_page_has_both_arrows_and_one_forget_button_per_memory() -> None:
    view = memories_view(page(PAGE_SIZE, PAGE_SIZE, 3 * PAGE_SIZE), "en")

    assert view is not None
    components = [c for row in view.to_components() for c in row["components"]]
    assert [c["label"] for c in components] == ["‹ Previous", "Next ›", *(f"Forget #{n}" for n in range(1, 6))]
    assert not any(c.get("disabled") for c in components)
    assert all(len(c["custom_id"]) <= 100 and matches(c["custom_id"]) for c in components)


def test_an_empty_page_has_no_buttons() -> None:
    assert memories_view(MemoryPage((), 0, 0), "en") is None


@pytest.mark.parametrize(
    "forged",
    [
        "souvenir:memories:forget:0:../../etc",
        "souvenir:memories:forget:0:a b",
        "souvenir:memories:page:-5",
        "souvenir:memories:page:99999999",
        "souvenir:forget-all:confirm:discord:123",
        "souvenir:forget-all:yes",
    ],
)
def test_forged_custom_ids_match_no_button(forged: str) -> None:
    assert not matches(forged)
