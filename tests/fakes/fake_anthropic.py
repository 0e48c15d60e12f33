"""A loopback Anthropic Messages server (POST /v1/messages).

`async with FakeAnthropic() as server:` then point the client at `server.base_url` (the origin, without
/v1: the Anthropic SDK adds it). Accepts the key as `x-api-key` or `Authorization: Bearer`.
"""

from __future__ import annotations

import itertools

from aiohttp import web

from tests.fakes.llm_script import (
    JSON_DEFAULT_REPLY,
    JsonObject,
    Responder,
    ScriptedLLMServer,
    echo_responder,
)

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    529: "overloaded_error",
}


class FakeAnthropic(ScriptedLLMServer):
    """Records every request; answers with the script, else the responder: echo of the last user text,
    or `{"memories": []}` when the system prompt asks for JSON (Anthropic has no JSON mode flag)."""

    def __init__(
        self,
        responder: Responder | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        api_key: str | None = None,
    ) -> None:
        super().__init__(responder, host, port, api_key)
        self._ids = itertools.count(1)

    @property
    def base_url(self) -> str:
        return self.origin

    def routes(self) -> list[web.RouteDef]:
        return [web.post("/v1/messages", self.handle_completion)]

    def default_responder(self, body: JsonObject) -> str:
        return JSON_DEFAULT_REPLY if "json" in str(body.get("system", "")).lower() else echo_responder(body)

    def success_body(self, request: JsonObject, text: str) -> JsonObject:
        prompt_words = sum(len(str(m.get("content", "")).split()) for m in request.get("messages") or [])
        return {
            "id": f"msg_fake{next(self._ids):020d}",
            "type": "message",
            "role": "assistant",
            "model": request.get("model", "fake-model"),
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": prompt_words, "output_tokens": len(text.split())},
        }

    def error_body(self, status: int, message: str) -> JsonObject:
        error_type = _ERROR_TYPES.get(status, "api_error")
        return {"type": "error", "error": {"type": error_type, "message": message}}
