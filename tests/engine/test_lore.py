"""A character card's lore book: which entries a message triggers, and a regex key that cannot stall a reply."""

from __future__ import annotations

from bot.engine.lore import LoreEntry, triggered_lore


def _hits(entries: list[LoreEntry], text: str) -> list[str]:
    return [entry.content for entry in triggered_lore(entries, text, budget_tokens=500)]


def test_keys_match_whole_words_case_insensitively_unless_told_otherwise() -> None:
    entries = [
        LoreEntry(("dragon",), "Dragons hoard tea."),
        LoreEntry(("Mia",), "Mia is the cat.", case_sensitive=True),
    ]
    assert _hits(entries, "A DRAGON flew by, and mia too") == ["Dragons hoard tea."]
    assert _hits(entries, "dragonfly") == []


def test_a_regex_key_matches_as_written() -> None:
    entries = [LoreEntry((r"drag(on|ons)\b",), "Dragons hoard tea.", use_regex=True)]
    assert _hits(entries, "Two Dragons") == ["Dragons hoard tea."]


def test_a_backtracking_regex_key_answers_at_once() -> None:
    # With a backtracking engine, (a+)+$ against 40 a's and a b runs for days: this test would never end.
    entries = [LoreEntry((r"(a+)+$",), "never", use_regex=True)]
    assert _hits(entries, "a" * 40 + "b") == []


def test_a_regex_key_re2_cannot_read_never_matches() -> None:
    entries = [
        LoreEntry((r"(?<=the )dragon",), "look-behind", use_regex=True),
        LoreEntry(("[",), "bad", use_regex=True),
    ]
    assert _hits(entries, "the dragon [") == []
