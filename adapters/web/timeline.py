"""A correction's history as the memory page shows it: each step's words, when the first was said and since when
each next one holds ("Paris, said 3 May → Lyon since 10 June → Grenoble since 2 September")."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from adapters.web.texts import on_day, say
from bot.engine.browser.memory_view import ShownMemory


def history(memory: ShownMemory, now: datetime, lang: str) -> list[dict[str, Any]]:
    """The chain `memory` belongs to, oldest first; empty for a memory never corrected."""
    steps = []
    for number, step in enumerate(memory.history):
        moment = step.since or step.item.created_at
        when = on_day(moment, now, lang)
        steps.append(
            {
                "id": step.item.memory_id,
                "text": step.item.text,
                "at": moment.date().isoformat(),
                "when": say("said_on", lang, when=when) if number == 0 else say("since", lang, when=when),
                "this": step.item.memory_id == memory.item.memory_id,
            }
        )
    return steps
