"""Painful topics are remembered as such: a recalled memory says so, whether extraction marked it or the
message itself speaks of a loss, an illness, a break-up, family conflict or a lost job (FR and EN)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from memory.mood.sensitive import touches_pain
from memory.recall.focus import focused
from memory.recall.lexical import stems
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


LONG_MESSAGES = [
    "We went hiking on Saturday and the views were great. My dad has been really sick since the spring. "
    "Anyway the kids loved the lake and we had a picnic by the water.",
    "Work was fine this week, nothing special to report really. Ma mère est malade depuis un mois. "
    "On a quand même fêté l'anniversaire de Léa avec des crêpes et du cidre.",
    "I finally finished the painting I started in March for the gallery. I got laid off on Friday! "
    "The gallery wants two more pieces before the end of the year though.",
    "The concert was loud and the band played every song I know by heart. I'm sick of waiting for the bus. "
    "We stayed until the very end and took the night train home afterwards.",
]


@pytest.mark.parametrize("message", LONG_MESSAGES)
@pytest.mark.parametrize("question", ["how was the hike with the kids?", "is your dad sick?", "what about work?",
                                      "la mère est malade ?", "did you get laid off?", "what about the concert?"])
def test_a_long_message_shown_in_part_is_sensitive_exactly_when_the_part_shown_speaks_of_pain(
    message: str, question: str
) -> None:
    shown = focused(message, frozenset(stems(question)), over=12)
    assert recalled(_record(message), shown, 1.0).sensitive is touches_pain(shown)
