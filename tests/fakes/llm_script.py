"""What a fake LLM server does with each request: scripted behaviours, then a default responder.

Shared by `fake_openai` and `fake_anthropic`. A test queues behaviours with `server.script(...)`; each
request takes the next one, and once the queue is empty `server.always(...)` (if set) or the responder
answers. Every request is recorded, whatever happens to it, so tests can count attempts.
"""

from __future__ import annotations

import asyncio
import json
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal, Self

from aiohttp import web

from tests.fakes.loopback import serve_on_loopback

JsonObject = dict[str, Any]
JSON_DEFAULT_REPLY = '{"memories": []}'  # what the default responders give a request for JSON
Responder = Callable[[JsonObject], str]


@dataclass(frozen=True, slots=True)
class Reply:
    """Answer 200 with this assistant text."""

    text: str


@dataclass(frozen=True, slots=True)
class Status:
    """Answer with an error status in the provider's error shape (optionally with Retry-After)."""

    status: int
    retry_after: float | None = None
    message: str = "scripted failure"


@dataclass(frozen=True, slots=True)
class Hang:
    """Send nothing for `seconds` (the client's timeout should fire first), then reply normally."""

    seconds: float


@dataclass(frozen=True, slots=True)
class Malformed:
    """Answer 200 with a body the client cannot use.

    not_json: garbage with a JSON content type; missing_fields: valid JSON without the answer;
    empty_text: a well-formed answer whose text is empty.
    """

    kind: Literal["not_json", "missing_fields", "empty_text"] = "not_json"


@dataclass(frozen=True, slots=True)
class Held:
    """Hold the answer until the test sets `release` (`arrived` is set once the request is in: no timing),
    then answer `text`, or what the responder gives."""

    text: str | None = None
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)


Behaviour = Reply | Status | Hang | Malformed | Held


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    path: str
    headers: Mapping[str, str]  # lower-cased names
    body: JsonObject


def last_user_text(body: JsonObject) -> str:
    """The text of the last user message of an OpenAI or Anthropic request body."""
    for message in reversed(body.get("messages") or []):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


def echo_responder(body: JsonObject) -> str:
    return f"echo: {last_user_text(body)}"


class ScriptedLLMServer(ABC):
    """A loopback aiohttp server whose answers tests script. Subclasses give the provider's shapes."""

    def __init__(
        self,
        responder: Responder | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        api_key: str | None = None,
    ) -> None:
        self.responder: Responder = responder or self.default_responder
        self.api_key = api_key  # when set, requests without it (Bearer or x-api-key) get a 401
        self.requests: list[RecordedRequest] = []
        self._queue: deque[Behaviour] = deque()
        self._always: Behaviour | None = None
        self._host = host
        self._port = port
        self._runner: web.AppRunner | None = None
        self._stopping = asyncio.Event()
        self._bound_port = 0

    # -- test controls -------------------------------------------------------------------------

    def script(self, *behaviours: Behaviour) -> None:
        """Queue behaviours for the next requests, in order."""
        self._queue.extend(behaviours)

    def always(self, behaviour: Behaviour | None) -> None:
        """Use this behaviour for every request once the script is spent (None: the responder)."""
        self._always = behaviour

    @property
    def bodies(self) -> list[JsonObject]:
        return [request.body for request in self.requests]

    @property
    def port(self) -> int:
        return self._bound_port

    @property
    def origin(self) -> str:
        return f"http://{self._host}:{self._bound_port}"

    @property
    @abstractmethod
    def base_url(self) -> str: ...

    # -- provider shapes (subclasses) ----------------------------------------------------------

    @abstractmethod
    def routes(self) -> list[web.RouteDef]: ...

    @abstractmethod
    def success_body(self, request: JsonObject, text: str) -> JsonObject: ...

    @abstractmethod
    def error_body(self, status: int, message: str) -> JsonObject: ...

    def default_responder(self, body: JsonObject) -> str:
        return echo_responder(body)

    # -- lifecycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.add_routes(self.routes())
        self._stopping.clear()
        self._runner, self._bound_port = await serve_on_loopback(app, self._host, self._port)

    async def stop(self) -> None:
        self._stopping.set()  # releases hanging handlers at once
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    # -- request handling ----------------------------------------------------------------------

    async def handle_completion(self, request: web.Request) -> web.Response:
        raw = await request.read()
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"_unparsed": raw.decode("utf-8", "replace")}
        headers = {name.lower(): value for name, value in request.headers.items()}
        self.requests.append(RecordedRequest(path=request.path, headers=headers, body=body))

        if self.api_key is not None and not self._authorized(headers):
            return web.json_response(self.error_body(401, "invalid api key"), status=401)
        behaviour = self._next_behaviour()
        if isinstance(behaviour, Hang):
            try:
                await asyncio.wait_for(self._stopping.wait(), timeout=behaviour.seconds)
            except TimeoutError:
                pass
            behaviour = None
        if isinstance(behaviour, Held):
            behaviour.arrived.set()
            waits = [asyncio.ensure_future(e.wait()) for e in (behaviour.release, self._stopping)]
            _done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for waiting in pending:  # a test that failed before releasing must not hold the server's shutdown
                waiting.cancel()
            behaviour = Reply(behaviour.text) if behaviour.text is not None else None
        if isinstance(behaviour, Status):
            headers_out = {}
            if behaviour.retry_after is not None:
                headers_out["Retry-After"] = f"{behaviour.retry_after:g}"
            return web.json_response(
                self.error_body(behaviour.status, behaviour.message),
                status=behaviour.status,
                headers=headers_out,
            )
        if isinstance(behaviour, Malformed):
            if behaviour.kind == "not_json":
                return web.Response(text="<html>502 Bad Gateway</html>{", content_type="application/json")
            if behaviour.kind == "missing_fields":
                return web.json_response({"id": "fake-missing", "object": "unknown"})
            return web.json_response(self.success_body(body, ""))
        text = behaviour.text if isinstance(behaviour, Reply) else self.responder(body)
        return web.json_response(self.success_body(body, text))

    def _authorized(self, headers: Mapping[str, str]) -> bool:
        # Anthropic's SDK >= 2.14 sends `Authorization: Bearer`, older ones `x-api-key`: accept both.
        bearer = headers.get("authorization", "").removeprefix("Bearer ")
        return self.api_key in (headers.get("x-api-key"), bearer)

    def _next_behaviour(self) -> Behaviour | None:
        if self._queue:
            return self._queue.popleft()
        return self._always
