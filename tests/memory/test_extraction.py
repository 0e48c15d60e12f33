"""Offline extraction: what a person says in French or English becomes the right candidate memories."""

from __future__ import annotations

from datetime import UTC, datetime

from memory.records import MemoryKind
from memory.writing.extraction.dated import describe_event
from memory.writing.extraction.offline import extract_offline

AT = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)  # a Saturday


def _kinds(text: str, language: str = "en") -> list[tuple[str, str | None, str | None]]:
    return [(c.kind.value, c.label, c.subject) for c in extract_offline(text, AT, "Europe/Paris", language)]


def test_birthdays_are_yearly_temporal_memories_in_both_languages() -> None:
    (en,) = extract_offline("my birthday is March 14", AT, "Europe/Paris", "en")
    assert (en.kind, en.label, en.subject, en.recurrence) == (MemoryKind.TEMPORAL, "birthday", None, "yearly")
    assert en.local_date == "2026-03-14"
    (fr,) = extract_offline("mon anniversaire c'est le 14 mars", AT, "Europe/Paris", "fr")
    assert (fr.kind, fr.recurrence, fr.local_date) == (MemoryKind.TEMPORAL, "yearly", "2026-03-14")
    assert "14 mars" in fr.text


def test_someone_elses_dated_event_says_whose_it_is() -> None:
    (wedding,) = extract_offline("ma sœur se marie le mois prochain", AT, "Europe/Paris", "fr")
    assert (wedding.label, wedding.subject, wedding.recurrence) == ("mariage", "sœur", None)
    assert wedding.local_date == "2026-04-01" and wedding.precision == "month"
    (exam,) = extract_offline("My exam is in two weeks", AT, "Europe/Paris", "en")
    assert (exam.label, exam.local_date) == ("exam", "2026-03-28")
    (mum,) = extract_offline("l'anniversaire de ma mère est le 3 mai", AT, "Europe/Paris", "fr")
    assert (mum.subject, mum.recurrence) == ("mère", "yearly")


def test_someone_coming_on_a_date_is_a_dated_event_in_both_languages() -> None:
    (fr,) = [c for c in extract_offline("mon frère Paul arrive le 3 janvier", AT, "Europe/Paris", "fr")
             if c.kind is MemoryKind.TEMPORAL]  # fmt: skip
    assert (fr.label, fr.subject, fr.local_date) == ("visite", "frère", "2027-01-03")
    assert fr.text == "Visite (frère) — 3 janvier 2027"
    (en,) = [c for c in extract_offline("My brother Paul arrives January 9th", AT, "Europe/Paris", "en")
             if c.kind is MemoryKind.TEMPORAL]  # fmt: skip
    assert (en.label, en.subject, en.local_date) == ("visit", "brother", "2027-01-09")


def test_impossible_dates_are_not_stored_as_dates() -> None:
    assert [
        c for c in extract_offline("my birthday is February 30", AT, "UTC", "en") if c.kind is MemoryKind.TEMPORAL
    ] == []
    assert extract_offline("mon anniversaire est le 30 février", AT, "UTC", "fr") == []


def test_names_likes_and_relationships() -> None:
    assert ("semantic", "name", None) in _kinds("Hi, my name is Sam")
    assert ("semantic", "name", None) in _kinds("je m'appelle Léa", "fr")
    assert ("semantic", "relationship", "cat") in _kinds("my cat Miso hates the vet")
    likes = extract_offline("I love Blue Note jazz", AT, "UTC", "en")
    assert [(c.label, c.topic) for c in likes] == [("likes", "Blue Note jazz")]
    assert [c.label for c in extract_offline("j'adore le fromage", AT, "UTC", "fr")] == ["likes"]
    assert [c.label for c in extract_offline("I hate mornings", AT, "UTC", "en")] == ["dislikes"]


def test_changes_are_marked_so_they_can_replace_older_facts() -> None:
    (veg,) = extract_offline("I'm vegetarian now", AT, "UTC", "en")
    assert veg.change
    (jazz,) = extract_offline("I don't like jazz anymore", AT, "UTC", "en")
    assert (jazz.label, jazz.topic, jazz.change) == ("dislikes", "jazz", True)


def test_feelings_and_sensitive_topics() -> None:
    assert _kinds("Sundays are hard") == [("emotional", "hard times", None)]
    assert _kinds("je suis triste", "fr") == [("emotional", "mood", None)]
    (grief,) = extract_offline("My grandfather passed away last month", AT, "UTC", "en")
    assert grief.kind is MemoryKind.EMOTIONAL and grief.sensitive


def test_questions_and_small_talk_are_not_facts() -> None:
    assert extract_offline("do you love jazz?", AT, "UTC", "en") == []
    assert extract_offline("ok cool", AT, "UTC", "en") == []


def test_an_event_that_already_names_whose_it_is_is_not_named_twice() -> None:
    assert describe_event("miso's birthday", "Miso", "en") == "miso's birthday"
    assert describe_event("anniversaire de Miso", "Miso", "fr") == "anniversaire de Miso"
    assert describe_event("wedding", "sister", "en") == "sister's wedding"


def test_a_birthday_is_the_persons_only_when_they_say_my() -> None:
    told = "My grandmother Quetzalcoatlus lives in Montpellier and her birthday is on March 3."
    (grandma,) = [c for c in extract_offline(told, AT, "Europe/Paris", "en") if c.kind is MemoryKind.TEMPORAL]
    assert (grandma.subject, grandma.text) == ("Quetzalcoatlus", "Quetzalcoatlus's birthday — 3 March (every year)")
    (mum,) = extract_offline("Ma mère habite à Lyon. Son anniversaire est le 3 mars.", AT, "Europe/Paris", "fr")
    assert (mum.subject, mum.text) == ("mère", "Anniversaire (mère) — 3 mars (chaque année)")
    for text, language in (("Her birthday is on March 3.", "en"), ("sa fête est le 3 mars", "fr"),
                           ("son anniversaire est le 3 mars", "fr"), ("Birthday on March 3!", "en")):  # fmt: skip
        assert [c for c in extract_offline(text, AT, "Europe/Paris", language) if c.kind is MemoryKind.TEMPORAL] == []


def test_the_people_and_animals_in_a_life_are_facts_even_without_a_name() -> None:
    assert ("semantic", "family", "wife") in _kinds("Went hiking with my wife and it rained the whole way up.")
    assert ("semantic", "family", "kids") in _kinds("Our kids spent the afternoon building a raft.")
    assert ("semantic", "family", "enfants") in _kinds("Mes enfants ont adoré le zoo hier.", "fr")
    assert ("semantic", "family", "chien") in _kinds("Je promène mon chien tous les soirs au parc.", "fr")
    # A name said with them stays the named fact; a possessive or a painful sentence is not one more.
    assert _kinds("My cat Pixel knocked over my coffee.") == [("semantic", "relationship", "cat")]
    assert not [k for k in _kinds("My brother's car broke down again.") if k[1] == "family"]
    assert not [k for k in _kinds("My grandpa and my dad both passed away that year.") if k[1] == "family"]
    # Named just before ("Pixel, my cat, …"): the name is said already, the sentence is no unnamed one.
    assert not [k for k in _kinds("Pixel, my cat, sleeps on the radiator all winter.") if k[1] == "family"]


def test_everyday_ways_of_saying_who_is_in_a_life_what_one_studies_and_loves() -> None:
    assert ("semantic", "relationship", "cat") in _kinds("we have a cat named Pickles who steals my socks")
    assert ("semantic", "relationship", "chien") in _kinds("j'ai un chien qui s'appelle Biscotte", "fr")
    assert ("semantic", "relationship", "dog") in _kinds("our dog Rex is getting old")
    assert ("semantic", "about", None) in _kinds("I'm in my second year of law school")
    assert ("semantic", "about", None) in _kinds("je suis en troisième année de médecine", "fr")
    assert ("semantic", "about", None) in _kinds("je fais un stage chez Airbus", "fr")
    said = "I'm obsessed with bouldering lately"
    (likes,) = [c for c in extract_offline(said, AT, "UTC", "en") if c.label == "likes"]
    assert likes.topic == "bouldering"
    (name,) = [c for c in extract_offline("salut, moi c'est Mathilde", AT, "UTC", "fr") if c.label == "name"]
    assert name.topic == "Mathilde"


def test_someone_close_in_hospital_is_painful_working_in_one_is_not() -> None:
    assert ("emotional", "sensitive", None) in _kinds("my mum is in hospital since Tuesday, I'm scared")
    assert ("emotional", "sensitive", None) in _kinds("mon père est hospitalisé depuis lundi", "fr")
    assert not any(label == "sensitive" for _, label, _ in _kinds("I work in the hospital as a nurse"))


def test_teaching_for_a_living_is_work_teaching_oneself_is_not() -> None:
    assert ("semantic", "about", None) in _kinds("I teach third grade")
    assert ("semantic", "about", None) in _kinds("I've been teaching at the same school for years")
    assert ("semantic", "about", None) in _kinds("j'enseigne le français", "fr")
    assert ("semantic", "about", None) in _kinds("je donne des cours de yoga le soir", "fr")
    assert _kinds("I teach myself guitar in the evenings") == []
    assert not [k for k in _kinds("I'm teaching my daughter to swim") if k[1] == "about"]


def test_a_new_hobby_is_a_like_in_both_languages() -> None:
    def likes(text: str, language: str = "en") -> list[str | None]:
        return [c.topic for c in extract_offline(text, AT, "UTC", language) if c.label == "likes"]

    assert likes("I've really gotten into woodworking lately") == ["woodworking"]
    assert likes("I took up running in January") == ["running"]
    assert likes("je me suis mis à la poterie", "fr") == ["la poterie"]
    assert likes("je me suis remise au piano cet été", "fr") == ["piano"]
    for text, language in (("I got into Oxford", "en"), ("I took up the offer", "en"),
                           ("je me suis mis à pleurer", "fr")):  # fmt: skip
        assert likes(text, language) == [], text


def test_someone_close_who_is_ill_is_painful_being_sick_of_something_is_not() -> None:
    assert ("emotional", "sensitive", None) in _kinds("my dad has been sick for weeks and it's weighing on me")
    assert ("emotional", "sensitive", None) in _kinds("my grandma's really ill")
    assert ("emotional", "sensitive", None) in _kinds("mon père est malade", "fr")
    assert ("emotional", "sensitive", None) in _kinds("ma sœur est tombée malade", "fr")
    for text, language in (("I'm sick of this", "en"), ("my boss is sick of my excuses", "en"),
                           ("that gig last night was sick", "en"), ("j'étais malade hier", "fr"),
                           ("c'est malade ce truc", "fr")):  # fmt: skip
        assert not any(label == "sensitive" for _, label, _ in _kinds(text, language)), text


def test_pets_and_children_named_in_everyday_words_are_relationships() -> None:
    assert ("semantic", "relationship", "daughter") in _kinds("we just had a baby girl, her name is Zara")
    assert ("semantic", "relationship", "retriever") in _kinds("we adopted a golden retriever called Mango")
    assert ("semantic", "relationship", "chat") in _kinds("on a deux chats, Pixel et Nougat", "fr")
    assert not [k for k in _kinds("my friend's dog is called Rex") if k[1] == "relationship"]
    assert not [k for k in _kinds("le chat de ma copine s'appelle Filou", "fr") if k[1] == "relationship"]
