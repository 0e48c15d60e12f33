"""The per-process caches of words and texts: bounded, and emptied by an erasure."""

from dataclasses import dataclass

from memory.recall.lexical import stems
from memory.words.sparse import tokenize
from memory.words.text_caches import WordCache, cached_texts, forget_cached_texts, per_record


def test_a_word_cache_computes_each_word_once_and_stays_within_its_size() -> None:
    computed: list[str] = []

    def upper(word: str) -> str:
        computed.append(word)
        return word.upper()

    cache = WordCache(upper, maxsize=3)
    assert [cache[w] for w in ("miso", "jazz", "miso")] == ["MISO", "JAZZ", "MISO"]
    assert computed == ["miso", "jazz"]
    for word in ("lyon", "paris", "nantes", "brest"):
        assert cache[word] == word.upper()
        assert len(cache) <= 3


def test_words_met_by_recall_are_forgotten_with_the_texts() -> None:
    assert tokenize("Zanzibarette adopted kittens") == ["zanzibarette", "adopted", "kitten"]
    assert stems("Zanzibarette") == stems("zanzibarettes")
    assert cached_texts() > 0
    forget_cached_texts()
    assert cached_texts() == 0
    # and they come back the same when met again
    assert tokenize("Zanzibarette adopted kittens") == ["zanzibarette", "adopted", "kitten"]


def test_what_is_read_from_a_record_is_worked_out_once_for_that_very_record() -> None:
    @dataclass(frozen=True)
    class Said:
        memory_id: str
        text: str

    computed: list[str] = []

    @per_record(maxsize=2)
    def shouted(record: Said) -> str:
        computed.append(record.text)
        return record.text.upper()

    miso = Said("m1", "my cat is Miso")
    assert shouted(miso) == shouted(miso) == "MY CAT IS MISO"
    assert computed == ["my cat is Miso"]
    # The same memory rewritten (a new object under the same id) is read again, never served the old words.
    rewritten = Said("m1", "my cat is Tofu")
    assert shouted(rewritten) == "MY CAT IS TOFU"
    assert shouted(Said("m2", "jazz")) == "JAZZ" and shouted(Said("m3", "lyon")) == "LYON"  # bounded: emptied
    assert cached_texts() > 0
    forget_cached_texts()
    assert cached_texts() == 0
    assert shouted(rewritten) == "MY CAT IS TOFU"
    assert computed == ["my cat is Miso", "my cat is Tofu", "jazz", "lyon", "my cat is Tofu"]
