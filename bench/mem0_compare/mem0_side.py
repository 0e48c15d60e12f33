"""mem0 on the box, in a child process of its own, in each set-up its docs give for one machine.

- `qdrant_local`: its default vector store, Qdrant, at a local path (qdrant-client's local mode);
- `faiss`: `faiss-cpu` at a local path (mem0's FAISS store, euclidean distance as its docs set it: our vectors
  are unit length, so the order is the cosine's);
- `chroma`: Chroma's persistent local client at a path.

Each with `add(..., infer=False)` (every message stored as is, no LLM) and `search(query, top_k=10,
filters={"user_id": ...})`. Its embedder is swapped for the same USE model Souvenir embeds with, through
`Memory.embedding_model` (mem0 has no hook to pass an embedder object in the config), with
`embedding_model_dims=512` given to its embedder and vector store configs where they take it. mem0 insists on
`OPENAI_API_KEY` at construction even with no LLM call: a dummy is set. Telemetry off. One `add` per message:
with `infer=False` mem0 has no batch write that keeps each message's own metadata (its date, its id).

Ingestion: every message goes through `Memory.add`, so every payload, id and history row is the one mem0
writes. The fill (all messages but the last `tail`) is not timed and two things are batched in it: the texts
are embedded beforehand, 4,096 messages at a time, 256 texts a call on both cores (the same model: a vector
differs from the one embedded alone by float rounding, ~2e-7), and `add` is handed each one's vector; the
vector store's `insert` is buffered and called with up to 2,000 points at a time. The first set-up at a size
leaves the fill's vectors in a directory the run's children share, and the next ones read them instead of
embedding the same texts again (~10 minutes a set-up at 1,000 people). mem0's FAISS store saves its whole
index and docstore on every `insert`, so filling it one point at a time grows with the square of the box
(hours at 100 people), and Chroma's one-point writes are slow too. Then the last `tail` messages are added one
by one through the unmodified `add` (its own embedding, insert and history write), timed, a chunk at a time in
turns with the other systems (bench/mem0_compare/child.py): `ingest_per_s` is the rate of one more message into
a box that already holds all the others.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bench.mem0_compare.box import Box, Scores
from bench.mem0_compare.rss import peak_rss_mb
from memory.evaluation.locomo_data import Turn

K = 10
SETUPS = ("qdrant_local", "faiss", "chroma")


FILL_EMBED_BATCH = 256  # texts embedded at once before the fill
FILL_CHUNK = 4_096  # messages added per chunk of the fill, their vectors embedded (or read) first
FILL_INSERT_BATCH = 2_000  # points per `insert` during the fill (Chroma refuses much larger batches)


class UseForMem0:
    """The same USE model Souvenir embeds with, behind mem0's embedder interface (normalised the same way).
    `known` (text -> row of `known_vectors`), when set, answers `embed` for the texts it holds: the fill's chunk in
    hand, embedded beforehand."""

    def __init__(self) -> None:
        import numpy as np

        from memory.embedding.use import open_use

        self._np = np
        self._model = open_use(threads=1)  # exactly ours: the C++ tokenizer too
        self._model.encode(["warm up"])
        self.known: dict[str, int] | None = None
        self.known_vectors: Any = None

    def encode(self, texts: list[str]) -> Any:
        """Unit vectors, one row a text (float32)."""
        np = self._np
        batch = np.asarray(self._model.encode(texts), dtype=np.float32)
        return batch / np.maximum(np.linalg.norm(batch, axis=1, keepdims=True), 1e-12)

    def embed(self, text: str, memory_action: str | None = None) -> list[float]:
        if self.known is not None and (row := self.known.get(text)) is not None:
            return list(self.known_vectors[row].tolist())
        return list(self.encode([text])[0].tolist())

    def embed_batch(self, texts: list[str], memory_action: str = "add") -> list[list[float]]:
        return [row.tolist() for row in self.encode(list(texts))]


class FillVectors:
    """The fill's vectors, a chunk at a time: embedded on both cores, or read from `shared` (a directory every
    child of the run is given) where a set-up run before at the same size left them: the model gives the same
    vectors to every set-up, and the fill is not timed. Only the chunk in hand is held, so a child's peak RSS
    is mem0's, not the fill's (a whole fill's vectors as lists of floats would be ~1 GB at 100 people)."""

    def __init__(self, embedder: UseForMem0, shared: Path | None) -> None:
        self._embedder = embedder
        self._shared = shared

    def chunk(self, texts: list[str]) -> Any:
        import numpy as np

        path = None
        if self._shared is not None:
            digest = hashlib.sha256("\x1f".join(texts).encode("utf-8")).hexdigest()[:24]
            path = self._shared / f"fill-{digest}.npy"
            if path.exists():
                return np.load(path)
        vectors = self._on_both_cores(texts)
        if path is not None:
            scratch = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npy")
            np.save(scratch, vectors)
            os.replace(scratch, path)
        return vectors

    def _on_both_cores(self, texts: list[str]) -> Any:
        import numpy as np

        encode = self._embedder.encode
        parts = [texts[start : start + FILL_EMBED_BATCH] for start in range(0, len(texts), FILL_EMBED_BATCH)]
        with ThreadPoolExecutor(max_workers=2) as pool:  # numpy lets go of the interpreter in the model's matmuls
            return np.concatenate(list(pool.map(encode, parts)))  # a chunk of the fill is never empty


def vector_store(setup: str, scratch: str) -> dict[str, Any]:
    if setup == "qdrant_local":
        config: dict[str, Any] = {"path": f"{scratch}/qdrant", "collection_name": "locomo", "embedding_model_dims": 512}
        return {"provider": "qdrant", "config": config}
    if setup == "faiss":
        config = {"path": f"{scratch}/faiss", "collection_name": "locomo", "distance_strategy": "euclidean",
                  "embedding_model_dims": 512}  # fmt: skip
        return {"provider": "faiss", "config": config}
    if setup == "chroma":
        return {"provider": "chroma", "config": {"path": f"{scratch}/chroma", "collection_name": "locomo"}}
    raise ValueError(f"unknown mem0 set-up {setup!r}")


class _BufferedInsert:
    """Stands in for a vector store's `insert` during the fill: collects the points `add` writes, in order, and
    hands them to the real `insert` (same keywords) `FILL_INSERT_BATCH` at a time."""

    def __init__(self, insert: Callable[..., Any]) -> None:
        self._insert = insert
        self._vectors: list[Any] = []
        self._ids: list[Any] = []
        self._payloads: list[Any] = []

    def __call__(self, vectors: list[Any], payloads: list[Any] | None = None, ids: list[Any] | None = None) -> None:
        if payloads is None or ids is None or not len(vectors) == len(payloads) == len(ids):
            raise ValueError("the fill buffers inserts whose vectors, ids and payloads come together")
        self._vectors.extend(vectors)
        self._ids.extend(ids)
        self._payloads.extend(payloads)
        if len(self._vectors) >= FILL_INSERT_BATCH:
            self.flush()

    def flush(self) -> None:
        if self._vectors:
            self._insert(vectors=self._vectors, ids=self._ids, payloads=self._payloads)
            self._vectors, self._ids, self._payloads = [], [], []


def _add(memory: Any, person: str, turn: Turn) -> None:
    memory.add(
        [{"role": "user", "content": _said(turn)}],
        user_id=person,
        metadata={"dia_id": turn.dia_id, "said_at": turn.at.isoformat()},
        infer=False,
    )


def _said(turn: Turn) -> str:
    return f"{turn.speaker}: {turn.text}"


def _fill(memory: Any, embedder: UseForMem0, vectors: FillVectors, messages: list[tuple[str, Turn]]) -> None:
    """Every message through `add`, a chunk at a time, each chunk's vectors embedded beforehand; the store's
    inserts buffered."""
    store = memory.vector_store
    buffered = _BufferedInsert(store.insert)
    store.insert = buffered  # on the instance: the class's own `insert` is back once it is deleted
    try:
        for start in range(0, len(messages), FILL_CHUNK):
            chunk = messages[start : start + FILL_CHUNK]
            texts = list(dict.fromkeys(_said(turn) for _, turn in chunk))
            embedder.known_vectors = vectors.chunk(texts)
            embedder.known = {text: row for row, text in enumerate(texts)}
            for person, turn in chunk:
                _add(memory, person, turn)
        buffered.flush()
    finally:
        del store.insert
        embedder.known = embedder.known_vectors = None


def filled_mem0(setup: str, box: Box, scratch: str, tail: int, shared: Path | None = None) -> Mem0Side:
    """mem0 in one set-up at `scratch`, every message of the box but the tail added (untimed), ready for the turns
    (bench/mem0_compare/child.py)."""
    os.environ["MEM0_TELEMETRY"] = "False"
    os.environ["ANONYMIZED_TELEMETRY"] = "False"  # Chroma's
    os.environ.setdefault("OPENAI_API_KEY", "unused-but-required-by-mem0")
    try:
        from mem0 import Memory
    except ImportError:
        raise SystemExit("mem0 is not installed: pip install -e '.[bench]'") from None

    memory = Memory.from_config(
        {
            "vector_store": vector_store(setup, scratch),
            "embedder": {"provider": "openai", "config": {"embedding_dims": 512}},
            "history_db_path": f"{scratch}/history.db",
        }
    )
    embedder = UseForMem0()
    memory.embedding_model = embedder
    messages = [(person.sample_id, turn) for person in box.people for turn in person.turns]
    split = len(messages) - box.tail(tail)
    began = time.perf_counter()
    _fill(memory, embedder, FillVectors(embedder, shared), messages[:split])
    side = Mem0Side(memory, box, messages, split, time.perf_counter() - began)
    for n in range(3):  # as for Souvenir: the first searches of a process are not timed
        side.search(f"what happened last summer? ({n})", box.people[0].sample_id)
    return side


class Mem0Side:
    """The timed tail a chunk at a time, the questions a round at a time, then the figures. mem0's calls block:
    the methods are coroutines only to meet the child's one interface, with nothing else on its event loop."""

    def __init__(self, memory: Any, box: Box, messages: list[tuple[str, Turn]], split: int,
                 fill_seconds: float) -> None:  # fmt: skip
        self._memory = memory
        self._box = box
        self._messages = messages
        self._next = split  # the first message of the tail not yet added
        self.fill_seconds = fill_seconds
        self._ingest_seconds = 0.0
        self._ingested = 0
        self._scores = Scores.empty()

    def search(self, text: str, person: str) -> list[dict[str, Any]]:
        found = self._memory.search(text, top_k=K, filters={"user_id": person})
        return list(found["results"] if isinstance(found, dict) else found)

    async def ingest(self, count: int) -> None:
        """The next `count` messages of the tail, one by one through the unmodified `add`, timed."""
        chunk = self._messages[self._next : self._next + count]
        began = time.perf_counter()
        for person, turn in chunk:
            _add(self._memory, person, turn)
        self._ingest_seconds += time.perf_counter() - began
        self._ingested += len(chunk)
        self._next += len(chunk)

    async def ask(self, indices: list[int]) -> None:
        for index in indices:
            asked = self._box.asked[index]
            began = time.perf_counter()
            results = self.search(asked.text, asked.person)
            latency = (time.perf_counter() - began) * 1000
            shown = [
                (str(r.get("memory", "")), ((r.get("metadata") or {}).get("dia_id", ""),), n)
                for n, r in enumerate(results)
            ]
            self._scores.add(asked, shown, latency)

    async def finish(self) -> dict[str, Any]:
        rate = self._ingested / self._ingest_seconds if self._ingest_seconds > 0 else 0.0
        return {"figures": self._scores.figures(rate, peak_rss_mb()), "memories": len(self._messages),
                "questions": len(self._scores.latencies_ms), "ingest_s": self._ingest_seconds,
                "fill_s": self.fill_seconds, "tail": self._ingested}  # fmt: skip
