"""`souvenir doctor`: one line per check of the set-up, each failure with its fix.

Exit 0 when everything configured works, else 1. No platform token is a note, not a failure: `souvenir chat`
needs none. Nothing here raises to the terminal: every check turns its failure into its line, and says it once
(the warnings a check's own library logs on the way are not printed again under it)."""

from __future__ import annotations

import asyncio
import logging
import os
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import Any

import aiohttp

from bot.config import Settings
from bot.engine.model import ChatTurn
from bot.engine.ports import CompletionRequest
from bot.errors import ConfigError
from memory.redis.connect import redis_client

TIMEOUT_S = 10.0
COLLECTION = "souvenir_memories"  # memory.qdrant.server.COLLECTION (not imported: it pulls in qdrant-client)
DENSE_VECTOR = "dense"


class Status(Enum):
    OK = "ok"
    FAIL = "FAIL"
    OFF = "--"
    NOTE = "note"


@dataclass(frozen=True, slots=True)
class Line:
    status: Status
    name: str
    detail: str
    fix: str = ""

    def __str__(self) -> str:
        fix = f"\n       fix: {self.fix}" if self.fix else ""
        return f"[{self.status.value:>4}] {self.name}: {self.detail}{fix}"


class CheckFailed(Exception):
    def __init__(self, detail: str, fix: str) -> None:
        super().__init__(detail)
        self.detail, self.fix = detail, fix


def _print(line: Line) -> Line:
    print(line, flush=True)
    return line


def report_invalid_config(error: ConfigError) -> int:
    _print(Line(Status.FAIL, "config", str(error), "correct that variable in the environment or .env"))
    return 1


async def run_doctor(settings: Settings) -> int:
    lines = [_print(Line(Status.OK, "config", "settings are valid"))]
    for name, check in (
        ("data dir", _data_dir),
        ("redis", _redis),
        ("qdrant", _qdrant),
        ("llm", _llm),
        ("telegram", _telegram),
        ("discord", _discord),
    ):
        lines.append(_print(await _run(name, check, settings)))
    platforms = [line for line in lines if line.name in ("telegram", "discord") and line.status is not Status.OFF]
    if not platforms:
        _print(Line(
            Status.NOTE, "platforms",
            "none configured; `souvenir chat` works, set SOUVENIR_TELEGRAM_TOKEN (from @BotFather) or "
            "SOUVENIR_DISCORD_TOKEN (Discord developer portal) to run on a platform",
        ))  # fmt: skip
    return 1 if any(line.status is Status.FAIL for line in lines) else 0


async def _run(name: str, check: Callable[[Settings], Awaitable[Line | str]], settings: Settings) -> Line:
    try:
        async with asyncio.timeout(TIMEOUT_S * 2):
            result = await check(settings)
    except CheckFailed as failed:
        return Line(Status.FAIL, name, failed.detail, failed.fix)
    except TimeoutError:
        return Line(Status.FAIL, name, f"no answer within {TIMEOUT_S * 2:g} s", "check the address and the network")
    except Exception as exc:  # doctor reports every failure as its line, never as a traceback
        return Line(Status.FAIL, name, f"{type(exc).__name__}: {exc}", "see the message above")
    return result if isinstance(result, Line) else Line(Status.OK, name, result)


async def _data_dir(settings: Settings) -> str:
    path = settings.data_dir
    fix = f"create it and give this user write access (chown, or set SOUVENIR_DATA_DIR elsewhere): {path}"
    try:
        await asyncio.to_thread(path.mkdir, parents=True, exist_ok=True)
        await asyncio.to_thread(_touch, path)
    except OSError as exc:
        raise CheckFailed(f"{path} is not writable ({exc.strerror or exc})", fix) from None
    return f"{path.resolve()} is writable"


def _touch(path: os.PathLike[str]) -> None:
    with tempfile.NamedTemporaryFile(dir=path, prefix=".doctor-"):
        pass


async def _redis(settings: Settings) -> str:
    if settings.redis_embedded:
        return f"embedded valkey under {settings.data_dir / 'redis'} (started by `souvenir run`)"
    from bot.app.stores import redis_options  # heavy: only when a Redis server is configured

    client = redis_client(redis_options(settings), socket_connect_timeout=TIMEOUT_S, socket_timeout=TIMEOUT_S)
    try:
        server = await client.info("server")
        persistence = await client.info("persistence")
    except Exception as exc:
        raise CheckFailed(
            f"cannot reach Redis ({exc})",
            "start the Redis server or correct SOUVENIR_REDIS_URL (or SOUVENIR_REDIS_SENTINELS)",
        ) from None
    finally:
        await client.aclose()
    version = server.get("valkey_version") or server.get("redis_version") or "?"
    product = "valkey" if "valkey_version" in server else "redis"
    aof = "on" if str(persistence.get("aof_enabled")) == "1" else "off"
    if aof == "off":
        return f"{product} {version}, append-only file off (a crash may lose recent writes: appendonly yes)"
    return f"{product} {version}, append-only file on"


async def _qdrant(settings: Settings) -> str:
    if settings.qdrant_url is None:
        return f"embedded Qdrant Edge under {settings.data_dir / 'qdrant'}"
    headers = {"api-key": settings.qdrant_api_key.get_secret_value()} if settings.qdrant_api_key else {}
    root = settings.qdrant_url.rstrip("/")
    timeout = aiohttp.ClientTimeout(total=TIMEOUT_S)
    try:
        async with aiohttp.ClientSession(timeout=timeout, headers=headers) as session:
            about = await _json(session, f"{root}/")
            collection = await _json(session, f"{root}/collections/{COLLECTION}", missing_ok=True)
    except (aiohttp.ClientError, OSError) as exc:
        fix = "start Qdrant or correct SOUVENIR_QDRANT_URL"
        raise CheckFailed(f"cannot reach Qdrant at {root} ({exc})", fix) from None
    version = about.get("version", "?")
    if collection is None:
        return f"Qdrant {version}; collection {COLLECTION} not created yet (the first `souvenir run` creates it)"
    size = _vector_size(collection)
    expected = await _embedder_dimension(settings)
    if size is not None and size != expected:
        raise CheckFailed(
            f"Qdrant {version}: collection {COLLECTION} holds {size}-d vectors, the embedder makes {expected}-d",
            "use the embedder the collection was made with (SOUVENIR_EMBEDDING_*), or re-create the collection",
        )
    return f"Qdrant {version}; collection {COLLECTION}, {size}-d vectors match the embedder"


async def _json(session: aiohttp.ClientSession, url: str, *, missing_ok: bool = False) -> Any:
    async with session.get(url) as response:
        if response.status == 404 and missing_ok:
            return None
        if response.status in (401, 403):
            raise CheckFailed("Qdrant refused the API key", "set SOUVENIR_QDRANT_API_KEY to the server's api key")
        if response.status >= 400:
            raise CheckFailed(f"Qdrant answered HTTP {response.status} at {url}", "check SOUVENIR_QDRANT_URL")
        return await response.json()


def _vector_size(collection: dict[str, Any]) -> int | None:
    vectors = collection.get("result", {}).get("config", {}).get("params", {}).get("vectors", {})
    dense = vectors.get(DENSE_VECTOR, vectors)
    size = dense.get("size") if isinstance(dense, dict) else None
    return int(size) if size is not None else None


async def _embedder_dimension(settings: Settings) -> int:
    from bot.app.memory import embedder_options  # heavy: only when a Qdrant server has a collection
    from memory.index_factory import open_embedder

    async with open_embedder(embedder_options(settings)) as embedder:
        return embedder.dimension


async def _llm(settings: Settings) -> str:
    from bot.app.conversation import chat_endpoint  # heavy: only when the LLM is checked
    from bot.llm.factory import open_language_model

    model = settings.resolved_llm_model
    where = settings.llm_base_url or f"{settings.llm_provider}'s API"
    turn = ChatTurn("user", "Say OK.", datetime.now(UTC))
    try:
        with _unlogged("bot.llm"):  # its warnings say what the line below says, with the same fix
            async with open_language_model(chat_endpoint(settings)) as llm:
                await llm.complete(CompletionRequest(system="Answer with one word.", turns=(turn,), max_tokens=1))
    except Exception as exc:
        fix = (
            f"start Ollama (`ollama serve`) and `ollama pull {model}`, or set SOUVENIR_LLM_BASE_URL"
            if settings.llm_provider == "openai-compatible"
            else "check SOUVENIR_LLM_API_KEY and SOUVENIR_LLM_MODEL"
        )
        raise CheckFailed(f"{model} at {where} did not answer a 1-token call ({exc})", fix) from None
    return f"{model} at {where} answered a 1-token call"


@contextmanager
def _unlogged(logger_name: str) -> Iterator[None]:
    """The logger's warnings are not printed while a check runs (its errors still are)."""
    logger = logging.getLogger(logger_name)
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


async def _telegram(settings: Settings) -> Line | str:
    if settings.telegram_token is None:
        return Line(Status.OFF, "telegram", "not configured (SOUVENIR_TELEGRAM_TOKEN)")
    url = f"{settings.telegram_api_url.rstrip('/')}/bot{settings.telegram_token.get_secret_value()}/getMe"
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TIMEOUT_S)) as session:
        try:
            async with session.get(url) as response:
                body = await response.json(content_type=None)
        except (aiohttp.ClientError, OSError, ValueError) as exc:
            fix = "check SOUVENIR_TELEGRAM_API_URL and the network"
            raise CheckFailed(f"cannot reach the Bot API ({type(exc).__name__})", fix) from None
    if response.status in (401, 404) or not body.get("ok"):
        raise CheckFailed("Telegram rejected the token (getMe)", "copy the token again from @BotFather")
    return f"token valid: @{body['result'].get('username', '?')}"


async def _discord(settings: Settings) -> Line | str:
    if settings.discord_token is None:
        return Line(Status.OFF, "discord", "not configured (SOUVENIR_DISCORD_TOKEN)")
    root = (settings.discord_api_url or "https://discord.com").rstrip("/")
    headers = {"Authorization": f"Bot {settings.discord_token.get_secret_value()}"}
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TIMEOUT_S), headers=headers) as session:
        try:
            async with session.get(f"{root}/api/v10/users/@me") as response:
                body = await response.json(content_type=None)
        except (aiohttp.ClientError, OSError, ValueError) as exc:
            fix = "check SOUVENIR_DISCORD_API_URL and the network"
            raise CheckFailed(f"cannot reach Discord ({type(exc).__name__})", fix) from None
    if response.status == 401:
        raise CheckFailed(
            "Discord rejected the token (users/@me)", "reset the token in the developer portal (Bot → Reset Token)"
        )
    if response.status >= 400:
        raise CheckFailed(f"Discord answered HTTP {response.status}", "check SOUVENIR_DISCORD_API_URL")
    return f"token valid: {body.get('username', '?')}"
