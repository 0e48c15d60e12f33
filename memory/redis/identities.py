"""Which accounts make one person (/link), in Redis.

An unlinked account is its own person and has no key here. Linking the account B into A's person stores:
`souvenir:person:of:<account>` -> person key for both (the person key is the first account's own key, so
its data never moves), `souvenir:person:accounts:<person>` the set of accounts and
`souvenir:person:last:<person>` the account used last. A live code is `souvenir:link:code:<sha256>` (its
text is never stored) -> issuer and issue time, with `souvenir:link:issued:<account>` pointing back at it.
"""

from __future__ import annotations

import hashlib
from datetime import datetime

import redis.asyncio as aioredis

from bot.engine.commands.linking import (
    CODE_VALIDITY,
    CODES_PER_WINDOW,
    RATE_WINDOW,
    TRIES_PER_WINDOW,
    IssuedCode,
    Redeemed,
    Redemption,
    new_code,
    normalised_code,
    rate_window,
)
from bot.engine.model import UserRef
from bot.engine.ports import Clock

_PREFIX = "souvenir:"
_KEEP_LIMITS_S = int(RATE_WINDOW.total_seconds() * 2)

# Every check and the link itself in one step, so two redemptions can never both pass the checks.
# KEYS: code, redeemer's person:of. ARGV: redeemer account, now (s), validity (s), prefix.
_REDEEM = """
local function platform(key) return string.match(key, '^([^:]*):') end
if redis.call('EXISTS', KEYS[2]) == 1 then return {'already_linked'} end
local issued = redis.call('HMGET', KEYS[1], 'issuer', 'at')
if not issued[1] then return {'invalid'} end
redis.call('DEL', KEYS[1])
local issuer, prefix, redeemer = issued[1], ARGV[4], ARGV[1]
redis.call('DEL', prefix .. 'link:issued:' .. issuer)
if tonumber(ARGV[2]) > tonumber(issued[2]) + tonumber(ARGV[3]) then return {'expired'} end
if platform(issuer) == platform(redeemer) then return {'same_platform'} end
local person = redis.call('GET', prefix .. 'person:of:' .. issuer)
if not person then person = issuer end
for _, account in ipairs(redis.call('SMEMBERS', prefix .. 'person:accounts:' .. person)) do
  if platform(account) == platform(redeemer) then return {'platform_taken'} end
end
redis.call('SET', prefix .. 'person:of:' .. issuer, person)
redis.call('SET', KEYS[2], person)
redis.call('SADD', prefix .. 'person:accounts:' .. person, issuer, redeemer)
redis.call('SET', prefix .. 'person:last:' .. person, redeemer)
return {'linked', person}
"""


def _of(account: str) -> str:
    return f"{_PREFIX}person:of:{account}"


def _accounts(person: str) -> str:
    return f"{_PREFIX}person:accounts:{person}"


def _last(person: str) -> str:
    return f"{_PREFIX}person:last:{person}"


def _code(code: str) -> str:
    return f"{_PREFIX}link:code:{hashlib.sha256(code.encode()).hexdigest()}"


def _issued(account: str) -> str:
    return f"{_PREFIX}link:issued:{account}"


def _limits(account: str) -> str:
    return f"{_PREFIX}link:limits:{account}"


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisIdentities:
    """`Identities`, `AccountLinks` and the identity part of `UserDataEraser`."""

    def __init__(self, client: aioredis.Redis, clock: Clock) -> None:
        self._redis = client
        self._clock = clock
        self._redeem = client.register_script(_REDEEM)

    async def person_of(self, user: UserRef) -> str:
        account = user.account_key
        person = await self._redis.get(_of(account))
        if person is None:
            return account
        person_key = _text(person)
        await self._redis.set(_last(person_key), account)
        return person_key

    async def reach(self, person_key: str) -> str:
        last, linked = await self._redis.get(_last(person_key)), await self.accounts(person_key)
        return _text(last) if last is not None and _text(last) in linked else person_key

    async def accounts(self, person_key: str) -> list[str]:
        linked = sorted(_text(a) for a in await self._redis.smembers(_accounts(person_key)))
        return linked or [person_key]

    async def issue_code(self, user: UserRef) -> IssuedCode:
        account, now = user.account_key, self._clock.now()
        if not await self._counted(account, "issue", CODES_PER_WINDOW, now):
            return IssuedCode(None)
        code = new_code()
        previous = await self._redis.get(_issued(account))
        ttl = int(CODE_VALIDITY.total_seconds())
        async with self._redis.pipeline(transaction=True) as pipe:
            if previous is not None:
                pipe.delete(_text(previous))  # one live code per account
            pipe.hset(_code(code), mapping={"issuer": account, "at": str(now.timestamp())})
            pipe.expire(_code(code), ttl)
            pipe.set(_issued(account), _code(code), ex=ttl)
            await pipe.execute()
        return IssuedCode(code, now + CODE_VALIDITY)

    async def redeem(self, user: UserRef, code: str) -> Redemption:
        account, now = user.account_key, self._clock.now()
        if not await self._counted(account, "redeem", TRIES_PER_WINDOW, now):
            return Redemption(Redeemed.RATE_LIMITED)
        typed = normalised_code(code)
        if typed is None:
            return Redemption(Redeemed.INVALID)
        keys = [_code(typed), _of(account)]
        answer = await self._redeem(keys=keys, args=[account, now.timestamp(), CODE_VALIDITY.total_seconds(), _PREFIX])
        outcome, *person = [_text(part) for part in answer]
        return Redemption(Redeemed(outcome), person[0] if person else None)

    async def unlink(self, user: UserRef) -> str | None:
        person = await self._redis.get(_of(user.account_key))
        if person is None:
            return None
        await self._dissolve(_text(person))
        return _text(person)

    async def forget_user(self, user_key: str) -> None:
        """The person's links, their live codes and attempt counts; called with the person key and with
        each of their account keys."""
        person = await self._redis.get(_of(user_key))
        person_key = _text(person) if person is not None else user_key
        accounts = await self.accounts(person_key)
        await self._dissolve(person_key)
        for account in {user_key, *accounts}:
            code = await self._redis.get(_issued(account))
            await self._redis.delete(_issued(account), _limits(account), *([_text(code)] if code else []))

    async def _dissolve(self, person_key: str) -> None:
        accounts = await self._redis.smembers(_accounts(person_key))
        await self._redis.delete(
            _accounts(person_key), _last(person_key), _of(person_key), *(_of(_text(a)) for a in accounts)
        )

    async def _counted(self, account: str, what: str, allowed: int, now: datetime) -> bool:
        """Count one attempt in the current window; False once more than `allowed` were made in it."""
        field = f"{what}:{rate_window(now)}"
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hincrby(_limits(account), field, 1)
            pipe.expire(_limits(account), _KEEP_LIMITS_S)
            made, _ = await pipe.execute()
        return int(made) <= allowed
