"""The model's gist of where a conversation stands, kept on the episode of the message it was read from.

With the LLM extraction on, its call (the one already made for each message: no call of its own) also answers
one line such as "they were nervous about Thursday's interview". It is kept as an attribute of that message's
episode, so it goes wherever the message goes (forgetting it, `/forget all`, fading), and the person model
shows it as the thread of the last conversation in place of the person's own last words
(`memory.person.person_model`). Like the offline thread, never a painful topic and never from a group.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from memory.records import MemoryKind, MemoryRecord
from memory.writing.extraction.candidates import Candidate
from memory.writing.extraction.lexicon import SENSITIVE

GIST = "gist"  # attributes key of an episode: the model's gist of where the conversation stood after it


def gist_to_keep(text: str, gist: str | None, candidates: Sequence[Candidate], scope: str) -> str | None:
    """The gist worth keeping of a private message: none when the message, the gist or what the model read
    in it touches a painful topic (gentleness only, never the thread to pick up)."""
    if gist is None or scope != "dm":
        return None
    if SENSITIVE.search(text) or SENSITIVE.search(gist) or any(c.sensitive for c in candidates):
        return None
    return gist


def with_gist(episode: MemoryRecord, gist: str) -> MemoryRecord:
    assert episode.kind is MemoryKind.EPISODIC
    return replace(episode, attributes={**episode.attributes, GIST: gist})
