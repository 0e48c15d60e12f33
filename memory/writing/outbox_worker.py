"""Draining the outbox: each replica runs one worker in the shared consumer group.

A worker takes first its own unfinished entries, then those a dead or stalled worker left idle for
`claim_idle_s`, one at a time, then new ones: up to `batch` of those already waiting at once, written
together (`handle_batch`: memory writes a batch in far fewer index calls); a batch that fails is written
again entry by entry, so a poison entry is still found and buried alone. An entry is acknowledged and
deleted only once written. A failure is retried a few times at once (tenacity),
then the entry stays pending and the worker backs off; after `max_attempts` failed rounds it is a poison
entry, moved to the dead-letter stream with one log line. A store outage (StoreUnavailable: Qdrant down)
is no fault of the entry: it is never counted, the entry waits until the store is back. Writes are
idempotent (memory ids are derived from the message), so an entry written twice leaves one memory.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass

from redis.exceptions import RedisError, ResponseError
from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, wait_exponential

from bot.engine.metrics import NoMetrics, OutboxMetrics
from bot.engine.model import Exchange
from bot.errors import InvalidInput, StoreUnavailable
from memory.writing.outbox import OutboxEntry, RedisOutbox

log = logging.getLogger(__name__)

Handler = Callable[[Exchange], Awaitable[None]]
BatchHandler = Callable[[Sequence[Exchange]], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class WorkerOptions:
    claim_idle_s: float = 120.0  # longer than any one write takes: a worker idle that long is gone
    max_attempts: int = 5  # failed rounds before an entry is a poison one
    block_s: float = 2.0  # how long one read waits for new entries
    retry_wait_s: float = 0.2  # the first wait between quick retries, doubled each time
    backoff_max_s: float = 30.0  # the longest pause after failures (an outage is polled this often)
    sole_consumer: bool = False  # embedded stores: no other process can be working, so nothing pending is live
    batch: int = 32  # new entries written together at most (with a batch handler)


def consumer_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


class _Outage(Exception):
    pass


class _Failed(Exception):
    pass


def _not_outage(exc: BaseException) -> bool:
    return not isinstance(exc, StoreUnavailable | InvalidInput)


class OutboxWorker:
    def __init__(
        self,
        outbox: RedisOutbox,
        handle: Handler,
        *,
        consumer: str | None = None,
        options: WorkerOptions | None = None,
        metrics: OutboxMetrics | None = None,
        handle_batch: BatchHandler | None = None,
    ) -> None:
        self._outbox = outbox
        self._handle = handle
        self._handle_batch = handle_batch
        self.consumer = consumer or consumer_name()
        self._options = options or WorkerOptions()
        self._metrics = metrics or NoMetrics()
        self._busy = False

    async def prepare(self) -> None:
        await self._outbox.ensure_group()

    async def step(self, *, block: bool = False) -> int:
        """One round: take at most one entry and write it (or bury it). Returns how many entries it took (0:
        nothing waiting); raises _Outage / _Failed when one could not be written (it stays pending),
        RedisError when Redis is away."""
        entries = await self._outbox.read_own_pending(self.consumer, 1)
        if not entries:
            idle_ms = 0 if self._options.sole_consumer else int(self._options.claim_idle_s * 1000)
            entries = await self._outbox.claim_idle(self.consumer, idle_ms, 1)
        if not entries:
            block_ms = int(self._options.block_s * 1000) if block else None
            batch = self._options.batch if self._handle_batch is not None else 1
            entries = await self._outbox.read_new(self.consumer, max(batch, 1), block_ms)
        if entries:
            self._busy = True
            try:
                await (self._write_batch(entries) if len(entries) > 1 else self._write(entries[0]))
            finally:
                self._busy = False
        self._metrics.outbox_depth(await self._outbox.depth())
        return len(entries)

    async def _write_batch(self, entries: list[OutboxEntry]) -> None:
        """New entries written together; if that fails, each is written alone (retried, counted, buried) as
        `_write` does: writes are idempotent, so what the batch wrote before failing is written again unchanged."""
        assert self._handle_batch is not None
        readable: list[tuple[OutboxEntry, Exchange]] = []
        for entry in entries:
            try:
                readable.append((entry, await self._outbox.read_exchange(entry)))
            except InvalidInput as exc:
                await self._outbox.bury(entry, str(exc))
                log.warning("outbox entry %s cannot be read; moved to the dead letters: %s", entry.entry_id, exc)
        try:
            await self._handle_batch([exchange for _, exchange in readable])
        except Exception:
            log.warning("outbox: a batch of %d entries failed; writing them one by one", len(readable), exc_info=True)
            for entry, _ in readable:
                await self._write(entry)
            return
        for entry, _ in readable:
            await self._outbox.done(entry.entry_id)

    async def _write(self, entry: OutboxEntry) -> None:
        try:
            exchange = await self._outbox.read_exchange(entry)
        except InvalidInput as exc:
            await self._outbox.bury(entry, str(exc))
            log.warning("outbox entry %s cannot be read; moved to the dead letters: %s", entry.entry_id, exc)
            return
        try:
            async for attempt in AsyncRetrying(
                retry=retry_if_exception(_not_outage),
                stop=stop_after_attempt(3),
                wait=wait_exponential(multiplier=self._options.retry_wait_s, max=self._options.backoff_max_s),
                reraise=True,
            ):
                with attempt:
                    await self._handle(exchange)
        except StoreUnavailable as exc:
            raise _Outage(str(exc)) from None
        except Exception as exc:
            attempts = await self._outbox.failed(entry.entry_id)
            if attempts >= self._options.max_attempts:
                await self._outbox.bury(entry, f"{type(exc).__name__}: {exc}")
                log.warning("outbox entry %s failed %d times; moved to the dead letters (%s)",
                            entry.entry_id, attempts, type(exc).__name__)  # fmt: skip
                return
            log.exception("writing outbox entry %s failed (attempt %d); it is retried", entry.entry_id, attempts)
            raise _Failed from None
        await self._outbox.done(entry.entry_id)

    async def run(self, stop: asyncio.Event) -> None:
        """Until `stop`: write entries as they come; pause (doubling, up to backoff_max_s) after failures."""
        failures = 0
        while not stop.is_set():
            try:
                await self.step(block=True)
                if failures:
                    log.info("outbox: writing again after %d failed round(s)", failures)
                failures = 0
                continue
            except _Outage as exc:
                if not failures:
                    log.warning("outbox: memory store unavailable, entries wait until it is back: %s", exc)
            except _Failed:
                pass
            except ResponseError as exc:
                if "NOGROUP" in str(exc):
                    # Redis came back without its data (no append-only file): the group is made again.
                    log.warning("outbox: the consumer group was gone; made again")
                    with suppress(RedisError, OSError):
                        await self.prepare()
                elif not failures:
                    log.exception("outbox: Redis refused a command; retrying")
            except (RedisError, OSError) as exc:
                if not failures:
                    log.warning("outbox: Redis unavailable (%s); retrying", type(exc).__name__)
            except Exception:  # an error boundary: the worker must outlive anything one round does
                log.exception("outbox: a round failed unexpectedly; retrying")
            failures += 1
            pause = min(self._options.backoff_max_s, self._options.retry_wait_s * 2**failures)
            with suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), pause)

    async def drain(self) -> int:
        """Write everything waiting that this worker may take, until nothing is left or a round fails;
        returns how many entries it took."""
        taken = 0
        while True:
            try:
                if not await self.step():
                    return taken
            except (_Outage, _Failed, RedisError, OSError):
                return taken
            taken += 1

    @property
    def busy(self) -> bool:
        return self._busy


@asynccontextmanager
async def running_worker(worker: OutboxWorker, grace_s: float) -> AsyncIterator[OutboxWorker]:
    """The worker runs while the context is open. On exit, what is still waiting gets `grace_s` to be
    written (as in-process writes did before the outbox); anything left stays in the stream for next time."""
    await worker.prepare()
    stop = asyncio.Event()
    task = asyncio.create_task(worker.run(stop), name="souvenir-outbox")
    try:
        yield worker
    finally:
        stop.set()
        try:
            async with asyncio.timeout(grace_s):
                if not worker.busy:
                    task.cancel()  # waiting for new entries: one it was handed meanwhile stays pending, not lost
                with suppress(asyncio.CancelledError):
                    await task
                written = await worker.drain()
                if written:
                    log.info("outbox: wrote %d waiting entr%s before stopping", written, "y" if written == 1 else "ies")
        except TimeoutError:
            log.warning("outbox: entries still waiting at the end of the grace stay queued for the next start")
        finally:
            if not task.done():
                task.cancel()
                with suppress(asyncio.CancelledError):
                    await task
