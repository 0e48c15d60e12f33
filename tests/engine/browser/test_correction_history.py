"""A fact corrected twice (Paris → Lyon → Grenoble): the memory browser's engine side follows each replacement to
the current one, and every memory of the chain shows the whole of it, oldest first, each step since when it held."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from bot.engine.browser.memory_view import replaced_in_turn, shown_memories
from bot.engine.model import MemoryItem

MAY, JUNE, SEPT = (datetime(2026, m, d, 9, tzinfo=UTC) for m, d in ((5, 3), (6, 10), (9, 2)))


def _item(memory_id: str, text: str, at: datetime, *, ended: datetime | None = None, replaces: str = "") -> MemoryItem:
    extra: dict[str, object] = {"current": ended is None}
    if ended is not None:
        extra["valid_to"] = ended.isoformat()
    if replaces:
        extra["supersedes"] = [replaces]
    return MemoryItem(memory_id, "semantic", text, at, extra=extra)


PARIS = _item("paris", "I live in Paris", MAY, ended=JUNE)
LYON = _item("lyon", "I live in Lyon", JUNE, ended=SEPT, replaces="paris")
GRENOBLE = _item("grenoble", "I live in Grenoble", SEPT, replaces="lyon")


class Replacements:
    """The store's `replacements`, over the three memories; counts its reads."""

    def __init__(self) -> None:
        self.asked: list[list[str]] = []

    async def replacements(self, user_key: str, memory_ids: Sequence[str]) -> dict[str, MemoryItem]:
        self.asked.append(list(memory_ids))
        after = {"paris": LYON, "lyon": GRENOBLE}
        return {i: after[i] for i in memory_ids if i in after}


async def test_a_memory_corrected_twice_shows_the_whole_chain_in_order() -> None:
    store = Replacements()
    replaced = await replaced_in_turn(store, "telegram:1", [PARIS])  # type: ignore[arg-type]  # only what it reads

    [shown] = shown_memories([PARIS], replaced)

    assert shown.replaced_by == LYON
    assert [(s.item.text, s.since) for s in shown.history] == [
        ("I live in Paris", None),  # said then: its own date
        ("I live in Lyon", JUNE),
        ("I live in Grenoble", SEPT),
    ]
    assert store.asked == [["paris"], ["lyon"]]  # one read a step, the current one ends it


async def test_the_middle_step_and_the_whole_page_show_the_same_chain() -> None:
    replaced = await replaced_in_turn(Replacements(), "telegram:1", [GRENOBLE, LYON, PARIS])  # type: ignore[arg-type]

    shown = {m.item.memory_id: m for m in shown_memories([GRENOBLE, LYON, PARIS], replaced)}

    chain = ["I live in Paris", "I live in Lyon", "I live in Grenoble"]
    assert [s.item.text for s in shown["lyon"].history] == chain  # back to Paris, on to Grenoble
    assert [s.item.text for s in shown["paris"].history] == chain
    assert shown["grenoble"].history == ()  # the current one is not "no longer true"
