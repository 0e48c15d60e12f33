"""The memory browser's first view for one person at 2k / 20k memories: server time and page size.

    python -m bench.memory_browser [--sizes 2000,20000] [--runs 5]

The memories are filled as `bench.memory_scale` fills them (the writer's records, without extraction) into the
embedded Qdrant Edge index behind the memory service as the app uses it; the page is what `GET /memories/`
computes — the person's memories with their history (`MemoryView.browse`), the dates ahead, the settings and
what the last reply drew on (`MemoryView.about`) — rendered to HTML (`adapters.web.pages.memories_page`), without
the HTTP round trip. Targets: first view <= 300 ms server time and <= 200 kB at 20,000 memories.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from adapters.web.guard import Visitor
from adapters.web.pages import memories_page
from adapters.web.ports import BrowserParts
from bench.memory_index import synthetic_sentences
from bench.memory_scale import USER, FillEmbedder, fill
from bot.engine.browser.memory_view import MemoryView
from bot.engine.commands.user_commands import UserCommands
from bot.engine.model import ChatTurn, UserProfile, UserRef
from bot.engine.noop import NoPlanner
from memory.embedding import UseEmbedder
from memory.index_factory import EMBEDDED_CACHED_RECORDS
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.redis.web_logins import RedisLoginTokens
from memory.redis.web_sessions import RedisWebSessions
from memory.service import LongTermMemoryService

SEARCHED = "piano"  # a word said in hundreds of the synthetic memories, as a person might search it


class _Clock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class _Profiles:
    async def load_profile(self, user_key: str) -> UserProfile:
        return UserProfile(user_key, timezone="Europe/Paris", language="en")

    async def save_profile(self, profile: UserProfile) -> None:
        return None

    async def save_profile_fields(self, profile: UserProfile, names: Sequence[str]) -> None:
        return None


class _Window:
    async def recent_turns(self, conversation_id: str) -> list[ChatTurn]:
        return []

    async def append_turns(self, conversation_id: str, turns: Sequence[ChatTurn], fence: int | None = None) -> None:
        return None


async def first_view(
    view: MemoryView, parts: BrowserParts, user: UserRef, *, page: int = 1, search: str = ""
) -> tuple[float, bytes]:
    began = time.perf_counter()
    browsing = await view.browse(user, page=page, search=search)
    about = await view.about(user)
    response = memories_page(parts, "/memories", Visitor(user, "csrf", "session"), browsing, about)
    assert response.body is not None
    return (time.perf_counter() - began) * 1000, bytes(response.body)  # type: ignore[arg-type]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="2000,20000", help="comma-separated memory counts for one person")
    parser.add_argument("--runs", type=int, default=5, help="timed first views per size")
    args = parser.parse_args()

    real = UseEmbedder()
    await real.warm_up()
    sentences = synthetic_sentences(200, random.Random(1))
    base = {s: np.asarray(v, dtype=np.float32) for s, v in zip(sentences, await real.embed(sentences), strict=True)}
    embedder = FillEmbedder(real, base)
    clock = _Clock()
    with tempfile.TemporaryDirectory() as tmp:
        driver = await EdgeDriver.open(Path(tmp) / "qdrant", real.dimension)
        index = QdrantMemoryIndex(driver, embedder, clock, cached_records=EMBEDDED_CACHED_RECORDS)
        service = LongTermMemoryService(index, default_timezone="Europe/Paris")
        profiles = _Profiles()
        commands = UserCommands(
            profiles=profiles, memories=service, window=_Window(), planner=NoPlanner(), erasers=[], clock=clock,
            default_timezone="Europe/Paris", default_language="en", bot_name="Souvenir",
        )  # fmt: skip
        view = MemoryView(commands=commands, memories=service, profiles=profiles, planner=NoPlanner(), clock=clock,
                          default_timezone="Europe/Paris", dated_events=service)  # fmt: skip
        unused: object = None  # the page reads no session or token: only the clock of these parts
        parts = BrowserParts("https://souvenir.example.org", view, RedisWebSessions(unused, clock),  # type: ignore[arg-type]
                             RedisLoginTokens(unused, clock), clock)  # type: ignore[arg-type]  # fmt: skip
        platform, _, user_id = USER.partition(":")
        user = UserRef(platform, user_id)
        next_message = 0
        try:
            for size in sorted(int(s) for s in args.sizes.split(",")):
                next_message = await fill(index, embedder, next_message, size, sentences)
                await first_view(view, parts, user)  # warm
                runs = [await first_view(view, parts, user) for _ in range(args.runs)]
                times = [ms for ms, _ in runs]
                body = runs[-1][1]
                zipped = len(gzip.compress(body)) / 1000
                print(f"{size:>6,} memories: first view p50 {statistics.median(times):7.1f} ms, "
                      f"max {max(times):7.1f} ms; page {len(body) / 1000:6.1f} kB ({zipped:5.1f} kB gz)")  # fmt: skip
                last = (await view.browse(user)).pages
                for name, kwargs in (("last page", {"page": last}), ("a search", {"search": SEARCHED})):
                    runs = [await first_view(view, parts, user, **kwargs) for _ in range(args.runs)]  # type: ignore[arg-type]
                    times = [ms for ms, _ in runs]
                    print(f"{'':>6}           {name:<10} p50 {statistics.median(times):7.1f} ms, "
                          f"max {max(times):7.1f} ms; page {len(runs[-1][1]) / 1000:6.1f} kB")  # fmt: skip
        finally:
            await index.close()


if __name__ == "__main__":
    asyncio.run(main())
