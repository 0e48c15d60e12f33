"""The fake Discord REST API (`/api/v10/…`): records what the bot sends and answers like Discord does.

JSON answers carry `Content-Type: application/json` exactly (discord.py compares the header verbatim).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from tests.fakes import fake_discord_payloads as p

Payload = dict[str, Any]


@dataclass(frozen=True)
class Sent:
    """One message the bot created or edited, in the order Discord received them."""

    how: str  # "message" | "callback" | "followup" | "edit"
    message_id: int
    channel_id: int
    content: str
    components: list[Payload]
    flags: int
    files: dict[str, bytes]
    body: Payload

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & p.EPHEMERAL)

    def button(self, label: str) -> Payload:
        for row in self.components:
            for component in row.get("components", []):
                if component.get("label") == label:
                    return component
        raise LookupError(f"no button {label!r} in {self.labels()}")

    def labels(self) -> list[str]:
        return [c.get("label", "") for row in self.components for c in row.get("components", [])]


@dataclass
class RestState:
    bot: Payload
    application_id: int
    gateway_url: str
    token: str = "fake-token"
    shard_count: int = 1
    unreachable_user_ids: set[int] = field(default_factory=set)
    messages: dict[int, Payload] = field(default_factory=dict)
    sent: list[Sent] = field(default_factory=list)
    typing: list[int] = field(default_factory=list)
    command_syncs: list[list[Payload]] = field(default_factory=list)
    callbacks: list[Payload] = field(default_factory=list)
    max_concurrency: int = 1  # session_start_limit: shards that may IDENTIFY together per 5 s
    dm_channels: dict[int, int] = field(default_factory=dict)  # user id → channel id
    channel_recipients: dict[int, Payload] = field(default_factory=dict)
    interactions: dict[str, Payload] = field(default_factory=dict)  # token → interaction payload
    original_by_token: dict[str, int] = field(default_factory=dict)
    avatars: list[str] = field(default_factory=list)  # data URIs the bot set as its avatar
    attachment_files: dict[int, bytes] = field(default_factory=dict)  # attachment id -> what its URL serves
    avatar_refusals: int = 0  # the next avatar changes answered "too fast" (Discord's rate limit)
    changed: Callable[[], None] = lambda: None


MESSAGE_LIMIT = 2000  # characters of a message's content, as Discord enforces it


def too_long(content: object) -> web.Response | None:
    """Discord's answer to a message whose content is over its limit (nothing is sent)."""
    if isinstance(content, str) and len(content) > MESSAGE_LIMIT:
        errors = {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                           "message": f"Must be {MESSAGE_LIMIT} or fewer in length."}]}}  # fmt: skip
        return json_response({"code": 50035, "message": "Invalid Form Body", "errors": errors}, status=400)
    return None


def json_response(data: Any, status: int = 200) -> web.Response:
    return web.Response(status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})


class FakeRest:
    def __init__(self, state: RestState) -> None:
        self.state = state

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/api/v10/gateway/bot", self.gateway_bot),
            web.get("/api/v10/gateway", self.gateway_bot),
            web.get("/api/v10/users/@me", self.me),
            web.patch("/api/v10/users/@me", self.edit_me),
            web.get("/api/v10/oauth2/applications/@me", self.application),
            web.post("/api/v10/users/@me/channels", self.open_dm),
            web.post("/api/v10/channels/{channel_id}/messages", self.create_message),
            web.post("/api/v10/channels/{channel_id}/typing", self.typing),
            web.put("/api/v10/applications/{app_id}/commands", self.bulk_overwrite),
            web.post("/api/v10/interactions/{interaction_id}/{token}/callback", self.callback),
            web.patch("/api/v10/webhooks/{app_id}/{token}/messages/@original", self.edit_original),
            web.post("/api/v10/webhooks/{app_id}/{token}", self.followup),
            web.get("/attachments/{attachment_id}/{filename}", self.attachment),
        ]

    async def attachment(self, request: web.Request) -> web.Response:
        """The CDN: an attachment people sent (voice messages are downloaded from here)."""
        content = self.state.attachment_files.get(int(request.match_info["attachment_id"]))
        if content is None:
            return web.Response(status=404)
        return web.Response(body=content, content_type="audio/ogg")

    async def gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": self.state.max_concurrency}
        return json_response(
            {"url": self.state.gateway_url, "shards": self.state.shard_count, "session_start_limit": limit}
        )

    async def edit_me(self, request: web.Request) -> web.Response:
        body = await request.json()
        if self.state.avatar_refusals:
            self.state.avatar_refusals -= 1
            too_fast = {"code": "AVATAR_RATE_LIMIT", "message": "You are changing your avatar too fast."}
            error = {"code": 50035, "message": "Invalid Form Body", "errors": {"avatar": {"_errors": [too_fast]}}}
            return json_response(error, status=400)
        if "avatar" in body:
            self.state.avatars.append(body["avatar"])
            self.state.bot = self.state.bot | {"avatar": f"hash{len(self.state.avatars)}"}
        self.state.changed()
        return json_response(self.state.bot | {"verified": True, "mfa_enabled": False, "flags": 0})

    async def me(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != f"Bot {self.state.token}":
            return json_response({"code": 0, "message": "401: Unauthorized"}, status=401)
        return json_response(self.state.bot | {"verified": True, "mfa_enabled": False, "flags": 0})

    async def application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": str(self.state.application_id),
                "name": "Souvenir",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": p.user("Owner"),
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
                "summary": "",
                "interactions_endpoint_url": None,
            }
        )

    async def open_dm(self, request: web.Request) -> web.Response:
        recipient_id = int((await request.json())["recipient_id"])
        channel_id = self.state.dm_channels.setdefault(recipient_id, p.snowflake())
        recipient = p.user(f"user{recipient_id}", user_id=recipient_id)
        self.state.channel_recipients[channel_id] = recipient
        return json_response(p.dm_channel(channel_id, recipient))

    async def create_message(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel_id"])
        recipient = self.state.channel_recipients.get(channel_id)
        if recipient is not None and int(recipient["id"]) in self.state.unreachable_user_ids:
            return json_response({"code": 50007, "message": "Cannot send messages to this user"}, status=403)
        body, files = await _read_body(request)
        if (refused := too_long(body.get("content"))) is not None:
            return refused
        referenced = None
        if (reference := body.get("message_reference")) is not None:
            referenced = self.state.messages.get(int(reference["message_id"]))
        data = p.message(
            channel_id,
            self.state.bot,
            body.get("content") or "",
            components=body.get("components"),
            referenced=referenced,
            flags=body.get("flags") or 0,  # 8192: a voice message
        )
        data["attachments"] = uploaded_attachments(body, files)
        return json_response(self._record("message", data, body, files))

    async def typing(self, request: web.Request) -> web.Response:
        self.state.typing.append(int(request.match_info["channel_id"]))
        self.state.changed()
        return web.Response(status=204)

    async def bulk_overwrite(self, request: web.Request) -> web.Response:
        commands = await request.json()
        self.state.command_syncs.append(commands)
        echoed = [
            {
                "id": str(p.snowflake()),
                "application_id": str(self.state.application_id),
                "version": "1",
                "type": 1,
                "default_member_permissions": None,
                "nsfw": False,
                **command,
            }
            for command in commands
        ]
        self.state.changed()
        return json_response(echoed)

    async def callback(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        body, files = await _read_body(request)
        self.state.callbacks.append(body)
        kind, data = body["type"], body.get("data") or {}
        if (refused := too_long(data.get("content"))) is not None:
            return refused
        interaction = self.state.interactions[token]
        answer: Payload = {"interaction": {"id": interaction["id"], "type": interaction["type"]}}
        if kind in (4, 5):  # a new message (5: the "thinking…" placeholder the first followup replaces)
            loading = kind == 5
            message = p.message(
                int(interaction["channel_id"]),
                self.state.bot,
                data.get("content") or "",
                components=data.get("components"),
                flags=(data.get("flags") or 0) | (128 if loading else 0),
            )
            self.state.original_by_token[token] = int(message["id"])
            self._record("callback", message, body, files)
            answer["interaction"] |= {
                "response_message_id": message["id"],
                "response_message_loading": loading,
                "response_message_ephemeral": bool(message["flags"] & p.EPHEMERAL),
            }
            answer["resource"] = {"type": kind, "message": message}
        elif kind == 7:  # update the message the button is on
            answer["resource"] = {"type": kind, "message": self._edit(token, data, body, files)}
        self.state.changed()
        return json_response(answer)

    async def edit_original(self, request: web.Request) -> web.Response:
        body, files = await _read_body(request)
        if (refused := too_long(body.get("content"))) is not None:
            return refused
        return json_response(self._edit(request.match_info["token"], body, body, files))

    async def followup(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        body, files = await _read_body(request)
        if (refused := too_long(body.get("content"))) is not None:
            return refused
        original = self.state.messages.get(self.state.original_by_token.get(token, 0))
        if original is not None and original["flags"] & 128:  # the first followup replaces "thinking…"
            return json_response(self._edit(token, body | {"flags": original["flags"] & ~128}, body, files))
        interaction = self.state.interactions[token]
        message = p.message(
            int(interaction["channel_id"]),
            self.state.bot,
            body.get("content") or "",
            components=body.get("components"),
            flags=body.get("flags") or 0,
        )
        return json_response(self._record("followup", message, body, files))

    def _edit(self, token: str, changes: Payload, body: Payload, files: dict[str, bytes]) -> Payload:
        message = self.state.messages[self.state.original_by_token[token]]
        for key in ("content", "components", "flags"):
            if key in changes:
                message[key] = changes[key] if changes[key] is not None else ([] if key == "components" else "")
        return self._record("edit", message, body, files)

    def _record(self, how: str, message: Payload, body: Payload, files: dict[str, bytes]) -> Payload:
        self.state.messages[int(message["id"])] = message
        self.state.sent.append(
            Sent(
                how,
                int(message["id"]),
                int(message["channel_id"]),
                message["content"],
                list(message.get("components") or []),
                message["flags"],
                files,
                body,
            )
        )
        self.state.changed()
        return message


def uploaded_attachments(body: Payload, files: dict[str, bytes]) -> list[Payload]:
    """The attachments of an upload as Discord echoes them (voice messages keep duration_secs and waveform)."""
    echoed = []
    for described in body.get("attachments") or []:
        name = described.get("filename", "file")
        attachment: Payload = {"id": str(p.snowflake()), "filename": name, "size": len(files.get(name, b"")),
                               "url": f"https://cdn.invalid/{name}", "proxy_url": f"https://cdn.invalid/{name}"}
        for key in ("duration_secs", "waveform"):
            if key in described:
                attachment[key] = described[key]
        echoed.append(attachment)
    return echoed


async def _read_body(request: web.Request) -> tuple[Payload, dict[str, bytes]]:
    """The JSON body, or the `payload_json` and files of a multipart upload."""
    if not request.content_type.startswith("multipart/"):
        return (await request.json() if request.can_read_body else {}), {}
    body: Payload = {}
    files: dict[str, bytes] = {}
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        if not isinstance(part, BodyPartReader):
            continue
        if part.name == "payload_json":
            body = json.loads(await part.text())
        else:
            files[part.filename or part.name or "file"] = bytes(await part.read())
    return body, files
