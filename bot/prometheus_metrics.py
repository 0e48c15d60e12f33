"""`Metrics` exported the Prometheus way: the one module that imports prometheus-client.

Each instance has its own registry, so two cores in one process (tests) never share counters. Every name
starts with `souvenir_`."""

from __future__ import annotations

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

# Seconds: a local model on a CPU can take most of a minute; recall is milliseconds.
_LLM_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 40.0, 60.0, 120.0)
_RECALL_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class PrometheusMetrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self._messages = Counter(
            "souvenir_messages_handled", "Platform messages that reached the engine.", ["platform"], registry=r
        )
        self._replies = Counter("souvenir_replies", "What became of each message, by outcome.", ["outcome"], registry=r)
        self._recall = Histogram(
            "souvenir_recall_seconds", "Long-term recall before a reply.", buckets=_RECALL_BUCKETS, registry=r
        )
        self._llm_latency = Histogram(
            "souvenir_llm_request_seconds", "Calls to the language model.", ["provider"], buckets=_LLM_BUCKETS,
            registry=r,
        )  # fmt: skip
        self._llm_errors = Counter(
            "souvenir_llm_errors", "Calls to the language model that failed.", ["provider", "error"], registry=r
        )
        self._sent = Counter("souvenir_proactive_sent", "Unprompted messages delivered.", registry=r)
        self._skipped = Counter(
            "souvenir_proactive_skipped", "Unprompted messages held back or not sent, by reason.", ["reason"],
            registry=r,
        )  # fmt: skip
        self._outbox_depth = Gauge(
            "souvenir_outbox_depth", "Exchanges waiting in the outbox for long-term memory.", registry=r
        )
        # A count only, for the operator's yearly figures (California SB 243): never who, where or what was written.
        self._crisis = Counter(
            "souvenir_crisis_referrals",
            "Crisis lines given to a person whose message read as suicidal ideation or self-harm, by level "
            "(concern, imminent), language and how (with the reply, or as a follow-up).",
            ["level", "language", "how"], registry=r,
        )  # fmt: skip

    def message_handled(self, platform: str) -> None:
        self._messages.labels(platform).inc()

    def reply_outcome(self, outcome: str) -> None:
        self._replies.labels(outcome).inc()

    def recall_took(self, seconds: float) -> None:
        self._recall.observe(seconds)

    def llm_call(self, provider: str, seconds: float, error: str | None) -> None:
        self._llm_latency.labels(provider).observe(seconds)
        if error is not None:
            self._llm_errors.labels(provider, error).inc()

    def proactive_sent(self) -> None:
        self._sent.inc()

    def proactive_skipped(self, reason: str) -> None:
        self._skipped.labels(reason).inc()

    def outbox_depth(self, entries: int) -> None:
        self._outbox_depth.set(entries)
    def crisis_detected(self, level: str, language: str, how: str = "reply") -> None:
        self._crisis.labels(level, language, how).inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)
