"""The person's messages still in the conversation's window, and the recalled memories the prompt holds already.

The model reads the last turns of the conversation word for word. A memory of a message of the talk going on,
or a fact read from one ("Sundays make them anxious" from "Sundays make me anxious."), would say the same thing
a second time, among the background: it is left out while the talk goes on, and comes back after a pause. The
turns carry no time: a message of an earlier talk still in the window keeps its memory, whose brackets say
when it was told; so does a memory that gives a date ("tomorrow" as the turn reads is not today's tomorrow).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from bot.engine.model import ChatTurn, RecalledMemory, excerpts
from bot.engine.safety.breaks import PAUSE


def _theirs(history: Sequence[ChatTurn], person: str) -> list[ChatTurn]:
    return [t for t in history if t.role == "user" and t.author_key in (None, person)]


def said_before(history: Sequence[ChatTurn], person: str) -> list[str]:
    """The person's messages still in the window, oldest first (a group's window holds others' too)."""
    return [t.text for t in _theirs(history, person)]


def said_in_this_talk(history: Sequence[ChatTurn], person: str, now: datetime) -> frozenset[datetime]:
    """When the person's messages of the talk going on were sent (back from `now` to the first pause longer
    than `PAUSE`); a memory is told at its message's time."""
    said: set[datetime] = set()
    after = now
    for turn in reversed(_theirs(history, person)):
        if after - turn.at > PAUSE:
            break
        said.add(turn.at)
        after = turn.at
    return frozenset(said)


def not_in_view(
    memories: Sequence[RecalledMemory], history: Sequence[ChatTurn], person: str, now: datetime
) -> list[RecalledMemory]:
    """`memories` less those drawn from a message of `person` in the talk going on (the turns show it); an
    excerpt that loses its first message starts with the next one."""
    said = said_in_this_talk(history, person, now)
    return without_said_at(memories, said) if said else list(memories)


def without_said_at(
    memories: Sequence[RecalledMemory], said: frozenset[datetime], memory_ids: frozenset[str] = frozenset()
) -> list[RecalledMemory]:
    """`memories` less those told at one of the times `said` (a message shown elsewhere in the prompt, or a fact
    read from it) or among `memory_ids`; a memory that gives a date keeps its line (the message's "tomorrow" is
    not today's). An excerpt that loses its first message starts with the next one."""
    kept: list[RecalledMemory] = []
    for excerpt in excerpts(memories):
        left = [m for m in excerpt if m.on is not None or (m.told_at not in said and m.memory_id not in memory_ids)]
        kept += [replace(m, follows=i > 0) if m.follows != (i > 0) else m for i, m in enumerate(left)]
    return kept
