"""The fake Bot API itself: body encodings, long polling with offsets, errors on demand."""

from __future__ import annotations

import asyncio
import json

import aiohttp

from tests.fakes.fake_telegram import FakeTelegram
from tests.fakes.fake_telegram_wire import too_many_requests


async def call(telegram: FakeTelegram, method: str, **kwargs: object) -> dict[str, object]:
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{telegram.api_root}/bot{telegram.token}/{method}", **kwargs) as response:  # type: ignore[arg-type]
            body: dict[str, object] = await response.json()
            return body


async def test_json_bodies_and_forms_with_json_encoded_values_mean_the_same(telegram: FakeTelegram) -> None:
    markup = {"inline_keyboard": [[{"text": "Next", "callback_data": "m:p:5"}]]}
    as_json = await call(telegram, "sendMessage", json={"chat_id": 7, "text": "123", "reply_markup": markup})
    as_form = await call(
        telegram, "sendMessage", data={"chat_id": "7", "text": "123", "reply_markup": json.dumps(markup)}
    )
    assert as_json["ok"] is True and as_form["ok"] is True
    first, second = telegram.calls_of("sendMessage")
    assert first.params == second.params == {"chat_id": 7, "text": "123", "reply_markup": markup}
    assert [m["text"] for m in telegram.sent(7)] == ["123", "123"]


async def test_get_updates_holds_until_an_update_arrives_and_offsets_acknowledge(telegram: FakeTelegram) -> None:
    poll = asyncio.create_task(call(telegram, "getUpdates", json={"timeout": 5}))
    await telegram.wait_for(lambda: bool(telegram.calls_of("getUpdates")))  # the server holds the request...
    assert not poll.done()  # ...and has not answered it
    pushed = await telegram.push_text(7, "hello")
    first = await asyncio.wait_for(poll, 2)
    assert first["result"] == [pushed]
    again = await call(telegram, "getUpdates", json={"timeout": 0})
    assert again["result"] == [pushed]  # not acknowledged yet
    acknowledged = await call(telegram, "getUpdates", json={"offset": pushed["update_id"] + 1, "timeout": 0})
    assert acknowledged["result"] == []


async def test_errors_on_demand_and_a_wrong_token(telegram: FakeTelegram) -> None:
    telegram.fail_next("sendMessage", too_many_requests(3))
    limited = await call(telegram, "sendMessage", json={"chat_id": 7, "text": "hi"})
    assert limited == {
        "ok": False, "error_code": 429, "description": "Too Many Requests: retry after 3",
        "parameters": {"retry_after": 3},
    }  # fmt: skip
    telegram.block_chat(7)
    blocked = await call(telegram, "sendMessage", json={"chat_id": 7, "text": "hi"})
    assert blocked["error_code"] == 403 and blocked["description"] == "Forbidden: bot was blocked by the user"
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{telegram.api_root}/bot1:wrong/getMe") as response:
            assert response.status == 401
    assert telegram.sent(7) == []
