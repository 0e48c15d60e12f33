"""The receipt after forgetting everything: each store's part as the erasure reported it, in the person's
language; the erasure marker is what stays, and a store that failed says so."""

from __future__ import annotations

from adapters.web.pages import receipt
from bot.engine.ports import ErasedStore, Tally

ERASED = (
    ErasedStore("erasure_marker", True),
    ErasedStore("data_key", True),
    ErasedStore("memories", True, 1234),
    ErasedStore("short_term", True, 13, (Tally("recent_messages", 12), Tally("locks", 1))),
    ErasedStore("sessions", True, 1),
    ErasedStore("links", True, 0),
    ErasedStore("moods", False),
    ErasedStore("files", True, 3),
    ErasedStore("new_store", True),
)


def test_each_store_says_what_it_erased_with_its_count() -> None:
    lines = [line["text"] for line in receipt(ERASED, "en", encrypted=True)]

    assert lines == [
        "Key store: your data key: a copy of your words left in a backup can no longer be read",
        "Memory index: 1234 memories and messages kept word for word",
        "Short-term state (Redis): 12 recent messages (yours and my replies), 1 conversation lock",
        "Memory browser: 1 session: this one",
        "Linked accounts (Redis): no other account of yours was linked",
        "Mood series (Redis): not erased (the store did not answer; forget everything again to finish)",
        "Files: 3 files (charts, voice notes, pictures)",
        "Another store (new_store): erased",
    ]


def test_in_french_and_without_a_data_key_to_destroy() -> None:
    lines = receipt(ERASED, "fr", encrypted=False)

    texts = [line["text"] for line in lines]
    assert "Index des souvenirs : 1234 souvenirs et messages gardés mot pour mot" in texts
    assert "État à court terme (Redis) : 12 messages récents (les tiens et mes réponses), 1 verrou de conversation" in (
        texts
    )
    assert not any("clé" in line["text"] for line in lines)  # encryption at rest off: no key was destroyed
    assert [line["ok"] for line in lines].count(False) == 1
