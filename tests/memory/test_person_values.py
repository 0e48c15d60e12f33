"""What a person model line may say when it is read from real speech: things, roles and short words, never
sentence fragments, and a painful topic only from a sentence that is painful."""

from __future__ import annotations

import pytest

from memory.person.person_values import gentle_topic, gist, has_content, like_value, role, short_quote, worth_a_line


@pytest.mark.parametrize(
    "topic",
    ["how quiet it gets up there", "to", "is so relaxing", "that you remembered", "it all", "them", "this",
     "comment tu fais ça", "que tu sois là", "ça", "every day", "spending time", "watching them grow up",
     "the calm it gives me", "the thought Lena", "the way the bread came out"],
)  # fmt: skip
def test_a_clause_or_a_pronoun_is_not_something_they_love(topic: str) -> None:
    assert like_value(topic) is None


@pytest.mark.parametrize(
    ("topic", "shown"),
    [("baking sourdough", "baking sourdough"), ("all the autumn colours", "autumn colours"),
     ("the smell of rain", "smell of rain"), ("le jazz manouche", "le jazz manouche"),
     ("long bike rides with my neighbour on sunday mornings", "long bike rides"), ("board games too", "board games"),
     ("spiders as well", "spiders")],
)  # fmt: skip
def test_a_like_is_a_short_noun_phrase(topic: str, shown: str) -> None:
    assert like_value(topic) == shown


@pytest.mark.parametrize(
    ("said", "job"),
    [("Honestly the long hours paid off now that I'm a shift supervisor- it's wild", "shift supervisor"),
     ("I work as a nurse at Saint-Luc, mostly nights", "nurse at Saint-Luc"),
     ("Works weekends as a barista", "barista"),
     ("Je suis infirmière de nuit depuis trois ans", "infirmière"),
     ("je suis enseignante en maternelle", "enseignante en maternelle"),
     ("je suis étudiante en droit", "étudiante en droit"),
     ("je suis prof en ce moment", "prof")],
)  # fmt: skip
def test_a_job_is_shown_as_its_role(said: str, job: str) -> None:
    assert role(said) == job


def test_a_fan_or_a_believer_is_not_a_job() -> None:
    assert role("I'm a big believer in hard work") is None
    assert role("I'm a huge fan of the team") is None


def test_a_long_quote_is_cut_at_a_word_boundary_with_an_ellipsis() -> None:
    said = "Since the garden took off I have been spending every evening out there pulling weeds and planting beans"
    shown = short_quote(said)
    assert shown.endswith("…") and said.startswith(shown[:-1]) and len(shown.split()) <= 14
    assert shown[:-1].split()[-1] in said.split()  # a whole word before the "…"
    assert short_quote("We found a flat near the river last week. The kitchen is tiny but the light is lovely") == (
        "We found a flat near the river last week."
    )


def test_the_gist_of_a_message_leaves_out_the_thanks_and_the_hellos() -> None:
    assert gist("Thanks, Nadia! Your advice about the landlord really helped. It did!", 18) == (
        "Your advice about the landlord really helped."
    )


@pytest.mark.parametrize(
    "said",
    ["Yeah, I have a few plans", "That's the spirit! Bye", "Sure, sounds good", "No worries, Lena. Hope you enjoy it!",
     "Cheers! Let me know if you need anything."],
)  # fmt: skip
def test_small_talk_has_no_content(said: str) -> None:
    assert not has_content(said, 3)


def test_a_line_of_its_own_needs_more_than_something_to_show() -> None:
    assert not worth_a_line("I've got a funny story")
    assert not worth_a_line("I have a picture from our trip to the lake")
    assert worth_a_line("I've been volunteering at the food bank every Saturday since spring")


@pytest.mark.parametrize(
    "said",
    ["Pottery is basically therapy for me, I come out of the studio grinning",
     "We raised money for a shelter that helps survivors of abuse",
     "Je fais de la poterie, c'est ma thérapie et j'adore ça",
     "I was scared to death before the recital, and then it went perfectly",
     "Harassment at work is awful and nobody talks about it"],
)  # fmt: skip
def test_a_happy_sentence_with_a_painful_word_is_not_a_painful_topic(said: str) -> None:
    assert gentle_topic(said, "en") is None


def test_a_painful_topic_is_named_briefly() -> None:
    assert gentle_topic("My grandpa passed away in June, it's been rough", "en") == "My grandpa passed away in June"
    assert gentle_topic("My grandma died in March and I still miss her every single day", "en") == "a loss (grandma)"
    long_one = "Honestly my friends carried me through everything after that awful breakup with my boyfriend"
    assert gentle_topic(long_one, "en") == "the breakup (boyfriend)"
    dur = "Mes amis m'ont énormément soutenue pendant toute la période après ce divorce si dur"
    assert gentle_topic(dur, "fr") == "le divorce"
    assert gentle_topic("Therapy has been really hard lately, I cry after every session", "en") == (
        "Therapy has been really hard lately"
    )
