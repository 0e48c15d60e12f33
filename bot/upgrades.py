"""`souvenir migrate` and `souvenir reindex`: bring stored data up to this version, and re-embed every memory
after the embedding model changed or to key its keyword ids (memory/redis/schema.py, memory/writing/reindex.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

import redis.asyncio as aioredis
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from bot.app.memory import embedder_options, index_options
from bot.app.stores import redis_options
from bot.config import Settings
from bot.errors import ConfigError
from memory.index_factory import backend_for, edge_directory, open_embedder, open_index_driver, server_collection
from memory.privacy.crypto.startup import KeyStorePlace, cipher_for, key_store_for
from memory.qdrant.driver import IndexDriver
from memory.redis.connect import redis_client
from memory.redis.data_dir_lock import hold_data_dir
from memory.redis.embedded import embedded_redis
from memory.redis.schema import IndexInUse, SchemaRecord, embedding_id, keywords_for, keywords_to_do, migrate
from memory.writing.reindex import ReindexCheckpoint, copy_index, reconcile, switch_to, target_of


@asynccontextmanager
async def _stores(settings: Settings, *, index: bool) -> AsyncIterator[aioredis.Redis]:
    """Redis. The embedded one, and with `index` the embedded memory index, belong to the data dir's owner: no
    bot may be running on it then."""
    async with AsyncExitStack() as stack:
        url = settings.redis_url
        if settings.redis_embedded or (index and settings.qdrant_url is None):
            stack.enter_context(hold_data_dir(settings.data_dir))
        if settings.redis_embedded:
            url = await stack.enter_async_context(embedded_redis(settings.data_dir))
        client = redis_client(redis_options(settings), url)
        stack.push_async_callback(client.aclose)
        yield client


def _embedding(settings: Settings) -> str:
    return embedding_id(settings.embedding_provider, settings.embedding_model)


async def run_migrate(settings: Settings, console: Console | None = None) -> int:
    console = console or Console()
    async with _stores(settings, index=False) as client:
        steps = await migrate(client, _embedding(settings))
        version, in_use = await SchemaRecord(client).version(), await SchemaRecord(client).index()
    for step in steps:
        console.print(f"migrated: {step}")
    if not steps:
        console.print(f"nothing to migrate: the stored data is at schema version {version}")
    to_do = keywords_to_do(in_use, keywords_for(settings.encryption_key is not None)) if in_use else None
    if to_do:  # the index is not opened here: what its record says a start would ask
        console.print(to_do)
    return 0


def _where(settings: Settings, generation: int) -> str:
    if backend_for(index_options(settings)).value == "edge":
        return str(settings.data_dir / edge_directory(generation))
    return f"collection {server_collection(generation)}"


async def run_reindex(settings: Settings, console: Console | None = None) -> int:
    console = console or Console()
    async with AsyncExitStack() as stack:
        client = await stack.enter_async_context(_stores(settings, index=True))
        for step in await migrate(client, _embedding(settings)):
            console.print(f"migrated: {step}")
        schema, checkpoints = SchemaRecord(client), ReindexCheckpoint(client)
        # Sealed memories are opened to be re-embedded (and stay sealed): the same key check as a start.
        master = settings.encryption_key.get_secret_value() if settings.encryption_key else None
        place = KeyStorePlace(settings.resolved_key_store, settings.resolved_key_dir, settings.key_store_url)
        cipher = await cipher_for(client, master, key_store_for(stack, place, client))
        in_use = await schema.index()
        assert in_use is not None  # migrate records it
        embedder = await stack.enter_async_context(open_embedder(embedder_options(settings)))
        wanted, keywords = _embedding(settings), keywords_for(cipher.enabled)
        resumed = await checkpoints.read()
        source = None
        if in_use.dimension is not None:
            source = await _driver(stack, settings, in_use.dimension, in_use.generation)
            in_use = await schema.settle_keywords(in_use, keywords, await source.total())
        same_vectors = in_use.embedding == wanted and in_use.dimension in (None, embedder.dimension)
        if same_vectors and in_use.keywords in (None, keywords):
            console.print(f"nothing to reindex: the memory index is already built with {wanted}")
            return 0
        if source is None or in_use.dimension is None:
            raise ConfigError(
                f"the vector size of the index in use ({in_use.embedding}) was never recorded: start Souvenir once "
                "with the old embedding settings, then run `souvenir reindex` with the new ones"
            )
        start = target_of(in_use, wanted, resumed)
        target = await _driver(stack, settings, embedder.dimension, start.generation)
        into = _where(settings, start.generation)
        what = f"re-embedding every memory with {wanted} ({embedder.dimension}-d)"
        if same_vectors:
            what = "rebuilding every memory's keyword ids keyed per person"
        console.print(
            f"{what} into {into}"
            + (f", resuming after {start.copied}" if start.copied else "")
            + f"; the bot keeps answering from {_where(settings, in_use.generation)} meanwhile"
        )
        columns = (TextColumn("memories"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=console) as bar:
            task = bar.add_task("reindex", total=None)

            def show(copied: int, total: int) -> None:
                bar.update(task, completed=copied, total=total)

            done = await copy_index(source, target, embedder, checkpoints, start, progress=show, cipher=cipher)
        changed, removed = await reconcile(source, target, embedder, cipher=cipher)
        console.print(f"caught up with the replicas: {changed} memories added or changed meanwhile, {removed} gone")
        new = await switch_to(schema, checkpoints, in_use, done, embedder.dimension, keywords)
    _report(console, settings, in_use, new, done.copied)
    return 0


async def _driver(stack: AsyncExitStack, settings: Settings, dimension: int, generation: int) -> IndexDriver:
    driver = await open_index_driver(index_options(settings), dimension, generation)
    stack.push_async_callback(driver.close)
    return driver


def _report(console: Console, settings: Settings, old: IndexInUse, new: IndexInUse, copied: int) -> None:
    console.print(
        f"switched: {copied} memories re-embedded with {new.embedding}; the index in use is now "
        f"{_where(settings, new.generation)}. Restart every replica with the new embedding settings; "
        f"{_where(settings, old.generation)} is no longer read and can be deleted once they run."
    )
