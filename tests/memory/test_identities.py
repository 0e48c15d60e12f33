"""The link code rules (bot.engine.commands.linking) as the Redis store enforces them, on an injected clock."""

from __future__ import annotations

import redis.asyncio as aioredis

from bot.engine.commands.linking import CODE_ALPHABET, CODE_LENGTH, CODES_PER_WINDOW, TRIES_PER_WINDOW, Redeemed
from bot.engine.model import UserRef
from memory.redis.identities import RedisIdentities
from tests.conftest import FakeClock

TG = UserRef("telegram", "111", "Léa")
DC = UserRef("discord", "222", "Léa")
OTHER_TG = UserRef("telegram", "333", "Mallory")
OTHER_DC = UserRef("discord", "444", "Mallory")


async def _code(identities: RedisIdentities, user: UserRef = TG) -> str:
    issued = await identities.issue_code(user)
    assert issued.code is not None
    return issued.code


async def test_a_code_links_the_other_platform_into_the_issuer_and_works_once(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    identities = RedisIdentities(redis_client, clock)
    code = await _code(identities)

    linked = await identities.redeem(DC, code.lower()[:4] + "-" + code.lower()[4:])  # as people type it

    assert linked.outcome is Redeemed.LINKED and linked.person_key == TG.key
    assert await identities.person_of(DC) == TG.key == await identities.person_of(TG)
    assert await identities.accounts(TG.key) == sorted([TG.key, DC.key])
    # Replay: the same code, by anyone, afterwards.
    assert (await identities.redeem(OTHER_DC, code)).outcome is Redeemed.INVALID
    assert await identities.person_of(OTHER_DC) == OTHER_DC.key


async def test_an_expired_code_links_nothing(redis_client: aioredis.Redis, clock: FakeClock) -> None:
    identities = RedisIdentities(redis_client, clock)
    code = await _code(identities)
    clock.advance(minutes=10, seconds=1)

    assert (await identities.redeem(DC, code)).outcome is Redeemed.EXPIRED
    assert await identities.person_of(DC) == DC.key


async def test_a_code_is_not_redeemable_on_its_own_platform_and_is_burnt_by_the_attempt(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    identities = RedisIdentities(redis_client, clock)
    code = await _code(identities)

    assert (await identities.redeem(OTHER_TG, code)).outcome is Redeemed.SAME_PLATFORM
    assert (await identities.redeem(TG, await _code(identities))).outcome is Redeemed.SAME_PLATFORM
    assert (await identities.redeem(DC, code)).outcome is Redeemed.INVALID  # used up
    assert await identities.person_of(OTHER_TG) == OTHER_TG.key


async def test_a_third_account_cannot_join_a_linked_person_nor_can_a_linked_account_join_another(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    identities = RedisIdentities(redis_client, clock)
    assert (await identities.redeem(DC, await _code(identities))).outcome is Redeemed.LINKED

    # Another Discord account with a fresh code of Léa's: Léa already has her Discord account.
    assert (await identities.redeem(OTHER_DC, await _code(identities))).outcome is Redeemed.PLATFORM_TAKEN
    # Léa's Discord account with Mallory's code: already linked.
    assert (await identities.redeem(DC, await _code(identities, OTHER_TG))).outcome is Redeemed.ALREADY_LINKED
    assert await identities.person_of(OTHER_DC) == OTHER_DC.key
    assert await identities.person_of(DC) == TG.key
    assert await identities.accounts(OTHER_TG.key) == [OTHER_TG.key]


async def test_guessing_is_rate_limited_per_account_and_the_code_space_is_large(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    identities = RedisIdentities(redis_client, clock)
    code = await _code(identities)
    wrong = "".join("0" if c != "0" else "1" for c in code)

    outcomes = [(await identities.redeem(OTHER_DC, wrong)).outcome for _ in range(TRIES_PER_WINDOW)]
    assert outcomes == [Redeemed.INVALID] * TRIES_PER_WINDOW
    # Even the right code is refused once the account has used up its tries for the hour.
    assert (await identities.redeem(OTHER_DC, code)).outcome is Redeemed.RATE_LIMITED
    assert await identities.person_of(OTHER_DC) == OTHER_DC.key
    clock.advance(hours=1)
    assert (await identities.redeem(DC, code)).outcome is Redeemed.EXPIRED  # the honest account, too late
    assert len(CODE_ALPHABET) ** CODE_LENGTH >= 10**12
    assert len({await _code(identities, UserRef("telegram", str(n))) for n in range(200)}) == 200


async def test_asking_for_codes_is_rate_limited_and_a_new_code_replaces_the_last(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    identities = RedisIdentities(redis_client, clock)
    codes = [await _code(identities) for _ in range(CODES_PER_WINDOW)]

    assert (await identities.issue_code(TG)).code is None
    assert (await identities.redeem(DC, codes[0])).outcome is Redeemed.INVALID
    assert (await identities.redeem(DC, codes[-1])).outcome is Redeemed.LINKED


async def test_unlink_splits_the_person_and_the_issuer_keeps_the_key(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    identities = RedisIdentities(redis_client, clock)
    await identities.redeem(DC, await _code(identities))
    await identities.person_of(TG)
    assert await identities.reach(TG.key) == TG.key
    await identities.person_of(DC)
    assert await identities.reach(TG.key) == DC.key  # the account used last

    assert await identities.unlink(DC) == TG.key
    assert await identities.person_of(DC) == DC.key and await identities.person_of(TG) == TG.key
    assert await identities.reach(TG.key) == TG.key
    assert await identities.unlink(DC) is None
