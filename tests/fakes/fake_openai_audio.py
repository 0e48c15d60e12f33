"""The fake OpenAI server's audio endpoints: POST /v1/audio/transcriptions and POST /v1/audio/speech.

Transcriptions answer `transcript` and record every upload (file name, bytes, model); speech answers real,
small OGG/Opus (or WAV, for an endpoint that cannot give Opus: `opus_refused`), recording each request.
`audio_failures` makes the next audio calls fail with those HTTP statuses.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.fakes.audio_samples import ogg_opus_tone, wav_tone


@dataclass(frozen=True, slots=True)
class Upload:
    filename: str
    content: bytes
    model: str


@dataclass
class AudioScript:
    transcript: str = "hello from a voice note"
    opus_refused: bool = False  # like a server with only mp3/wav: 400 for response_format=opus
    speech_seconds: float = 1.0
    failures: list[int] = field(default_factory=list)  # statuses for the next audio calls, in order
    uploads: list[Upload] = field(default_factory=list)
    speeches: list[dict[str, Any]] = field(default_factory=list)


class FakeAudioEndpoints:
    audio: AudioScript

    def audio_routes(self) -> list[web.RouteDef]:
        return [
            web.post("/v1/audio/transcriptions", self._transcription),
            web.post("/v1/audio/speech", self._speech),
        ]

    async def _transcription(self, request: web.Request) -> web.Response:
        form = await request.post()
        upload = form.get("file")
        if not isinstance(upload, web.FileField):
            return _error(400, "file is required")
        self.audio.uploads.append(Upload(upload.filename, upload.file.read(), str(form.get("model", ""))))
        if self.audio.failures:
            status = self.audio.failures.pop(0)
            return _error(status, "the transcription service is down")
        return web.json_response({"text": self.audio.transcript})

    async def _speech(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.audio.speeches.append(body)
        if self.audio.failures:
            return _error(self.audio.failures.pop(0), "the speech service is down")
        wanted = body.get("response_format", "mp3")
        if wanted == "opus" and not self.audio.opus_refused:
            return web.Response(body=ogg_opus_tone(self.audio.speech_seconds), content_type="audio/ogg")
        if wanted == "opus":
            return _error(400, "response_format 'opus' is not supported; use mp3 or wav")
        # The fake's "mp3" is WAV: what matters is that it is not OGG/Opus and must be converted.
        return web.Response(body=wav_tone(self.audio.speech_seconds), content_type="audio/wav")


def _error(status: int, message: str) -> web.Response:
    body = {"error": {"message": message, "type": "server_error", "param": None, "code": None}}
    return web.Response(status=status, body=json.dumps(body), content_type="application/json")
