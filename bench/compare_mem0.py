"""Souvenir against mem0, as its users run it, at equal words, from one person to a thousand, in one run.

    pip install -e '.[bench]'          # mem0ai, faiss-cpu, chromadb: only for this script
    python -m bench.compare_mem0 --data locomo-dev.json --json compare.json --plot docs/performance-mem0.png
    python -m bench.compare_mem0 --data locomo-dev.json --quick            # one size, 10 people: a few minutes

The box (bench/mem0_compare/box.py): 1, 10, 100 and 1,000 people, each a LoCoMo dev conversation under a new
person id (after the first five, with a fifth of the words no question or answer uses swapped for words of the
other conversations: no two people say the same). Every message of every person is ingested, then 300
questions of categories 1-4 (`--questions N`) are asked for people drawn across the whole box (each question
text once).

Ingestion is timed on the last 300 messages of the box (`--tail N`; at most a quarter of the box), once each
system holds all the others: `ingest_per_s` is the rate of one more message into a full box. Every message
goes through each system's own write path, but the fill before the tail is not timed, and for mem0 it is
batched: its texts embedded beforehand, its vector store's inserts buffered (up to 2,000 points a call), each
message still added by `Memory.add`, which writes its payload and history as always. mem0's FAISS store saves
its whole index and docstore on every insert, so one `add` at a time fills it in a time that grows with the
square of the box (hours at 100 people); the tail is added one by one through the unmodified `add`.

The systems, each in a child process of its own per size (its peak RSS is its own; the model load is not
timed). Each fills its box untimed, one after the other, then the timed work is handed out in turns: 64
messages of the tail to each system, then 20 questions to each, the order rotated every round
(bench/mem0_compare/child.py). A shared box's speed drifts within the hour: in turns, the drift slows every
system alike. Up to 100 people every child is alive at once; at 1,000 they would not fit in memory together
(mem0's FAISS child alone peaks at ~12 GB), and each takes all its turns alone, one after the other:
- Souvenir: the real write path into the embedded Qdrant Edge index (`remember_exchanges`, 64 messages at a
  time, as the outbox worker hands them over), and the whole recall path (`LongTermMemoryService.recall`:
  query embedding, hybrid and dense searches, re-ranking, selection);
- mem0 2.2.x in the three set-ups its docs give for one box: its default Qdrant store at a local path
  (qdrant-client's local mode), FAISS (`faiss-cpu`) and Chroma (persistent, local); `add(infer=False)` (no
  LLM), `search(top_k=10)` filtered on the person (bench/mem0_compare/mem0_side.py). At 1,000 people its
  Qdrant local mode filters in Python (seconds a search): `--questions` can ask fewer.
Both embed with the same model (multilingual USE, 512-d, our C++ tokenizer), no LLM.

At equal words: what each system returns, best first, is cut to the same 300 words before it is scored.
R@10 and R@5 are evidence recall over what is left (Souvenir's k counts excerpts, mem0's results). Answer
containment is the share of each answer's content words present in the words shown (categories 1, 3, 4):
a result cut short is credited only for the words that survive the cut.

The floor, in the same run: one query embedding (p50, a text never embedded before), and Souvenir's recall
beside it, part by part (embedding, hybrid search, dense search, ranking and selection).

`--json OUT` writes {"sizes": [{"people", "memories", "souvenir": S, "mem0": {"qdrant_local": S, "faiss": S,
"chroma": S}}], "floor": {"query_embedding_p50_ms", ...}, "run": {...}}, each S with search_p50_ms,
search_p95_ms, ingest_per_s, r_at_10, r_at_5, answer_containment, words_per_question, peak_rss_mb; "run"
holds the command, the machine, and for each child its load (1-minute average before and after it), its wall
time, the seconds of its untimed fill (`fill_s`), and its timed tail (`tail` messages in `ingest_s` seconds).
"""

from __future__ import annotations

from bench.mem0_compare.run import main

if __name__ == "__main__":
    raise SystemExit(main())
