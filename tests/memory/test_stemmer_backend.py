"""Recall's keyword matching stems with Snowball in C (PyStemmer, through snowballstemmer); a version of it
that stemmed differently from the reference algorithms would silently change what is recalled."""

from snowballstemmer.english_stemmer import EnglishStemmer
from snowballstemmer.french_stemmer import FrenchStemmer

from memory.recall.lexical import stem

WORDS = (
    "researched researching adoption adopted kittens running generously happily painted paintings "
    "chevaux cheval mariage mariée heureusement anniversaire anniversaires déménagé habitais sœur "
    "Lyon Caroline's photographie photographed 2023 14th volunteering bénévolat"
).split()


def test_the_c_stemmer_is_the_one_in_use() -> None:
    import snowballstemmer
    import Stemmer  # type: ignore[import-not-found]

    assert snowballstemmer.stemmer is Stemmer.Stemmer


def test_stems_are_the_reference_algorithms_ones() -> None:
    english, french = EnglishStemmer(), FrenchStemmer()
    for word in WORDS:
        token = word.lower()
        expected = token if token.isdigit() else french.stemWord(english.stemWord(token))
        assert stem(token) == expected, word
    assert stem("chevaux") == stem("cheval")
    assert stem("researched") == stem("researching")
