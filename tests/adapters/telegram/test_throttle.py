"""Outgoing messages are paced per chat and overall (with an injected clock: no real waiting)."""

from __future__ import annotations

import asyncio

from adapters.telegram.throttle import SendThrottle


class ManualTime:
    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        """Records the wait, lets other tasks run, then jumps to the wake-up time."""
        self.sleeps.append(round(seconds, 6))
        wake = self.now + seconds
        await asyncio.sleep(0)
        self.now = max(self.now, wake)


async def test_sends_to_one_chat_are_spaced_by_the_interval() -> None:
    time = ManualTime()
    throttle = SendThrottle(per_chat_interval=1.0, overall_per_second=25, now=time.clock, sleep=time.sleep)
    for _ in range(3):
        await throttle.wait_turn(7)
    assert time.sleeps == [1.0, 1.0]


async def test_different_chats_do_not_wait_for_each_other() -> None:
    time = ManualTime()
    throttle = SendThrottle(per_chat_interval=1.0, overall_per_second=25, now=time.clock, sleep=time.sleep)
    for chat in range(10):
        await throttle.wait_turn(chat)
    assert time.sleeps == []


async def test_concurrent_senders_to_one_chat_queue_up() -> None:
    time = ManualTime()
    throttle = SendThrottle(per_chat_interval=1.0, overall_per_second=25, now=time.clock, sleep=time.sleep)
    await asyncio.gather(*(throttle.wait_turn(7) for _ in range(3)))
    # All three reserved a slot at t=100: they wait 0, 1 and 2 seconds.
    assert sorted(time.sleeps) == [1.0, 2.0]


async def test_the_overall_rate_holds_across_chats() -> None:
    time = ManualTime()
    throttle = SendThrottle(per_chat_interval=1.0, overall_per_second=3, now=time.clock, sleep=time.sleep)
    for chat in range(7):
        await throttle.wait_turn(chat)
    # Three per rolling second: the 4th and 7th sends wait for the window to move on.
    assert time.sleeps == [1.0, 1.0]
