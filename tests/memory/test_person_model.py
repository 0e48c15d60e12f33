"""The person model's rules: current facts only, newest first, painful topics as gentleness, each line backed
by its memories; and its store: what a forgotten memory backed goes, and erasure leaves nothing."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import redis.asyncio as aioredis

from bot.engine.prompt.person import person_block
from bot.engine.prompt.person_model import GENTLE, HOME, PERSON, shown_lines
from memory.person.person_model import build_person_model
from memory.person.person_model_store import RedisPersonModels
from memory.records import MemoryKind, MemoryRecord, MemorySource
from memory.writing.extraction.candidates import TOPIC

NOW = datetime(2026, 3, 20, 12, tzinfo=UTC)
_ids = iter(range(1000))


def _record(text: str, kind: MemoryKind = MemoryKind.SEMANTIC, *, days_ago: float = 1, label: str | None = None,
            topic: str | None = None, superseded: bool = False, **fields: object) -> MemoryRecord:  # fmt: skip
    at = NOW - timedelta(days=days_ago)
    return MemoryRecord(
        memory_id=f"m{next(_ids)}", user_key="telegram:1", kind=kind, text=text, language="en", created_at=at,
        source=MemorySource("telegram", "telegram:dm:1"), label=label, valid_from=at,
        valid_to=NOW - timedelta(hours=1) if superseded else None, attributes={TOPIC: topic} if topic else {},
        **fields,  # type: ignore[arg-type]
    )  # fmt: skip


def _newest_first(*records: MemoryRecord) -> list[MemoryRecord]:
    return sorted(records, key=lambda r: r.created_at, reverse=True)


def test_a_superseded_home_leaves_the_model_and_the_newer_one_speaks() -> None:
    paris = _record("I live in Paris", label="home", topic="Paris", days_ago=10, superseded=True)
    lyon = _record("I moved to Lyon last month", label="home", topic="Lyon last month", days_ago=2)
    model = build_person_model("telegram:1", _newest_first(paris, lyon), [], NOW, "Europe/Paris")
    homes = [line for line in model.lines if line.aspect == HOME]
    assert [(h.value, h.memory_ids) for h in homes] == [("Lyon", (lyon.memory_id,))]
    assert "Paris" not in str(shown_lines(model, "en", NOW.date()))


def test_people_and_pets_come_with_their_names_and_each_line_with_the_memories_behind_it() -> None:
    rex = _record("My dog is called Rex", label="relationship", subject="dog", topic="Rex")
    rex_again = _record("My dog Rex ate my shoe", label="about", days_ago=0.5)
    model = build_person_model("telegram:1", _newest_first(rex, rex_again), [], NOW, "UTC")
    [line] = [line for line in model.lines if line.aspect == PERSON]
    assert (line.value, line.relation) == ("Rex", "dog")
    assert set(line.memory_ids) == {rex.memory_id, rex_again.memory_id}
    assert model.without([rex.memory_id]).lines == ()  # forgetting one of them takes the line


def test_a_painful_topic_is_only_ever_a_line_about_gentleness_and_never_the_thread() -> None:
    loss = _record("My dad passed away last spring", MemoryKind.EMOTIONAL, label="sensitive")
    said = _record("My dad passed away last spring", MemoryKind.EPISODIC)
    model = build_person_model("telegram:1", [loss], [said], NOW, "UTC")
    assert [line.aspect for line in model.lines] == [GENTLE]
    assert model.thread == ()
    [(text, _)] = shown_lines(model, "en", NOW.date())
    assert text.startswith("Be gentle about")
    [(texte, _)] = shown_lines(model, "fr", NOW.date())
    assert texte.startswith("Avec douceur")


def test_the_thread_skips_what_says_nothing() -> None:
    episodes = _newest_first(
        _record("I have my job interview on Thursday, I'm so nervous", MemoryKind.EPISODIC, days_ago=1.1),
        _record("Haha I will. Take care. Talk later!", MemoryKind.EPISODIC, days_ago=1.0),
        _record("Yep ttyl!", MemoryKind.EPISODIC, days_ago=0.9),
    )
    model = build_person_model("telegram:1", [], episodes, NOW, "UTC")
    assert [t.text for t in model.thread] == ["I have my job interview on Thursday, I'm so nervous"]
    block = person_block(model, '"Sam"', "en", NOW.date(), with_thread=True)
    assert "job interview" in block.text and "ttyl" not in block.text
    assert "job interview" not in person_block(model, '"Sam"', "en", NOW.date(), with_thread=False).text


def test_an_event_that_passed_is_no_longer_going_on() -> None:
    exam = _record("Exam — 25 March", MemoryKind.TEMPORAL, label="exam", local_date="2026-03-25")
    model = build_person_model("telegram:1", [exam], [], NOW, "UTC")
    assert "exam — in 5 days" in str(shown_lines(model, "en", NOW.date()))
    assert shown_lines(model, "en", date(2026, 3, 26)) == []


def test_the_block_stays_within_its_words() -> None:
    likes = [_record(f"I love thing{i} " + "very " * 15, label="likes", topic=f"thing{i} " + "x " * 15,
                     days_ago=i) for i in range(10)]  # fmt: skip
    model = build_person_model("telegram:1", likes, [], NOW, "UTC")
    shown = " ".join(text for text, _ in shown_lines(model, "en", NOW.date()))
    assert 0 < len(shown.split()) <= 120


async def test_the_store_forgets_what_a_forgotten_memory_backed_and_everything_on_erasure(redis_url: str) -> None:
    client = aioredis.from_url(redis_url)
    try:
        models = RedisPersonModels(client)
        rex = _record("My dog is called Rex", label="relationship", subject="dog", topic="Rex")
        lyon = _record("I live in Lyon", label="home", topic="Lyon")
        await models.save(build_person_model("telegram:1", [rex, lyon], [], NOW, "UTC"))
        kept = await models.person_model("telegram:1")
        assert kept is not None and {line.value for line in kept.lines} == {"Rex", "Lyon"}

        await models.forget_memories("telegram:1", [rex.memory_id])
        kept = await models.person_model("telegram:1")
        assert kept is not None and [line.value for line in kept.lines] == ["Lyon"]

        await models.forget_user("telegram:1")
        assert await models.person_model("telegram:1") is None
        assert await client.keys("*telegram:1*") == []
    finally:
        await client.aclose()


def test_facts_a_model_wrote_in_the_third_person_give_the_same_lines() -> None:
    facts = _newest_first(
        _record("Léa has a cat named Miso", label="about", days_ago=1),
        _record("Works night shifts as a nurse at Saint-Luc", label="about", days_ago=2),
        _record("Lives in Lyon with her partner", label="about", days_ago=3),
        _record("Her dad has cancer", label="about", days_ago=4),
    )
    model = build_person_model("telegram:1", facts, [], NOW, "UTC")
    by_aspect = {(line.aspect, line.value) for line in model.lines}
    assert {(PERSON, "Miso"), (HOME, "Lyon"), (GENTLE, "Her dad has cancer")} <= by_aspect
    assert any(line.aspect == "work" and "nurse" in line.value for line in model.lines)
    assert not any(line.aspect == "about" and "cancer" in line.value for line in model.lines)


def test_from_real_speech_the_block_holds_what_a_friend_would_write_and_no_fragments() -> None:
    facts = _newest_first(
        _record("I love how quiet it gets up there", label="likes", topic="how quiet it gets up there"),
        _record("I'd love to", label="likes", topic="to", days_ago=1.1),
        _record("I love baking sourdough on Sundays", label="likes", topic="baking sourdough on Sundays", days_ago=1.2),
        _record("Pottery is like therapy for me, I always leave the studio grinning", MemoryKind.EMOTIONAL,
                label="sensitive", days_ago=1.3),
        _record("Yeah, I have a few plans", label="about", days_ago=1.4),
        _record("After eight years of night shifts I'm finally a head nurse and it's great", label="about",
                days_ago=1.5),
        _record("My friends were everything to me in the months after that awful divorce with Tom",
                MemoryKind.EMOTIONAL, label="sensitive", days_ago=1.6),
    )  # fmt: skip
    episodes = _newest_first(
        _record("That's the spirit! Bye", MemoryKind.EPISODIC, days_ago=0.2),
        _record("Thanks, Nadia! The garden is finally taking shape, I planted tomatoes, beans, courgettes and a whole "
                "row of sunflowers along the fence this weekend", MemoryKind.EPISODIC, days_ago=0.3),
    )  # fmt: skip
    model = build_person_model("telegram:1", facts, episodes, NOW, "UTC")
    block = person_block(model, '"Sam"', "en", NOW.date(), with_thread=True).text
    assert "Loves: baking sourdough on Sundays" in block
    assert "how quiet" not in block and "Loves: to" not in block and ", to" not in block
    assert "- Work / studies: head nurse" in block
    assert "Be gentle about (never bring it up first): the divorce" in block and "grinning" not in block
    assert "a few plans" not in block and "spirit" not in block
    [thread] = model.thread
    assert thread.text.startswith("The garden is finally taking shape") and thread.text.endswith("…")
    assert len(thread.text.split()) <= 18 and "Nadia" not in thread.text


def test_someone_named_once_is_shown_by_name_and_someone_never_named_by_who_they_are() -> None:
    facts = _newest_first(
        _record("Went hiking with my wife and it rained the whole way up", label="family", subject="wife"),
        _record("My wife Priya got the job", label="relationship", subject="wife", topic="Priya", days_ago=2),
        _record("Our kids spent the afternoon building a raft", label="family", subject="kids", days_ago=3),
    )  # fmt: skip
    model = build_person_model("telegram:1", facts, [], NOW, "UTC")
    [(text, _)] = shown_lines(model, "en", NOW.date())
    assert text == "People and animals: Priya (wife), kids"


def test_a_superseded_fact_leaves_the_model_even_when_it_was_told_last() -> None:
    """Current facts only: a fact set aside or replaced says nothing, whichever was told last."""
    paris = _record("I live in Paris", label="home", topic="Paris", days_ago=0.5, superseded=True)
    nurse = _record("I work as a nurse at Saint-Luc", days_ago=1, superseded=True)
    teacher = _record("I work as a teacher at the lycée", days_ago=2)
    lyon = _record("I live in Lyon", label="home", topic="Lyon", days_ago=3)
    model = build_person_model("telegram:1", _newest_first(paris, nurse, teacher, lyon), [], NOW, "UTC")
    shown = str(shown_lines(model, "en", NOW.date()))
    assert "Lives in Lyon" in shown and "teacher" in shown, shown
    assert "Paris" not in shown and "nurse" not in shown, shown


def test_a_full_life_is_cut_to_120_words_keeping_who_they_are_and_what_to_be_gentle_about() -> None:
    people = [("sister", "Claire"), ("brother", "Hugo"), ("dog", "Rex"), ("cat", "Miso"), ("mother", "Anne"),
              ("father", "Paul"), ("friend", "Nadia"), ("cousin", "Léo")]  # fmt: skip
    likes = ["jazz on vinyl", "long walks by the river", "baking sourdough bread", "old French films", "sea swimming"]
    facts = _newest_first(
        _record("My name is Sam", label="name", topic="Sam", days_ago=0.1),
        _record("I live in Lyon", label="home", topic="Lyon", days_ago=0.2),
        _record("At work my boss keeps moving every deadline of the hospital project forward and the whole office "
                "is exhausted by it", days_ago=0.3),
        _record("My colleagues at the office organised a surprise lunch for my ten years in the same job and I "
                "nearly cried", days_ago=0.4),
        *[_record(f"My {who} is called {name}", label="relationship", subject=who, topic=name, days_ago=0.5 + i / 100)
          for i, (who, name) in enumerate(people)],
        *[_record(f"I love {thing}", label="likes", topic=thing, days_ago=0.6 + i / 100)
          for i, thing in enumerate(likes)],
        *[_record(f"I hate {thing}", label="dislikes", topic=thing, days_ago=0.7 + i / 100)
          for i, thing in enumerate(["crowded trains at rush hour", "loud open offices", "cold coffee"])],
        _record("Learning the cello at thirty-five is the hardest and most joyful thing I have ever tried",
                label="about", days_ago=0.9),
        _record("My grandmother has been in hospital since the fall and it scares me", MemoryKind.EMOTIONAL,
                label="sensitive", days_ago=1.0),
        _record("Sunday evenings are hard", MemoryKind.EMOTIONAL, label="hard times", topic="Sunday evenings",
                days_ago=1.2),
        _record("Claire's wedding — 25 April", MemoryKind.TEMPORAL, label="wedding", subject="sister",
                local_date="2026-04-25", days_ago=1.3),
    )  # fmt: skip
    model = build_person_model("telegram:1", facts, [], NOW, "UTC")
    assert any("cello" in line.value for line in model.lines)  # known…

    shown = [text for text, _ in shown_lines(model, "en", NOW.date())]

    assert sum(len(text.split()) for text in shown) <= 120, shown
    assert not any("cello" in text for text in shown), shown  # …but more than the block holds: the last aspects go
    assert shown[:2] == ["Name: Sam", "Lives in Lyon"], shown
    assert any(text.startswith("People and animals: Claire (sister)") for text in shown), shown
    assert any(text.startswith("Be gentle about") and "grandmother" in text for text in shown), shown


def test_what_they_love_and_what_they_dislike_are_lines_of_their_own_in_their_language() -> None:
    facts = _newest_first(
        _record("I love jazz", label="likes", topic="jazz", days_ago=1),
        _record("I hate crowded trains", label="dislikes", topic="crowded trains", days_ago=2),
    )
    model = build_person_model("telegram:1", facts, [], NOW, "UTC")
    assert [text for text, _ in shown_lines(model, "en", NOW.date())] == ["Loves: jazz", "Dislikes: crowded trains"]
    assert [text for text, _ in shown_lines(model, "fr", NOW.date())] == ["Aime : jazz", "N'aime pas : crowded trains"]


def test_someone_close_who_is_ill_is_gentleness_and_teaching_is_work() -> None:
    facts = _newest_first(
        _record("my dad has been sick for weeks and it's weighing on me", MemoryKind.EMOTIONAL, label="sensitive"),
        _record("mon père est malade", MemoryKind.EMOTIONAL, label="sensitive", days_ago=1.1),
        _record("I teach third grade", label="about", days_ago=1.2),
        _record("Teaches French at a lycée in Nantes", label="about", days_ago=1.3),  # as a model writes it
        _record("I'm sick of this weather", label="about", days_ago=1.4),
    )  # fmt: skip
    model = build_person_model("telegram:1", facts, [], NOW, "UTC")
    assert {line.value for line in model.lines if line.aspect == GENTLE} == {"an illness (dad)", "mon père est malade"}
    assert [line.value for line in model.lines if line.aspect == "work"] == [
        "I teach third grade", "Teaches French at a lycée in Nantes"]  # fmt: skip
    assert not any("weather" in line.value for line in model.lines if line.aspect == GENTLE)
    short = build_person_model("telegram:1", [_record("j'enseigne le français", label="about")], [], NOW, "UTC")
    assert [(line.aspect, line.value) for line in short.lines] == [("work", "j'enseigne le français")]


def test_pets_and_children_named_in_everyday_words_are_people_and_animals() -> None:
    facts = _newest_first(
        _record("we have two cats, Pixel and Nougat", label="relationship", subject="cat", topic="Pixel"),
        _record("we just had a baby girl, her name is Zara", label="relationship", subject="daughter", topic="Zara",
                days_ago=1.1),
        _record("my friend's dog is called Rex and he's hilarious", label="about", days_ago=1.2),
    )  # fmt: skip
    model = build_person_model("telegram:1", facts, [], NOW, "UTC")
    people = [(line.value, line.relation) for line in model.lines if line.aspect == PERSON]
    assert people == [("Pixel", "cat"), ("Nougat", "cat"), ("Zara", "daughter")]
