"""The images part of the loopback fake OpenAI server: POST /v1/images/generations and /v1/images/edits.

Records each request's prompt and the uploaded reference image, and answers a small valid PNG, as base64
(`b64_json`) or as a URL on this server, as the request's `response_format` asks (gpt-image models: base64).
"""

from __future__ import annotations

import base64
import itertools
import struct
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web


def tiny_png(rgb: tuple[int, int, int] = (200, 120, 80), size: int = 4) -> bytes:
    """A valid `size`×`size` PNG of one colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    row = b"\x00" + bytes(rgb) * size
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(row * size)) + chunk(
        b"IEND", b""
    )


@dataclass(frozen=True, slots=True)
class ImageRequest:
    route: str  # "generations" | "edits"
    prompt: str
    model: str
    response_format: str | None
    reference: bytes | None = None  # the uploaded `image` of an edit
    reference_name: str = ""


class FakeImages:
    def __init__(self, origin: Callable[[], str]) -> None:
        self._origin = origin
        self.requests: list[ImageRequest] = []
        self.image = tiny_png()
        self.edits_supported = True  # False: /images/edits answers 404, like a server without it
        self.fail_with: int | None = None  # every request answers this status
        self.refuse = False  # every request answers a 400 content-policy refusal
        self.answer_urls = False  # answer a URL whatever was asked (servers that ignore response_format)
        self._served: dict[str, bytes] = {}
        self._ids = itertools.count(1)

    def routes(self) -> list[web.RouteDef]:
        return [
            web.post("/v1/images/generations", self._generations),
            web.post("/v1/images/edits", self._edits),
            web.get("/files/{name}", self._file),
        ]

    async def _generations(self, request: web.Request) -> web.Response:
        body = await request.json()
        recorded = ImageRequest("generations", str(body.get("prompt", "")), str(body.get("model", "")),
                                body.get("response_format"))  # fmt: skip
        return self._answer(recorded)

    async def _edits(self, request: web.Request) -> web.Response:
        fields: dict[str, str] = {}
        reference, name = None, ""
        async for part in await request.multipart():
            if part.name in ("image", "image[]"):  # type: ignore[union-attr]
                reference, name = bytes(await part.read()), part.filename or ""  # type: ignore[union-attr]
            elif part.name:  # type: ignore[union-attr]
                fields[part.name] = await part.text()  # type: ignore[union-attr]
        recorded = ImageRequest("edits", fields.get("prompt", ""), fields.get("model", ""),
                                fields.get("response_format"), reference, name)  # fmt: skip
        if not self.edits_supported:
            self.requests.append(recorded)
            return web.json_response({"error": {"message": "Not Found", "type": "not_found"}}, status=404)
        return self._answer(recorded)

    def _answer(self, recorded: ImageRequest) -> web.Response:
        self.requests.append(recorded)
        if self.refuse:
            error = {"message": "Your request was rejected by the safety system.", "code": "moderation_blocked",
                     "type": "image_generation_user_error", "param": None}  # fmt: skip
            return web.json_response({"error": error}, status=400)
        if self.fail_with is not None:
            return web.json_response({"error": {"message": "scripted failure", "type": "server_error"}},
                                     status=self.fail_with)  # fmt: skip
        if recorded.response_format == "url" or self.answer_urls:
            name = f"image-{next(self._ids)}.png"
            self._served[name] = self.image
            item = {"url": f"{self._origin()}/files/{name}"}
        else:
            item = {"b64_json": base64.b64encode(self.image).decode("ascii")}
        return web.json_response({"created": int(time.time()), "data": [item]})

    async def _file(self, request: web.Request) -> web.Response:
        image = self._served.get(request.match_info["name"])
        if image is None:
            raise web.HTTPNotFound()
        return web.Response(body=image, content_type="image/png")
