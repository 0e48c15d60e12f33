"""Long-term memory as the engine and the person use it, over an in-memory index."""

from __future__ import annotations

import uuid
from collections import deque
from datetime import UTC, date, datetime, timedelta

from bot.engine.model import ChatKind, ChatTurn, Exchange, IncomingMessage, RecallQuery, Reply, UserRef
from bot.engine.ports import CompletionRequest
from bot.errors import LLMUnavailable
from memory.records import MemoryKind
from memory.service import LongTermMemoryService
from tests.memory.fake_index import FakeMemoryIndex

START = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)
ALICE = UserRef("telegram", "1", "Alice")
BOB = UserRef("telegram", "2", "Bob")


class RecordingPlanner:
    def __init__(self) -> None:
        self.planned: list[str] = []

    async def plan_user(self, user_key: str) -> None:
        self.planned.append(user_key)

    async def note_activity(self, user_key: str, at: datetime) -> None:
        return None


class ScriptedModel:
    def __init__(self, *answers: str | Exception) -> None:
        self.answers: deque[str | Exception] = deque(answers)
        self.requests: list[CompletionRequest] = []

    async def complete(self, request: CompletionRequest) -> str:
        self.requests.append(request)
        answer = self.answers.popleft() if self.answers else '{"facts": []}'
        if isinstance(answer, Exception):
            raise answer
        return answer


class Chat:
    """Sends messages as one person, a minute apart."""

    def __init__(self, service: LongTermMemoryService, user: UserRef, language: str = "en") -> None:
        self.service, self.user, self.language = service, user, language
        self.at = START
        self.sent = 0

    async def say(self, text: str, chat_kind: ChatKind = ChatKind.PRIVATE) -> None:
        self.sent += 1
        self.at += timedelta(minutes=1)
        conversation = f"telegram:dm:{self.user.user_id}" if chat_kind is ChatKind.PRIVATE else "telegram:chat:9"
        message = IncomingMessage(self.user, conversation, str(self.sent), text, self.at, chat_kind)
        await self.service.remember_exchange(Exchange(message, Reply("I see.", self.language), "Europe/Paris",
                                                      self.language))  # fmt: skip

    async def recall(self, text: str, **options: object) -> list[str]:
        query = RecallQuery(self.user.key, text, self.at + timedelta(minutes=1), **options)  # type: ignore[arg-type]
        return [m.text for m in await self.service.recall(query)]


async def test_every_message_is_kept_as_an_episode_with_its_source() -> None:
    index = FakeMemoryIndex()
    chat = Chat(LongTermMemoryService(index), ALICE)
    await chat.say("we walked along the canal, it was lovely")
    (episode,) = [r for r in index.records.values() if r.kind is MemoryKind.EPISODIC]
    assert episode.attributes["said"] == "we walked along the canal, it was lovely"
    assert episode.event_at == chat.at and episode.scope == "dm"
    assert episode.source.message_ids == ("1",) and episode.source.conversation_id == "telegram:dm:1"
    assert await chat.recall("canal walk") == ["we walked along the canal, it was lovely"]


async def test_a_change_supersedes_the_old_fact_which_keeps_its_history() -> None:
    index = FakeMemoryIndex()
    service = LongTermMemoryService(index)
    chat = Chat(service, ALICE)
    await chat.say("I love steak")
    await chat.say("I'm vegetarian now")
    steak = [r for r in index.records.values() if r.kind is MemoryKind.SEMANTIC and "steak" in r.text]
    assert len(steak) == 1 and steak[0].valid_to is not None  # kept, but no longer current
    recalled = await chat.recall("what food do I love? steak?")
    assert "I'm vegetarian now" in recalled
    assert all("steak" not in text for text in recalled)
    exported = await service.export_memories(ALICE.key)
    assert any(item.text == "I love steak" and item.extra["current"] is False for item in exported)


async def test_duplicates_are_not_stored_twice() -> None:
    index = FakeMemoryIndex()
    chat = Chat(LongTermMemoryService(index), ALICE)
    await chat.say("I love Blue Note jazz")
    await chat.say("I love Blue Note jazz!")
    await chat.say("my birthday is March 20")
    await chat.say("My birthday is on March 20, remember")
    facts = [r for r in index.records.values() if r.kind is not MemoryKind.EPISODIC]
    assert sorted(r.label or "" for r in facts) == ["birthday", "likes"]


async def test_a_new_birthday_replaces_the_old_one_and_the_planner_hears_of_it() -> None:
    planner = RecordingPlanner()
    service = LongTermMemoryService(FakeMemoryIndex(), planner=planner)
    chat = Chat(service, ALICE)
    await chat.say("hello there")
    assert planner.planned == []
    await chat.say("my birthday is March 20")
    await chat.say("sorry, my birthday is actually March 21")
    assert planner.planned == [ALICE.key, ALICE.key]
    (birthday,) = await service.dated_events(ALICE.key)
    assert (birthday.kind, birthday.yearly, birthday.on.month, birthday.on.day) == ("birthday", True, 3, 21)


async def test_dated_events_of_others_in_french() -> None:
    service = LongTermMemoryService(FakeMemoryIndex())
    chat = Chat(service, ALICE, "fr")
    await chat.say("Le mariage de ma sœur est le 6 juin, j'ai hâte")
    (event,) = await service.dated_events(ALICE.key)
    assert (event.kind, event.about, event.on, event.yearly) == ("event", "sœur", date(2026, 6, 6), False)
    assert event.what == "mariage (sœur)" and event.language == "fr"


async def test_a_note_is_an_important_fact_and_is_read_for_dates() -> None:
    planner = RecordingPlanner()
    index = FakeMemoryIndex()
    service = LongTermMemoryService(index, planner=planner)
    note_id = await service.remember_note(ALICE.key, "my birthday is June 2", START, "en")
    note = index.records[note_id]
    assert (note.kind, note.importance) == (MemoryKind.SEMANTIC, 0.9)
    (birthday,) = await service.dated_events(ALICE.key)
    assert (birthday.on.month, birthday.on.day, birthday.yearly) == (6, 2, True)
    assert planner.planned == [ALICE.key]


async def test_listing_is_newest_first_and_forgetting_one_memory_works() -> None:
    service = LongTermMemoryService(FakeMemoryIndex())
    chat = Chat(service, ALICE)
    for text in ("first thing", "second thing", "third thing"):
        await chat.say(text)
    page = await service.list_memories(ALICE.key, 0, 2)
    assert [i.text for i in page.items] == ["third thing", "second thing"] and page.total == 3
    assert await service.forget_memory(ALICE.key, page.items[0].memory_id)
    assert not await service.forget_memory(ALICE.key, page.items[0].memory_id)
    await chat.say("fourth thing")  # must not bring the forgotten one back as context
    texts = [i.text for i in (await service.list_memories(ALICE.key, 0, 10)).items]
    assert texts == ["fourth thing", "second thing", "first thing"]


def chat_time(chat: Chat) -> datetime:
    return chat.at + timedelta(minutes=1)


async def test_model_extraction_and_consolidation_use_aliases_never_ids() -> None:
    index = FakeMemoryIndex()
    model = ScriptedModel(
        '{"preferences": [{"text": "Loves running by the sea", "topic": "running", "likes": true}]}',
        '{"preferences": [{"text": "Loves running by the lake", "topic": "running", "likes": true}]}',
        '```json\n{"action": "supersede", "replaces": [0, 7], "text": "Loves running by the lake now"}\n```',
    )
    service = LongTermMemoryService(index, llm=model)
    chat = Chat(service, ALICE)
    await chat.say("running by the sea is my thing")
    await chat.say("these days I run by the lake")
    consolidation = model.requests[2].turns[0].text
    assert "0: Loves running by the sea" in consolidation
    assert not any(record_id in consolidation for record_id in index.records)
    current = [r.text for r in index.records.values() if r.kind is MemoryKind.SEMANTIC and r.valid_to is None]
    assert current == ["Loves running by the lake now"]


async def test_an_unavailable_model_leaves_offline_extraction() -> None:
    service = LongTermMemoryService(FakeMemoryIndex(), llm=ScriptedModel(LLMUnavailable("down")))
    chat = Chat(service, ALICE)
    await chat.say("my birthday is March 20")
    assert len(await service.dated_events(ALICE.key)) == 1


async def test_crafted_ids_are_not_memory_ids() -> None:
    service = LongTermMemoryService(FakeMemoryIndex())
    assert not await service.forget_memory(ALICE.key, str(uuid.uuid4()))
    assert not await service.forget_memory(ALICE.key, "'; DROP TABLE memories; --")


async def test_a_superseded_message_stays_history_when_the_next_message_arrives() -> None:
    index = FakeMemoryIndex()
    service = LongTermMemoryService(index)
    chat = Chat(service, ALICE)
    await chat.say("I love steak")
    await service.remember_note(ALICE.key, "I'm vegetarian now", chat.at + timedelta(seconds=30), "en")
    await chat.say("anyway, how are you?")
    assert all("steak" not in text for text in await chat.recall("steak"))
    assert [r.valid_to is not None for r in index.records.values() if "steak" in r.text] == [True, True]


async def test_a_moved_one_off_event_leaves_the_first_message_current() -> None:
    index = FakeMemoryIndex()
    model = ScriptedModel(
        '{"events": [{"what": "chess competition", "about": null, "date": "2026-04-15", "yearly": false}]}',
        '{"events": [{"what": "chess competition", "about": null, "date": "2026-05-21", "yearly": false}]}',
        '{"action": "supersede", "replaces": [0]}',
    )
    chat = Chat(LongTermMemoryService(index, llm=model), ALICE)
    await chat.say("my chess competition is on 15 April")
    await chat.say("next chess competition: 21 May!")
    events = [r for r in index.records.values() if r.kind is MemoryKind.TEMPORAL]
    assert sorted(r.valid_to is None for r in events) == [False, True]  # the fact moved
    first = [r for r in index.records.values() if r.attributes.get("said") == "my chess competition is on 15 April"]
    assert len(first) == 1 and first[0].valid_to is None  # what was said then is still true of then
    assert "my chess competition is on 15 April" in await chat.recall("chess competition April")


async def test_context_comes_from_the_window_and_survives_a_restart() -> None:
    index = FakeMemoryIndex()
    first_at, second_at = START, START + timedelta(minutes=1)
    first = IncomingMessage(ALICE, "telegram:dm:1", "1", "we adopted her last spring", first_at)
    await LongTermMemoryService(index).remember_exchange(Exchange(first, Reply("Lovely!", "en"), "UTC", "en"))
    restarted = LongTermMemoryService(index)  # nothing in process: the window says what came before
    second = IncomingMessage(ALICE, "telegram:dm:1", "2", "her name is Miso, a tabby cat", second_at)
    window = (ChatTurn("user", first.text, first_at, ALICE.key), ChatTurn("assistant", "Lovely!", first_at))
    await restarted.remember_exchange(Exchange(second, Reply("Cute!", "en"), "UTC", "en", previous_turns=window))
    episodes = {r.attributes["said"]: r for r in index.records.values() if r.kind is MemoryKind.EPISODIC}
    assert len(episodes) == 2
    assert "Miso" in episodes["we adopted her last spring"].text  # what came next explains it
    assert "adopted" in episodes["her name is Miso, a tabby cat"].text
    query = RecallQuery(ALICE.key, "when did I adopt Miso?", second_at + timedelta(minutes=1))
    assert "we adopted her last spring" in [m.text for m in await restarted.recall(query)]


async def test_a_message_is_found_by_what_was_said_two_messages_before_it() -> None:
    index = FakeMemoryIndex()
    service = LongTermMemoryService(index)
    said = ("we adopted a kitten last spring", "she sleeps on the radiator all day", "her name is Miso")
    window: tuple[ChatTurn, ...] = ()
    for number, text in enumerate(said, start=1):
        at = START + timedelta(minutes=number)
        message = IncomingMessage(ALICE, "telegram:dm:1", str(number), text, at)
        await service.remember_exchange(Exchange(message, Reply("Aww.", "en"), "UTC", "en", previous_turns=window))
        window = (*window, ChatTurn("user", text, at, ALICE.key), ChatTurn("assistant", "Aww.", at))
    for filler in range(4, 12):
        message = IncomingMessage(ALICE, "telegram:dm:1", str(filler), f"work was busy on day {filler}",
                                  START + timedelta(minutes=filler))  # fmt: skip
        await service.remember_exchange(Exchange(message, Reply("Ok.", "en"), "UTC", "en"))
    query = RecallQuery(ALICE.key, "what is the kitten called?", START + timedelta(hours=1), limit=3)
    assert "her name is Miso" in [m.text for m in await service.recall(query)]


async def test_a_forgotten_message_is_not_brought_back_by_the_next_one() -> None:
    index = FakeMemoryIndex()
    service = LongTermMemoryService(index)
    first = IncomingMessage(ALICE, "telegram:dm:1", "1", "my secret crush is Tom", START)
    await service.remember_exchange(Exchange(first, Reply("Oh!", "en"), "UTC", "en"))
    (episode,) = [r for r in index.records.values() if r.kind is MemoryKind.EPISODIC]
    assert await service.forget_memory(ALICE.key, episode.memory_id)
    second = IncomingMessage(ALICE, "telegram:dm:1", "2", "anyway, the weather is nice", START + timedelta(minutes=1))
    window = (ChatTurn("user", first.text, START, ALICE.key),)
    await service.remember_exchange(Exchange(second, Reply("Yes", "en"), "UTC", "en", previous_turns=window))
    assert [r.attributes["said"] for r in index.records.values() if r.kind is MemoryKind.EPISODIC] == [second.text]


async def test_the_memory_list_shows_a_fact_once_and_forgetting_it_takes_its_episode_too() -> None:
    index = FakeMemoryIndex()
    service = LongTermMemoryService(index)
    chat = Chat(service, ALICE)
    await chat.say("I love Blue Note jazz")
    await chat.say("we walked along the canal, it was lovely")

    page = await service.list_memories(ALICE.key, 0, 50)
    texts = [item.text for item in page.items]
    assert texts.count("I love Blue Note jazz") == 1 and page.total == len(texts)
    assert "we walked along the canal, it was lovely" in texts

    jazz = next(item for item in page.items if item.text == "I love Blue Note jazz")
    assert await service.forget_memory(ALICE.key, jazz.memory_id)

    assert "jazz" not in " ".join(item.text for item in (await service.list_memories(ALICE.key, 0, 50)).items)
    assert not [r for r in index.records.values() if "jazz" in r.text.lower() and r.user_key == ALICE.key]


async def test_the_writer_marks_the_twin_so_the_listing_is_read_by_filter() -> None:
    index = FakeMemoryIndex()
    service = LongTermMemoryService(index)
    await Chat(service, ALICE).say("I love Blue Note jazz")

    fact = next(r for r in index.records.values() if r.kind is not MemoryKind.EPISODIC)
    episode = next(r for r in index.records.values() if r.kind is MemoryKind.EPISODIC)
    assert episode.hidden_by == fact.memory_id
    assert await index.count(ALICE.key, listed_only=True) == 1


async def test_a_weekday_in_a_feeling_is_no_date_but_an_exam_on_a_weekday_is() -> None:
    index = FakeMemoryIndex()
    service = LongTermMemoryService(index)
    english, french = Chat(service, ALICE), Chat(service, BOB, "fr")
    english.at = french.at = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)  # a Wednesday
    await english.say("Sundays are hard, dimanche difficile")
    await french.say("le lundi c'est dur")
    episodes = [r.text for r in index.records.values() if r.kind is MemoryKind.EPISODIC]
    assert not any("(6 December 2026)" in text or "(7 décembre 2026)" in text for text in episodes), episodes
    assert await service.dated_events(ALICE.key) == [] and await service.dated_events(BOB.key) == []

    await english.say("on Sunday I have my exam")
    await french.say("dimanche j'ai mon examen")
    (exam,) = await service.dated_events(ALICE.key)
    (examen,) = await service.dated_events(BOB.key)
    assert exam.on == examen.on == date(2026, 12, 6)
