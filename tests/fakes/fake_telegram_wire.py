"""The fake Telegram's wire format: parameters as python-telegram-bot sends them, failures, error answers."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

JsonObject = dict[str, Any]

# Parameters Telegram treats as plain strings: never JSON-decode them ("123" must stay a string).
_STRING_PARAMETERS = {
    "text", "caption", "callback_query_id", "secret_token", "url", "language_code", "action",
    "parse_mode", "inline_message_id", "description", "short_description", "name",
}  # fmt: skip
BLOCKED = "Forbidden: bot was blocked by the user"


@dataclass(frozen=True, slots=True)
class ApiCall:
    method: str
    params: JsonObject
    at: float  # loop time when the request arrived
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # part name -> (filename, content)


@dataclass(frozen=True, slots=True)
class Failure:
    status: int
    description: str
    retry_after: int | None = None


def too_many_requests(retry_after: int = 1) -> Failure:
    return Failure(429, f"Too Many Requests: retry after {retry_after}", retry_after)


def blocked() -> Failure:
    return Failure(403, BLOCKED)


async def read_params(request: web.Request) -> tuple[JsonObject, dict[str, tuple[str, bytes]]]:
    if request.content_type == "application/json":
        body = await request.json()
        return (body if isinstance(body, dict) else {}), {}
    params: JsonObject = {}
    files: dict[str, tuple[str, bytes]] = {}
    form = await request.post()
    for name, value in form.items():
        if isinstance(value, web.FileField):
            files[name] = (value.filename, value.file.read())
        elif name in _STRING_PARAMETERS:
            params[name] = value
        else:
            params[name] = _decoded(str(value))
    for name, value in request.query.items():
        params.setdefault(name, value if name in _STRING_PARAMETERS else _decoded(value))
    return params, files


def public(result: Any) -> Any:
    """What Telegram would answer: without the fake's own bookkeeping keys (those start with "_")."""
    if isinstance(result, dict):
        return {key: value for key, value in result.items() if not key.startswith("_")}
    return result


def _decoded(value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        return value


def error_response(failure: Failure) -> web.Response:
    body: JsonObject = {"ok": False, "error_code": failure.status, "description": failure.description}
    if failure.retry_after is not None:
        body["parameters"] = {"retry_after": failure.retry_after}
    return web.json_response(body, status=failure.status)
