"""What the selection reads of a memory once, per record: the same answers as asking the record each time."""

from __future__ import annotations

from dataclasses import replace

from memory.mood.sensitive import touches_pain
from memory.recall.focus import fewest_words
from memory.recall.shown_facts import shown_facts, token_set
from memory.recall.worth_showing import worth_showing
from memory.records import MemoryKind
from memory.writing.episodes import NEXT, PREVIOUS, SAID_ON, said_date, shown_text
from tests.memory.test_recall_selection import _record

LONG = "We drove to the coast on Saturday with the kids. The weather was awful all day. My sister met us there."


def test_the_facts_answer_as_the_record_does() -> None:
    said = [
        _record("ok lol"),
        _record("I adopted a kitten last week, her name is Miso."),
        _record("My grandmother passed away on Sunday."),
        _record(LONG),
        _record("My birthday is March 14.", MemoryKind.TEMPORAL),
    ]
    linked = replace(said[1], attributes={**said[1].attributes, PREVIOUS: "a b", NEXT: "c"})
    for record in [*said, linked]:
        facts = shown_facts(record)
        assert facts.whole == shown_text(record)
        assert facts.worth is worth_showing(record)
        assert facts.tokens == token_set(shown_text(record))
        assert facts.pains is touches_pain(shown_text(record))
        for over in (5, 12, 40):
            assert facts.fewest_words(over) == fewest_words(shown_text(record), over)
        assert facts.sources == {(record.source.conversation_id, m) for m in record.source.message_ids}
    assert shown_facts(linked).adjacent(2) == ("a", "b", "c")  # the two said before it, the one after
    assert shown_facts(linked).adjacent(1) == ("b", "c")
    assert shown_facts(said[4]).adjacent(2) == ()  # a fact has no messages around it
    assert [shown_facts(r).worth for r in said] == [False, True, True, True, True]
    assert shown_facts(said[2]).pains and not shown_facts(said[1]).pains


def test_a_message_that_gave_no_date_is_not_read_for_one_again() -> None:
    record = _record("We adopted a kitten last week.")
    assert shown_facts(record).may_give_date and said_date(record) is not None
    assert shown_facts(record).said == said_date(record)  # read once, with the record's other facts
    told_none = replace(record, attributes={**record.attributes, SAID_ON: ""})
    assert not shown_facts(told_none).may_give_date and said_date(told_none) is None
    assert shown_facts(told_none).said is None


def test_a_record_rewritten_is_read_again() -> None:
    record = _record("I adopted a kitten.")
    rewritten = replace(record, attributes={**record.attributes, "said": "I adopted a puppy."})
    assert shown_facts(record).whole == "I adopted a kitten."
    assert shown_facts(rewritten).whole == "I adopted a puppy."
