"""Who a person names of their own, and as what: children, adopted pets, several pets at once, French and
English; someone else's pet or a song's title is no one of theirs."""

from __future__ import annotations

import pytest

from memory.writing.extraction.named import named_people


@pytest.mark.parametrize(
    ("said", "named"),
    [("we just had a baby girl, her name is Zara", [("Zara", "daughter")]),
     ("we just had a little boy, he's called Arlo", [("Arlo", "son")]),
     ("on vient d'avoir une petite fille, elle s'appelle Lou", [("Lou", "fille")]),
     ("on a eu un petit garçon en mars, il s'appelle Malo", [("Malo", "fils")])],
)  # fmt: skip
def test_a_child_just_born_with_their_name(said: str, named: list[tuple[str, str]]) -> None:
    assert named_people(said) == named


@pytest.mark.parametrize(
    ("said", "named"),
    [("we adopted a golden retriever called Mango", [("Mango", "retriever")]),
     ("I rescued a kitten named Miso", [("Miso", "kitten")]),
     ("we've just adopted a very fluffy axolotl named Bloop", [("Bloop", "axolotl")]),
     ("on a adopté une chienne qui s'appelle Praline", [("Praline", "chienne")]),
     ("j'ai recueilli un chaton qu'on a appelé Réglisse", [("Réglisse", "chaton")]),
     ("we got a kitten too, she's called Maple", [("Maple", "kitten")])],
)  # fmt: skip
def test_an_adopted_or_rescued_pet_with_its_name(said: str, named: list[tuple[str, str]]) -> None:
    assert named_people(said) == named


@pytest.mark.parametrize(
    ("said", "named"),
    [("we have two cats, Pixel and Nougat", [("Pixel", "cat"), ("Nougat", "cat")]),
     ("on a deux chats, Pixel et Nougat", [("Pixel", "chat"), ("Nougat", "chat")]),
     ("I have three kids: Leo, Ava and Finn", [("Leo", "kid"), ("Ava", "kid"), ("Finn", "kid")]),
     ("we also have two guinea pigs, Salt & Pepper", [("Salt", "guinea pig"), ("Pepper", "guinea pig")]),
     ("j'ai deux chevaux, Éclair et Tonnerre", [("Éclair", "cheval"), ("Tonnerre", "cheval")])],
)  # fmt: skip
def test_several_named_together(said: str, named: list[tuple[str, str]]) -> None:
    assert named_people(said) == named


@pytest.mark.parametrize(
    "said",
    ["my friend's dog is called Rex", "my friend adopted a dog called Rex", "le chat de ma copine s'appelle Filou",
     "la fille de mon frère s'appelle Zoé", "I have a song called Yesterday stuck in my head",
     "I got a text from Sam", "mon voisin a un chien qui s'appelle Rex", "I had a cat named Felix as a kid"],
)  # fmt: skip
def test_someone_elses_or_no_one_is_not_theirs(said: str) -> None:
    assert named_people(said) == []


def test_a_relative_named_after_de_is_still_theirs() -> None:
    assert named_people("le mariage de ma sœur Claire approche") == [("Claire", "sœur")]
    assert named_people("I have a little brother, Sam") == [("Sam", "brother")]
