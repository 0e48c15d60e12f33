"""Readiness: named checks (Redis, Qdrant, each platform), each a coroutine that raises when its part is down.

A platform that is configured but not connected yet is a failing check from the start, so /healthz says 503
until every configured part is up."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

Probe = Callable[[], Awaitable[object]]


@dataclass(frozen=True, slots=True)
class CheckResult:
    name: str
    ok: bool
    detail: str = "ok"


class NotConnected(Exception):
    pass


class Readiness:
    def __init__(self, timeout_s: float = 3.0) -> None:
        self._checks: dict[str, Probe] = {}
        self._timeout_s = timeout_s

    def watch(self, name: str, probe: Probe) -> None:
        self._checks[name] = probe

    def waiting(self, name: str, why: str = "not connected yet") -> None:
        """`name` is expected but not up: it fails with `why` until `watch` replaces it."""

        async def down() -> None:
            raise NotConnected(why)

        self._checks[name] = down

    async def check(self) -> list[CheckResult]:
        names = sorted(self._checks)
        return list(await asyncio.gather(*(self._one(name, self._checks[name]) for name in names)))

    async def _one(self, name: str, probe: Probe) -> CheckResult:
        try:
            async with asyncio.timeout(self._timeout_s):
                await probe()
        except TimeoutError:
            return CheckResult(name, False, f"no answer within {self._timeout_s:g} s")
        except Exception as exc:  # a health check reports every failure, whatever its kind
            return CheckResult(name, False, str(exc) or type(exc).__name__)
        return CheckResult(name, True)


@runtime_checkable
class ReportsConnection(Protocol):
    """A platform messenger that knows whether its connection is up (Discord's gateway)."""

    def connected(self) -> bool: ...


def platform_probe(messenger: object) -> Probe:
    """Up once started; for a messenger that reports its connection, up while connected."""

    async def probe() -> None:
        if isinstance(messenger, ReportsConnection) and not messenger.connected():
            raise NotConnected("disconnected")

    return probe
