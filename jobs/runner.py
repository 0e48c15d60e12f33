"""The scheduler: APScheduler runs ONE sweep every minute for everyone (the only module using apscheduler)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.interval import IntervalTrigger

from bot.engine.media.picture_maker import PictureMaker
from bot.engine.metrics import ProactiveMetrics
from bot.engine.ports import Clock, DatedEvents, Identities, LanguageModel, LongTermMemory, Messenger, MoodState
from bot.engine.prompt.persona import Persona
from jobs.birthday_card import BirthdayCards
from jobs.compose import Composer
from jobs.planner import Planner
from jobs.ports import SweepProfiles, WindowAppends
from jobs.sweep import Sweeper, SweepOptions

log = logging.getLogger(__name__)
# With the default lease (SOUVENIR_PROACTIVE_LEASE_S=30), a killed replica's claims are taken over within a
# minute: at most one lease, then one sweep. A sweep with nothing due costs a few milliseconds.
SWEEP_EVERY = timedelta(seconds=30)

SWEEP_JOB_ID = "souvenir-proactive-sweep"
_ANCHOR = datetime(2000, 1, 1, tzinfo=UTC)


class _SweepJob:
    """Runs ticks as tasks of our own, so shutdown can let the current one finish instead of cancelling it."""

    def __init__(self, sweeper: Sweeper) -> None:
        self._sweeper = sweeper
        self._current: asyncio.Task[None] | None = None

    async def run(self) -> None:
        if self._current is not None and not self._current.done():
            return
        self._current = asyncio.create_task(self._tick())
        await asyncio.shield(self._current)

    async def _tick(self) -> None:
        try:
            report = await self._sweeper.tick()
        except Exception:
            log.exception("proactive sweep failed; the next one retries")
            return
        if report.taken:
            log.info("proactive sweep: %d item(s) looked at, %d message(s) sent", report.taken, report.sent)

    async def finish(self, grace: timedelta) -> None:
        self._sweeper.stop()
        if self._current is None or self._current.done():
            return
        try:
            await asyncio.wait_for(asyncio.shield(self._current), grace.total_seconds())
        except TimeoutError:
            log.warning("proactive sweep still running at shutdown; cancelling it (leased items are retried)")
            self._current.cancel()


@asynccontextmanager
async def open_proactive_jobs(
    options: SweepOptions,
    *,
    planner: Planner,
    profiles: SweepProfiles,
    window: WindowAppends,
    dated_events: DatedEvents,
    memory: LongTermMemory | None,
    llm: LanguageModel | None,
    messengers: Mapping[str, Messenger],
    clock: Clock,
    persona: Persona | None = None,
    moods: MoodState | None = None,
    interval: timedelta = SWEEP_EVERY,
    compose_timeout: timedelta = timedelta(minutes=2),
    shutdown_timeout: timedelta = timedelta(seconds=30),
    metrics: ProactiveMetrics | None = None,
    identities: Identities | None = None,
    pictures: PictureMaker | None = None,
) -> AsyncIterator[Planner]:
    """Start the every-minute sweep over `planner`'s schedule (the one planner the app also hands to commands
    and memory, so both see one due store); yield it; stop on exit.

    The planner's lease (SOUVENIR_PROACTIVE_LEASE_S) is how long a claim lasts without renewal; the sweep renews
    its claims while composing, so a slow model is never overtaken, and a killed replica's claims are taken over
    by the first sweep (of any replica) one lease after it died.
    """
    sweeper = Sweeper(
        options,
        due=planner.due,
        profiles=profiles,
        window=window,
        dated_events=dated_events,
        composer=Composer(llm=llm, memory=memory, timeout=compose_timeout, persona=persona, moods=moods),
        messengers=messengers,
        clock=clock,
        metrics=metrics,
        identities=identities,
        cards=BirthdayCards(pictures, memory) if pictures is not None and pictures.enabled else None,
    )
    job = _SweepJob(sweeper)
    scheduler = _start_sweeping(job, interval)
    log.info("unprompted messages: sweeping every %s for %s", interval, ", ".join(sorted(messengers)) or "no platform")
    try:
        yield planner
    finally:
        scheduler.shutdown(wait=False)
        await job.finish(shutdown_timeout)


def _start_sweeping(job: _SweepJob, interval: timedelta) -> AsyncIOScheduler:
    """APScheduler running `job` every `interval`, one run at a time (missed runs coalesce into one)."""
    quiet_apscheduler = logging.getLogger("apscheduler.executors")
    if quiet_apscheduler.level == logging.NOTSET:  # not two INFO lines a minute, unless configured otherwise
        quiet_apscheduler.setLevel(logging.WARNING)
    scheduler = AsyncIOScheduler(timezone=UTC)
    scheduler.add_job(
        job.run,
        # Anchored on a whole minute: a 09:00 wish goes at 09:00:00, not whenever the process started + k min.
        IntervalTrigger(seconds=interval.total_seconds(), start_date=_ANCHOR, timezone=UTC),
        id=SWEEP_JOB_ID,
        coalesce=True,
        max_instances=1,
        misfire_grace_time=max(1, int(interval.total_seconds())),
    )
    scheduler.start()
    return scheduler
