"""What is still in the short-term window is not recalled again: the model already reads those messages as
turns of the conversation, and a second copy in the memories block only takes a line from something else."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from bot.engine.model import ChatTurn, RecalledMemory


def _same(text: str) -> str:
    return " ".join(text.split()).casefold()


def not_in_window(
    memories: Sequence[RecalledMemory], window: Sequence[ChatTurn], since: datetime
) -> list[RecalledMemory]:
    """The recalled memories without the messages the window holds from `since` on (this conversation: an
    older turn still there lacks what the memories block says of it, when it was told); a memory that followed
    a left-out one starts an excerpt of its own."""
    said = {_same(turn.text) for turn in window if turn.role == "user" and turn.at >= since}
    if not said:
        return list(memories)
    out: list[RecalledMemory] = []
    dropped = False
    for memory in memories:
        if memory.kind == "episodic" and _same(memory.text) in said:
            dropped = True
            continue
        if memory.follows and (dropped or not out):
            memory = replace(memory, follows=False)
        out.append(memory)
        dropped = False
    return out
