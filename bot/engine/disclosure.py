"""The AI disclosure rule (NY GBL §1702), once for replies and unprompted messages alike: say it at a person's
first message and again once `interval` has passed since it was last said."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.engine.texts import say


@dataclass(frozen=True, slots=True)
class DisclosurePolicy:
    enabled: bool = True
    interval: timedelta = timedelta(hours=3)
    texts: tuple[tuple[str, str], ...] = ()  # (language, text) set by the operator, else the built-in text

    def due(self, last_disclosed_at: datetime | None, now: datetime) -> bool:
        if not self.enabled:
            return False
        return last_disclosed_at is None or now - last_disclosed_at >= self.interval

    def text(self, language: str) -> str:
        return dict(self.texts).get(language) or say("disclosure", language)

    def shown(self, text: str, language: str, disclose: bool) -> str:
        """`text` as the person sees it: the disclosure first when it is due."""
        return f"{self.text(language)}\n\n{text}" if disclose else text
