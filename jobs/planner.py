"""Keeping a person's unprompted messages scheduled: `OccasionPlanner` and `UserDataEraser`.

Usable on its own (commands call it) — the sweep that sends is `jobs.sweep.Sweeper`.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from bot.engine.model import DatedEvent
from bot.engine.ports import Clock, DatedEvents, ErasureEpochs, ProfileStore
from jobs import members
from jobs import occasions as oc
from jobs import schedule as sc
from jobs.due_store import DueStore, RedisClient
from jobs.members import Member

log = logging.getLogger(__name__)
# How long a sweep's claim lasts without renewal (SOUVENIR_PROACTIVE_LEASE_S); a killed replica's are taken over
# one lease after it died.
DEFAULT_LEASE = timedelta(seconds=30)


class Planner:
    def __init__(
        self,
        options: sc.ScheduleOptions,
        *,
        redis: RedisClient,
        profiles: ProfileStore,
        dated_events: DatedEvents,
        clock: Clock,
        lease: timedelta = DEFAULT_LEASE,
        erasures: ErasureEpochs | None = None,
    ) -> None:
        self._options = options
        self._erasures = erasures
        self._profiles = profiles
        self._dated_events = dated_events
        self._clock = clock
        self.due = DueStore(redis, lease=lease)

    async def plan_user(self, user_key: str) -> None:
        """Recompute the person's items from their profile and dated events. When the person erased their
        data meanwhile (read before, written after), the erasure wins: what was planned goes."""
        epoch = None if self._erasures is None else await self._erasures.epoch(user_key)
        await self._plan(user_key)
        if self._erasures is not None and await self._erasures.epoch(user_key) != epoch:
            await self.forget_user(user_key)

    async def _plan(self, user_key: str) -> None:
        profile = await self._profiles.load_profile(user_key)
        if not profile.reachable:
            await self.due.drop_schedules(user_key, unreachable=True)
            return
        now = self._clock.now()
        zone = oc.zone_named(profile.timezone, self._options.default_timezone)
        previous_ids = await self.due.event_ids(user_key)
        events: list[DatedEvent] | None
        try:
            events = await self._dated_events.dated_events(user_key)
        except Exception:
            # Keep the event items as they are; the birthday and check-in still get planned.
            log.exception("could not read dated events of %s; their event items are left unchanged", user_key)
            events = None

        occurrences: dict[Member, list[oc.Occurrence]] = {}
        birthday = sc.own_birthday(profile, events) if profile.birthday_wishes else None
        if birthday is not None:
            occurrences[members.birthday(user_key)] = sc.birthday_occurrences(self._options, birthday, now, zone)
        wanted = [e for e in events or () if sc.wanted_event(profile, e)]
        for event in wanted:
            member = members.event(user_key, event.memory_id)
            before_sent = sc.day_before_matters(event, now, zone) and await self.due.was_claimed(
                member, (event.on - timedelta(days=1)).isoformat()
            )
            occurrences[member] = sc.event_occurrences(self._options, event, now, zone, day_before_sent=before_sent)

        entries: dict[Member, datetime] = {}
        removed: list[Member] = []
        candidates = list(occurrences)
        today = oc.local_today(now, zone)
        for member, score in zip(candidates, await self.due.scores(candidates), strict=True):
            # An item that was already due today (maybe not sent yet: late after a restart, or the zone just
            # changed) keeps today's occurrence; the sweep's per-occurrence claim stops a second sending.
            keep_today = score is not None and oc.local_today(datetime.fromtimestamp(score, UTC), zone) <= today
            upcoming = oc.next_occurrence(occurrences[member], now, zone, keep_today=keep_today)
            if upcoming is None:
                removed.append(member)
            else:
                entries[member] = upcoming.fire_at
        if birthday is None and (events is not None or not profile.birthday_wishes):
            removed.append(members.birthday(user_key))  # (while events are unknown, one may hold it: left alone)

        checkin = members.checkin(user_key)
        if profile.checkins:
            since = profile.last_seen_at or now
            entries[checkin] = max(since + timedelta(days=self._options.checkin_after_days), now)
        else:
            removed.append(checkin)

        kept_ids = previous_ids
        if events is not None:
            kept_ids = {m.memory_id for m in entries if m.memory_id is not None}
            removed += [members.event(user_key, i) for i in previous_ids - kept_ids]
        await self.due.schedule(entries, removed)
        if kept_ids != previous_ids:
            await self.due.set_event_ids(user_key, kept_ids)
        log.debug("planned %d unprompted item(s) for %s", len(entries), user_key)

    async def note_activity(self, user_key: str, at: datetime) -> None:
        """The person wrote: their check-in moves to `at` + the silence delay, and nothing is in flight.
        Someone who had blocked the bot and writes again gets their schedule back."""
        next_checkin = at + timedelta(days=self._options.checkin_after_days)
        if await self.due.note_activity(members.checkin(user_key), next_checkin):
            await self.plan_user(user_key)

    async def forget_user(self, user_key: str) -> int:
        return await self.due.forget_user(user_key)
