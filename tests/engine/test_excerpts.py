"""Recalled memories form excerpts (a message with those said just after it), and leave a group chat as one."""

from __future__ import annotations

from bot.engine.model import RecalledMemory, excerpts, without_sensitive


def _memory(text: str, *, follows: bool = False, sensitive: bool = False) -> RecalledMemory:
    return RecalledMemory(text, "episodic", text, follows=follows, sensitive=sensitive)


def test_each_memory_starts_an_excerpt_unless_it_follows_the_one_before() -> None:
    memories = [_memory("a"), _memory("b", follows=True), _memory("c"), _memory("d", follows=True),
                _memory("e", follows=True)]  # fmt: skip
    assert [[m.text for m in e] for e in excerpts(memories)] == [["a", "b"], ["c", "d", "e"]]


def test_a_painful_message_takes_its_whole_excerpt_out() -> None:
    memories = [_memory("my dad's funeral was on Monday", sensitive=True), _memory("I still can't sleep", follows=True),
                _memory("I love jazz"), _memory("I'm on the mend", sensitive=True, follows=True),
                _memory("we adopted a kitten")]  # fmt: skip
    assert [m.text for m in without_sensitive(memories)] == ["we adopted a kitten"]
