"""A long message is shown cut to its sentences that bear on the question; a short one, or one none of whose
sentences shares a word with it, is shown whole."""

from __future__ import annotations

from memory.recall.focus import analysed_sentences, cut, fewest_words, focused
from memory.recall.lexical import stems

DAY_OUT = (
    "We drove up to the lake on Saturday with the whole family and it rained most of the morning. "
    "Luckily the kids found a small museum about old boats, and they loved it. "
    "On the way back we adopted a puppy from a farm, his name is Biscuit! "
    "Now I need to buy a bed and some toys for him."
)


def _terms(question: str) -> frozenset[str]:
    return frozenset(stems(question))


def test_a_long_message_is_cut_to_the_sentence_that_answers() -> None:
    assert focused(DAY_OUT, _terms("What is the name of the puppy you adopted?")) == (
        "… On the way back we adopted a puppy from a farm, his name is Biscuit! …"
    )


def test_sentences_that_answer_keep_their_order_and_each_gap_is_marked_once() -> None:
    shown = focused(DAY_OUT, _terms("Did the kids like the lake?"))
    assert shown == (
        "We drove up to the lake on Saturday with the whole family and it rained most of the morning. "
        "Luckily the kids found a small museum about old boats, and they loved it. …"
    )


def test_a_french_message_is_cut_on_its_stems_too() -> None:
    message = (
        "Ce week-end on est allés chez mes parents à Lyon, il a fait un temps magnifique. "
        "Ma sœur Claire nous a annoncé qu'elle se marie en juin ! "
        "Le retour en train a été très long, avec deux heures de retard."
    )
    assert focused(message, _terms("Quand est-ce que Claire se marie ?")) == (
        "… Ma sœur Claire nous a annoncé qu'elle se marie en juin ! …"
    )


def test_a_short_message_is_shown_whole() -> None:
    short = "We adopted a puppy. His name is Biscuit. He sleeps all day."
    assert focused(short, _terms("What is the puppy's name?")) == short


def test_a_message_recalled_for_its_meaning_alone_is_shown_whole() -> None:
    # none of its sentences says a word of the question: which one answers is not known, so all are kept
    assert focused(DAY_OUT, _terms("Any new pets lately?")) == DAY_OUT


def test_without_a_question_nothing_is_cut() -> None:
    assert focused(DAY_OUT, frozenset()) == DAY_OUT


def test_no_question_shows_fewer_words_of_a_message_than_its_fewest() -> None:
    # Selection drops a candidate by this bound alone once its budget is nearly spent: it must never be above
    # what some question shows, or a memory that fits would be left out.
    short = "We adopted a puppy. His name is Biscuit. He sleeps all day."
    questions = [
        "What is the name of the puppy you adopted?", "Did the kids like the lake?", "Any new pets lately?",
        "What toys did you buy?", "Was it raining on Saturday?", "What museum did the kids visit?", "",
    ]  # fmt: skip
    for text in (DAY_OUT, short, "Biscuit!"):
        fewest = fewest_words(text)
        shown = [len(focused(text, _terms(q)).split()) for q in questions]
        assert fewest <= min(shown)
    assert fewest_words(short) == len(short.split())  # short enough to be shown whole
    assert fewest_words(DAY_OUT) == len("Now I need to buy a bed and some toys for him.".split())
    assert fewest_words(DAY_OUT, over=100) == len(DAY_OUT.split())


def test_the_words_a_cut_shows_are_counted_as_the_budget_counts_them() -> None:
    # Selection spends its word budget by this count, not by splitting what it shows: "…" counts as a word.
    ending = "It poured. We stayed in.  The kids played cards all afternoon long at the table. Fun! "
    asked = {DAY_OUT: ["What is the name of the puppy you adopted?", "Did the kids like the lake?", "What toys?"],
             ending: ["What did the kids play?", "Was it fun?"]}  # fmt: skip
    for text, questions in asked.items():
        for question in questions:
            found = cut(analysed_sentences(text).sentences, _terms(question))
            assert found is not None
            shown, words = found
            assert shown == focused(text, _terms(question)) and words == len(shown.split())
    assert cut(analysed_sentences(DAY_OUT).sentences, _terms("Any new pets lately?")) is None  # shown whole
