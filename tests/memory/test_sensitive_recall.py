"""Painful topics are remembered as such: a recalled memory says so, whether extraction marked it or the
message itself speaks of a loss, an illness, a break-up, family conflict or a lost job (FR and EN)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from memory.recall.selection import recalled
from memory.records import MemoryKind
from tests.memory.test_recall import _record


@pytest.mark.parametrize(
    "text",
    [
        "My grandmother passed away on Sunday",
        "Ma mère est malade, elle est à l'hôpital",
        "I got laid off this morning",
        "J'ai été licenciée hier",
        "We broke up last week",
        "Grosse dispute avec mon frère",
    ],
)
def test_a_message_about_something_painful_is_recalled_as_sensitive(text: str) -> None:
    assert recalled(_record(text), text, 1.0).sensitive


def test_a_marked_memory_is_sensitive_and_an_ordinary_one_is_not() -> None:
    marked = _record("They are going through a hard time", MemoryKind.EMOTIONAL)
    marked = replace(marked, attributes={"sensitive": "true"})
    assert recalled(marked, marked.text, 1.0).sensitive
    ordinary = _record("I have a cat named Miso")
    assert not recalled(ordinary, ordinary.text, 1.0).sensitive
