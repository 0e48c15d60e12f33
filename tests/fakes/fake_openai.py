"""A loopback OpenAI-compatible chat server (POST /v1/chat/completions, GET /v1/models).

In tests: `async with FakeOpenAI() as server:` then point the client at `server.base_url`.
As a process (CLI and bench tests): `python -m tests.fakes.fake_openai --port 0 [--reply TEXT]` prints
`READY http://127.0.0.1:PORT/v1` once listening and serves until SIGTERM/SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import signal
import sys
import time

from aiohttp import web

from tests.fakes.fake_images import FakeImages
from tests.fakes.fake_openai_audio import AudioScript, FakeAudioEndpoints
from tests.fakes.llm_script import (
    JSON_DEFAULT_REPLY,
    JsonObject,
    Responder,
    ScriptedLLMServer,
    echo_responder,
)

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "invalid_request_error",
    404: "invalid_request_error",
    429: "rate_limit_error",
}


def _wants_json(body: JsonObject) -> bool:
    response_format = body.get("response_format")
    return isinstance(response_format, dict) and response_format.get("type") in ("json_object", "json_schema")


class FakeOpenAI(ScriptedLLMServer, FakeAudioEndpoints):
    """Records every request; answers with the script, else the responder (echo, or `{"memories": []}`
    when the request asks for a JSON object)."""

    def __init__(
        self,
        responder: Responder | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        api_key: str | None = None,
    ) -> None:
        super().__init__(responder, host, port, api_key)
        self._ids = itertools.count(1)
        self.audio = AudioScript()  # what /v1/audio/* answer (tests/fakes/fake_openai_audio.py)
        self.images = FakeImages(lambda: self.origin)  # /v1/images/*: what was asked, and what it answers

    @property
    def base_url(self) -> str:
        return f"{self.origin}/v1"

    def routes(self) -> list[web.RouteDef]:
        return [
            web.post("/v1/chat/completions", self.handle_completion),
            web.get("/v1/models", self._models),
            *self.audio_routes(),
            *self.images.routes(),
        ]

    def default_responder(self, body: JsonObject) -> str:
        return JSON_DEFAULT_REPLY if _wants_json(body) else echo_responder(body)

    def success_body(self, request: JsonObject, text: str) -> JsonObject:
        prompt_words = sum(len(str(m.get("content", "")).split()) for m in request.get("messages") or [])
        completion_words = len(text.split())
        return {
            "id": f"chatcmpl-fake{next(self._ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.get("model", "fake-model"),
            "system_fingerprint": "fp_fake",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text, "refusal": None},
                    "logprobs": None,
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": prompt_words,
                "completion_tokens": completion_words,
                "total_tokens": prompt_words + completion_words,
            },
        }

    def error_body(self, status: int, message: str) -> JsonObject:
        error_type = _ERROR_TYPES.get(status, "server_error")
        return {"error": {"message": message, "type": error_type, "param": None, "code": None}}

    async def _models(self, request: web.Request) -> web.Response:
        model = {"id": "fake-model", "object": "model", "created": 0, "owned_by": "fake"}
        return web.json_response({"object": "list", "data": [model]})


async def _serve(port: int, reply: str | None) -> None:
    responder: Responder | None = (lambda _body: reply) if reply is not None else None
    server = FakeOpenAI(responder=responder, port=port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await server.start()
    try:
        print(f"READY {server.base_url}", flush=True)
        await stop.wait()
    finally:
        await server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Loopback fake OpenAI chat server for tests.")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--reply", default=None, help="answer every request with this text")
    args = parser.parse_args(argv)
    asyncio.run(_serve(args.port, args.reply))
    return 0


if __name__ == "__main__":
    sys.exit(main())
