"""What the person model costs: building it (in the background, after memory writes) and putting it into a
reply's prompt (on the reply path, after its one store read), and its size in the prompt.

    python -m bench.person_model [--facts 400] [--runs 200]

A synthetic person with `--facts` current facts (names, places, likes, dated events, painful topics, the
rest plain facts) and 20 recent messages: the most a rebuild reads (memory.person.person_model_keeper.FACTS_READ).
Tokens are the prompt's rough count (characters / 4, as `bot.engine.prompt.budget` counts them).
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import UTC, datetime, timedelta

from bot.engine.prompt.person import person_block
from bot.engine.prompt.tokens import rough_tokens
from memory.person.person_model import build_person_model
from memory.records import MemoryKind, MemoryRecord, MemorySource
from memory.writing.extraction.candidates import TOPIC

NOW = datetime(2026, 3, 20, 12, tzinfo=UTC)
_KINDS = (
    (MemoryKind.SEMANTIC, "relationship", "My sister Claire{n} is a nurse", "Claire"),
    (MemoryKind.SEMANTIC, "home", "I live in Lyon{n}", "Lyon{n}"),
    (MemoryKind.SEMANTIC, "likes", "I love jazz number {n}", "jazz {n}"),
    (MemoryKind.SEMANTIC, "about", "I work as a developer at company {n}", None),
    (MemoryKind.EMOTIONAL, "sensitive", "My grandfather passed away, memory {n}", None),
    (MemoryKind.TEMPORAL, "exam", "Exam {n}", None),
    (MemoryKind.SEMANTIC, "about", "I have a blue bike with {n} gears", None),
)


def _person(facts: int) -> tuple[list[MemoryRecord], list[MemoryRecord]]:
    source = MemorySource("telegram", "telegram:dm:1")
    records = []
    for n in range(facts):
        kind, label, text, topic = _KINDS[n % len(_KINDS)]
        at = NOW - timedelta(hours=n)
        records.append(MemoryRecord(
            f"f{n}", "telegram:1", kind, text.format(n=n), "en", at, source, label=label, valid_from=at,
            local_date=(NOW.date() + timedelta(days=n % 40)).isoformat() if kind is MemoryKind.TEMPORAL else None,
            attributes={TOPIC: topic.format(n=n)} if topic else {},
        ))  # fmt: skip
    episodes = [
        MemoryRecord(f"e{n}", "telegram:1", MemoryKind.EPISODIC, f"Today I cooked dish number {n}", "en",
                     NOW - timedelta(minutes=n), source)
        for n in range(20)
    ]
    return records, episodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--facts", type=int, default=400)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    facts, episodes = _person(args.facts)
    builds, renders = [], []
    for _ in range(args.runs):
        started = time.perf_counter()
        model = build_person_model("telegram:1", facts, episodes, NOW, "Europe/Paris")
        builds.append(time.perf_counter() - started)
        started = time.perf_counter()
        block = person_block(model, '"Sam"', "en", NOW.date(), with_thread=True)
        renders.append(time.perf_counter() - started)
    plain = person_block(model, '"Sam"', "en", NOW.date(), with_thread=False)
    print(f"facts read: {args.facts}, lines kept: {len(model.lines)}")
    print(f"build (background, per rebuild): median {statistics.median(builds) * 1000:.2f} ms")
    print(f"prompt block (reply path, after one store read): median {statistics.median(renders) * 1000:.3f} ms")
    print(f"block size: {rough_tokens(plain.text)} tokens, {rough_tokens(block.text)} with the thread")


if __name__ == "__main__":
    main()
