from datetime import UTC, datetime

from bot.engine.commands.shown_pages import ShownPages
from bot.engine.model import MemoryItem, MemoryPage


def _page(*texts: str) -> MemoryPage:
    items = tuple(MemoryItem(f"id-{t}", "semantic", t, datetime(2026, 1, 1, tzinfo=UTC)) for t in texts)
    return MemoryPage(items, 0, len(items))


def test_the_numbers_refer_to_the_last_lines_shown_to_that_person() -> None:
    shown = ShownPages()
    shown.note("alice", _page("cat named Miso", "lives in Lyon"))
    shown.note("bob", [("id-x", "plays the cello")])
    shown.note("alice", [("id-why", "sister's wedding")])
    assert shown.last("alice") == (("id-why", "sister's wedding"),)
    assert shown.last("bob") == (("id-x", "plays the cello"),)
    assert shown.last("carol") == ()


def test_only_the_most_recent_people_are_kept() -> None:
    shown = ShownPages(kept_people=2)
    shown.note("a", _page("one"))
    shown.note("b", _page("two"))
    shown.note("a", _page("three"))  # a is the most recent again
    shown.note("c", _page("four"))
    assert shown.last("b") == ()
    assert shown.last("a") == (("id-three", "three"),)
    assert shown.last("c") == (("id-four", "four"),)
