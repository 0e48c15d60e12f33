"""Writing answered exchanges into long-term memory: one at a time, or a batch of them in a few index calls.

One exchange: its message becomes an episode (indexed with the words of the message before it, whose episode
is extended with the start of this one), then facts are extracted and consolidated against what the person
already has (memory.writing.writer).

A batch (the outbox worker draining a queue, the evaluation's ingestion) writes each exchange exactly as
above, in order, but first embeds everything the batch will write and search for in one call, and holds its
index writes back until something must see them (memory.writing.write_behind): the episodes of a whole batch usually
go in one write. Every exchange is still weighed against the ones before it, fenced by its own erasure
epoch, and gets the same ids as when written alone.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from contextlib import suppress

from bot.engine.model import ChatTurn, Exchange
from bot.errors import ErasedMeanwhile
from memory.ports import ErasureLog
from memory.records import MemoryKind, MemoryRecord
from memory.store import MemoryStore
from memory.writing.episodes import earlier_turns, episode_id, episodic_record, with_next, without_words
from memory.writing.extraction.offline import offline_candidates
from memory.writing.write_behind import WriteBehindStore
from memory.writing.writer import MemoryWriter, Origin

log = logging.getLogger(__name__)
# Exchanges embedded at once: the next chunk is embedded (in the embedder's thread) while one is written.
EMBED_CHUNK = 16


def _episode_ids(exchange: Exchange, turns: tuple[ChatTurn, ...]) -> list[str]:
    message = exchange.message
    return [episode_id(message.user.key, message.conversation_id, t.at, t.text) for t in turns]


async def _current_episodes(store: MemoryStore, exchange: Exchange, turns: tuple[ChatTurn, ...]) -> list[MemoryRecord]:
    """The stored episodes of `turns` that are still current: a forgotten or superseded one stays so."""
    found = await store.fetch(exchange.message.user.key, _episode_ids(exchange, turns))
    return [r for r in found if r.kind is MemoryKind.EPISODIC and r.valid_to is None]


async def write_exchange(
    exchange: Exchange,
    store: MemoryStore,
    writer: MemoryWriter,
    erasures: ErasureLog | None,
    epoch: int | None,
    episode: MemoryRecord | None = None,
) -> list[MemoryRecord]:
    """Write one exchange at the person's erasure `epoch` (`episode`: its episode, when already made); returns
    the facts stored from it."""
    message = exchange.message
    earlier = earlier_turns(exchange)
    episode = episode or episodic_record(exchange, earlier)
    previous = await _current_episodes(store, exchange, earlier)
    updated = [with_next(r, message.text, episode.memory_id) for r in previous]
    origin = Origin(message.user.key, message.sent_at, exchange.timezone, exchange.language, episode.source,
                    message.scope, episode.memory_id, epoch)  # fmt: skip
    try:
        # First, so nothing is lost if extraction fails; fenced, so /forget all meanwhile wins.
        await writer.add_fenced(origin.user_key, epoch, [*updated, episode])
        if erasures is not None:
            # An earlier message forgotten meanwhile: its words leave this one's context (once this is
            # stored, forgetting finds this episode through the earlier one's attributes instead).
            ids = dict(zip(_episode_ids(exchange, earlier), earlier, strict=True))
            gone = await erasures.forgotten_among(origin.user_key, list(ids))
            if gone:
                kept = tuple(turn for memory_id, turn in ids.items() if memory_id not in gone)
                await writer.add_fenced(origin.user_key, epoch, [episodic_record(exchange, kept)])
    except ErasedMeanwhile:
        log.info("an exchange was not kept: the person erased their data meanwhile")
        return []
    return await writer.extract_and_store(message.text, origin, read_mood=True)


async def _context_forgotten_meanwhile(
    exchanges: Sequence[Exchange],
    store: MemoryStore,
    writer: MemoryWriter,
    erasures: ErasureLog,
    pending: WriteBehindStore,
) -> None:
    """An earlier message forgotten after an episode's check but before the batch wrote it: its words leave
    that episode now (written, forgetting finds it through the earlier one's attributes, as one by one)."""
    by_user: dict[str, list[tuple[Exchange, dict[str, ChatTurn]]]] = {}
    for exchange in exchanges:
        earlier = earlier_turns(exchange)
        by_user.setdefault(exchange.message.user.key, []).append(
            (exchange, dict(zip(_episode_ids(exchange, earlier), earlier, strict=True)))
        )
    for user_key, written in by_user.items():
        gone = await erasures.forgotten_among(user_key, [i for _, ids in written for i in ids])
        for exchange, ids in written if gone else ():
            forgotten = {i: turn for i, turn in ids.items() if i in gone}
            if not forgotten:
                continue
            episode_of = episodic_record(exchange, earlier_turns(exchange)).memory_id
            for record in await store.fetch(user_key, [episode_of]):
                for memory_id, turn in forgotten.items():
                    record = without_words(record, memory_id, turn.text)
                with suppress(ErasedMeanwhile):
                    await writer.add_fenced(user_key, pending.epoch_of(user_key), [record])


def facts_ahead(exchanges: Sequence[Exchange]) -> list[str]:
    """The texts of the facts read offline from the messages of `exchanges`: each is searched for, then written
    (a language model's facts are not known before it is asked: they are embedded as they come)."""
    texts: list[str] = []
    for exchange in exchanges:
        message = exchange.message
        found = offline_candidates(message.text, message.sent_at, exchange.timezone, exchange.language)
        texts.extend(c.text for c in found)
    return texts


async def write_exchanges(
    exchanges: Sequence[Exchange], store: MemoryStore, writer: MemoryWriter, erasures: ErasureLog | None
) -> None:
    """Write `exchanges` in order, as `write_exchange` would one by one, in as few index calls as it can."""
    if not exchanges:
        return
    pending = WriteBehindStore(store, writer.add_fenced)
    batch_writer = writer.writing_to(pending)
    dated: list[str] = []
    episodes = [episodic_record(e, earlier_turns(e)) for e in exchanges]
    chunks = [range(start, min(start + EMBED_CHUNK, len(exchanges))) for start in range(0, len(exchanges), EMBED_CHUNK)]

    def embed(chunk: range) -> asyncio.Task[None]:
        wanted = [exchanges[i] for i in chunk]
        return asyncio.create_task(
            store.embed_ahead(facts_ahead(wanted), episodes[chunk.start : chunk.stop])
        )

    embedding = embed(chunks[0])
    try:
        for n, chunk in enumerate(chunks):
            await embedding
            if n + 1 < len(chunks):
                embedding = embed(chunks[n + 1])  # in its worker thread while this chunk is written
            for i in chunk:
                exchange = exchanges[i]
                user_key = exchange.message.user.key
                epoch = exchange.erasure_epoch
                if epoch is None:
                    epoch = await writer.epoch(user_key)
                await pending.writing_for(user_key, epoch)
                stored = await write_exchange(exchange, pending, batch_writer, erasures, epoch, episodes[i])
                if any(r.kind is MemoryKind.TEMPORAL for r in stored):
                    dated.append(user_key)
    except BaseException:
        embedding.cancel()
        with suppress(Exception):
            await pending.flush()  # what was written so far stays written, as one by one
        raise
    await pending.flush()
    if erasures is not None:
        await _context_forgotten_meanwhile(exchanges, store, writer, erasures, pending)
    for user_key in dict.fromkeys(dated):
        await writer.plan(user_key)  # once the dated memories are in the index it reads
