"""What the companion counts, as small ports: the engine, the LLM and the scheduler report through these and
never see how (or whether) the figures are exported. `NoMetrics` is the default everywhere."""

from __future__ import annotations

from typing import Protocol


class EngineMetrics(Protocol):
    def message_handled(self, platform: str) -> None:
        """A platform message reached the engine (duplicates and empty ones included)."""
        ...

    def reply_outcome(self, outcome: str) -> None:
        """What became of it: answered, fallback, duplicate, empty, lock_lost."""
        ...

    def recall_took(self, seconds: float) -> None: ...

    def crisis_detected(self, level: str, language: str, how: str = "reply") -> None:
        """A message read as suicidal ideation or self-harm got crisis lines: `level` "concern" or "imminent",
        `how` "reply" (with the reply) or "follow_up" (sent after, the model's reading). Never who or what."""
        ...


class LLMMetrics(Protocol):
    def llm_call(self, provider: str, seconds: float, error: str | None) -> None:
        """One call to the model; `error` names the failure (None when it answered)."""
        ...


class ProactiveMetrics(Protocol):
    def proactive_sent(self) -> None: ...

    def proactive_skipped(self, reason: str) -> None:
        """Held back or not sent: capped, awaiting_answer, already_sent, unconfirmed, busy, failed, unreachable,
        overtaken, no_messenger, minor."""
        ...


class OutboxMetrics(Protocol):
    def outbox_depth(self, entries: int) -> None:
        """Exchanges waiting in the outbox for long-term memory (new or being written)."""
        ...


class Metrics(EngineMetrics, LLMMetrics, ProactiveMetrics, OutboxMetrics, Protocol):
    """All of them: what the app hands around."""


class NoMetrics:
    """Counts nothing (no SOUVENIR_HTTP_PORT, tests, the terminal chat)."""

    def message_handled(self, platform: str) -> None:
        return None

    def reply_outcome(self, outcome: str) -> None:
        return None

    def recall_took(self, seconds: float) -> None:
        return None

    def crisis_detected(self, level: str, language: str, how: str = "reply") -> None:
        return None

    def llm_call(self, provider: str, seconds: float, error: str | None) -> None:
        return None

    def proactive_sent(self) -> None:
        return None

    def proactive_skipped(self, reason: str) -> None:
        return None

    def outbox_depth(self, entries: int) -> None:
        return None
