"""The person's messages still in the conversation's window, and the recalled memories the prompt holds already.

The model reads the last turns of the conversation word for word. A memory of one of those messages, or a fact
read from one ("Sundays make them anxious" from "Sundays make me anxious."), would say the same thing a second
time, among the background: it is left out while the message is in the window, and comes back once the message
has left it. A memory that gives a date is kept: its brackets say when that is from today, which the turn,
read as it was written ("tomorrow"), does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from bot.engine.model import ChatTurn, RecalledMemory, excerpts


def _theirs(history: Sequence[ChatTurn], person: str) -> list[ChatTurn]:
    return [t for t in history if t.role == "user" and t.author_key in (None, person)]


def said_before(history: Sequence[ChatTurn], person: str) -> list[str]:
    """The person's messages still in the window, oldest first (a group's window holds others' too)."""
    return [t.text for t in _theirs(history, person)]


def said_in_window(history: Sequence[ChatTurn], person: str) -> frozenset[datetime]:
    """When the person's messages still in the window were sent (a memory is told at its message's time)."""
    return frozenset(t.at for t in _theirs(history, person))


def not_in_window(memories: Sequence[RecalledMemory], history: Sequence[ChatTurn], person: str) -> list[RecalledMemory]:
    """`memories` less those drawn from a message of `person` the window holds; an excerpt that loses its first
    message starts with the next one."""
    said = said_in_window(history, person)
    if not said:
        return list(memories)
    kept: list[RecalledMemory] = []
    for excerpt in excerpts(memories):
        left = [m for m in excerpt if m.on is not None or m.told_at not in said]
        kept += [replace(m, follows=i > 0) if m.follows != (i > 0) else m for i, m in enumerate(left)]
    return kept
