"""The one AI-disclosure rule replies and unprompted messages share."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.config import Settings
from bot.engine.disclosure import DisclosurePolicy

NOW = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)


def test_due_at_first_contact_and_again_after_the_interval_only() -> None:
    policy = DisclosurePolicy(interval=timedelta(hours=3))
    assert policy.due(None, NOW)
    assert not policy.due(NOW - timedelta(hours=2, minutes=59), NOW)
    assert policy.due(NOW - timedelta(hours=3), NOW)
    assert not DisclosurePolicy(enabled=False).due(None, NOW)


def test_the_operator_text_replaces_the_built_in_one_in_its_language_only() -> None:
    policy = Settings(disclosure_text_fr="Je suis une IA, Lune.").disclosure_policy
    assert policy.shown("Coucou", "fr", True) == "Je suis une IA, Lune.\n\nCoucou"
    assert policy.text("en") and policy.text("en") != "Je suis une IA, Lune."
    assert policy.shown("Hi", "en", False) == "Hi"
