"""The AI disclosure rule (NY GBL §1702), once for replies and unprompted messages alike: say it at the
beginning of every interaction and at least every `interval` of a continuing one.

An interaction begins at a person's first message ever and after a pause: the same silence that ends a
continued conversation for the break reminders (`breaks.PAUSE`), so the two never disagree on what "the same
conversation" is. The last message either way counts: a disclosed unprompted message opens an interaction,
and the person answering it minutes later continues that one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.engine.safety.breaks import PAUSE
from bot.engine.texts.say import say

# A disclosure is plain when it calls the companion an AI, in English or French. The acronyms count in
# capitals only, so the "ai" of "j'ai" or "mais" never passes for one.
_ACRONYM = re.compile(r"(?<![\w.])(?:A\.?I|I\.?A)(?![a-zA-Z])")
_WORDS = re.compile(r"\b(?:artificial intelligence|intelligence artificielle|chatbot)\b", re.IGNORECASE)


def names_an_ai(text: str) -> bool:
    """Whether `text` says plainly that it is an AI, as an operator's disclosure text must."""
    return _ACRONYM.search(text) is not None or _WORDS.search(text) is not None


@dataclass(frozen=True, slots=True)
class DisclosurePolicy:
    enabled: bool = True
    interval: timedelta = timedelta(hours=3)
    texts: tuple[tuple[str, str], ...] = ()  # (language, text) set by the operator, else the built-in text

    def due(self, last_disclosed_at: datetime | None, last_seen_at: datetime | None, now: datetime) -> bool:
        """Whether the message sent `now` opens with the disclosure. `last_seen_at`: the person's last message
        before this one. The companion's undisclosed unprompted messages are not known here, so a pause may
        look longer than it was: that only ever says it once more, never once less."""
        if not self.enabled:
            return False
        if last_disclosed_at is None or now - last_disclosed_at >= self.interval:
            return True
        last_message = max(last_disclosed_at, last_seen_at or last_disclosed_at)
        return now - last_message > PAUSE  # a new interaction

    def text(self, language: str) -> str:
        """The operator's text in `language` when it names an AI; otherwise the built-in one, so a text that
        would hide what the companion is ("Hi, it's Lune!") never replaces the disclosure."""
        chosen = dict(self.texts).get(language)
        return chosen if chosen and names_an_ai(chosen) else say("disclosure", language)

    def shown(self, text: str, language: str, disclose: bool) -> str:
        """`text` as the person sees it: the disclosure first when it is due."""
        return f"{self.text(language)}\n\n{text}" if disclose else text
