"""`souvenir eval locomo`: evidence recall of long-term memory on LoCoMo, through the real ingestion path.

Each conversation is one person's history: every turn (both speakers, "Name: text") goes through
`remember_exchange` in session order, with the session's date as the message time and the turns before it
as the short-term window (`Exchange.previous_turns`, as the engine fills it), into a fresh embedded
index under a temporary data dir; no language model. Then each question of categories 1–4 is recalled and
scored: the share of its evidence turns covered by the sources of the top-k excerpts (a memory, or messages said
one after the other and shown together, as recall counts them against its limit).
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bot.engine.model import (
    ChatKind,
    ChatTurn,
    Exchange,
    IncomingMessage,
    RecallQuery,
    Reply,
    UserRef,
    excerpts,
)
from memory.evaluation.baselines import RawTurns
from memory.evaluation.folds import CANDIDATES, Fold, candidates_report, folds_mean, leave_one_out
from memory.evaluation.locomo_data import CATEGORIES, Conversation, Turn, load_locomo
from memory.evaluation.scoring import Tally, merged
from memory.index_factory import EmbedderOptions, IndexOptions, open_embedder, open_memory_index
from memory.ports import Embedder
from memory.qdrant.index import QdrantMemoryIndex
from memory.recall.ranking import DEFAULT_WEIGHTS
from memory.service import LongTermMemoryService

PLATFORM = "locomo"


class _FixedClock:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def now(self) -> datetime:
        return self.at


WINDOW_TURNS = 6  # what a short-term window holds before a message, as the engine hands it over


def _said(turn: Turn) -> str:
    return f"{turn.speaker}: {turn.text}"


def _exchange(conversation: Conversation, index: int) -> Exchange:
    turn = conversation.turns[index]
    user = UserRef(PLATFORM, conversation.sample_id, turn.speaker)
    message = IncomingMessage(user, f"{PLATFORM}:{conversation.sample_id}", turn.dia_id, _said(turn), turn.at,
                              ChatKind.PRIVATE)  # fmt: skip
    window = tuple(
        ChatTurn("user", _said(t), t.at, user.key, t.speaker)
        for t in conversation.turns[max(0, index - WINDOW_TURNS) : index]
    )
    return Exchange(message, Reply("", "en"), "UTC", "en", previous_turns=window)


INGEST_BATCH = 64  # exchanges handed to `remember_exchanges` at once, as a worker drains a queue of them


async def ingest_conversations(
    service: LongTermMemoryService, conversations: list[Conversation], start: int = 0, stop: int | None = None
) -> tuple[int, float]:
    """Every turn in order through the real write path, in batches (each exchange written as it would be alone:
    same memories, same consolidation against the turns before it; see memory/writing/ingest.py). With `start`
    and `stop`, only the turns from `start` to `stop` of that order (all conversations' turns one after the
    other), so a run can be cut in two: the same turns, written the same way. Returns how many were ingested
    and in how many seconds."""
    started = time.perf_counter()
    count = 0
    offset = 0  # where the conversation's first turn stands in the order
    for conversation in conversations:
        first = max(start - offset, 0)
        last = len(conversation.turns) if stop is None else min(stop - offset, len(conversation.turns))
        offset += len(conversation.turns)
        exchanges = [_exchange(conversation, index) for index in range(first, last)]
        for begin in range(0, len(exchanges), INGEST_BATCH):
            await service.remember_exchanges(exchanges[begin : begin + INGEST_BATCH])
        count += len(exchanges)
    return count, time.perf_counter() - started


async def score_recall(
    service: LongTermMemoryService,
    store: QdrantMemoryIndex,
    conversations: list[Conversation],
    k: int,
    max_words: int,
) -> dict[str, Tally]:
    """One tally per conversation (by its id), so folds can be drawn from them."""
    tallies: dict[str, Tally] = {}
    for conversation in conversations:
        tally = tallies.setdefault(conversation.sample_id, Tally("souvenir", k))
        user_key = UserRef(PLATFORM, conversation.sample_id).key
        for question in conversation.questions:
            started = time.perf_counter()
            recalled = await service.recall(
                RecallQuery(user_key, question.text, conversation.asked_at, limit=k, max_words=max_words)
            )
            latency = (time.perf_counter() - started) * 1000
            records = {r.memory_id: r for r in await store.fetch(user_key, [m.memory_id for m in recalled])}
            # k counts excerpts, as the recall's limit does: a message shown with the ones said around it is one
            sources = [
                tuple(i for m in excerpt if m.memory_id in records for i in records[m.memory_id].source.message_ids)
                for excerpt in excerpts(recalled)
            ]
            words = sum(len(m.text.split()) for m in recalled)
            tally.add(question.category, question.evidence, sources, words, latency)
    return tallies


async def _score_baselines(conversations: list[Conversation], embedder: Embedder, k: int) -> list[Tally]:
    tallies = [Tally("bm25 (raw turns)", k), Tally("dense (raw turns)", k), Tally("hybrid rrf (raw turns)", k)]
    for conversation in conversations:
        turns = await RawTurns.build(conversation, embedder)
        vectors = await embedder.embed([q.text for q in conversation.questions])
        for question, vector in zip(conversation.questions, vectors, strict=True):
            for tally, ids in zip(
                tallies,
                (turns.bm25(question.text, k), turns.dense(vector, k), turns.hybrid(question.text, vector, k)),
                strict=True,
            ):
                tally.add(question.category, question.evidence, [(i,) for i in ids], turns.words(ids), 0.0)
    return tallies


def _table(tallies: list[Tally], k: int) -> Table:
    table = Table(title=f"LoCoMo evidence recall@{k} (categories 1–4)")
    table.add_column("retriever")
    for name in [*CATEGORIES.values(), "overall"]:
        table.add_column(f"R@{k} {name}", justify="right")
    table.add_column("R@5", justify="right")
    table.add_column("words/q", justify="right")
    for tally in tallies:
        recall = tally.recall()
        cells = [f"{recall.get(name, 0.0):.3f}" for name in [*CATEGORIES.values(), "overall"]]
        table.add_row(tally.name, *cells, f"{tally.recall_at_5():.3f}", f"{tally.mean_words():.0f}")
    return table


def _folds_table(folds: list[Fold], mean: dict[str, Any], plain: Tally, k: int) -> Table:
    table = Table(title=f"Leave one conversation out: weights chosen on the others, R@{k} on the one held out")
    table.add_column("held out")
    for name in [*CATEGORIES.values(), "overall"]:
        table.add_column(f"R@{k} {name}", justify="right")
    table.add_column("R@5", justify="right")
    table.add_column("words/q", justify="right")
    table.add_column("chosen weights (vs defaults)")
    defaults = DEFAULT_WEIGHTS.as_dict()
    names = [*CATEGORIES.values(), "overall"]

    def row(label: str, recall: dict[str, float], at_5: float, words: float, weights: str) -> None:
        table.add_row(label, *[f"{recall.get(n, 0.0):.3f}" for n in names], f"{at_5:.3f}", f"{words:.0f}", weights)

    for fold in folds:
        changed = ", ".join(f"{n}={v:g}" for n, v in fold.weights.as_dict().items() if v != defaults[n])
        row(fold.held_out, fold.tally.recall(), fold.tally.recall_at_5(), fold.tally.mean_words(),
            changed or "defaults")  # fmt: skip
    row("mean of folds", mean["recall"], mean["recall_at_5"], mean["mean_words"], "")
    row("plain (defaults, all)", plain.recall(), plain.recall_at_5(), plain.mean_words(), "defaults")
    return table


async def run_locomo_eval(
    embedder_options: EmbedderOptions,
    data: Path,
    k: int = 10,
    json_out: Path | None = None,
    baselines: bool = False,
    folds: bool = False,
    recall_max_words: int = 300,
) -> int:
    """Runs the evaluation and prints it; returns the process exit code (2 when the data is unusable).
    `k` is how many memories are recalled for each question, and `recall_max_words` how many words they may
    take (the CLI passes SOUVENIR_RECALL_LIMIT and SOUVENIR_RECALL_MAX_WORDS; these defaults are theirs). With
    `folds`, each candidate weight set is scored on the same ingested index, and leave-one-conversation-out picks
    among them. The index is a fresh embedded one in a temporary directory."""
    console = Console(width=190)
    try:
        conversations = await asyncio.to_thread(load_locomo, data)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        console.print(f"[red]Cannot read LoCoMo data at {data}: {exc}[/red]")
        return 2
    if not conversations or not any(c.questions for c in conversations):
        console.print(f"[red]No scorable questions in {data}[/red]")
        return 2
    with tempfile.TemporaryDirectory(prefix="souvenir-locomo-") as scratch:
        clock = _FixedClock(max(c.asked_at for c in conversations))
        async with open_embedder(embedder_options) as embedder:
            async with open_memory_index(IndexOptions(Path(scratch)), embedder, clock=clock) as store:
                service = LongTermMemoryService(store, default_timezone="UTC", recall_rows=store.recall_rows)
                messages, seconds = await ingest_conversations(service, conversations)
                by_conversation = await score_recall(service, store, conversations, k, recall_max_words)
                scored = [by_conversation]
                if folds:  # ingested once: only the ranking changes between candidates
                    for weights in CANDIDATES[1:]:
                        candidate = LongTermMemoryService(store, default_timezone="UTC", recall_weights=weights,
                                                          recall_rows=store.recall_rows)
                        tallies = await score_recall(candidate, store, conversations, k, recall_max_words)
                        scored.append(tallies)
            others = await _score_baselines(conversations, embedder, k) if baselines else []
    tally = merged("souvenir", k, list(by_conversation.values()))
    console.print(_table([tally, *others], k))
    held_out = leave_one_out(CANDIDATES, scored, k) if folds and len(conversations) > 1 else []
    mean = folds_mean(held_out) if held_out else {}
    if held_out:
        console.print(_folds_table(held_out, mean, tally, k))
    ingest_rate = messages / seconds if seconds > 0 else 0.0
    p50, p95 = tally.latency_percentile(0.5), tally.latency_percentile(0.95)
    console.print(f"{tally.n_questions} questions, {messages} messages ingested at {ingest_rate:.1f} msgs/s; "
                  f"recall p50 {p50:.1f} ms, p95 {p95:.1f} ms")  # fmt: skip
    if json_out is not None:
        report = _json_report(tally, k, ingest_rate, held_out, mean, scored, others)
        await asyncio.to_thread(json_out.write_text, json.dumps(report, indent=2), encoding="utf-8")
    return 0


def _json_report(
    tally: Tally, k: int, ingest_rate: float, held_out: list[Fold], mean: dict[str, Any],
    scored: list[dict[str, Tally]], others: list[Tally],
) -> dict[str, Any]:  # fmt: skip
    """What `--json` writes: Souvenir's figures, then the folds and the candidates they chose among (with
    `folds`), then the raw-turn baselines (with `baselines`)."""
    report: dict[str, Any] = {
        "k": k,
        "recall": tally.recall(),
        "recall_at_5": tally.recall_at_5(),
        "mean_words": tally.mean_words(),
        "n_questions": tally.n_questions,
        "ingest_msgs_per_s": ingest_rate,
        "recall_p50_ms": tally.latency_percentile(0.5),
        "recall_p95_ms": tally.latency_percentile(0.95),
    }
    if held_out:
        report["folds"] = [fold.report() for fold in held_out]
        report["folds_mean"] = mean
        report["candidates"] = candidates_report(CANDIDATES, scored, k)
    if others:
        report["baselines"] = {t.name: {"recall": t.recall(), "recall_at_5": t.recall_at_5()} for t in others}
    return report
