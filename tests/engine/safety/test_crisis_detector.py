"""The offline crisis detector on labelled French and English messages, hard negatives included."""

from __future__ import annotations

import pytest

from bench.crisis_detector import SETS, labelled
from bench.crisis_detector import score_phrases as score
from bot.engine.safety.crisis import CrisisLevel, LearnedCrisis, phrase_crisis, read_crisis, shows_crisis


@pytest.mark.parametrize("name", SETS)
def test_the_labelled_messages_are_read_with_high_precision_and_recall(name: str) -> None:
    scores = score(labelled(name))
    assert scores.precision >= 0.95 and scores.recall >= 0.95, scores.misses


@pytest.mark.parametrize(
    "text",
    [
        "this traffic is killing me",
        "je suis mort de rire",
        "I'm not suicidal, just tired",
        "je ne suis pas suicidaire",
        "I would never kill myself",
        "my friend said she wants to kill herself",
        "I want to die of embarrassment",
        "I hurt myself playing football",
        "je veux en finir avec ce dossier",
    ],
)
def test_idioms_negations_and_other_peoples_words_are_not_a_crisis(text: str) -> None:
    assert not shows_crisis(text)


@pytest.mark.parametrize(
    "text",
    [
        "I want to kill myself",
        "JE VEUX MOURIR",
        "j’ai plus envie de vivre",
        "I don't want to live anymore",
        "I'm not ok. I want to die",
        "je ne sais pas, j'ai envie de me tuer",
    ],
)
def test_a_wish_to_die_is_seen_whatever_the_case_apostrophes_or_an_earlier_negation(text: str) -> None:
    assert shows_crisis(text)


def test_a_phrase_the_learned_reader_barely_believes_is_concern_not_imminent() -> None:
    # Two tiny probabilities, imminent the larger: the learned reader sees no crisis, so it sets no level.
    reading = read_crisis("I want to die", LearnedCrisis(none=0.9, concern=0.04, imminent=0.06))
    assert reading.level is CrisisLevel.CONCERN


def test_the_learned_reader_makes_a_crisis_it_believes_in_imminent() -> None:
    reading = read_crisis("I gave my cat away, I won't be here", LearnedCrisis(none=0.2, concern=0.3, imminent=0.5))
    assert reading.level is CrisisLevel.IMMINENT


def test_a_few_words_are_read_by_the_phrase_cues_alone() -> None:
    assert read_crisis("hello there", LearnedCrisis(none=0.1, concern=0.8, imminent=0.1)).level is CrisisLevel.NONE


@pytest.mark.parametrize(
    "text",
    [
        "I can't stop thinking about killing myself",
        "I can't stop thinking about suicide",
        "je n'arrête pas de penser au suicide",
        "je ne sais pas pourquoi je veux mourir",
    ],
)
def test_a_negation_that_governs_another_verb_is_no_denial_for_the_phrase_cues(text: str) -> None:
    """'can't stop', « n'arrête pas de », « ne sais pas pourquoi » deny nothing of the phrase after them."""
    assert phrase_crisis(text), text


@pytest.mark.parametrize(
    "text",
    ["I'm not thinking about suicide", "je ne pense pas au suicide",
     "I can't stop laughing", "je n'arrête pas de rire"],
)
def test_a_negation_of_the_phrase_itself_is_still_a_denial(text: str) -> None:
    assert not phrase_crisis(text), text


@pytest.mark.parametrize(
    "text",
    ["writing an essay on suicide prevention for my psych class, any sources?",
     "overdosed on coffee this morning, my hands are shaking",
     "on a parlé d'automutilation au lycée aujourd'hui",
     "saying goodbye to my flatmates, moving to Leeds tomorrow"],
)  # fmt: skip
def test_a_word_naming_the_subject_needs_the_learned_reader_to_see_some_crisis(text: str) -> None:
    """"suicide", "overdose", "automutilation", "goodbye" name a subject as often as they tell a crisis: they count
    when the learned reader half-sees one, and alone when no reader is wired (lean towards care)."""
    assert phrase_crisis(text), text
    assert read_crisis(text, LearnedCrisis(none=0.95, concern=0.03, imminent=0.02)).level is CrisisLevel.NONE
    assert read_crisis(text, LearnedCrisis(none=0.7, concern=0.2, imminent=0.1)).crisis
    assert read_crisis(text).crisis


@pytest.mark.parametrize(
    "text", ["I want to kill myself", "je veux mourir", "I'm going to end my life tonight", "j'ai plus envie de vivre"]
)
def test_the_writers_own_words_of_wanting_to_die_need_no_learned_support(text: str) -> None:
    assert read_crisis(text, LearnedCrisis(none=0.99, concern=0.005, imminent=0.005)).crisis, text


@pytest.mark.parametrize(
    "text",
    ["demain matin avant les cours je me jette sous le train", "je me jetterai du pont ce soir"],
)
def test_throwing_oneself_is_read_in_every_tense(text: str) -> None:
    assert read_crisis(text).level is CrisisLevel.IMMINENT, text


@pytest.mark.parametrize("text", ["I want to die... of embarrassment", "je veux mourir… de honte, sérieux"])
def test_an_idiom_after_a_pause_is_still_an_idiom(text: str) -> None:
    assert not phrase_crisis(text), text


@pytest.mark.parametrize(
    "text",
    ["I don't want to live in this city anymore, rent is insane", "jveux plus vivre à Paris, les loyers c'est fou",
     "j'ai plus envie de vivre en colocation"],
)  # fmt: skip
def test_not_wanting_to_live_somewhere_is_no_wish_to_die(text: str) -> None:
    assert not phrase_crisis(text), text


@pytest.mark.parametrize(
    "text",
    ["I don't want to live anymore", "je veux plus vivre", "I don't want to live here",
     "I don't want to live with this pain anymore", "je veux plus vivre avec cette douleur",
     "j'ai plus envie de vivre sur cette terre", "I don't want to live on like this"],
)  # fmt: skip
def test_not_wanting_to_live_at_all_is_still_read(text: str) -> None:
    assert phrase_crisis(text), text


@pytest.mark.parametrize(
    "text", ["so hungover i want to die, never drinking tequila again", "gueule de bois de l'enfer, jveux mourir"]
)
def test_a_hangover_is_an_idiom(text: str) -> None:
    assert not phrase_crisis(text), text


def test_laughter_after_a_phrase_asks_the_learned_reader() -> None:
    text = "si j'entends encore cette chanson je me jette par la fenêtre mdr"
    assert read_crisis(text, LearnedCrisis(none=0.95, concern=0.03, imminent=0.02)).level is CrisisLevel.NONE
    assert read_crisis(text, LearnedCrisis(none=0.5, concern=0.3, imminent=0.2)).crisis
    assert read_crisis("je veux mourir", LearnedCrisis(none=0.95, concern=0.03, imminent=0.02)).crisis


@pytest.mark.parametrize(
    "text",
    ["ma coloc parle d'en finir, j'ai peur pour elle, je fais quoi ?",
     "ma meilleure amie m'a dit qu'elle voulait mourir, comment l'aider ?",
     "my best friend says she wants to kill herself, what do i do"],
)  # fmt: skip
def test_a_roommate_or_a_best_friend_is_someone_else(text: str) -> None:
    assert not phrase_crisis(text), text
