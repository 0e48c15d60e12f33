"""What each person was last shown (a /memories page or a /memories why list), so "/forget 3" means the
third line they saw. Kept in this process only, for the most recent people."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from bot.engine.model import MemoryPage

KEPT_PEOPLE = 10_000


class ShownPages:
    def __init__(self, kept_people: int = KEPT_PEOPLE) -> None:
        self._kept = kept_people
        # user key -> (memory id, text) of each line shown, numbered from 1.
        self._shown: OrderedDict[str, tuple[tuple[str, str], ...]] = OrderedDict()

    def note(self, user_key: str, page: MemoryPage | Sequence[tuple[str, str]]) -> None:
        shown = [(item.memory_id, item.text) for item in page.items] if isinstance(page, MemoryPage) else page
        self._shown[user_key] = tuple(shown)
        self._shown.move_to_end(user_key)
        while len(self._shown) > self._kept:
            self._shown.popitem(last=False)

    def last(self, user_key: str) -> tuple[tuple[str, str], ...]:
        """The lines last shown to the person (empty: nothing shown since this process started)."""
        return self._shown.get(user_key, ())

    def forget_user(self, user_key: str) -> None:
        self._shown.pop(user_key, None)
