"""One sweep: send every unprompted message that is due, each exactly once, then reschedule its item.

Plain async code with an injected clock; `jobs.runner` runs `tick` every minute. A sweep takes due items in
batches (leased, so concurrent sweeps never share one), reads the batch's profiles (one round trip) and decides
each item from its person's current profile; then, a chunk of `concurrency` items at a time, claims their
occurrences (one round trip), composes, turns the claims into "sending" (only a claim's holder can; one round
trip), sends, writes the outcome (sent, given back, moved to the next occurrence; one round trip), and adds
the messages to the conversation windows and the disclosure marks to the profiles (one round trip each).

A live sweep renews its claims while it composes; one that dies before "sending" is recovered one lease
(SOUVENIR_PROACTIVE_LEASE_S, 60 s) after its last renewal: the next sweep of any replica takes its claims
over. One that dies while a chunk is being sent leaves those occurrences "sending", never retried: a rare
lost message (at most one chunk) rather than a duplicate.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import Enum
from typing import TypeVar

from bot.engine.media.picture_ports import PictureMessenger
from bot.engine.media.pictures import Picture
from bot.engine.metrics import NoMetrics, ProactiveMetrics
from bot.engine.model import ChatTurn, UserProfile, UserRef, dm_conversation_id
from bot.engine.noop import NoIdentities
from bot.engine.ports import Clock, DatedEvents, Identities, Messenger
from bot.engine.safety.disclosure import DisclosurePolicy
from bot.errors import UserUnreachable
from jobs.birthday_card import BirthdayCards
from jobs.compose import Composer
from jobs.decisions import Decider, Decision, DropUser, ForgetEvent, Move, Send
from jobs.due_store import Claim, ClaimRequest, DueStore
from jobs.members import Member
from jobs.ports import SweepProfiles, WindowAppends
from jobs.schedule import ScheduleOptions

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class SweepOptions:
    """What a sweep decides and writes with: when messages go (`ScheduleOptions`), the language of a person who
    chose none (SOUVENIR_DEFAULT_LANGUAGE) and the AI disclosure (SOUVENIR_DISCLOSURE_*)."""

    schedule: ScheduleOptions = field(default_factory=ScheduleOptions)
    default_language: str = "en"
    disclosure: DisclosurePolicy = field(default_factory=DisclosurePolicy)


@dataclass(frozen=True, slots=True)
class SweepReport:
    taken: int = 0
    sent: int = 0


class Outcome(Enum):
    SENT = "sent"
    FAILED = "failed"  # the platform refused for now: retry soon
    UNREACHABLE = "unreachable"  # the person blocked the bot
    OVERTAKEN = "overtaken"  # a recovering sweep took the claim over while we composed


@dataclass(frozen=True, slots=True)
class _Result:
    send: Send
    outcome: Outcome
    counted: bool  # the claim counted against the daily cap (give it back if nothing was sent)
    text: str = ""
    disclosed: bool = False
    at: datetime | None = None
    account: str = ""  # the account it was delivered to (a linked person's last-used one)


# Why a due message was not sent this time, as /metrics names it.
_SKIPPED_CLAIMS = {Claim.CAPPED: "capped", Claim.AWAITING_ANSWER: "awaiting_answer", Claim.DONE: "already_sent"}


class Sweeper:
    def __init__(
        self,
        options: SweepOptions,
        *,
        due: DueStore,
        profiles: SweepProfiles,
        window: WindowAppends,
        dated_events: DatedEvents,
        composer: Composer,
        messengers: Mapping[str, Messenger],
        clock: Clock,
        batch_size: int = 200,
        concurrency: int = 32,
        retry_delay: timedelta = timedelta(minutes=1),
        metrics: ProactiveMetrics | None = None,
        identities: Identities | None = None,
        renew_every: timedelta | None = None,
        cards: BirthdayCards | None = None,
    ) -> None:
        self._options = options
        self._renew_every = renew_every or due.lease / 3  # three chances to renew before the lease runs out
        self._cards = cards  # None: pictures are off
        self._identities = identities or NoIdentities()  # a linked person is written to where last seen
        self._metrics = metrics or NoMetrics()
        self._due = due
        self._profiles = profiles
        self._window = window
        self._decider = Decider(options.schedule, due=due, dated_events=dated_events)
        self._composer = composer
        self._messengers = dict(messengers)
        self._clock = clock
        self._batch_size = batch_size
        self._concurrency = asyncio.Semaphore(concurrency)
        self._chunk = concurrency
        self._retry_delay = retry_delay
        self._stopping = False

    def stop(self) -> None:
        """Take no new batch (the current one finishes)."""
        self._stopping = True

    async def tick(self, *, max_batches: int = 10_000) -> SweepReport:
        taken = sent = 0
        for _ in range(max_batches):
            if self._stopping:
                break
            batch = await self._due.take_due(self._clock.now(), self._batch_size)
            if not batch:
                break
            taken += len(batch)
            sent += await self._sweep_batch(batch)
        return SweepReport(taken, sent)

    async def _sweep_batch(self, batch: list[Member]) -> int:
        profiles = await self._load_profiles(batch)
        now = self._clock.now()
        decisions = await asyncio.gather(*(self._guarded(m, self._decide(m, profiles, now)) for m in batch))
        moves: dict[Member, datetime | None] = {}
        forgotten: list[Member] = []
        sends: list[Send] = []
        for decision in decisions:
            if isinstance(decision, Move):
                moves[decision.member] = decision.at
                if decision.skipped:
                    self._metrics.proactive_skipped(decision.skipped)
            elif isinstance(decision, ForgetEvent):
                forgotten.append(decision.member)
            elif isinstance(decision, DropUser):
                await self._due.drop_schedules(decision.user_key, unreachable=True)
            elif isinstance(decision, Send):
                if decision.request.member.platform in self._messengers:
                    sends.append(decision)
                else:
                    log.debug("no messenger for %s; skipping %s", decision.request.member.platform, decision.request)
                    self._metrics.proactive_skipped("no_messenger")
                    moves[decision.request.member] = decision.next_at
        await self._due.apply(moves=moves, forgotten_events=forgotten)

        sends.sort(key=lambda s: s.request.require_idle)  # a wish claimed first holds a same-batch check-in back
        sent = 0
        for first in range(0, len(sends), self._chunk):  # chunk by chunk: claims stay fresh, "sending" stays short
            sent += await self._sweep_chunk(sends[first : first + self._chunk])
        return sent

    async def _load_profiles(self, batch: list[Member]) -> dict[str, UserProfile]:
        user_keys = list(dict.fromkeys(m.user_key for m in batch))
        try:
            return dict(zip(user_keys, await self._profiles.load_profiles(user_keys), strict=True))
        except Exception:
            # One unreadable profile must not hold back everyone else's: read them one by one instead.
            log.warning("could not read %d profiles at once; reading them one by one", len(user_keys), exc_info=True)
            return {}

    async def _decide(self, member: Member, profiles: dict[str, UserProfile], now: datetime) -> Decision:
        profile = profiles.get(member.user_key) or await self._profiles.load_profile(member.user_key)
        return await self._decider.decide(member, profile, now)

    async def _sweep_chunk(self, sends: list[Send]) -> int:
        moves: dict[Member, datetime | None] = {}
        results = await self._claim_and_send(sends, moves)
        sent: list[tuple[ClaimRequest, datetime]] = []
        released: list[tuple[ClaimRequest, bool]] = []
        for result in results:
            if result is not None:
                self._count(result.outcome)
            if result is None or result.outcome is Outcome.OVERTAKEN:
                continue
            member = result.send.request.member
            if result.outcome is Outcome.SENT and result.at is not None:
                sent.append((result.send.request, result.at))
                moves[member] = result.send.next_at
            else:
                released.append((result.send.request, result.counted))
                if result.outcome is Outcome.FAILED:
                    moves[member] = self._clock.now() + self._retry_delay
        await self._due.apply(moves=moves, sent=sent, released=released)
        for result in results:
            if result is not None and result.outcome is Outcome.UNREACHABLE:
                await self._guarded(result.send.request.member, self._mark_unreachable(result.send.profile.user_key))
        done = [r for r in results if r is not None and r.outcome is Outcome.SENT]
        await self._remember(done)
        return len(done)

    async def _claim_and_send(self, sends: list[Send], moves: dict[Member, datetime | None]) -> list[_Result | None]:
        claims = await self._due.claim([s.request for s in sends], self._clock.now())
        ready: list[tuple[Send, Claim]] = []
        for send, claim in zip(sends, claims, strict=True):
            member = send.request.member
            if claim is not Claim.CLAIMED and claim is not Claim.TAKEN_OVER:
                self._metrics.proactive_skipped(_SKIPPED_CLAIMS.get(claim, claim.name.lower()))
            if claim is Claim.CLAIMED or claim is Claim.TAKEN_OVER:
                if claim is Claim.TAKEN_OVER:
                    log.info("%s: taking over a claim abandoned by a stopped sweep", send.request.field)
                ready.append((send, claim))
            elif claim is Claim.CAPPED:
                log.info("daily cap reached for %s; %s held back", member.user_key, member.item)
                moves[member] = send.held_until
            elif claim is Claim.AWAITING_ANSWER or claim is Claim.DONE:
                moves[member] = send.next_at
            elif claim is Claim.UNCONFIRMED:
                log.warning("%s: a sweep died while sending it; it may not have been delivered", send.request.field)
                moves[member] = send.next_at
            # BUSY: another sweep holds it; the item comes back after its lease
        return await self._send_chunk(ready)

    def _count(self, outcome: Outcome) -> None:
        if outcome is Outcome.SENT:
            self._metrics.proactive_sent()
        else:
            self._metrics.proactive_skipped(outcome.value)

    async def _guarded(self, member: Member, work: Awaitable[T]) -> T | None:
        async with self._concurrency:
            try:
                return await work
            except Exception:
                # The item stays leased and comes back after the lease; one person's failure stops no one else.
                log.exception("unprompted message for %s failed; retrying after the lease", member.name)
                return None

    async def _send_chunk(self, chunk: list[tuple[Send, Claim]]) -> list[_Result | None]:
        """Compose, then mark "sending" together, then send: at most one chunk is ever "sending" at once, which
        bounds what a crash at the worst moment can lose."""
        renewing = asyncio.create_task(self._keep_claims([send.request for send, _ in chunk]))  # noqa: RUF006 - awaited below
        try:
            texts = await asyncio.gather(*(self._guarded(s.request.member, self._compose(s)) for s, _ in chunk))
        finally:
            renewing.cancel()
            await asyncio.gather(renewing, return_exceptions=True)
        composed = [(send, claim, text) for (send, claim), text in zip(chunk, texts, strict=True) if text is not None]
        started = await self._due.begin_send([send.request for send, _, _ in composed], self._clock.now())
        results: list[_Result | None] = []
        for (send, claim, _), ok in zip(composed, started, strict=True):
            if not ok:
                log.warning("claim on %s was taken over while composing; not sending", send.request.field)
                results.append(_Result(send, Outcome.OVERTAKEN, claim is Claim.CLAIMED))
        sending = [(send, claim, text) for (send, claim, text), ok in zip(composed, started, strict=True) if ok]
        deliveries = (self._guarded(s.request.member, self._deliver(s, c, t)) for s, c, t in sending)
        results += await asyncio.gather(*deliveries)
        return results

    async def _keep_claims(self, requests: list[ClaimRequest]) -> None:
        """While composing (a slow model may take longer than the lease), renew the claims so no other replica
        takes them over; a killed process stops renewing, and its claims are taken over one lease later."""
        while True:
            await asyncio.sleep(self._renew_every.total_seconds())
            try:
                await self._due.renew(requests, self._clock.now())
            except Exception:
                log.warning("could not renew %d claim(s); another sweep may take them over", len(requests))

    async def _compose(self, send: Send) -> tuple[str, bool, Picture | None]:
        profile = send.profile
        language = profile.language or self._options.default_language
        now = self._clock.now()
        text = await self._composer.compose(send.occasion, profile, language, now, send.zone.key)
        card = await self._card(send, now)
        return text, self._options.disclosure.due(profile.last_disclosed_at, profile.last_seen_at, now), card

    async def _card(self, send: Send, now: datetime) -> Picture | None:
        if self._cards is None:
            return None
        try:
            return await self._cards.card_for(send.occasion, send.profile, now, send.zone.key)
        except Exception:
            log.exception("could not make a birthday card for %s; the message goes alone", send.profile.user_key)
            return None

    async def _deliver(self, send: Send, claim: Claim, composed: tuple[str, bool, Picture | None]) -> _Result:
        member, (text, disclose, card) = send.request.member, composed
        counted = claim is Claim.CLAIMED
        language = send.profile.language or self._options.default_language
        shown = self._options.disclosure.shown(text, language, disclose)
        try:
            account = await self._identities.reach(member.user_key)
            messenger = self._messengers.get(account.partition(":")[0])
            if messenger is None:  # that platform is not running here: the person's own account, then
                account, messenger = member.user_key, self._messengers[member.platform]
            if card is not None and isinstance(messenger, PictureMessenger):
                await messenger.send_direct_picture(account, shown, card)  # the message is the card's caption
            else:
                await messenger.send_direct(account, shown)
        except UserUnreachable:
            return _Result(send, Outcome.UNREACHABLE, counted)
        except Exception:
            log.exception("sending to %s failed; retrying shortly", member.user_key)
            return _Result(send, Outcome.FAILED, counted)
        return _Result(send, Outcome.SENT, counted, text, disclose, self._clock.now(), account)

    async def _remember(self, done: list[_Result]) -> None:
        """Replies have context, and the disclosure is not repeated too soon. Best effort: these were sent."""
        turns: dict[str, list[ChatTurn]] = {}
        disclosed: dict[str, datetime] = {}
        for result in done:
            user_key, at = result.send.profile.user_key, result.at or self._clock.now()
            platform, _, user_id = (result.account or user_key).partition(":")  # the chat it was sent to
            conversation = dm_conversation_id(UserRef(platform, user_id))
            turns.setdefault(conversation, []).append(ChatTurn("assistant", result.text, at))
            if result.disclosed:
                disclosed[user_key] = max(at, disclosed.get(user_key, at))
        await asyncio.gather(self._add_to_windows(turns), self._mark_disclosed(disclosed))

    async def _add_to_windows(self, turns: dict[str, list[ChatTurn]]) -> None:
        if not turns:
            return
        try:
            await self._window.append_turns_to_many(turns)
        except Exception:
            log.exception("could not add %d unprompted message(s) to conversation windows", len(turns))

    async def _mark_disclosed(self, disclosed: dict[str, datetime]) -> None:
        if not disclosed:
            return
        try:  # one field each: a setting the person changed since the sweep read the profile stays as it is
            await self._profiles.mark_disclosed(disclosed)
        except Exception:
            log.exception("could not record the AI disclosure sent to %d person(s)", len(disclosed))

    async def _mark_unreachable(self, user_key: str) -> None:
        log.info("%s blocked the bot; unscheduling their unprompted messages", user_key)
        profile = await self._profiles.load_profile(user_key)
        await self._profiles.save_profile(replace(profile, reachable=False))
        await self._due.drop_schedules(user_key, unreachable=True)
