"""What to do with one due item right now: send an occurrence, move it, or drop it.

Works from the person's current profile (the sweep reads a batch's profiles together, just before deciding)
and dated events, so edits, zone changes and forgotten memories are always taken into account; writes
nothing: the sweep applies the decisions of a batch together.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.engine.model import DatedEvent, UserProfile
from bot.engine.ports import DatedEvents
from bot.engine.safety.content_policy import is_minor
from jobs import members
from jobs import occasions as oc
from jobs import schedule as sc
from jobs.after_crisis import week_after_crisis
from jobs.due_store import ClaimRequest, DueStore
from jobs.members import Member
from jobs.unprompted import CHECKIN, Occasion


@dataclass(frozen=True, slots=True)
class Move:
    """Reschedule the item (`at` None: unschedule it)."""

    member: Member
    at: datetime | None
    skipped: str = ""  # a due message not sent, and why, as /metrics names it ("" when it was simply not due)


@dataclass(frozen=True, slots=True)
class ForgetEvent:
    member: Member


@dataclass(frozen=True, slots=True)
class DropUser:
    """The person is unreachable: none of their items should stay scheduled."""

    user_key: str


@dataclass(frozen=True, slots=True)
class Send:
    request: ClaimRequest
    occasion: Occasion
    profile: UserProfile
    zone: ZoneInfo
    next_at: datetime | None  # where the item goes once this occurrence is sent (or found already sent)
    held_until: datetime | None  # where it goes when the daily cap or an unanswered message holds it back


Decision = Move | ForgetEvent | DropUser | Send


class Decider:
    def __init__(self, options: sc.ScheduleOptions, *, due: DueStore, dated_events: DatedEvents) -> None:
        self._options = options
        self._due = due
        self._dated_events = dated_events

    async def decide(self, member: Member, profile: UserProfile, now: datetime) -> Decision:
        """`profile`: the person's, read for this sweep."""
        if not profile.reachable:
            return DropUser(member.user_key)
        zone = oc.zone_named(profile.timezone, self._options.default_timezone)
        if member.item == members.CHECKIN:
            return self._checkin(member, profile, zone, now)
        return await self._dated(member, profile, zone, now)

    async def _dated(self, member: Member, profile: UserProfile, zone: ZoneInfo, now: datetime) -> Decision:
        events: list[DatedEvent] | None = None
        if member.memory_id is not None or profile.birthday is None:
            events = await self._dated_events.dated_events(member.user_key)
        event = sc.find_event(events, member) if events is not None and member.memory_id else None
        if member.memory_id is not None:
            if event is None or not sc.wanted_event(profile, event):
                return ForgetEvent(member)
            before_sent = sc.day_before_matters(event, now, zone) and await self._due.was_claimed(
                member, (event.on - timedelta(days=1)).isoformat()
            )
            occurrences = sc.event_occurrences(self._options, event, now, zone, day_before_sent=before_sent)
        else:
            birthday = sc.own_birthday(profile, events) if profile.birthday_wishes else None
            if birthday is None:
                return Move(member, None)
            occurrences = sc.birthday_occurrences(self._options, birthday, now, zone)
        due = oc.due_occurrence(occurrences, now, zone)
        if due is None:  # not yet, or its local day has passed (downtime): on to the next occurrence
            upcoming = oc.next_occurrence(occurrences, now, zone, keep_today=False)
            return Move(member, upcoming.fire_at if upcoming else None)
        if event is not None and due.phase == oc.DAY_BEFORE:  # once it is sent, no morning-of note
            occurrences = sc.event_occurrences(self._options, event, now, zone, day_before_sent=True)
        upcoming = oc.after_today(occurrences, now, zone)
        next_at = upcoming.fire_at if upcoming else None
        yearly_wish = event is None or event.yearly  # birthdays and anniversaries are never held back
        occasion = sc.event_occasion(event, due) if event else sc.birthday_occasion(profile, due)
        # The week after a crisis an occasion note becomes a quiet check-in, and like a check-in it waits for an
        # answer to the last message: one "thinking of you" left unanswered is enough.
        occasion = week_after_crisis(occasion, profile, now)
        idle = occasion.template_key == CHECKIN
        request = self._request(member, due.on.isoformat(), now, zone, capped=not yearly_wish, idle=idle)
        return Send(request, occasion, profile, zone, next_at, held_until=next_at)

    def _checkin(self, member: Member, profile: UserProfile, zone: ZoneInfo, now: datetime) -> Decision:
        silence = timedelta(days=self._options.checkin_after_days)
        quiet = self._options.quiet_hours
        if not profile.checkins:
            return Move(member, None)
        if profile.last_seen_at is not None and profile.last_seen_at + silence > now:
            return Move(member, profile.last_seen_at + silence)  # they wrote meanwhile
        if is_minor(profile):
            # Reaching out after a silence is engagement a minor should never get; occasions they told us about
            # are still marked. The item stays, so an age corrected later brings check-ins back.
            return Move(member, now + silence, skipped="minor")
        if oc.in_quiet_hours(now, zone, quiet):
            return Move(member, oc.quiet_hours_end(now, zone, quiet))
        today = oc.local_today(now, zone).isoformat()
        request = self._request(member, today, now, zone, capped=True, idle=True)
        occasion = sc.checkin_occasion(self._options)
        return Send(request, occasion, profile, zone, now + silence, oc.next_local_morning(now, zone, quiet))

    def _request(
        self, member: Member, on: str, now: datetime, zone: ZoneInfo, *, capped: bool, idle: bool
    ) -> ClaimRequest:
        return ClaimRequest(
            member=member,
            field=member.occurrence_field(on),
            token=secrets.token_hex(6),
            today=oc.local_today(now, zone).isoformat(),
            cap=self._options.daily_cap if capped else 0,
            require_idle=idle,
        )
