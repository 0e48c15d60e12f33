"""The fake Discord gateway: a websocket speaking just enough of the real protocol for discord.py.

HELLO → IDENTIFY → READY (+ GUILD_CREATE per guild of the shard), heartbeat ACKs, numbered dispatches,
RECONNECT on demand and RESUME → replay of the events after the client's sequence → RESUMED.
Messages are sent uncompressed as text frames, which discord.py accepts.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

Payload = dict[str, Any]

HELLO, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, HEARTBEAT_ACK, DISPATCH = 10, 1, 2, 6, 7, 11, 0


@dataclass
class GatewaySession:
    shard_id: int
    shard_count: int
    session_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    sequence: int = 0
    log: list[tuple[int, str, Payload]] = field(default_factory=list)
    socket: web.WebSocketResponse | None = None
    replay_after: int | None = None


class FakeGateway:
    def __init__(
        self, *, ready_payload: Callable[[int, int], Payload], guilds_of_shard: Callable[[int, int], list[Payload]]
    ):
        self._ready_payload = ready_payload
        self._guilds_of_shard = guilds_of_shard
        self.sessions: dict[int, GatewaySession] = {}
        self.identifies: list[Payload] = []
        self.resumes: list[Payload] = []
        self.heartbeats = 0
        self.silent = False  # True: accept IDENTIFY but never answer READY
        self.changed: Callable[[], None] = lambda: None

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(autoping=True)
        await socket.prepare(request)
        await self._send(socket, {"op": HELLO, "d": {"heartbeat_interval": 41_250}, "s": None, "t": None})
        session: GatewaySession | None = None
        async for frame in socket:
            if frame.type is not WSMsgType.TEXT:
                continue
            payload = json.loads(frame.data)
            op, data = payload["op"], payload["d"]
            if op == HEARTBEAT:
                self.heartbeats += 1
                await self._send(socket, {"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
            elif op == IDENTIFY and not self.silent:
                session = await self._identify(socket, data)
            elif op == RESUME:
                session = await self._resume(socket, data)
            self.changed()
        if session is not None and session.socket is socket:
            session.socket = None
        return socket

    async def dispatch(self, event: str, data: Payload, *, shard_id: int = 0) -> int:
        """Sends a numbered event to the shard (or keeps it for the replay if the shard is away)."""
        session = self.sessions[shard_id]
        session.sequence += 1
        session.log.append((session.sequence, event, data))
        if session.socket is not None and not session.socket.closed:
            await self._send(session.socket, _dispatch(session.sequence, event, data))
        return session.sequence

    async def reconnect(self, *, shard_id: int = 0, replay_after: int | None = None) -> None:
        """Asks the shard to reconnect and RESUME; `replay_after` re-delivers events already received."""
        session = self.sessions[shard_id]
        session.replay_after = replay_after
        if session.socket is not None:
            await self._send(session.socket, {"op": RECONNECT, "d": None, "s": None, "t": None})

    async def _identify(self, socket: web.WebSocketResponse, data: Payload) -> GatewaySession:
        self.identifies.append(data)
        shard_id, shard_count = data.get("shard", [0, 1])
        session = self.sessions[shard_id] = GatewaySession(shard_id, shard_count, socket=socket)
        await self.dispatch(
            "READY", self._ready_payload(shard_id, shard_count) | {"session_id": session.session_id}, shard_id=shard_id
        )
        for guild in self._guilds_of_shard(shard_id, shard_count):
            await self.dispatch("GUILD_CREATE", guild, shard_id=shard_id)
        return session

    async def _resume(self, socket: web.WebSocketResponse, data: Payload) -> GatewaySession:
        self.resumes.append(data)
        session = next(s for s in self.sessions.values() if s.session_id == data["session_id"])
        session.socket = socket
        after = data["seq"] if session.replay_after is None else min(data["seq"], session.replay_after)
        session.replay_after = None
        for sequence, event, payload in list(session.log):
            if sequence > after:
                await self._send(socket, _dispatch(sequence, event, payload))
        session.sequence += 1
        await self._send(socket, _dispatch(session.sequence, "RESUMED", {}))
        return session

    async def close(self) -> None:
        for session in self.sessions.values():
            if session.socket is not None:
                await session.socket.close()

    @staticmethod
    async def _send(socket: web.WebSocketResponse, payload: Payload) -> None:
        await socket.send_str(json.dumps(payload))


def _dispatch(sequence: int, event: str, data: Payload) -> Payload:
    return {"op": DISPATCH, "s": sequence, "t": event, "d": data}
