"""`souvenir run` leaves its start-up objects out of the collector's full passes, and not its start-up garbage."""

from __future__ import annotations

import gc
import weakref

from bot.startup_objects import frozen_startup_objects


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def test_what_is_left_after_start_up_is_frozen_and_its_garbage_is_not() -> None:
    garbage = _Node()
    gone = weakref.ref(garbage)
    del garbage

    with frozen_startup_objects() as frozen:
        assert frozen > 1000 and gc.get_freeze_count() > 1000  # this test process's modules, at least
        assert gone() is None  # collected before the freeze, not kept for the life of the process
    assert gc.get_freeze_count() == 0  # given back on stop (a test process starts many apps)
