"""One line per thing said: a memory of a message of the talk going on (or a fact read from it) is not shown as
background beside the message itself; after a pause, or once the message has left the window, it is."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from bot.engine.model import ChatTurn, RecalledMemory
from bot.engine.prompt.in_window import not_in_view
from tests.engine.conftest import MessageFactory, Rig


async def test_a_feeling_said_a_moment_ago_is_in_the_prompt_once(rig: Rig, message: MessageFactory) -> None:
    said = message("Sundays make me anxious.")
    await rig.engine.handle(said)
    rig.clock.advance(minutes=2)
    rig.memory.memories = [
        RecalledMemory("f1", "emotional", "Sundays make them anxious", told_at=said.sent_at),
        RecalledMemory("e1", "episodic", "Sundays make me anxious.", told_at=said.sent_at),
        RecalledMemory("e2", "episodic", "I love jazz.", told_at=said.sent_at - timedelta(days=3)),
    ]
    await rig.engine.handle(message("Is it Sunday tomorrow?"))

    request = rig.llm.requests[-1]
    assert [t.text for t in request.turns if t.role == "user"] == ["Sundays make me anxious.", "Is it Sunday tomorrow?"]
    assert "anxious" not in request.system  # the turn says it; the background does not say it again
    assert '"I love jazz."' in request.system


async def test_a_feeling_comes_back_as_background_once_its_message_left_the_window(
    rig: Rig, message: MessageFactory
) -> None:
    said = message("Sundays make me anxious.")
    await rig.engine.handle(said)
    for text in ("I went for a walk.", "My sister called.", "We had pizza."):  # the window keeps 6 turns
        rig.clock.advance(minutes=2)
        await rig.engine.handle(message(text))
    rig.memory.memories = [RecalledMemory("f1", "emotional", "Sundays make them anxious", told_at=said.sent_at)]
    await rig.engine.handle(message("Is it Sunday tomorrow?"))

    request = rig.llm.requests[-1]
    assert "Sundays make me anxious." not in [t.text for t in request.turns]
    assert '"Sundays make them anxious"' in request.system


async def test_a_feeling_told_before_a_pause_comes_back_with_when_it_was_told(
    rig: Rig, message: MessageFactory
) -> None:
    said = message("Sundays make me anxious.")
    await rig.engine.handle(said)
    rig.clock.advance(hours=5)  # a new talk: the turn, still in the window, does not say when it was said
    rig.memory.memories = [RecalledMemory("f1", "emotional", "Sundays make them anxious", told_at=said.sent_at)]
    await rig.engine.handle(message("Is it Sunday tomorrow?"))

    request = rig.llm.requests[-1]
    assert "Sundays make me anxious." in [t.text for t in request.turns]
    assert '"Sundays make them anxious" [told you earlier today]' in request.system


def test_an_excerpt_that_loses_its_first_message_starts_with_the_next_and_a_dated_line_stays() -> None:
    now = datetime(2026, 3, 14, 12, tzinfo=UTC)
    in_window, older = now - timedelta(minutes=5), now - timedelta(days=2)
    history = [ChatTurn("user", "We adopted a kitten.", in_window, "telegram:42"), ChatTurn("assistant", "Oh!", now)]
    memories = [
        RecalledMemory("a", "episodic", "We adopted a kitten.", told_at=in_window),
        RecalledMemory("b", "episodic", "Her name is Miso.", told_at=older, follows=True),
        RecalledMemory("c", "episodic", "My exam is tomorrow.", told_at=in_window, on=date(2026, 3, 15)),
        RecalledMemory("d", "episodic", "Someone else said this.", told_at=older),
    ]
    shown = not_in_view(memories, history, "telegram:42", now)
    assert [(m.text, m.follows) for m in shown] == [
        ("Her name is Miso.", False), ("My exam is tomorrow.", False), ("Someone else said this.", False),
    ]  # fmt: skip
    # Another person's message at the same time in a group is not theirs.
    someone_else = [ChatTurn("user", "x", in_window, "telegram:7")]
    assert not_in_view(memories[:1], someone_else, "telegram:42", now) == memories[:1]
    # Nor is one of theirs before a pause: an earlier talk.
    assert not_in_view(memories[:1], history, "telegram:42", now + timedelta(hours=1)) == memories[:1]
