"""'Why did you say that?': the memories the last reply to a person drew on, as `/memories why` shows them.

Only the asker's own memories are ever in a trail entry (recall reads one person's memories), and an entry
is kept per person and conversation, so in a group one person never sees what another's replies drew on.
What is shown is each memory's kind and text: never when it was told.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.ports import DrawnMemory, TrailReply
from bot.engine.texts.say import say

WHY_WORDS = frozenset({"why", "pourquoi"})
# Characters of each memory's text in the listing: a reply may draw on 30 messages (10 excerpts of up to 3), and
# one long message must not crowd out the rest. The whole text is in /export.
SHOWN_CHARS = 200


def asks_why(argument: str) -> bool:
    """True for "/memories why" (or "pourquoi")."""
    return argument.strip().lower() in WHY_WORDS


@dataclass(frozen=True, slots=True)
class WhyListing:
    """A /memories why answer: its text, and the memories shown, numbered from 1 (buttons and ids)."""

    text: str
    memories: tuple[DrawnMemory, ...] = ()


def why_listing(latest: TrailReply | None, language: str) -> WhyListing:
    if latest is None:
        return WhyListing(say("why_no_reply", language))
    if not latest.memories:
        return WhyListing(say("why_nothing", language))
    lines = [say("why_header", language)]
    for n, memory in enumerate(latest.memories, start=1):
        lines.append(f"{n}. ({kind_label(memory.kind, language)}) {_clipped(memory.text)}")
    lines.append(say("why_footer", language))
    return WhyListing("\n".join(lines), latest.memories)


def _clipped(text: str) -> str:
    flat = " ".join(text.split())  # one line each: a line break inside a memory would read as another memory
    return flat if len(flat) <= SHOWN_CHARS else flat[: SHOWN_CHARS - 1].rstrip() + "…"


def kind_label(kind: str, language: str) -> str:
    key = f"why_kind_{kind}"
    try:
        return say(key, language)
    except KeyError:
        return kind


def trail_json(replies: Sequence[TrailReply]) -> list[dict[str, Any]]:
    """The trail as /export gives it: newest reply first."""
    return [
        {
            "conversation": r.conversation_id,
            "replied_at": r.at.isoformat(),
            "memories": [{"id": m.memory_id, "kind": m.kind, "text": m.text} for m in r.memories],
        }
        for r in replies
    ]
