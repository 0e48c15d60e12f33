"""A life told in everyday words, read the way the bot reads it offline: each message through the offline
extraction, its candidates made into memories as the writer makes them, the person model built from them and
shown as the prompt's block. `misses` says what a friend would know that the block does not say, and what it
says that it must not."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from bot.engine.prompt.person import person_block
from memory.person.person_model import build_person_model
from memory.records import MemorySource
from memory.writing.extraction.offline import extract_offline
from memory.writing.writer import Origin, record_from

START = datetime(2026, 5, 4, 18, tzinfo=UTC)


@dataclass(frozen=True)
class Said:
    """One message, what the block must then say (each a piece of its text), and what it must never say."""

    text: str
    knows: tuple[str, ...] = ()
    never: tuple[str, ...] = ()
    gentle: tuple[str, ...] = ()  # said after "Be gentle about" / « Avec douceur »
    not_gentle: bool = False  # nothing of this message is a painful topic
    notes: str = field(default="", compare=False)


def block_of(messages: Sequence[str], language: str, timezone: str = "Europe/London") -> str:
    """The person block after `messages`, one every ten minutes, read a day after the last."""
    facts = []
    for i, text in enumerate(messages):
        at = START + timedelta(minutes=10 * i)
        origin = Origin("telegram:42", at, timezone, language, MemorySource("telegram", "telegram:dm:42", (str(i),)),
                        "dm", episode_id=f"e{i}")  # fmt: skip
        facts.extend(record_from(c, origin) for c in extract_offline(text, at, timezone, language))
    facts.sort(key=lambda r: r.created_at, reverse=True)
    at = START + timedelta(minutes=10 * len(messages), days=1)
    model = build_person_model("telegram:42", facts, [], at, timezone)
    return person_block(model, '"them"', language, at.date(), with_thread=False).text


def _gentle_part(block: str) -> str:
    for lead in ("Be gentle about", "Avec douceur"):
        if lead in block:
            return block.split(lead, 1)[1].split("\n", 1)[0]
    return ""


def misses(story: Sequence[Said], language: str) -> list[str]:
    """What the block gets wrong after the whole story: each expectation it misses, as words."""
    block = block_of([s.text for s in story], language)
    gentle = _gentle_part(block)
    wrong: list[str] = []
    for said in story:
        wrong += [f"{said.text!r}: knows {k!r}" for k in said.knows if k not in block]
        wrong += [f"{said.text!r}: never {n!r}" for n in said.never if n in block]
        wrong += [f"{said.text!r}: gentle {g!r}" for g in said.gentle if g not in gentle]
        alone = block_of([said.text], language)
        if said.not_gentle and ("Be gentle about" in alone or "Avec douceur" in alone):
            wrong.append(f"{said.text!r}: not gentle")
    return wrong
