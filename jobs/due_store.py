"""The Redis side of unprompted messages; the only module in `jobs` that talks to Redis.

Keys:
- `souvenir:jobs:due` — sorted set of every scheduled item (`jobs.members`), scored by next fire time (UTC
  epoch seconds). A sweep *takes* due members by pushing their score a lease ahead, atomically, so two
  processes never work on the same member at once and a crashed one's members come back after the lease.
- `souvenir:jobs:state:<user_key>` — hash of the person's send state: one field per occurrence
  (`o|<item>|<local date>` = "c <ts> <token>" claimed, "s <ts> <token>" sending, "d <ts>" sent),
  `inflight` (epoch of the last unanswered proactive message, or "p<token>" while one is being sent) and
  `cap` ("<local date> <count>"), and `unreachable` once their items were dropped because they blocked the bot.
  Claim fields live a few days (pruned on the next claim); the hash expires unless a message is in flight.
- `souvenir:jobs:events:<user_key>` — set of the memory ids that have a scheduled item (to unschedule them).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import IntEnum
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.client import Pipeline
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError

from jobs.members import BIRTHDAY, CHECKIN, Member

log = logging.getLogger(__name__)

RedisClient = aioredis.Redis

DUE_KEY = "souvenir:jobs:due"
_STATE = "souvenir:jobs:state:"
_EVENTS = "souvenir:jobs:events:"


class Claim(IntEnum):
    BUSY = 0  # another sweep holds a fresh claim
    CLAIMED = 1  # ours; counted against the daily cap
    TAKEN_OVER = 2  # ours, recovered from a crashed sweep (already counted)
    DONE = 3  # already sent — never again
    CAPPED = 4  # the person's daily cap is reached
    AWAITING_ANSWER = 5  # a proactive message is still unanswered
    UNCONFIRMED = 6  # a sweep died while the platform was sending it: maybe delivered, never retried


_TAKE_DUE = """
local items = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(items) do redis.call('ZADD', KEYS[1], 'XX', ARGV[2], member) end
return items
"""

# KEYS[1] state hash. ARGV: field, now, stale_before, token, today, cap (0 = not capped), require_idle,
# claim_ttl, prune_before. A claim also counts as in flight ("p<token>") so a check-in cannot slip in beside it.
_CLAIM = """
local function hold()
  local inflight = redis.call('HGET', KEYS[1], 'inflight')
  if (not inflight) or string.sub(inflight, 1, 1) == 'p' then
    redis.call('HSET', KEYS[1], 'inflight', 'p' .. ARGV[4])
    redis.call('EXPIRE', KEYS[1], tonumber(ARGV[8]))
  end
end
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current then
  local state, ts = string.match(current, '^(%a) (%S+)')
  if state == 'd' then return 3 end
  if tonumber(ts) >= tonumber(ARGV[3]) then return 0 end
  if state == 's' then return 6 end
  redis.call('HSET', KEYS[1], ARGV[1], 'c ' .. ARGV[2] .. ' ' .. ARGV[4])
  hold()
  return 2
end
if ARGV[7] == '1' and redis.call('HEXISTS', KEYS[1], 'inflight') == 1 then return 5 end
local count = 0
local cap = redis.call('HGET', KEYS[1], 'cap')
if cap then
  local day, n = string.match(cap, '^(%S+) (%d+)$')
  if day == ARGV[5] then count = tonumber(n) end
end
if tonumber(ARGV[6]) > 0 and count >= tonumber(ARGV[6]) then return 4 end
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  if string.sub(fields[i], 1, 2) == 'o|' then
    local ts = string.match(fields[i + 1], '^%a (%S+)')
    if tonumber(ts) < tonumber(ARGV[9]) then redis.call('HDEL', KEYS[1], fields[i]) end
  end
end
redis.call('HSET', KEYS[1], ARGV[1], 'c ' .. ARGV[2] .. ' ' .. ARGV[4], 'cap', ARGV[5] .. ' ' .. (count + 1))
hold()
return 1
"""

# KEYS[1] state hash. ARGV: field, token, now. Our claim becomes "sending" — the point of no retry.
_BEGIN_SEND = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 0 end
local state, ts, token = string.match(current, '^(%a) (%S+) (%S+)$')
if state ~= 'c' or token ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], 's ' .. ARGV[3] .. ' ' .. ARGV[2])
return 1
"""

# KEYS[1] state hash. ARGV: field, token, now. A live sweep still composing keeps its claim fresh.
_RENEW = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 0 end
local state, ts, token = string.match(current, '^(%a) (%S+) (%S+)$')
if state ~= 'c' or token ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], 'c ' .. ARGV[3] .. ' ' .. ARGV[2])
return 1
"""

# KEYS[1] state hash. ARGV: field, token, today, uncount. Give a claim back (nothing was sent).
_RELEASE = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 0 end
local token = string.match(current, '^%a %S+ (%S+)$')
if token ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('HGET', KEYS[1], 'inflight') == 'p' .. ARGV[2] then redis.call('HDEL', KEYS[1], 'inflight') end
if ARGV[4] == '1' then
  local cap = redis.call('HGET', KEYS[1], 'cap')
  if cap then
    local day, n = string.match(cap, '^(%S+) (%d+)$')
    if day == ARGV[3] and tonumber(n) > 0 then redis.call('HSET', KEYS[1], 'cap', day .. ' ' .. (tonumber(n) - 1)) end
  end
end
return 1
"""

# KEYS[1] state hash. ARGV: field, now. Sent: mark it, and count it as in flight until answered.
_FINISH = """
redis.call('HSET', KEYS[1], ARGV[1], 'd ' .. ARGV[2], 'inflight', ARGV[2])
redis.call('PERSIST', KEYS[1])
return 1
"""


@dataclass(frozen=True, slots=True)
class ClaimRequest:
    member: Member
    field: str
    token: str
    today: str  # the person's local date, ISO: the day the cap counts
    cap: int  # 0 when the item is not held back by the daily cap
    require_idle: bool  # only when nothing proactive is awaiting an answer


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _epoch(at: datetime) -> int:
    return int(at.timestamp())


def _call(pipe: Pipeline, script: AsyncScript, key: str, args: Sequence[str | int]) -> None:
    pipe.evalsha(script.sha, 1, key, *args)


class DueStore:
    def __init__(
        self,
        client: RedisClient,
        *,
        lease: timedelta = timedelta(minutes=10),
        claim_ttl: timedelta = timedelta(days=3),
    ) -> None:
        self._redis = client
        self.lease = lease
        self._claim_ttl_s = int(claim_ttl.total_seconds())
        self._take_due = client.register_script(_TAKE_DUE)
        self._claim = client.register_script(_CLAIM)
        self._begin_send = client.register_script(_BEGIN_SEND)
        self._release = client.register_script(_RELEASE)
        self._renew = client.register_script(_RENEW)
        self._finish = client.register_script(_FINISH)

    # --- the schedule ---------------------------------------------------------------------------------

    async def scores(self, members: list[Member]) -> list[float | None]:
        if not members:
            return []
        found = await self._redis.zmscore(DUE_KEY, [m.name for m in members])
        return [None if s is None else float(s) for s in found]

    async def schedule(self, entries: Mapping[Member, datetime], removed: Iterable[Member] = ()) -> None:
        gone = [m.name for m in removed]
        async with self._redis.pipeline(transaction=True) as pipe:
            if entries:
                pipe.zadd(DUE_KEY, {m.name: _epoch(at) for m, at in entries.items()})
            if gone:
                pipe.zrem(DUE_KEY, *gone)
            await pipe.execute()

    async def take_due(self, now: datetime, limit: int) -> list[Member]:
        raw = await self._take_due(keys=[DUE_KEY], args=[_epoch(now), _epoch(now + self.lease), limit])
        taken, unknown = [], []
        for name in map(_text, raw):
            try:
                taken.append(Member.parse(name))
            except ValueError:
                unknown.append(name)
        if unknown:  # not ours (or from a future version): never let it block the sweep
            log.warning("dropping %d unknown scheduled item(s), e.g. %r", len(unknown), unknown[0])
            await self._redis.zrem(DUE_KEY, *unknown)
        return taken

    async def note_activity(self, checkin: Member, next_checkin: datetime) -> bool:
        """Push back an existing check-in (XX: opted-out people have none) and clear what was in flight.
        True when the person's items had been dropped because they were unreachable (they need planning)."""
        state = _STATE + checkin.user_key
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zadd(DUE_KEY, {checkin.name: _epoch(next_checkin)}, xx=True)
            pipe.hdel(state, "inflight")
            pipe.hdel(state, "unreachable")
            pipe.expire(state, self._claim_ttl_s)
            results = await pipe.execute()
        return bool(results[2])

    async def event_ids(self, user_key: str) -> set[str]:
        return {_text(v) for v in await self._redis.smembers(_EVENTS + user_key)}

    async def set_event_ids(self, user_key: str, memory_ids: Iterable[str]) -> None:
        ids = list(memory_ids)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.delete(_EVENTS + user_key)
            if ids:
                pipe.sadd(_EVENTS + user_key, *ids)
            await pipe.execute()

    async def drop_schedules(self, user_key: str, *, unreachable: bool = False) -> int:
        """Unschedule every item of the person (their send state stays, so nothing is sent twice); how many
        there were. With `unreachable`, remember why: their next message brings the schedule back (see
        `note_activity`)."""
        events = await self.event_ids(user_key)
        members = [Member(user_key, BIRTHDAY).name, Member(user_key, CHECKIN).name]
        members += [Member(user_key, "e:" + memory_id).name for memory_id in events]
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.zrem(DUE_KEY, *members)
            pipe.delete(_EVENTS + user_key)
            if unreachable:
                pipe.hset(_STATE + user_key, "unreachable", "1")
                pipe.persist(_STATE + user_key)
            done = await pipe.execute()
        return int(done[0])

    async def forget_user(self, user_key: str) -> int:
        """Every item scheduled for the person and their send state; how many items were scheduled."""
        dropped = await self.drop_schedules(user_key)
        await self._redis.delete(_STATE + user_key)
        return dropped

    # --- exactly once -------------------------------------------------------------------------------

    async def claim(self, requests: Sequence[ClaimRequest], now: datetime) -> list[Claim]:
        """Claim each occurrence (in order, one round trip); see `Claim` for the answers."""
        if not requests:
            return []

        def fill(pipe: Pipeline) -> None:
            for request in requests:
                _call(pipe, self._claim, _STATE + request.member.user_key, self._claim_args(request, now))

        return [Claim(int(code)) for code in await self._run_scripts(fill)]

    def _claim_args(self, request: ClaimRequest, now: datetime) -> list[str | int]:
        return [
            request.field,
            _epoch(now),
            _epoch(now - self.lease),
            request.token,
            request.today,
            request.cap,
            "1" if request.require_idle else "0",
            self._claim_ttl_s,
            _epoch(now) - self._claim_ttl_s,
        ]

    async def begin_send(self, requests: Sequence[ClaimRequest], now: datetime) -> list[bool]:
        """Turn our claims into "sending" (one round trip); False where a recovering sweep took one over."""
        if not requests:
            return []

        def fill(pipe: Pipeline) -> None:
            for request in requests:
                state = _STATE + request.member.user_key
                _call(pipe, self._begin_send, state, [request.field, request.token, _epoch(now)])

        return [bool(ok) for ok in await self._run_scripts(fill)]

    async def renew(self, requests: Sequence[ClaimRequest], now: datetime) -> list[bool]:
        """Keep our claims fresh while composing (one round trip): only a holder that stopped renewing — a
        killed replica — loses them, one lease after its last renewal. False where the claim is no longer ours."""
        if not requests:
            return []

        def fill(pipe: Pipeline) -> None:
            for request in requests:
                state = _STATE + request.member.user_key
                _call(pipe, self._renew, state, [request.field, request.token, _epoch(now)])

        return [bool(ok) for ok in await self._run_scripts(fill)]

    async def apply(
        self,
        *,
        moves: Mapping[Member, datetime | None] = {},
        sent: Sequence[tuple[ClaimRequest, datetime]] = (),
        released: Sequence[tuple[ClaimRequest, bool]] = (),
        forgotten_events: Sequence[Member] = (),
    ) -> None:
        """Write a batch's outcome in one round trip: occurrences sent (marked, counted in flight), claims
        given back (nothing was sent; `True` also gives back the daily-cap count), items moved or unscheduled."""
        if not (moves or sent or released or forgotten_events):
            return

        def fill(pipe: Pipeline) -> None:
            for request, at in sent:
                _call(pipe, self._finish, _STATE + request.member.user_key, [request.field, _epoch(at)])
            for request, uncount in released:
                args = [request.field, request.token, request.today, "1" if uncount else "0"]
                _call(pipe, self._release, _STATE + request.member.user_key, args)
            if scheduled := {m.name: _epoch(at) for m, at in moves.items() if at is not None}:
                pipe.zadd(DUE_KEY, scheduled)
            if gone := [m.name for m, at in moves.items() if at is None] + [m.name for m in forgotten_events]:
                pipe.zrem(DUE_KEY, *gone)
            for member in forgotten_events:
                if member.memory_id is not None:
                    pipe.srem(_EVENTS + member.user_key, member.memory_id)

        await self._run_scripts(fill)

    async def _run_scripts(self, fill: Callable[[Pipeline], None]) -> list[Any]:
        """One pipeline calling our scripts by SHA, without the SCRIPT EXISTS round trip redis-py adds before
        each pipeline. A restarted Redis has forgotten them: every call then answers NOSCRIPT and runs nowhere,
        so they are loaded and the pipeline runs again (its plain commands are idempotent writes). Were the
        scripts flushed in the middle of a pipeline, a second claim or "sending" would find our own first one
        and answer busy or taken over: a message delayed or lost, never sent twice."""
        try:
            return await self._pipeline(fill)
        except NoScriptError:
            for script in (self._claim, self._begin_send, self._release, self._renew, self._finish):
                await self._redis.script_load(script.script)
            return await self._pipeline(fill)

    async def _pipeline(self, fill: Callable[[Pipeline], None]) -> list[Any]:
        async with self._redis.pipeline(transaction=False) as pipe:
            fill(pipe)
            return list(await pipe.execute())

    async def was_claimed(self, member: Member, on: str) -> bool:
        return bool(await self._redis.hexists(_STATE + member.user_key, member.occurrence_field(on)))
